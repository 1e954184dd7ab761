"""Robot duplicate through the service on real Postgres, with the service's clock moved on:
entrants' tables opened as they enter, the window's close recording what each table
finished (a table still playing keeps its first board, loses the second, and is stopped),
the seeds revealed and verifying; the daily event created once a day however often beat asks."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import json
import random

import pytest

from domain import fair
from domain import tournaments as t
from domain.belote.par import par as belote_par
from domain.cards import DECK_43, DECK_52
from domain.game import RuleViolation
from domain.games import GAMES
from domain.tournaments import robot
from infra.store import PostgresEventStore, create_pool
from infra.vault import Vault
from services.duplicate import daily
from services.duplicate import service as duplicate
from services.duplicate.service import par_of
from services.matches.service import MatchService
from services.tournaments.service import TournamentService
from tests.contract.match_support import play_out

pytestmark = [pytest.mark.db]
NOW = dt.datetime(2026, 12, 3, 10, 0, tzinfo=dt.timezone.utc)


@pytest.fixture(scope="module")
async def pool(migrated_database_url: str):
    pool = await create_pool(migrated_database_url, max_size=6)
    yield pool
    await pool.close()


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> dt.datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def svc(pool, clock) -> TournamentService:
    store = PostgresEventStore(pool)
    return TournamentService(store, MatchService(store, Vault(pool)), clock=clock)


async def play_deals(svc: TournamentService, match_id: str, deals: int, rng: random.Random) -> None:
    """Every seat plays legal actions until `deals` deals are over (or the match is)."""
    from domain import match as match_rules
    for _ in range(300):
        events = await svc.matches.events(match_id)
        if sum(isinstance(e, match_rules.DealFinished) for _, e, _ in events) >= deals:
            return
        with contextlib.suppress(AssertionError):          # one action a step: "did not finish" is expected
            await play_out(svc.matches, match_id, rng, limit=1)
    raise AssertionError("the deals did not end")


async def test_an_event_closes_with_its_window(svc: TournamentService, clock: Clock) -> None:
    rng = random.Random(5)
    tid = await svc.create("org", "Daily", "belote", {"deals": 2}, "robot", bots={"level": "random"},
                           scoring="neuberg", closes_at=(NOW + dt.timedelta(hours=1)).isoformat())
    state = await svc.load(tid)
    assert state.status == "running" and list(state.current.matches) == [1]          # the house table, dealt
    tables = {p: await duplicate.play(svc, tid, p, "") for p in ("pa", "pb", "pc")}
    assert await duplicate.play(svc, tid, "pa", "") == tables["pa"]
    for p in ("pa", "pb"):
        await play_out(svc.matches, tables[p]["match_id"], rng)
    await play_out(svc.matches, (await svc.load(tid)).current.matches[1], rng)
    await play_deals(svc, tables["pc"]["match_id"], 1, rng)                          # pc: board 1 only
    state = await svc.advance(tid)
    assert not state.current.closed and len(state.current.results) == 3              # the window is open
    with pytest.raises(duplicate.BoardSealed):
        await duplicate.traveller(svc, state, 1)

    clock.now = NOW + dt.timedelta(hours=1, seconds=1)
    with pytest.raises(RuleViolation) as late:
        await duplicate.play(svc, tid, "pd", "")
    assert late.value.code == "window_closed"
    state = await svc.advance(tid)
    assert state.status == "closed" and state.current.closed
    pc = state.current.results[tables["pc"]["table"]]
    assert set(pc.boards) == {"1"}                                                   # board 2 unfinished: not his
    assert (await svc.matches.load(tables["pc"]["match_id"])).status == "abandoned"
    for b in (1, 2):
        seed = bytes.fromhex(state.current.seeds[str(b)])
        assert fair.verify_seed(seed, bytes.fromhex(state.commitment), steps=b)
        trav = await duplicate.traveller(svc, state, b)
        for _ in range(120):                     # the par is worked out once per board, off the loop
            if not trav["hand"]["par_pending"]:
                break
            await asyncio.sleep(0.5)
            trav = await duplicate.traveller(svc, state, b)
        hand = trav["hand"]
        assert hand["verified"] and len(hand["deck"]) == 32
        best = belote_par(GAMES["belote"].parse_options({"deals": 2}), hand["dealer"], hand["deck"])
        assert hand["par"] == {"contract": best.contract, "score": best.score, "card_points": best.card_points,
                               "unit": "card_points"}
        assert hand["par"]["contract"]["team"] in ("NS", "EW")
        entrants = [r for r in trav["rows"] if not r["bots"]]
        assert len(entrants) == (3 if b == 1 else 2) and any(r["bots"] for r in trav["rows"])
    lines = t.lines(state, closed_only=True)
    assert robot.HOUSE not in lines and len(lines) == 3


async def test_the_daily_event_is_created_once_a_day(svc: TournamentService) -> None:
    raw = '{"game": "belote", "deals": 1, "hours": 24, "name": "Daily belote"}'
    first = await daily.open_today(svc, raw, NOW)
    assert await daily.open_today(svc, raw, NOW + dt.timedelta(hours=3)) == first
    state = await svc.load(first)
    assert state.format == "robot" and state.organiser == daily.SYSTEM and state.closes_at.startswith("2026-12-04T00:00")
    assert await daily.open_today(svc, raw, NOW + dt.timedelta(days=1)) != first


@pytest.mark.parametrize("game, deck, unit", [("cinch", DECK_52, "points"), ("five_hundred", DECK_43, "tricks")])
def test_cinch_and_five_hundred_travellers_carry_the_par_too(game: str, deck: tuple[str, ...], unit: str) -> None:
    shuffled = list(deck)
    random.Random(f"traveller par {game}").shuffle(shuffled)
    found = par_of(game, json.dumps({"deals": 1}), "S", tuple(shuffled))
    assert found is not None and found["unit"] == unit and found["contract"]["team"] in ("NS", "EW")
    assert sum(found["card_points"].values()) <= (14 if game == "cinch" else 10)
    assert par_of("cinch", json.dumps({"deals": 1, "mode": "individual"}), "S", tuple(DECK_52)) is None
