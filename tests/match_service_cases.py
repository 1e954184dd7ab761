"""What the game service must do whatever holds its events: whole matches of every game,
reloaded into the same state; idempotency, staleness and illegal actions; the verifiable
deal published, revealed and checkable; creation's refusals.

`MatchServiceCases` needs a `service` fixture: a factory of services over one store and one
vault (each call a fresh process, no cache). It runs on Postgres in
tests/contract/test_match_service.py and on the tests' in-memory adapters in
tests/unit/test_match_service_logic.py.
"""

from __future__ import annotations

import random
import uuid

import msgspec
import pytest

from domain import fair
from domain import match as rules
from domain.cards import Seat
from domain.game import RuleViolation
from infra.store import CommandConflictError, ConcurrencyError
from services.matches.service import UnknownMatch
from tests.contract.match_support import play_out, seated_match

GAMES = [
    ("belote", {"variant": "classic", "deals": 2}),
    ("belote", {"variant": "coinche", "deals": 2}),
    ("belote", {"variant": "sans_atout", "rules": "official", "deals": 2}),
    ("cinch", {"deals": 2}),
    ("cinch", {"mode": "individual", "deals": 2}),
    ("five_hundred", {"deals": 2}),
]


class MatchServiceCases:
    @pytest.mark.parametrize("game,options", GAMES, ids=[f"{g}-{o}" for g, o in GAMES])
    async def test_whole_match_through_the_service_reloads_to_the_same_state(self, service, game, options) -> None:
        svc = service()
        match_id = await seated_match(svc, game, options)
        live = await play_out(svc, match_id, random.Random(11))
        assert live.status == "finished"

        reloaded = await service().load(match_id)  # a fresh process: no cache
        assert reloaded == live

        events = [e for _, e, _ in await svc.events(match_id)]
        finished = [e for e in events if isinstance(e, rules.DealFinished)]
        revealed = [e for e in events if isinstance(e, rules.SeedRevealed)]
        assert len(finished) == 2 and len(revealed) == 2
        assert isinstance(events[-1], rules.MatchFinished)
        created = events[0]
        assert isinstance(created, rules.MatchCreated)
        for k, (record, seed) in enumerate(zip(finished, revealed), start=1):
            # The seed walks the chain back to the commitment published at creation ...
            assert fair.verify_seed(bytes.fromhex(seed.seed), bytes.fromhex(created.commitment), steps=k)
            # ... and recomputes exactly the deck that was dealt.
            assert fair.shuffle_deck(len(live.game.deck), bytes.fromhex(seed.seed), seed.context,
                                     seed.entropy) == list(record.deck)
            assert seed.entropy == {"N": "north's entropy", "E": "E entropy", "S": "S entropy", "W": "W entropy"}
            assert record.fair is not None and record.fair["seed"] == seed.seed
        # No event carries a seed before its deal is over.
        first_reveal = next(i for i, e in enumerate(events) if isinstance(e, rules.SeedRevealed))
        assert revealed[0].seed not in msgspec.json.encode(events[:first_reveal]).decode()

    async def test_retry_stale_conflict_and_illegal(self, service) -> None:
        svc = service()
        match_id = await seated_match(svc, "belote", {"variant": "classic"})
        state = await svc.load(match_id)
        table = msgspec.to_builtins(rules.view(state, None).table)
        seat = next(s for s in Seat if msgspec.to_builtins(rules.view(state, s).table)["legal"])
        player = state.seats[seat.value].player_id
        command_id = uuid.uuid4()
        action = {"seat": seat.value, "action": "pass"}

        first = await svc.act(match_id, action, player_id=player, expected_version=state.version, command_id=command_id)
        again = await svc.act(match_id, action, player_id=player, expected_version=state.version, command_id=command_id)
        assert again.replayed and again.version == first.version and again.events == first.events
        assert (await svc.load(match_id)).version == first.version

        with pytest.raises(CommandConflictError):
            await svc.act(match_id, {"seat": seat.value, "action": "take"}, player_id=player,
                          expected_version=state.version, command_id=command_id)
        with pytest.raises(ConcurrencyError) as stale:
            await svc.act(match_id, action, player_id=player, expected_version=state.version, command_id=uuid.uuid4())
        assert stale.value.current_version == first.version

        version = (await svc.load(match_id)).version
        with pytest.raises(RuleViolation) as illegal:  # the same seat again: not its turn
            await svc.act(match_id, action, player_id=player, expected_version=version, command_id=uuid.uuid4())
        assert illegal.value.code == "not_your_turn"
        with pytest.raises(RuleViolation) as impostor:
            await svc.act(match_id, {"seat": seat.value, "action": "pass"}, player_id="someone-else",
                          expected_version=version, command_id=uuid.uuid4())
        assert impostor.value.code == "not_your_seat"
        assert (await service().load(match_id)).version == version
        assert not table.get("hand")

    async def test_a_cached_state_behind_another_process_is_never_acted_on(self, service) -> None:
        """Two processes: `here` holds the match at version v in its cache, `there` appends
        v+1. Whatever `here` is then asked, the answer is the fresh state's and each command
        is applied once: a stale expected version is refused, before the rules, with the
        true current version; a retry of the command `there` applied gets its first answer;
        an action at the new version is applied."""
        here, there = service(), service()
        match_id = await seated_match(here, "belote", {"variant": "classic"})
        state = await here.load(match_id)
        first_seat, action = self._to_act(state)
        command_id = uuid.uuid4()
        done = await there.act(match_id, action, player_id=state.seats[first_seat].player_id,
                               expected_version=state.version, command_id=command_id)
        assert (await here.peek(match_id)).version == state.version          # here's cache is behind

        retried = await here.act(match_id, action, player_id=state.seats[first_seat].player_id,
                                 expected_version=state.version, command_id=command_id)
        assert retried.replayed and retried.version == done.version and retried.events == done.events
        moved = await there.load(match_id)
        next_seat, next_action = self._to_act(moved)
        with pytest.raises(ConcurrencyError) as stale:   # illegal on the cached state, stale on the fresh one
            await here.act(match_id, next_action, player_id=moved.seats[next_seat].player_id,
                           expected_version=state.version, command_id=uuid.uuid4())
        assert stale.value.current_version == done.version
        assert (await service().load(match_id)).version == done.version

        applied = await here.act(match_id, next_action, player_id=moved.seats[next_seat].player_id,
                                 expected_version=moved.version, command_id=uuid.uuid4())
        assert not applied.replayed and applied.version > moved.version
        assert (await service().load(match_id)).version == applied.version

    async def test_an_action_at_the_cached_version_reads_nothing(self, service, monkeypatch) -> None:
        svc = service()
        match_id = await seated_match(svc, "belote", {"variant": "classic"})
        state = await svc.load(match_id)
        seat, action = self._to_act(state)
        reads = []
        read_stream = svc.store.read_stream
        monkeypatch.setattr(svc.store, "read_stream", lambda *a, **k: reads.append(a) or read_stream(*a, **k))
        outcome = await svc.act(match_id, action, player_id=state.seats[seat].player_id,
                                expected_version=state.version, command_id=uuid.uuid4())
        assert reads == [] and outcome.version > state.version and not outcome.replayed
        monkeypatch.undo()
        assert await service().load(match_id) == await svc.peek(match_id)

    @staticmethod
    def _to_act(state: rules.MatchState) -> tuple[str, dict]:
        """A seat that may act and its first legal action, as its client would send it."""
        from domain.playout import concrete

        for seat in Seat:
            legal = msgspec.to_builtins(rules.view(state, seat).table)["legal"]
            if legal:
                return seat.value, {"seat": seat.value, **concrete(legal[0], random.Random(1))}
        raise AssertionError("nobody may act")

    async def test_unknown_match_and_seat_rules(self, service) -> None:
        svc = service()
        with pytest.raises(UnknownMatch):
            await svc.load(str(uuid.uuid4()))
        created = await svc.create_match("belote", {}, {"N": "me", "E": "bot:basic", "S": "open", "W": "open"},
                                         player_id="p1")
        with pytest.raises(RuleViolation) as taken:
            await svc.take_seat(created.match_id, Seat.E, player_id="p2")
        assert taken.value.code == "seat_taken"
        with pytest.raises(RuleViolation) as early:
            await svc.start(created.match_id)
        assert early.value.code == "seats_free"
        with pytest.raises(RuleViolation) as bad:
            await svc.create_match("belote", {"variant": "rubber"}, {s: "open" for s in "NESW"})
        assert bad.value.code == "bad_option"

    async def test_predefined_deals_are_dealt_in_order_and_kept_secret(self, service) -> None:
        svc = service()
        from domain.cards import DECK_32

        decks = [list(DECK_32), list(reversed(DECK_32))]
        created = await svc.create_match("belote", {"deals": 2}, {"N": "me", "E": "open", "S": "open", "W": "open"},
                                         player_id="p1", predefined=[{"dealer": "N", "deck": decks[0]},
                                                                     {"dealer": "W", "deck": decks[1]}])
        for seat in "ESW":
            await svc.take_seat(created.match_id, Seat(seat), player_id=f"p-{seat}")
        await svc.start(created.match_id)
        state = await svc.load(created.match_id)
        assert state.dealer == Seat.N and list(state.deck) == decks[0]
        events = [e for _, e, _ in await svc.events(created.match_id)]
        assert isinstance(events[0], rules.MatchCreated) and events[0].predefined_deals == 2
        assert "deck" not in msgspec.to_builtins(events[0])
        with pytest.raises(RuleViolation) as wrong:
            await svc.create_match("belote", {}, {s: "open" for s in "NESW"},
                                   predefined=[{"dealer": "N", "deck": decks[0]}, {"dealer": "E", "deck": decks[1]}])
        assert wrong.value.code == "wrong_dealer"

    async def test_a_creation_names_the_bad_seat_and_gives_a_player_one_seat(self, service) -> None:
        svc = service()
        with pytest.raises(RuleViolation) as dragon:
            await svc.create_match("cinch", {}, {"N": "open", "E": "dragon", "S": "open", "W": "open"})
        assert dragon.value.code == "bad_seats" and dragon.value.details == {"seat": "E"}
        with pytest.raises(RuleViolation) as twice:
            await svc.create_match("cinch", {}, {"N": "me", "E": "me", "S": "open", "W": "open"}, player_id="p")
        assert twice.value.code == "bad_seats"
