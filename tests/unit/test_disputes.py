"""Disputes in the pure domain: the aggregate, the admin replay (table and seat views,
marks, re-check against the current rules), deal verification, and rulings as match
events (void, adjust, replay, reopen). A small driver plays matches exactly as the game
service does (verifiable shuffle, seeds revealed at deal end), without a database."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from typing import Any

import msgspec
import pytest

from domain import disputes as cases
from domain import fair
from domain import match as rules
from domain.cards import SEATS, Seat
from domain.game import RuleViolation, StartDeal
from domain.playout import choose_action
from domain.record import play_record
from services.disputes.service import filing_role, match_record, may_review
from infra.players import Principal

T0 = datetime(2025, 5, 1, 18, 0, tzinfo=timezone.utc)


class Table:
    """A match driven like services/matches/service.py does, keeping (version, event, time)."""

    def __init__(self, game: str, options: dict[str, Any], seed: int = 3, match_id: str = "m-1") -> None:
        self.rng = random.Random(seed)
        self.secret, self.n = bytes(self.rng.randrange(256) for _ in range(32)), 40
        self.state, self.log = rules.initial(), []
        seats = {s: rules.SeatHolder(kind="player", player_id=f"p-{s}") for s in "NESW"}
        self.add(rules.create(match_id, game, options, seats, fair.make_chain_tip(self.secret, self.n).hex(), self.n))
        self.add(rules.decide(self.state, rules.StartMatch(first_dealer=Seat.N, first_deal=self.deal(Seat.N))))

    def add(self, events: list[Any]) -> None:
        for event in events:
            self.state = rules.evolve(self.state, event)
            self.log.append((self.state.version, event, T0 + timedelta(seconds=self.state.version)))

    def deal(self, dealer: Seat | None) -> StartDeal:
        k = self.state.deal_index + 2
        seed = fair.chain_element(self.secret, self.n, k)
        context, entropy = fair.match_context(self.state.match_id or "m-1", k), {"N": "north"}
        deck = fair.shuffle_deck(len(self.state.game.deck), seed, context, entropy)
        return StartDeal(dealer=dealer or Seat.N, deck=tuple(deck),
                         fair={"context": context, "entropy": entropy, "commitment": fair.sha256(seed).hex()})

    def follow_up(self) -> None:
        status = self.state.game.status(self.state.game_state)
        if status.phase == "in_deal":
            return
        seed = fair.chain_element(self.secret, self.n, self.state.deal_index + 1).hex()
        self.add(rules.finish_deal(self.state, seed))
        self.next_deal()

    def next_deal(self) -> None:
        status = self.state.game.status(self.state.game_state)
        if self.state.status == "playing" and status.phase == "awaiting_deal":
            self.add(rules.decide(self.state, self.deal(status.next_dealer)))

    def play(self, deals: int | None = None, by: str = "player") -> None:
        """Random legal play until the match ends (or `deals` more deals have finished)."""
        goal = None if deals is None else self.state.deal_index + deals
        while self.state.status == "playing" and (goal is None or self.state.deal_index < goal):
            action = choose_action(self.state.game, self.state.game_state, self.rng, public_turns=True)
            self.add(rules.decide(self.state, rules.Act(action=action, by=by)))
            self.follow_up()

    def rule(self, ruling: str, deal: int, score: dict[str, int] | None = None) -> list[Any]:
        board = None
        if ruling == "replay":
            done = next(e for _, e, _ in self.log if isinstance(e, rules.DealFinished) and e.deal == deal)
            board = {"deal": deal, "deck": list(done.deck), "fair": done.fair}
        events = rules.decide(self.state, rules.Rule(ruling=ruling, deal=deal, admin="admin-1", reason="because",
                                                     score=score, board=board))
        self.add(events)
        self.next_deal()
        return events


def test_the_dispute_aggregate_files_reviews_and_rules_once() -> None:
    events = cases.file("d1", "m1", 1, "p-S", "player", "  a revoke  ", cases.Position(deal=1, trick=2, card="10h"), 2)
    dispute = cases.fold(events)
    assert (dispute.status, dispute.reason, dispute.position.card) == ("open", "a revoke", "TH")
    dispute = cases.fold([*events, *cases.review(dispute, "admin-1")])
    assert dispute.status == "in_review" and cases.review(dispute, "admin-1") == []
    ruled = cases.evolve(dispute, *cases.rule(dispute, "void", "admin-1", "revoke", match_version=90))
    assert (ruled.status, ruled.ruling.match_version) == ("resolved", 90)
    for call, code in [(lambda: cases.rule(ruled, "void", "a", "again"), "dispute_closed"),
                       (lambda: cases.rule(dispute, "adjust", "a", "no score"), "bad_ruling"),
                       (lambda: cases.rule(dispute, "void", "a", "  "), "bad_reason"),
                       (lambda: cases.file("d", "m", 2, "p", "player", "x", None, 2), "unknown_deal"),
                       (lambda: cases.file("d", "m", 0, "p", "player", "x", cases.Position(deal=1), 2), "bad_position"),
                       (lambda: cases.file("d", "m", 0, "p", "player", "x", cases.Position(deal=0, card="ZZ"), 2),
                        "bad_position")]:
        with pytest.raises(RuleViolation) as refused:
            call()
        assert refused.value.code == code
    assert cases.evolve(dispute, *cases.rule(dispute, "reject", "a", "no case")).status == "rejected"


def test_the_replay_as_the_table_and_as_one_seat() -> None:
    table = Table("belote", {"variant": "classic", "deals": 2})
    table.play()
    replay = cases.deal_replay(table.log, 0)
    steps = replay["steps"]
    assert steps[0]["type"] == "deal_dealt" and steps[-1]["type"] == "deal_finished"
    assert [s["version"] for s in steps] == sorted(s["version"] for s in steps)
    assert all(s["at"].startswith("2025-05-01T18:") for s in steps)
    assert replay["verification"]["status"] == "verified" and replay["illegal"] == []
    assert replay["rescored_result"] is None and replay["deck"] == list(table.log[2][1].deck)
    dealt_hands = steps[1]["hands"]
    assert sorted(c for h in dealt_hands.values() for c in h) != [] and all(dealt_hands.values())
    for step in steps:  # the table's view shows nobody's hand
        assert step["view"].get("hand") is None
    for seat in SEATS:
        mine = cases.deal_replay(table.log, 0, seat)
        assert "deck" not in mine and "illegal" not in mine
        assert [s["version"] for s in mine["steps"]] == [s["version"] for s in steps]
        for step, full in zip(mine["steps"], steps):
            assert list(step["view"]["hand"]) == full["hands"][str(seat)]
            assert "hands" not in step and "event" not in step
            others = {c for s, h in full["hands"].items() if s != str(seat) for c in h}
            assert not others & set(step["view"]["hand"])
            if step["type"] == "deal_dealt":
                assert step["seen"] is None  # the deck stays hidden from every seat while played


def test_marks_and_actions_the_current_rules_refuse_are_flagged() -> None:
    table = Table("belote", {"variant": "classic", "deals": 1}, seed=5)
    table.play()
    log = list(table.log)
    plays = [i for i, (_, e, _) in enumerate(log) if isinstance(e, rules.ActionTaken) and e.action["action"] == "play"]
    i = plays[5]
    version, event, at = log[i]
    held = cases.deal_replay(log, 0)["steps"]
    before = next(s for s in held if s["version"] == version - 1)
    stranger = next(c for s, h in before["hands"].items() if s != str(event.seat) for c in h)
    log[i] = (version, msgspec.structs.replace(event, action={**event.action, "card": stranger}, by="clock"), at)
    replay = cases.deal_replay(log, 0)
    assert [(f["version"], f["code"]) for f in replay["illegal"]] == [(version, "card_not_in_hand")]
    step = next(s for s in replay["steps"] if s["version"] == version)
    assert step["mark"] == "clock_expiry" and step["flag"]["code"] == "card_not_in_hand"
    assert cases.mark_of(rules.ActionTaken(seat=Seat.N, action={}, by="bot")) == "bot"
    assert cases.mark_of(rules.ActionTaken(seat=Seat.N, action={}, by="auto")) == "automatic"


def test_verification_catches_a_deck_that_is_not_the_seeds() -> None:
    table = Table("cinch", {"deals": 1}, seed=2)
    table.play()
    assert cases.deal_replay(table.log, 0, views=False)["verification"]["status"] == "verified"
    log = list(table.log)
    i = next(i for i, (_, e, _) in enumerate(log) if isinstance(e, rules.DealDealt))
    v, dealt, at = log[i]
    deck = list(dealt.deck)
    deck[0], deck[1] = deck[1], deck[0]
    log[i] = (v, msgspec.structs.replace(dealt, deck=tuple(deck)), at)
    checked = cases.deal_replay(log, 0, views=False)["verification"]
    assert checked["status"] == "failed" and checked["problems"] == ["deck"]
    j = next(i for i, (_, e, _) in enumerate(log) if isinstance(e, rules.DealFinished))
    v, done, at = log[j]
    log[j] = (v, msgspec.structs.replace(done, fair={**done.fair, "seed": "00" * 32}), at)
    assert {"seed_matches_commitment", "seed_in_published_chain"} <= set(
        cases.deal_replay(log, 0, views=False)["verification"]["problems"])


def test_a_deal_in_play_is_pending_and_shows_no_entropy() -> None:
    table = Table("five_hundred", {"deals": 2})
    checked = cases.deal_replay(table.log, 0, views=False)["verification"]
    assert checked["status"] == "pending" and "entropy" not in checked and "seed" not in checked
    with pytest.raises(RuleViolation):
        cases.deal_replay(table.log, 1)


def test_void_and_adjust_move_a_finished_match_and_the_export_replays() -> None:
    table = Table("belote", {"variant": "classic", "deals": 2}, seed=8)
    table.play()
    first, second = [e for _, e, _ in table.log if isinstance(e, rules.DealFinished)]
    events = table.rule("void", 0)
    assert [type(e).__name__ for e in events] == ["RulingApplied", "DealVoided", "MatchFinished"]
    assert events[-1].match_score == second.summary["score"]
    table.rule("adjust", 1, {"NS": 7, "EW": -7})
    status = table.state.game.status(table.state.game_state)
    assert status.match_score == {"NS": second.summary["score"]["NS"] + 7, "EW": second.summary["score"]["EW"] - 7}
    assert table.state.status == "finished"
    record = match_record(table.state, table.log)
    assert record["rulings"][0]["ruling"] == "void" and record["rulings"][1]["score"] == {"NS": 7, "EW": -7}
    played = play_record(record)
    assert played["ok"], played
    assert (played["match_score"], played["winner"]) == (status.match_score, status.winner)
    one = match_record(table.state, table.log, 1)
    assert play_record(one)["deals"] == [one["result"]["deal"]]


def test_a_void_reopens_a_match_won_at_the_target_and_the_next_deal_is_dealt() -> None:
    table = Table("belote", {"variant": "classic", "target": 1}, seed=4)
    table.play()
    winning = [e for _, e, _ in table.log if isinstance(e, rules.DealFinished)][-1]
    events = table.rule("void", winning.deal)
    assert type(events[-1]).__name__ == "MatchReopened" and table.state.status == "playing"
    assert any(isinstance(e, rules.DealDealt) and e.deal == winning.deal + 1 for _, e, _ in table.log)
    table.play()
    assert table.state.status == "finished" and table.state.deal_index > winning.deal


def test_replay_deals_the_board_again_with_its_own_seed() -> None:
    table = Table("belote", {"variant": "classic", "deals": 3}, seed=6)
    table.play(deals=1)  # deal 0 finished, deal 1 under way
    table.rule("replay", 0)
    assert table.state.boards and table.state.deal_index == 1
    table.play()
    dealt = [e for _, e, _ in table.log if isinstance(e, rules.DealDealt)]
    assert dealt[2].replay_of == 0 and dealt[2].deck == dealt[0].deck
    assert [e.deal for _, e, _ in table.log if isinstance(e, rules.SeedRevealed)] == [0, 1]
    checked = cases.deal_replay(table.log, 2, views=False)["verification"]
    assert (checked["status"], checked["chain_index"]) == ("verified", 1)
    assert play_record(match_record(table.state, table.log))["ok"]
    with pytest.raises(RuleViolation) as refused:  # the match is over: no deal follows to replay it in
        rules.decide(table.state, rules.Rule(ruling="replay", deal=1, admin="a", reason="r",
                                             board={"deal": 1, "deck": list(dealt[1].deck), "fair": None}))
    assert refused.value.code == "match_over"


def test_who_may_file_and_review_with_a_stub_ownership_lookup() -> None:
    """Tournaments do not exist yet: the guard is given the organisers a lookup would find."""
    table = Table("belote", {"variant": "classic", "deals": 1})
    player = Principal(player_id="p-S", role="player", token_id="t")
    organiser = Principal(player_id="o-1", role="organiser", token_id="t")
    other = Principal(player_id="o-2", role="organiser", token_id="t")
    admin = Principal(player_id="a-1", role="admin", token_id="t")
    owners = {"o-1"}  # what the stub lookup says for this match
    assert filing_role(player, table.state, owners) == "player"
    assert filing_role(organiser, table.state, owners) == "organiser"
    assert filing_role(other, table.state, owners) is None
    assert filing_role(Principal(player_id="x", role="player", token_id="t"), table.state, owners) is None
    assert [may_review(p, owners) for p in (player, organiser, other, admin)] == [False, True, False, True]
