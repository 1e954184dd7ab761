"""Rated play that a stalling side cannot bend, against the whole system (`atout serve
--projector` and a worker with beat): a rated match created over HTTP, N and S playing over
REST at once, E and W on REST only and never acting. Each of E and W runs out of his clock
three times in a row and counts as away; the side all away ends the match abandoned, and the
ratings read model rates it a loss for E-W, a win for N-S (docs/ratings.md, "Ends that are
not wins"), where without a clock the sweeper abandoned such a match unrated.
"""

from __future__ import annotations

import random
import time
import uuid

import httpx
import pytest
from system_support import running_system

from domain.playout import concrete

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]


@pytest.fixture(scope="module")
def system(migrated_database_url: str, redis_url: str, redis_prefix: str, tmp_path_factory):
    with running_system(tmp_path_factory.mktemp("stall"), migrated_database_url, redis_url,
                        f"{redis_prefix}stall", ATOUT_RATE_LIMIT_REQUESTS="0") as running:   # N and S poll
        yield running


def test_a_side_that_stalls_on_rest_loses_a_rated_match(system) -> None:
    http = httpx.Client(base_url=system.base, timeout=10)
    players = {}
    for seat in "NESW":
        answer = http.post("/v1/players", json={"name": f"stall {seat}"})
        assert answer.status_code == 201, answer.text
        players[seat] = answer.json()
    auth = {seat: {"Authorization": f"Bearer {p['token']}"} for seat, p in players.items()}
    created = http.post("/v1/matches", headers=auth["N"], json={
        "game": "belote", "rated": True, "clock": {"bid": 5, "play": 5},
        "seats": {"N": "me", "E": "open", "S": "open", "W": "open"}})
    assert created.status_code == 201, created.text
    match_id = created.json()["match_id"]
    for seat in "ESW":
        assert http.post(f"/v1/matches/{match_id}/seats/{seat}", headers=auth[seat], json={}).status_code == 200

    rng, deadline = random.Random(5), time.monotonic() + 150
    while (view := http.get(f"/v1/matches/{match_id}", headers=auth["N"]).json())["status"] == "playing":
        assert time.monotonic() < deadline, f"still playing at version {view['version']}"
        for seat in set(view["to_act"]) & {"N", "S"}:
            mine = view if seat == "N" else http.get(f"/v1/matches/{match_id}", headers=auth[seat]).json()
            if mine["version"] == view["version"] and mine["table"]["legal"]:
                action = {k: v for k, v in concrete(rng.choice(mine["table"]["legal"]), rng).items() if k != "seat"}
                http.post(f"/v1/matches/{match_id}/actions", headers=auth[seat],
                          json={"command_id": str(uuid.uuid4()), "expected_version": mine["version"], **action})
        time.sleep(0.2)
    assert view["status"] == "abandoned", view["status"]

    deadline = time.monotonic() + 30
    while True:                                    # the projector rates it a moment later
        pools = {seat: http.get(f"/v1/players/{p['player_id']}/ratings", headers=auth["N"]).json()["pools"]
                 for seat, p in players.items()}
        if all(pools.values()):
            break
        assert time.monotonic() < deadline, pools
        time.sleep(0.2)
    rated = {seat: entry for seat, [entry] in pools.items()}
    assert {rated[s]["games"] for s in "NESW"} == {1}
    assert [rated[s]["wins"] for s in "NESW"] == [1, 0, 1, 0]
    assert [h["match_id"] for h in rated["E"]["history"]] == [match_id]
    assert max(rated[s]["mu"] for s in "EW") < 25.0 < min(rated[s]["mu"] for s in "NS")
