"""The game service on a real Postgres: the cases every store must pass
(tests/match_service_cases.py), and what only a shared database shows — racing creations and
seat races between processes, the after-commit hook."""

from __future__ import annotations

import random
import uuid

import pytest

from domain import fair
from domain import match as rules
from domain.cards import Seat
from infra.match_registry import registry_for
from infra.store import PostgresEventStore, create_pool
from infra.vault import Vault
from services.matches.service import MatchService
from tests.contract.match_support import play_out, seated_match
from tests.match_service_cases import MatchServiceCases

pytestmark = [pytest.mark.db]


@pytest.fixture(scope="module")
async def pool(migrated_database_url: str):
    pool = await create_pool(migrated_database_url, max_size=4)
    yield pool
    await pool.close()


def service(pool) -> MatchService:
    return MatchService(PostgresEventStore(pool), Vault(pool), chain_length=50, rng=random.Random(7))


class TestOnPostgres(MatchServiceCases):
    @pytest.fixture
    def service(self, pool):
        return lambda: service(pool)


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


async def test_an_after_commit_hook_can_advance_the_cache_without_a_read(pool, monkeypatch) -> None:
    seen: list[rules.MatchState | None] = []
    svc: MatchService | None = None

    async def hook(result) -> None:
        seen.append(svc.advance_cache(result.stream_id.removeprefix("match-"), result))

    svc = MatchService(PostgresEventStore(pool, after_append=hook), Vault(pool), chain_length=50,
                       rng=random.Random(3))
    match_id = await seated_match(svc, "cinch", {"deals": 1})
    seen.clear()
    registry = registry_for("cinch")
    decoded = []
    decode = registry.decode_recorded
    monkeypatch.setattr(registry, "decode_recorded", lambda recorded: decoded.append(recorded) or decode(recorded))
    live = await play_out(svc, match_id, random.Random(4))
    advanced = [s for s in seen if s is not None]
    assert len(advanced) == len(seen) > 10          # every action's hook found the cache one append behind
    assert decoded == []                            # ... and was handed the state its append had folded
    monkeypatch.undo()
    assert advanced[-1] == live == await service(pool).load(match_id)

