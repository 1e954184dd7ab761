"""The game service on a real Postgres: whole matches of every game through `MatchService`,
reloaded from the store into the same state; idempotency, staleness and illegal actions;
the verifiable deal published, revealed and checkable."""

from __future__ import annotations

import random
import uuid

import msgspec
import pytest

from domain import fair
from domain import match as rules
from domain.cards import Seat
from domain.game import RuleViolation
from infra.store import CommandConflictError, ConcurrencyError, PostgresEventStore, create_pool
from infra.vault import Vault
from services.matches import MatchService, UnknownMatch
from tests.contract.match_support import play_out, seated_match

pytestmark = [pytest.mark.db]

GAMES = [
    ("belote", {"variant": "classic", "deals": 2}),
    ("belote", {"variant": "coinche", "deals": 2}),
    ("belote", {"variant": "sans_atout", "rules": "official", "deals": 2}),
    ("cinch", {"deals": 2}),
    ("cinch", {"mode": "individual", "deals": 2}),
    ("five_hundred", {"deals": 2}),
]


@pytest.fixture(scope="module")
async def pool(migrated_database_url: str):
    pool = await create_pool(migrated_database_url, max_size=4)
    yield pool
    await pool.close()


def service(pool) -> MatchService:
    return MatchService(PostgresEventStore(pool), Vault(pool), chain_length=50, rng=random.Random(7))


@pytest.mark.parametrize("game,options", GAMES, ids=[f"{g}-{o}" for g, o in GAMES])
async def test_whole_match_through_the_service_reloads_to_the_same_state(pool, game, options) -> None:
    svc = service(pool)
    match_id = await seated_match(svc, game, options)
    live = await play_out(svc, match_id, random.Random(11))
    assert live.status == "finished"

    reloaded = await service(pool).load(match_id)  # a fresh process: no cache
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


async def test_retry_stale_conflict_and_illegal(pool) -> None:
    svc = service(pool)
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
    assert (await service(pool).load(match_id)).version == version
    assert not table.get("hand")


async def test_unknown_match_and_seat_rules(pool) -> None:
    svc = service(pool)
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


async def test_predefined_deals_are_dealt_in_order_and_kept_secret(pool) -> None:
    svc = service(pool)
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


async def test_racing_creations_of_one_command_commit_to_the_kept_secret(pool) -> None:
    import asyncio

    command_id = uuid.uuid4()
    svcs = [service(pool) for _ in range(4)]
    outcomes = await asyncio.gather(*(s.create_match("cinch", {}, {x: "open" for x in "NESW"}, command_id=command_id)
                                      for s in svcs))
    assert len({o.match_id for o in outcomes}) == 1
    assert sum(not o.replayed for o in outcomes) == 1
    match_id = outcomes[0].match_id
    created = (await svcs[0].load(match_id)).commitment
    kept = await Vault(pool).secret(match_id)
    assert fair.make_chain_tip(kept.secret, kept.chain_length).hex() == created


async def test_a_lost_seat_race_leaves_the_winners_entropy(pool) -> None:
    import asyncio

    svc_a, svc_b = service(pool), service(pool)
    created = await svc_a.create_match("cinch", {}, {x: "open" for x in "NESW"})
    results = await asyncio.gather(
        svc_a.take_seat(created.match_id, Seat.E, player_id="a", entropy="entropy of a"),
        svc_b.take_seat(created.match_id, Seat.E, player_id="b", entropy="entropy of b"),
        return_exceptions=True)
    winners = [r for r in results if not isinstance(r, BaseException)]
    assert len(winners) == 1
    state = await service(pool).load(created.match_id)
    winner = state.seats["E"].player_id
    assert (await Vault(pool).entropy(created.match_id)) == {"E": f"entropy of {winner}"}
    await service(pool).leave_seat(created.match_id, Seat.E, player_id=winner)
    assert (await Vault(pool).entropy(created.match_id)) == {}


async def test_an_after_commit_hook_can_advance_the_cache_without_a_read(pool) -> None:
    seen: list[rules.MatchState | None] = []
    svc: MatchService | None = None

    async def hook(result) -> None:
        seen.append(svc.advance_cache(result.stream_id.removeprefix("match-"), result))

    svc = MatchService(PostgresEventStore(pool, after_append=hook), Vault(pool), chain_length=50,
                       rng=random.Random(3))
    match_id = await seated_match(svc, "cinch", {"deals": 1})
    seen.clear()
    live = await play_out(svc, match_id, random.Random(4))
    advanced = [s for s in seen if s is not None]
    assert len(advanced) == len(seen) > 10          # every action's hook found the cache one append behind
    assert advanced[-1] == live == await service(pool).load(match_id)


async def test_a_creation_names_the_bad_seat_and_gives_a_player_one_seat(pool) -> None:
    svc = service(pool)
    with pytest.raises(RuleViolation) as dragon:
        await svc.create_match("cinch", {}, {"N": "open", "E": "dragon", "S": "open", "W": "open"})
    assert dragon.value.code == "bad_seats" and dragon.value.details == {"seat": "E"}
    with pytest.raises(RuleViolation) as twice:
        await svc.create_match("cinch", {}, {"N": "me", "E": "me", "S": "open", "W": "open"}, player_id="p")
    assert twice.value.code == "bad_seats"
