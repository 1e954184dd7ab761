"""A tournament run by the system alone, as an organiser would see it: a Swiss of eight house-bot
entries over three rounds, scheduled, then left to `atout serve --projector` and one
`atout worker --beat` (the tick every second here). Nobody calls start or advance: beat starts
it at its time, the bots play every match through Celery, each finished match moves the round
on, and the standings come out right — recomputed here from each match's own `match_finished`.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import time

import httpx
import pytest
from system_support import running_system

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]


@pytest.fixture(scope="module")
def system(migrated_database_url: str, redis_url: str, redis_prefix: str, tmp_path_factory):
    with running_system(tmp_path_factory.mktemp("tournament"), migrated_database_url, redis_url,
                        f"{redis_prefix}trn", worker_args=("--concurrency", "2", "--queues", "bots,clock"),
                        ATOUT_TOURNAMENT_TICK="1") as running:
        yield running.base, running.admin_token("organiser"), running.logs


async def test_a_scheduled_swiss_of_eight_bot_entries_runs_to_the_end_by_itself(system) -> None:
    base, token, logs = system
    auth = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=base, headers=auth, timeout=30) as http:
        at = (dt.datetime.now(dt.timezone.utc) + dt.timedelta(seconds=3)).isoformat()
        created = await http.post("/v1/tournaments", json={
            "name": "Scheduled Swiss", "game": "belote", "format": "swiss", "rounds": 3,
            "options": {"deals": 1}, "schedule": at})
        assert created.status_code == 201, created.text
        tid = created.json()["tournament_id"]
        for level in ["random", "basic"] * 4:
            entry = await http.post(f"/v1/tournaments/{tid}/entries", json={"players": [f"bot:{level}"] * 2})
            assert entry.status_code == 201, entry.text
        assert (await http.get(f"/v1/tournaments/{tid}")).json()["status"] == "registering"

        deadline = time.monotonic() + 300
        while (seen := (await http.get(f"/v1/tournaments/{tid}")).json())["status"] != "closed":
            assert time.monotonic() < deadline, (seen, logs[1].read_text()[-3000:])
            await asyncio.sleep(0.5)
        assert dt.datetime.now(dt.timezone.utc) >= dt.datetime.fromisoformat(at)

        rounds = seen["rounds"]
        assert [len(r["tables"]) for r in rounds] == [4, 4, 4] and all(r["closed"] for r in rounds)
        met = [frozenset((t["ns"], t["ew"])) for r in rounds for t in r["tables"]]
        assert len(set(met)) == 12                                          # no rematch
        points = {e["entry_id"]: 0 for e in seen["entries"]}
        for table in (t for r in rounds for t in r["tables"]):
            events = (await http.get(f"/v1/matches/{table['match_id']}/events?after=0")).json()["events"]
            [finished] = [e["event"] for e in events if e["event"] and e["event"]["type"] == "match_finished"]
            ns, ew = finished["match_score"]["NS"], finished["match_score"]["EW"]
            points[table["ns"]] += 2 if ns > ew else 1 if ns == ew else 0
            points[table["ew"]] += 2 if ew > ns else 1 if ns == ew else 0
            seats = (await http.get(f"/v1/matches/{table['match_id']}")).json()["seats"]
            assert all(holder and holder["kind"] == "bot" for holder in seats.values())
        standings = (await http.get(f"/v1/tournaments/{tid}/standings")).json()
        assert {line["entry"]: line["points"] for line in standings["overall"]} == points
        assert set(standings["by_round"]) == {"1", "2", "3"} and standings["by_round"]["3"] == standings["overall"]
        exported = (await http.get(f"/v1/tournaments/{tid}/export")).json()
        assert exported["standings"] == standings["overall"]
