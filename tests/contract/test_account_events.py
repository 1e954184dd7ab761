"""The `account_events` projection on a real Postgres (a database of its own, so no other
projector shares it): a player's numbers are a function of the log — applied batch by batch
or rebuilt from scratch, every notice keeps its number and body — and no notice holds a card.
"""

from __future__ import annotations

import asyncio
import random
import re
import secrets
import uuid
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import msgspec
import pytest

from domain import match as rules
from domain.cards import Seat
from domain.playout import concrete
from infra.projections import ProjectionRunner, rebuild
from infra.projections.account_events import AccountEvents, head, since
from infra.projections.account_producers import DisputeNotices, MatchNotices
from infra.projections.tournament_notices import TournamentNotices
from infra.store import PostgresEventStore, connect, create_pool, migrate
from infra.vault import Vault
from services.matches.service import MatchService

pytestmark = [pytest.mark.db]

CARD = re.compile(rb"\b(?:[2-9]|10|[JQKA])[SHDC]\b")


@pytest.fixture
async def pool(_pg_server_url: str):
    name = f"atout_account_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(_pg_server_url)
    await admin.execute(f'CREATE DATABASE "{name}"')
    url = urlunsplit(urlsplit(_pg_server_url)._replace(path="/" + name))
    conn = await connect(url)
    await migrate(conn)
    await conn.close()
    pool = await create_pool(url, max_size=4)
    try:
        yield pool
    finally:
        await pool.close()
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


def projection() -> AccountEvents:
    return AccountEvents([MatchNotices(), TournamentNotices(), DisputeNotices()])   # no Redis: stored only


async def play(svc: MatchService, players: dict[str, str], rng: random.Random) -> None:
    created = await svc.create_match("belote", {"deals": 1}, {"N": "me", "E": "open", "S": "open", "W": "open"},
                                     player_id=players["N"])
    for seat in "ESW":
        await svc.take_seat(created.match_id, Seat(seat), player_id=players[seat])
    await svc.start(created.match_id)
    while (state := await svc.load(created.match_id)).status == "playing":
        choices = [(seat, a) for seat in Seat for a in msgspec.to_builtins(rules.view(state, seat).table)["legal"]]
        seat, action = rng.choice(choices)
        await svc.act(created.match_id, {**concrete(action, rng), "seat": str(seat)},
                      player_id=players[str(seat)], expected_version=state.version, command_id=uuid.uuid4())


async def settle(runner: ProjectionRunner, projection: AccountEvents) -> None:
    """Catch up with the whole log: the runner reads only below the oldest transaction still
    open on the server (another test's, say), so a first catch-up may stop short of the end."""
    pool = runner.store.pool
    last = await pool.fetchrow("SELECT tx_id::text::bigint AS tx, position FROM events "
                               "ORDER BY tx_id DESC, position DESC LIMIT 1")
    deadline = asyncio.get_running_loop().time() + 30
    while True:
        await runner.catch_up(projection)
        at = await pool.fetchrow("SELECT tx_id::text::bigint AS tx, position FROM projection_checkpoints "
                                 "WHERE name = $1", projection.name)
        if (at["tx"], at["position"]) >= (last["tx"], last["position"]):
            return
        assert asyncio.get_running_loop().time() < deadline, "the projection did not catch up"
        await asyncio.sleep(0.1)


async def notices(pool) -> list[tuple[str, int, str, bytes]]:
    return [tuple(r) for r in await pool.fetch("SELECT player_id, seq, type, body FROM account_events "
                                               "ORDER BY player_id, seq")]


async def test_numbers_are_a_function_of_the_log_batched_or_rebuilt(pool) -> None:
    store = PostgresEventStore(pool)
    svc, rng = MatchService(store, Vault(pool)), random.Random(3)
    players = {seat: f"contract-{seat}-{uuid.uuid4().hex[:6]}" for seat in "NESW"}
    small = ProjectionRunner(store, batch_size=7)        # batches that cut commits in two
    account = projection()
    await small.ensure(account)
    await play(svc, players, rng)
    await settle(small, account)
    await play(svc, players, rng)
    await settle(small, account)
    before = await notices(pool)
    assert before and not any(CARD.search(body) for *_, body in before)
    for player in players.values():
        mine = [seq for p, seq, *_ in before if p == player]
        assert mine == list(range(1, len(mine) + 1))
        async with pool.acquire() as conn:
            assert await head(conn, player) == len(mine)
            assert len(await since(conn, player, 0, len(mine))) == len(mine)
    kinds = {kind for _, _, kind, _ in before}
    assert {"seat_taken", "match_started", "your_turn", "match_finished"} <= kinds

    await rebuild(ProjectionRunner(store, batch_size=1000), projection())
    assert await notices(pool) == before


async def test_rating_changed_follows_the_ratings_read_model_through_a_ruling_and_a_rebuild(pool) -> None:
    """`rating_changed` says each rated player's display rating before and after, exactly as
    the `ratings` read model has it; a ruling that re-rates tells whoever moved, once."""
    from types import SimpleNamespace

    from infra.projections.rating_notices import RatingNotices
    from infra.projections.ratings import Ratings
    from tests.contract.test_ratings import Table, four

    store = PostgresEventStore(pool)
    runner, names = ProjectionRunner(store, batch_size=3), SimpleNamespace(prefixes=("match-", "presence-"))
    account, ratings = AccountEvents([RatingNotices()]), Ratings()
    for proj in (account, ratings):
        await runner.ensure(proj)
    a, b = four(), four()
    b["N"] = a["N"]                               # in both matches: the second starts from the first
    ruled = await Table(store, names, a).start()
    await ruled.finish("NS")
    await (await Table(store, names, b).start()).finish("EW")
    await (await Table(store, names, four(), rated=False).start()).finish("NS")   # casual: says nothing

    async def board() -> dict[str, float]:
        await settle(runner, ratings)
        return {r["player_id"]: r["rating"] for r in await pool.fetch(
            "SELECT player_id, rating FROM ratings WHERE pool = 'belote_classic'")}

    async def changed() -> dict[str, list[dict]]:
        await settle(runner, account)
        out: dict[str, list[dict]] = {}
        for player, _, kind, body in await notices(pool):
            assert kind == "rating_changed"
            out.setdefault(player, []).append(msgspec.json.decode(body))
        return out

    now, told = await board(), await changed()
    assert set(told) == {*a.values(), *b.values()} == set(now)
    twice = told[a["N"]]
    assert [(n["match_id"], n["games"], n["rerated"]) for n in twice] == [(ruled.id, 1, False), (told[b["E"]][0]
                                                                          ["match_id"], 2, False)]
    assert twice[0]["old_rating"] == 0.0 and twice[1]["old_rating"] == twice[0]["new_rating"]
    for player, mine in told.items():
        assert mine[-1]["new_rating"] == now[player] and mine[-1]["pool"] == "belote_classic"
        assert mine[-1]["provisional"] is True
    assert told[a["N"]][0]["new_rating"] > told[a["E"]][0]["new_rating"]      # the winners above the losers

    await ruled.emit(("ruling_applied", {"ruling": "adjust", "deal": 0, "admin": "a", "reason": "r"}),
                     ("match_finished", {"winner": "EW", "match_score": {"NS": 700, "EW": 1000}}))
    after, again = await board(), await changed()
    moved = {p for p in after if after[p] != now[p]}
    assert {a["E"], a["N"]} <= moved
    rerated = {p: mine[-1] for p, mine in again.items() if len(mine) > len(told.get(p, []))}
    assert set(rerated) == moved
    for player, notice in rerated.items():
        assert notice["rerated"] is True and notice["match_id"] == ruled.id
        assert (notice["old_rating"], notice["new_rating"]) == (now[player], after[player])

    before = await notices(pool)
    await rebuild(ProjectionRunner(store, batch_size=1000), AccountEvents([RatingNotices()]))
    assert await notices(pool) == before
