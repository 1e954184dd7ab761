"""Five Hundred over random legal playouts (domain.playout), under every option combination:
43 cards accounted for at every step, ten tricks (fewer only when a misère stops), scores
that follow the table, replay (also through JSON) equal to the live state, views and
redacted events that never show another seat's unplayed card, the Joker's named suit
accepted exactly where offered. That legal_actions is exactly what decide accepts is the
conformance suite's (tests/property/test_conformance.py), for every game."""

from __future__ import annotations

import random
import re
from typing import Any, Union

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.cards import DECK_43, JOKER, SEATS, Seat
from domain.five_hundred import GAME
from domain.five_hundred.bids import BIDS
from domain.five_hundred.events import DealScored, EVENT_TYPES as EVENTS
from domain.game import RuleViolation, StartDeal
from domain.playout import choose_action, concrete

OPTIONS = [{}, {"misere": False}, {"target": 150}, {"deals": 2}, {"misere": False, "target": 300, "deals": 3},
           {"misere": True, "target": 250}]

# Avondale table as printed in B.3.3 (an oracle independent of bids.avondale).
TABLE = {6: (40, 60, 80, 100, 120), 7: (140, 160, 180, 200, 220), 8: (240, 260, 280, 300, 320),
         9: (340, 360, 380, 400, 420), 10: (440, 460, 480, 500, 520)}
DENOMS = ("S", "C", "D", "H", "NT")
SIDE = {Seat.N: "NS", Seat.S: "NS", Seat.E: "EW", Seat.W: "EW"}
EVENT_DECODER = msgspec.json.Decoder(list[Union[EVENTS]])  # type: ignore[valid-type]
CARD_SET = frozenset(DECK_43)
CARD_TOKEN = re.compile(rb'"([2-9TJQKA][SHDC]|JK)"')


def cards_in(obj: Any) -> set[str]:
    """Every card code anywhere in the JSON form of `obj` (values and keys alike)."""
    return {m.decode() for m in CARD_TOKEN.findall(msgspec.json.encode(obj))} & CARD_SET


def hidden_from(state: Any, seat: Seat | None) -> set[str]:
    """Cards `seat` must not see: other seats' unplayed cards (but an exposed open misère
    hand), the kitty, and the discards unless `seat` made them."""
    contract = state.deal.contract
    exposed = set(state.deal.hands["NESW".index(contract.seat)]) if state.deal.exposed and contract else set()
    out: set[str] = set(state.deal.kitty)
    for i, s in enumerate(SEATS):
        if s != seat:
            out |= set(state.deal.hands[i]) - exposed
    if contract is None or contract.seat != seat:
        out |= set(state.deal.discards)
    return out


def check_cards(state: Any) -> None:
    played = [c for t in state.deal.tricks for _, c in t.plays]
    if state.deal.trick is not None and state.deal.trick.winner is None:
        played += [c for _, c in state.deal.trick.plays]
    held = [c for h in state.deal.hands for c in h] + list(state.deal.kitty) + list(state.deal.discards)
    assert sorted(played + held) == sorted(DECK_43)


def check_views(state: Any, events: list[Any]) -> None:
    for seat in (*SEATS, None):
        hidden = hidden_from(state, seat)
        view = GAME.view(state, seat)
        assert not cards_in(view) & hidden, (seat, cards_in(view) & hidden)
        if seat is not None and state.phase in ("auction", "discard", "play"):
            assert view.hand == state.deal.hands["NESW".index(seat)]
            assert view.legal == GAME.legal_actions(state, seat)
        for event in events:
            seen = GAME.redact(event, seat)
            if seen is not None:
                assert not cards_in(seen) & hidden, (seat, event)


def check_joker_suit(state: Any) -> None:
    """The Joker's named suit, a field no other action has: accepted exactly where offered
    (the rest of legal_actions == accepted is the conformance suite's)."""
    for seat in SEATS:
        legal = GAME.legal_actions(state, seat)
        acting = [seat for seat in SEATS if GAME.legal_actions(state, seat)]
        assert len(acting) <= 1
        for suit in "SHDC":
            action = {"action": "play", "card": JOKER, "suit": suit}
            try:
                GAME.decide(state, GAME.parse_action({"seat": str(seat), **action}))
            except RuleViolation:
                assert action not in legal, action
            else:
                assert action in legal, action


def check_deal_end(state: Any, scored: DealScored) -> None:
    record = state.history[-1]
    if scored.result == "thrown_in":
        assert record.contract is None and state.deal.tricks == () and scored.score == {"NS": 0, "EW": 0}
        return
    contract = record.contract
    bid = BIDS[contract.bid]
    side = SIDE[contract.seat]
    other = "EW" if side == "NS" else "NS"
    won = {"NS": 0, "EW": 0}
    for trick in state.deal.tricks:
        won[SIDE[trick.winner]] += 1
    assert scored.points == won
    taken = won[side]
    if bid.misere:
        assert all(len(t.plays) == 3 for t in state.deal.tricks)
        stopped = len(state.deal.tricks) < 10
        assert not stopped or state.deal.tricks[-1].winner == contract.seat
        assert all(t.winner != contract.seat for t in state.deal.tricks[:-1])
        value = 250 if bid.kind == "misere" else 500
        expected = {side: value if taken == 0 else -value, other: 0}
        assert scored.result == ("made" if taken == 0 else "failed")
    else:
        assert len(state.deal.tricks) == 10 and all(len(t.plays) == 4 for t in state.deal.tricks)
        value = TABLE[bid.tricks][DENOMS.index(bid.suit)]
        if taken >= bid.tricks:
            expected = {side: max(value, 250) if taken == 10 else value, other: 10 * won[other]}
        else:
            expected = {side: -value, other: 10 * won[other]}
        assert scored.result == ("made" if taken >= bid.tricks else "failed")
    assert scored.score == expected


def choose(state: Any, rng: random.Random, pass_bias: float) -> dict[str, Any]:
    """domain.playout's uniform choice, but in the auction: pass with probability
    `pass_bias`, else mostly one of the next few bids, a misère when one is open, now and
    then an open misère or any bid — so every kind of contract turns up (uniformly chosen
    bids race to 10NT)."""
    action = choose_action(GAME, state, rng)
    if state.phase != "auction":
        return action
    seat = str(state.deal.turn)
    if rng.random() < pass_bias:
        return {"seat": seat, "action": "pass"}
    bids = [a for a in GAME.legal_actions(state, state.deal.turn) if a["action"] == "bid"]
    misere = [a for a in bids if a.get("contract") == "misere"]
    open_misere = [a for a in bids if a.get("contract") == "open_misere"]
    tricks = [a for a in bids if "tricks" in a]
    roll = rng.random()
    if misere and roll < 0.5:
        return {"seat": seat, **misere[0]}
    if open_misere and roll > 0.95:
        return {"seat": seat, **open_misere[0]}
    if roll < 0.06 or not tricks:
        return action
    return {"seat": seat, **rng.choice(tricks[:3])}


def run_match(options: dict[str, Any], seed: int, pass_bias: float, max_deals: int, full_checks: bool) -> None:
    rng = random.Random(seed)
    opts = GAME.parse_options(options)
    state = GAME.initial(opts)
    stream: list[Any] = []
    for _ in range(max_deals):
        status = GAME.status(state)
        if status.phase == "match_over":
            break
        deck = list(DECK_43)
        rng.shuffle(deck)
        command: Any = StartDeal(dealer=status.next_dealer or rng.choice(SEATS), deck=tuple(deck))
        while True:
            events = GAME.decide(state, command)
            for event in events:
                state = GAME.evolve(state, event)
            stream += events
            check_cards(state)
            if full_checks:
                check_views(state, events)
            if isinstance(events[-1], DealScored):
                check_deal_end(state, events[-1])
            if GAME.status(state).phase != "in_deal":
                break
            if full_checks:
                check_joker_suit(state)
            command = GAME.parse_action(choose(state, rng, pass_bias))
    assert GAME.fold(opts, stream) == state
    assert GAME.fold(opts, EVENT_DECODER.decode(msgspec.json.encode(stream))) == state
    total = {"NS": 0, "EW": 0}
    for record in state.history:
        total["NS"] += record.score[0]
        total["EW"] += record.score[1]
    assert GAME.status(state).match_score == total


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=st.sampled_from(OPTIONS), seed=st.integers(0, 2**32 - 1), pass_bias=st.sampled_from([0.0, 0.3, 0.6]))
def test_playouts_keep_every_invariant(options, seed, pass_bias):
    run_match(options, seed, pass_bias, max_deals=2, full_checks=True)


@settings(max_examples=30, deadline=None)
@given(options=st.sampled_from(OPTIONS), seed=st.integers(0, 2**32 - 1))
def test_whole_matches_replay_and_score(options, seed):
    run_match(options, seed, 0.8, max_deals=40, full_checks=False)


def test_random_playouts_reach_every_kind_of_deal():
    """The biased playouts above do meet misère, open misère, stopped misères, thrown-in
    deals and trick contracts."""
    kinds: set[str] = set()
    rng = random.Random(7)
    for _ in range(200):
        state = GAME.initial(GAME.parse_options({}))
        deck = list(DECK_43)
        rng.shuffle(deck)
        state, _ = GAME.apply(state, StartDeal(dealer=Seat.N, deck=tuple(deck)))
        bias = rng.choice([0.3, 0.6])
        while GAME.status(state).phase == "in_deal":
            state, _ = GAME.apply(state, GAME.parse_action(concrete(choose(state, rng, bias), rng)))
        record = state.history[-1]
        kinds.add(record.result if record.contract is None else BIDS[record.contract.bid].kind)
        if record.contract is not None and len(record.tricks) < 10:
            kinds.add("stopped")
    assert {"thrown_in", "tricks", "misere", "open_misere", "stopped"} <= kinds
