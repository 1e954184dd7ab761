"""Duplicate formats end to end against `atout serve --projector` and `atout worker --beat`
(the tick every second): a robot duplicate event with several entrants, each playing his
board alone with three `basic` bots, nothing of any board shown to anyone before the window
closes, then travellers, standings and the account stream; a Butler pairs event of house
bots. One-board rounds throughout. Every board's seed verifies against the commitment and
recomputes the deck the tables were dealt."""

from __future__ import annotations

import asyncio
import datetime as dt
import math
import random
import time
import uuid
from typing import Any

import httpx
import pytest
from system_support import running_system
from test_account_stream import CARD, auth, follow, register

from domain import fair
from domain.playout import concrete
from domain.tournaments.imps import imps
from domain.tournaments.standing import scale_of
from tests.api.typed_answers import served

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]


@pytest.fixture(scope="module")
def system(migrated_database_url: str, redis_url: str, redis_prefix: str, tmp_path_factory):
    with running_system(tmp_path_factory.mktemp("duplicate"), migrated_database_url, redis_url,
                        f"{redis_prefix}dup", worker_args=("--concurrency", "2", "--queues", "bots,clock"),
                        ATOUT_TOURNAMENT_TICK="1") as running:
        yield running


async def play_south(http: httpx.AsyncClient, match_id: str, player: dict[str, str], rng: random.Random) -> None:
    """Play my seat (South) with legal actions until the match is over; the bots play the rest."""
    deadline = time.monotonic() + 60
    while True:
        answer = await http.get(f"/v1/matches/{match_id}", headers=auth(player))
        assert answer.status_code == 200, answer.text
        table = answer.json()
        if table["status"] != "playing":
            assert table["status"] == "finished", table["status"]
            return
        assert time.monotonic() < deadline
        if "S" not in table["to_act"] or not table["table"].get("legal"):
            await asyncio.sleep(0.05)
            continue
        action = {k: v for k, v in concrete(rng.choice(table["table"]["legal"]), rng).items() if k != "seat"}
        done = await http.post(f"/v1/matches/{match_id}/actions", headers=auth(player), json={
            "command_id": str(uuid.uuid4()), "expected_version": table["version"], **action})
        assert done.status_code in (200, 409), done.text


async def closed(http: httpx.AsyncClient, tid: str, headers: dict[str, str], seconds: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while (seen := (await http.get(f"/v1/tournaments/{tid}", headers=headers)).json())["status"] != "closed":
        assert time.monotonic() < deadline, seen
        await asyncio.sleep(0.3)
    return seen


def verifies(tid: str, board: int, hand: dict[str, Any], commitment: str) -> bool:
    seed = bytes.fromhex(hand["seed"])
    deck = fair.shuffle_deck("belote", seed, fair.tournament_context(tid, board))
    return fair.verify_seed(seed, bytes.fromhex(commitment), steps=board) and list(map(str, deck)) == hand["deck"]


async def test_a_robot_duplicate_event_sealed_until_its_window_closes(system) -> None:
    rng = random.Random(7)
    async with httpx.AsyncClient(base_url=system.base, timeout=30) as http:
        organiser = {"token": system.admin_token("dup organiser")}
        ann, bob, cid = (await register(http, "dup ann"), await register(http, "dup bob"),
                         await register(http, "dup cid"))
        stream = await follow(system.base, ann["token"])
        closes = (dt.datetime.now(dt.timezone.utc) + dt.timedelta(seconds=15)).isoformat()
        created = await http.post("/v1/tournaments", headers=auth(organiser), json={
            "name": "Robot daily", "game": "belote", "format": "robot", "options": {"deals": 1},
            "bots": {"level": "basic"}, "scoring": "cross_imps", "closes_at": closes})
        assert created.status_code == 201, created.text
        event = created.json()
        tid = event["tournament_id"]
        assert event["status"] == "running" and event["scoring"] == "cross_imps" and event["commitment"]

        contract = await served(http)
        tables = {}
        for who in (ann, bob, cid):
            entered = await http.post(f"/v1/tournaments/{tid}/play", headers=auth(who))
            assert entered.status_code == 200, entered.text
            tables[who["id"]] = contract.check(entered, "post", "/v1/tournaments/{tournament_id}/play")
            assert tables[who["id"]]["seat"] == "S" and tables[who["id"]]["match_id"]
        again = await http.post(f"/v1/tournaments/{tid}/play", headers=auth(ann))
        assert again.json() == tables[ann["id"]]                      # entered once
        ann_match, bob_match = tables[ann["id"]]["match_id"], tables[bob["id"]]["match_id"]
        seats = (await http.get(f"/v1/matches/{ann_match}", headers=auth(ann))).json()["seats"]
        assert seats["S"]["player_id"] == ann["id"] and all(seats[s]["kind"] == "bot" for s in "NEW")

        await asyncio.gather(play_south(http, ann_match, ann, rng), play_south(http, bob_match, bob, rng))
        # cid entered and never played: his table is still dealing when the window closes

        # Sealed before the close, for everyone: other tables, one's own hand record, travellers, results.
        for reader, match in ((bob, ann_match), (ann, bob_match)):
            peek = await http.get(f"/v1/matches/{match}", headers=auth(reader))
            assert peek.status_code == 403 and peek.json()["code"] == "board_sealed"
        own = await http.get(f"/v1/matches/{ann_match}/record", headers=auth(ann))
        assert own.status_code == 403 and own.json()["code"] == "board_sealed"
        for reader in (ann, organiser):
            early = await http.get(f"/v1/tournaments/{tid}/boards/1/traveller", headers=auth(reader))
            assert early.status_code == 403 and early.json()["code"] == "board_sealed"
        view = (await http.get(f"/v1/tournaments/{tid}", headers=auth(ann))).json()
        assert all(t["result"] is None for t in view["rounds"][0]["tables"]) and view["rounds"][0]["seeds"] == {}
        assert (await http.get(f"/v1/tournaments/{tid}/results", headers=auth(ann))).json() == []

        final = await closed(http, tid, auth(ann))
        [rnd] = final["rounds"]
        assert rnd["closed"] and set(rnd["seeds"]) == {"1"}
        traveller = contract.check(await http.get(f"/v1/tournaments/{tid}/boards/1/traveller", headers=auth(ann)),
                                   "get", "/v1/tournaments/{tournament_id}/boards/{board}/traveller")
        assert traveller["hand"]["verified"] is True and verifies(tid, 1, traveller["hand"], final["commitment"])
        rows = {row["ns"]: row for row in traveller["rows"]}
        entry = {p: tables[p]["entry_id"] for p in tables}
        assert set(rows) == {entry[ann["id"]], entry[bob["id"]], "house"}          # cid did not finish board 1
        assert rows["house"]["bots"] and rows["house"]["ns_points"] is None
        a, b = rows[entry[ann["id"]]], rows[entry[bob["id"]]]
        assert a["ns_points"] == -b["ns_points"]                     # two results: cross-IMPs are opposite
        assert a["score"] and a["result"] and "contract" in a
        assert (a["match_id"], a["deal"]) == (ann_match, 0)              # its replay and double-dummy analysis
        standings = contract.check(await http.get(f"/v1/tournaments/{tid}/standings", headers=auth(ann)),
                                   "get", "/v1/tournaments/{tournament_id}/standings")
        contract.check(await http.get(f"/v1/tournaments/{tid}", headers=auth(ann)), "get", "/v1/tournaments/{tournament_id}")
        points = {line["entry"]: line["points"] for line in standings["overall"]}
        assert points == {entry[ann["id"]]: a["ns_points"], entry[bob["id"]]: b["ns_points"], entry[cid["id"]]: 0}
        assert standings["scoring"] == "cross_imps"
        now_public = await http.get(f"/v1/matches/{ann_match}", headers=auth(bob))
        assert now_public.status_code == 200
        abandoned = (await http.get(f"/v1/matches/{tables[cid['id']]['match_id']}", headers=auth(cid))).json()
        assert abandoned["status"] == "abandoned"

        await stream.until(lambda f: f.of("tournament_closed", tournament_id=tid))
        [started] = stream.of("round_started", tournament_id=tid)
        assert started["match_id"] == ann_match
        assert stream.of("round_closed", tournament_id=tid)
        assert not any(CARD.search(line) for line in stream.raw)
        await stream.stop()


async def test_a_butler_pairs_event_of_house_bots(system) -> None:
    async with httpx.AsyncClient(base_url=system.base, timeout=30) as http:
        organiser = auth({"token": system.admin_token("butler organiser")})
        created = await http.post("/v1/tournaments", headers=organiser, json={
            "name": "Butler pairs", "game": "belote", "format": "duplicate", "rounds": 1, "options": {"deals": 1},
            "scoring": "butler"})
        assert created.status_code == 201, created.text
        tid = created.json()["tournament_id"]
        for level in ("random", "basic", "random", "basic", "basic", "random"):
            entry = await http.post(f"/v1/tournaments/{tid}/entries", headers=organiser,
                                    json={"players": [f"bot:{level}"] * 2})
            assert entry.status_code == 201, entry.text
        assert (await http.post(f"/v1/tournaments/{tid}/start", headers=organiser)).status_code == 200
        final = await closed(http, tid, organiser)
        traveller = (await http.get(f"/v1/tournaments/{tid}/boards/1/traveller", headers=organiser)).json()
        assert verifies(tid, 1, traveller["hand"], final["commitment"])
        assert len(traveller["rows"]) == 3
        nets = [row["score"]["NS"] - row["score"]["EW"] for row in traveller["rows"]]
        mean = sum(nets) / 3                                          # three results: no trimming
        datum = int(math.copysign(10 * math.floor(abs(mean) / 10 + 0.5), mean))   # to 10, half away from 0
        for row, net in zip(traveller["rows"], nets, strict=True):
            assert row["ns_points"] == imps(net - datum, scale_of("belote", {})[0])
            assert row["ew_points"] == -row["ns_points"]              # EW's field is NS's, negated
        standings = (await http.get(f"/v1/tournaments/{tid}/standings", headers=organiser)).json()
        assert standings["scoring"] == "butler" and len(standings["overall"]) == 6


async def test_a_teams_of_four_swiss_of_four_teams(system) -> None:
    async with httpx.AsyncClient(base_url=system.base, timeout=30) as http:
        organiser = auth({"token": system.admin_token("teams organiser")})
        created = await http.post("/v1/tournaments", headers=organiser, json={
            "name": "Teams Swiss", "game": "belote", "format": "teams", "rounds": 2, "options": {"deals": 1}})
        assert created.status_code == 201, created.text
        tid = created.json()["tournament_id"]
        for levels in (("basic", "random"), ("random", "basic"), ("basic", "basic"), ("random", "random")):
            players = [f"bot:{levels[0]}"] * 2 + [f"bot:{levels[1]}"] * 2
            entry = await http.post(f"/v1/tournaments/{tid}/entries", headers=organiser, json={"players": players})
            assert entry.status_code == 201, entry.text
        assert (await http.post(f"/v1/tournaments/{tid}/start", headers=organiser)).status_code == 200
        final = await closed(http, tid, organiser, seconds=90)
        contract = await served(http)
        contract.check(await http.get(f"/v1/tournaments/{tid}", headers=organiser), "get", "/v1/tournaments/{tournament_id}")
        assert [len(r["tables"]) for r in final["rounds"]] == [4, 4]
        for rnd in final["rounds"]:
            rooms = {(t["room"], t["ns"], t["ew"]) for t in rnd["tables"]}
            for room, ns, ew in rooms:                              # each match in both rooms, the teams swapped
                assert (3 - room, ew, ns) in rooms
            board = rnd["boards"][0]
            traveller = (await http.get(f"/v1/tournaments/{tid}/boards/{board}/traveller", headers=organiser)).json()
            assert verifies(tid, board, traveller["hand"], final["commitment"])
        standings = (await http.get(f"/v1/tournaments/{tid}/standings", headers=organiser)).json()
        assert standings["tie_breaks"] == ["victory_points", "imps"]
        assert sum(line["points"] for line in standings["overall"]) == pytest.approx(20 * 2 * 2)   # 20 VPs a match
        assert all(line["bots"] for line in standings["overall"])
