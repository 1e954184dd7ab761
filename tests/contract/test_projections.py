"""Projections: folds of the match events, exactly-once batches, rebuilds equal to live.

Projections here get names of their own (`ms_<hex>`...) so that they never touch the
session's real read models; synthetic matches live in `tm-<uuid>` streams, which the live
publisher (it only reads `match-<id>` streams) leaves alone.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import uuid
from datetime import datetime, timezone

import msgspec
import pytest

from infra.projections import Lobby, MatchSummaries, Projection, ProjectionRunner, rebuild
from infra.store import NewEvent, PostgresEventStore, RecordedEvent, create_pool

pytestmark = [pytest.mark.db]
SEATS = "NESW"


@pytest.fixture(scope="module")
async def store(migrated_database_url: str):
    pool = await create_pool(migrated_database_url, max_size=8)
    yield PostgresEventStore(pool)
    await pool.close()


def named(cls: type[Projection], prefix: str) -> Projection:
    name = f"{prefix}_{secrets.token_hex(3)}"
    return type(name, (cls,), {"name": name, "table": name})()


def match_script(sid: str, deals: int, rng: random.Random) -> list[tuple[str, dict]]:
    seats = dict.fromkeys(SEATS)
    events: list[tuple[str, dict]] = [
        ("match_created", {"match_id": sid, "game": rng.choice(["belote", "cinch"]), "options": {"target": 501},
                           "seats": seats, "commitment": "00", "chain_length": 10}),
    ]
    for seat in SEATS[: rng.randint(1, 4)]:
        events.append(("seat_taken", {"seat": seat, "holder": {"kind": "player", "player_id": f"p-{sid}-{seat}"}}))
    if rng.random() < 0.3:
        events.append(("seat_left", {"seat": "N", "player_id": f"p-{sid}-N"}))
    if deals:
        events += [("seat_taken", {"seat": s, "holder": {"kind": "bot", "level": "basic"}}) for s in SEATS]
        events.append(("match_started", {"first_dealer": "N"}))
        for deal in range(deals):
            events += [("card_played", {"seat": s, "card": "AS"}) for s in SEATS]
            events.append(("deal_finished", {"deal": deal, "summary": {}, "match_score": {"NS": 90 * (deal + 1), "EW": 72 * deal}}))
        if rng.random() < 0.5:
            events.append(("match_finished", {"winner": "NS", "match_score": {"NS": 90 * deals, "EW": 72 * (deals - 1)}}))
    return events


async def write_matches(store, count: int, *, seed: int = 0, pause: float = 0.0) -> list[str]:
    """Append `count` synthetic matches interleaved, one command = one or two events."""
    rng = random.Random(seed)
    scripts = {f"tm-{uuid.uuid4()}": None for _ in range(count)}
    for sid in scripts:
        scripts[sid] = match_script(sid, rng.choice([0, 1, 3]), rng)
    versions = dict.fromkeys(scripts, 0)
    while scripts:
        sid = rng.choice(list(scripts))
        script = scripts[sid]
        size = rng.randint(1, 2)
        take, scripts[sid] = script[:size], script[size:]
        batch = [NewEvent(kind, msgspec.json.encode(data)) for kind, data in take]
        versions[sid] = (await store.append(sid, versions[sid], batch, command_id=uuid.uuid4())).last_version
        if not scripts[sid]:
            del scripts[sid]
        if pause:
            await asyncio.sleep(pause)
    await store.settle()  # so that a catch-up right after sees all of it
    return list(versions)


async def rows(store, table: str) -> list[tuple]:
    return [tuple(r) for r in await store.pool.fetch(f"SELECT * FROM {table} ORDER BY 1")]


async def test_summaries_and_lobby_fold_match_events(store) -> None:
    summaries, lobby = named(MatchSummaries, "ms"), named(Lobby, "lobby")
    runner = ProjectionRunner(store, batch_size=100)
    sid = f"tm-{uuid.uuid4()}"  # not `match-`: the live publisher would try to redact it
    script = [
        ("match_created", {"match_id": sid, "game": "belote", "options": {"target": 1000},
                           "seats": {"N": {"kind": "player", "player_id": "p1"}, "E": None, "S": None, "W": None}}),
        ("seat_taken", {"seat": "E", "holder": {"kind": "bot", "level": "basic"}}),
    ]
    for version, (kind, data) in enumerate(script):
        await store.append(sid, version, [NewEvent(kind, msgspec.json.encode(data))], command_id=uuid.uuid4())
    await store.settle()
    for projection in (summaries, lobby):
        await runner.ensure(projection)
        await runner.catch_up(projection)
    lobby_row = await store.pool.fetchrow(f"SELECT * FROM {lobby.table} WHERE match_id = $1", sid)
    assert lobby_row["free_seats"] == 2 and lobby_row["game"] == "belote"
    more = [
        ("seat_taken", {"seat": "S", "holder": {"kind": "player", "player_id": "p2"}}),
        ("seat_taken", {"seat": "W", "holder": {"kind": "player", "player_id": "p3"}}),
        ("match_started", {"first_dealer": "W"}),
        ("deal_finished", {"deal": 0, "match_score": {"NS": 100, "EW": 62}}),
        ("deal_finished", {"deal": 1, "match_score": {"NS": 120, "EW": 204}}),
        ("match_finished", {"winner": "EW", "match_score": {"NS": 120, "EW": 204}}),
    ]
    for version, (kind, data) in enumerate(more, len(script)):
        await store.append(sid, version, [NewEvent(kind, msgspec.json.encode(data))], command_id=uuid.uuid4())
    await store.settle()
    for projection in (summaries, lobby):
        await runner.catch_up(projection)
    row = await store.pool.fetchrow(f"SELECT * FROM {summaries.table} WHERE match_id = $1", sid)
    assert (row["game"], row["status"], row["deals"], row["winner"], row["version"]) == ("belote", "finished", 2, "EW", 8)
    assert msgspec.json.decode(row["score"]) == {"NS": 120, "EW": 204}
    assert msgspec.json.decode(row["seats"])["E"] == {"kind": "bot", "level": "basic"}
    assert await store.pool.fetchrow(f"SELECT * FROM {lobby.table} WHERE match_id = $1", sid) is None


def test_match_streams_are_keyed_by_the_bare_match_id() -> None:
    from infra.projections.match_summaries import match_id_of

    event = RecordedEvent("match-42", 1, 1, 1, uuid.uuid4(), "x", 1, b"{}", None, datetime.now(timezone.utc))
    assert match_id_of(event) == "42"
    assert match_id_of(msgspec.structs.replace(event, stream_id="tm-7")) == "tm-7"


class Recorder(Projection):
    """Writes one row per event; with `fail_at`, writes half a batch and then raises."""

    event_types = None

    def __init__(self, name: str) -> None:
        self.name, self.tables, self.fail_at = name, (name,), None

    def create(self, names):
        return [f"CREATE TABLE IF NOT EXISTS {names[self.name]} (position bigint NOT NULL)"]

    async def apply(self, conn, changes, names):
        positions = [(e.position,) for e, _ in changes]
        sql = f"INSERT INTO {names[self.name]} VALUES ($1)"
        if self.fail_at in [p for (p,) in positions]:
            await conn.executemany(sql, positions[: len(positions) // 2])
            raise RuntimeError("the handler crashed midway through a batch")
        await conn.executemany(sql, positions)


async def test_a_batch_that_fails_midway_is_not_applied_and_resumes_exactly_once(store) -> None:
    recorder = Recorder(f"rec_{secrets.token_hex(3)}")
    runner = ProjectionRunner(store, batch_size=40)
    await runner.ensure(recorder)
    start = await store.head()  # a projection that starts now
    await store.pool.execute(
        "UPDATE projection_checkpoints SET tx_id = $2, position = $3 WHERE name = $1", recorder.name, *start
    )
    await write_matches(store, 12, seed=1)
    log = []
    while page := await store.read_log(log[-1].log_position if log else start, 500):
        log += page
    recorder.fail_at = log[len(log) // 2 + 5].position
    with pytest.raises(RuntimeError):
        await runner.catch_up(recorder)
    checkpoint = await store.pool.fetchrow(
        "SELECT tx_id, position FROM projection_checkpoints WHERE name = $1", recorder.name
    )
    applied = sorted(r["position"] for r in await store.pool.fetch(f"SELECT position FROM {recorder.name}"))
    assert applied == sorted(e.position for e in log if e.log_position <= tuple(checkpoint))
    assert 0 < len(applied) < len(log)

    recorder.fail_at = None  # "restarted" with the bug fixed
    await runner.catch_up(recorder)
    applied = sorted(r["position"] for r in await store.pool.fetch(f"SELECT position FROM {recorder.name}"))
    assert applied == sorted(e.position for e in log)  # every event once, none twice


@pytest.mark.parametrize("cls", [MatchSummaries, Lobby])
async def test_a_rebuild_gives_the_live_read_model(store, cls) -> None:
    projection = named(cls, "live")
    runner = ProjectionRunner(store, batch_size=200)
    await runner.ensure(projection)
    await write_matches(store, 30, seed=2)
    await runner.catch_up(projection)
    live = await rows(store, projection.table)
    report = await rebuild(ProjectionRunner(store, batch_size=300), projection)
    assert report.events > 0
    assert await rows(store, projection.table) == live
    report = await rebuild(runner, projection)  # again: shadow names are free, indexes kept
    assert await rows(store, projection.table) == live
    indexes = await store.pool.fetch("SELECT indexname FROM pg_indexes WHERE tablename = $1", projection.table)
    assert sorted(r["indexname"] for r in indexes) == sorted(
        [f"{projection.table}_pkey", f"{projection.table}_{cls.indexes[0].replace(', ', '_')}_idx"]
    )


async def test_rebuild_while_writers_and_the_live_runner_keep_going(store) -> None:
    projection = named(MatchSummaries, "busy")
    live_runner = ProjectionRunner(store, batch_size=50)
    await live_runner.ensure(projection)
    await write_matches(store, 10, seed=3)
    done = asyncio.Event()

    async def live() -> None:
        while not done.is_set():
            await live_runner.catch_up(projection)
            await asyncio.sleep(0.01)

    tailing = asyncio.create_task(live())
    writing = asyncio.create_task(write_matches(store, 40, seed=4, pause=0.001))
    await asyncio.sleep(0.2)
    await rebuild(ProjectionRunner(store, batch_size=100), projection)
    await writing
    done.set()
    await tailing
    await live_runner.catch_up(projection)

    reference = named(MatchSummaries, "ref")
    ref_runner = ProjectionRunner(store, batch_size=1000)
    await ref_runner.ensure(reference)
    await ref_runner.catch_up(reference)
    assert await rows(store, projection.table) == await rows(store, reference.table)


async def test_status_reports_positions_and_lag(store) -> None:
    projection = named(Lobby, "st")
    runner = ProjectionRunner(store, batch_size=500)
    report = await runner.status([projection])
    assert report["projections"][projection.name]["state"] == "not_started"
    await runner.ensure(projection)
    await runner.catch_up(projection)
    await write_matches(store, 2, seed=5)
    entry = (await runner.status([projection]))["projections"][projection.name]
    assert entry["state"] == "ok" and entry["lag"] > 0 and entry["lag_seconds"] >= 0
    await runner.catch_up(projection)
    report = await runner.status([projection])
    entry = report["projections"][projection.name]
    assert entry["lag"] == 0
    assert (entry["tx_id"], entry["position"]) == (report["head"]["tx_id"], report["head"]["position"])


async def test_a_reopened_match_plays_on_in_the_summary(store) -> None:
    summaries = named(MatchSummaries, "reopen")
    runner = ProjectionRunner(store, batch_size=100)
    sid = f"tm-{uuid.uuid4()}"
    script = [
        ("match_created", {"match_id": sid, "game": "cinch", "options": {}, "seats": {s: None for s in SEATS}}),
        ("match_started", {"first_dealer": "N"}),
        ("deal_finished", {"deal": 0, "match_score": {"NS": 52, "EW": 0}}),
        ("match_finished", {"winner": "NS", "match_score": {"NS": 52, "EW": 0}}),
        ("match_reopened", {"match_score": {"NS": 0, "EW": 0}}),
    ]
    for version, (kind, data) in enumerate(script):
        await store.append(sid, version, [NewEvent(kind, msgspec.json.encode(data))], command_id=uuid.uuid4())
    await store.settle()
    await runner.ensure(summaries)
    await runner.catch_up(summaries)
    row = await store.pool.fetchrow(f"SELECT * FROM {summaries.table} WHERE match_id = $1", sid)
    assert (row["status"], row["winner"]) == ("playing", None)
    assert msgspec.json.decode(row["score"]) == {"NS": 0, "EW": 0}


async def test_catch_up_stops_between_batches_when_asked(store) -> None:
    import asyncio

    summaries = named(MatchSummaries, "stop")
    await write_matches(store, 6, seed=9)
    runner = ProjectionRunner(store, batch_size=5)
    await runner.ensure(summaries)
    stop = asyncio.Event()
    stop.set()
    assert await runner.catch_up(summaries, stop) == 0  # set before: not even one batch

    class StopAfterOne(asyncio.Event):
        def __init__(self) -> None:
            super().__init__()
            self.checks = 0

        def is_set(self) -> bool:
            self.checks += 1
            return self.checks > 1

    assert await runner.catch_up(summaries, StopAfterOne()) == 5  # one whole batch, then stop
