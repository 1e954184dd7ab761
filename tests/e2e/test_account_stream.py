"""The account stream against the whole system (`atout serve --projector` and a worker): four
players follow their own streams (NDJSON, SSE and WebSocket) while they sit and play a match
over HTTP; each gets a `your_turn` for each of his turns, with the version to act at, the
seats taken at his table, the start and the end, and never a card. A stream resumed with
`after=` gives exactly what it missed; a tournament's round start reaches its entrants; an
`after=` past keeping (here 2 seconds) gets `resync`; `/metrics` counts the open streams.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
import uuid
from typing import Any

import httpx
import pytest
from system_support import running_system
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

from domain.playout import concrete
from services.live.routes.account_messages import DECODER, AccountEvent, AccountSnapshot

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]

CARD = re.compile(r"\b(?:[2-9]|10|[JQKA])[SHDC]\b")


@pytest.fixture(scope="module")
def system(migrated_database_url: str, redis_url: str, redis_prefix: str, tmp_path_factory):
    with running_system(tmp_path_factory.mktemp("account"), migrated_database_url, redis_url,
                        f"{redis_prefix}acct", ATOUT_TOURNAMENT_TICK="1") as running:
        yield running


class Follower:
    """One account stream, read in the background until cancelled or closed."""

    def __init__(self) -> None:
        self.raw: list[str] = []
        self.messages: list[dict[str, Any]] = []
        self.first = asyncio.Event()
        self.task: asyncio.Task | None = None
        self.close_code: int | None = None

    def got(self, line: str) -> None:
        self.raw.append(line)
        self.messages.append(json.loads(line))
        self.first.set()

    @property
    def events(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "event"]

    def of(self, kind: str, **where: Any) -> list[dict[str, Any]]:
        return [m["event"] for m in self.events if m["event"]["type"] == kind
                and all(m["event"].get(k) == v for k, v in where.items())]

    async def until(self, test, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while not test(self):
            assert time.monotonic() < deadline, self.messages[-5:]
            await asyncio.sleep(0.05)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)


async def follow(base: str, token: str, how: str = "ndjson", after: int | None = None,
                 snapshot: bool = True) -> Follower:
    follower = Follower()
    query = "" if after is None else f"?after={after}"

    async def http() -> None:
        accept = "text/event-stream" if how == "sse" else "application/x-ndjson"
        headers = {"Authorization": f"Bearer {token}", "Accept": accept}
        async with httpx.AsyncClient(base_url=base, timeout=None) as client, \
                client.stream("GET", f"/v1/stream/me{query}", headers=headers) as response:
            assert response.status_code == 200, await response.aread()
            async for line in response.aiter_lines():
                if how == "sse":
                    if line.startswith("data: "):
                        follower.got(line[6:])
                elif line:
                    follower.got(line)

    async def ws() -> None:
        async with ws_connect(base.replace("http", "ws", 1) + f"/v1/stream/me/ws{query}") as socket:
            await socket.send(json.dumps({"type": "auth", "token": token}))
            try:
                async for raw in socket:
                    follower.got(raw)
            except ConnectionClosed:
                pass
            follower.close_code = socket.close_code

    follower.task = asyncio.create_task(ws() if how == "ws" else http())
    await asyncio.wait_for(follower.first.wait(), 15)
    assert (follower.messages[0]["type"] == "snapshot") == snapshot, follower.messages[0]
    return follower


async def register(http: httpx.AsyncClient, name: str) -> dict[str, str]:
    response = await http.post("/v1/players", json={"name": name})
    assert response.status_code == 201, response.text
    body = response.json()
    return {"id": body["player_id"], "token": body["token"]}


def auth(player: dict[str, str]) -> dict[str, str]:
    return {"Authorization": f"Bearer {player['token']}"}


async def view(http: httpx.AsyncClient, match_id: str, player: dict[str, str]) -> dict[str, Any]:
    response = await http.get(f"/v1/matches/{match_id}", headers=auth(player))
    assert response.status_code == 200, response.text
    return response.json()


async def test_each_turn_seat_start_and_end_reach_the_players_and_resume_gives_what_was_missed(system) -> None:
    rng = random.Random(18)
    async with httpx.AsyncClient(base_url=system.base, timeout=30) as http:
        players = {seat: await register(http, f"acct {seat}") for seat in "NESW"}
        streams = {seat: await follow(system.base, players[seat]["token"], how)
                   for seat, how in zip("NESW", ("ndjson", "sse", "ws", "ndjson"))}
        assert streams["N"].messages[0]["matches"] == [] and streams["N"].messages[0]["version"] == 0
        created = await http.post("/v1/matches", headers=auth(players["N"]), json={
            "game": "belote", "options": {"deals": 1}, "seats": {"N": "me", "E": "open", "S": "open", "W": "open"}})
        assert created.status_code == 201, created.text
        match_id = created.json()["match_id"]
        for seat in "ESW":
            taken = await http.post(f"/v1/matches/{match_id}/seats/{seat}", headers=auth(players[seat]), json={})
            assert taken.status_code == 200, taken.text

        expected: dict[str, list[int]] = {seat: [] for seat in "NESW"}
        table = await view(http, match_id, players["N"])
        for seat in table["to_act"]:
            expected[seat].append(table["version"])
        resumed_from: int | None = None
        while table["status"] == "playing":
            seat = rng.choice(table["to_act"])
            mine = await view(http, match_id, players[seat])
            action = {k: v for k, v in concrete(rng.choice(mine["table"]["legal"]), rng).items() if k != "seat"}
            done = await http.post(f"/v1/matches/{match_id}/actions", headers=auth(players[seat]), json={
                "command_id": str(uuid.uuid4()), "expected_version": mine["version"], **action})
            assert done.status_code == 200, done.text
            before = set(table["to_act"])
            table = await view(http, match_id, players["N"])
            for s in table["to_act"]:
                if s not in before or s == seat:
                    expected[s].append(table["version"])
            if resumed_from is None and len(expected["N"]) >= 3:
                await streams["N"].until(lambda f: len(f.of("your_turn")) >= 3)
                resumed_from = streams["N"].events[-1]["version"]
        assert table["status"] == "finished"

        for seat, stream in streams.items():
            await stream.until(lambda f: f.of("match_finished", match_id=match_id))
        for seat, stream in streams.items():
            versions = [m["version"] for m in stream.messages]
            assert versions == list(range(len(versions))), f"{seat}: gap-free, from the snapshot's 0"
            assert [e["match_version"] for e in stream.of("your_turn", match_id=match_id)] == expected[seat], seat
            assert all(e["seat"] == seat for e in stream.of("your_turn"))
            [started] = stream.of("match_started", match_id=match_id)
            assert started["seat"] == seat and started["game"] == "belote"
            [finished] = stream.of("match_finished", match_id=match_id)
            assert finished["status"] == "finished" and finished["winner"] in ("NS", "EW")
            assert not any(CARD.search(line) for line in stream.raw), f"{seat} saw a card"
            decoded = [DECODER.decode(line) for line in stream.raw]     # strictly what the AsyncAPI says
            assert isinstance(decoded[0], AccountSnapshot) and all(isinstance(m, AccountEvent) for m in decoded[1:])
        # the seats taken after each one's own, at his table; the creator saw all three
        assert [e["seat"] for e in streams["N"].of("seat_taken")] == ["E", "S", "W"]
        assert [e["seat"] for e in streams["E"].of("seat_taken")] == ["S", "W"]
        assert streams["W"].of("seat_taken") == []
        assert streams["E"].of("seat_taken")[0]["holder"] == {"kind": "player", "player_id": players["S"]["id"]}

        metrics = (await http.get("/metrics")).text
        for transport in ("ndjson", "sse", "websocket"):
            assert re.search(rf'atout_account_streams{{transport="{transport}"}} [1-9]', metrics), transport

        # resume: exactly what came after `resumed_from`, on another transport
        assert resumed_from is not None
        head = streams["N"].messages[-1]["version"]
        again = await follow(system.base, players["N"]["token"], "ws", after=resumed_from)
        await again.until(lambda f: len(f.events) >= head - resumed_from)
        await asyncio.sleep(0.3)
        assert again.messages[0]["version"] == head and again.messages[0]["matches"] == []
        assert again.events == [m for m in streams["N"].events if m["version"] > resumed_from]
        nothing = await follow(system.base, players["N"]["token"], "ndjson", after=head)
        await asyncio.sleep(0.3)
        assert [m["type"] for m in nothing.messages] == ["snapshot"]

        # a dispute filed by S, ruled by an admin: S hears of it (the match is over: only he)
        filed = await http.post(f"/v1/matches/{match_id}/disputes", headers=auth(players["S"]),
                                json={"deal": 0, "reason": "W did not follow suit"})
        assert filed.status_code == 201, filed.text
        dispute_id = filed.json()["dispute_id"]
        admin = {"token": system.admin_token("acct admin")}
        ruled = await http.post(f"/v1/admin/disputes/{dispute_id}/rulings", headers=auth(admin),
                                json={"ruling": "reject", "reason": "it was followed"})
        assert ruled.status_code == 200, ruled.text
        await streams["S"].until(lambda f: f.of("dispute_ruled"))
        assert streams["S"].of("dispute_ruled") == [{"type": "dispute_ruled", "dispute_id": dispute_id,
                                                     "match_id": match_id, "ruling": "reject", "status": "rejected",
                                                     "at": streams["S"].of("dispute_ruled")[0]["at"]}]
        await asyncio.sleep(0.3)
        assert not streams["N"].of("dispute_ruled")
        for stream in (*streams.values(), again, nothing):
            await stream.stop()


async def test_the_snapshot_shows_my_matches_and_whose_turn(system) -> None:
    async with httpx.AsyncClient(base_url=system.base, timeout=30) as http:
        players = {seat: await register(http, f"snap {seat}") for seat in "NESW"}
        created = await http.post("/v1/matches", headers=auth(players["N"]), json={
            "game": "belote", "options": {"deals": 1}, "seats": {"N": "me", "E": "open", "S": "open", "W": "open"}})
        match_id = created.json()["match_id"]
        stream = await follow(system.base, players["N"]["token"])
        deadline = time.monotonic() + 10
        while not (await follow(system.base, players["N"]["token"])).messages[0]["matches"]:
            assert time.monotonic() < deadline
            await asyncio.sleep(0.2)
        for seat in "ESW":
            await http.post(f"/v1/matches/{match_id}/seats/{seat}", headers=auth(players[seat]), json={})
        table = await view(http, match_id, players["N"])
        await stream.until(lambda f: f.of("your_turn") or f.of("match_started"))
        await asyncio.sleep(0.5)
        for seat in "NESW":
            snapshot = (await follow(system.base, players[seat]["token"])).messages[0]
            [mine] = [m for m in snapshot["matches"] if m["match_id"] == match_id]
            assert mine["status"] == "playing" and mine["seats"] == [seat]
            assert mine["to_act"] == table["to_act"] and mine["my_turn"] == (seat in table["to_act"])
            assert mine["version"] == table["version"]
        await stream.stop()


async def test_a_tournament_round_start_reaches_its_entrants(system) -> None:
    async with httpx.AsyncClient(base_url=system.base, timeout=30) as http:
        organiser = {"token": system.admin_token("acct organiser")}
        ann, bob = await register(http, "acct ann"), await register(http, "acct bob")
        streams = {who: await follow(system.base, p["token"]) for who, p in (("ann", ann), ("bob", bob))}
        created = await http.post("/v1/tournaments", headers=auth(organiser), json={
            "name": "Account cup", "game": "belote", "format": "swiss", "rounds": 1, "options": {"deals": 1}})
        assert created.status_code == 201, created.text
        tid = created.json()["tournament_id"]
        entry = await http.post(f"/v1/tournaments/{tid}/entries", headers=auth(ann),
                                json={"players": [ann["id"], bob["id"]]})
        assert entry.status_code == 201, entry.text
        bots = await http.post(f"/v1/tournaments/{tid}/entries", headers=auth(organiser),
                               json={"players": ["bot:random", "bot:random"]})
        assert bots.status_code == 201, bots.text
        started = await http.post(f"/v1/tournaments/{tid}/start", headers=auth(organiser), json={})
        assert started.status_code in (200, 201), started.text
        for who, stream in streams.items():
            await stream.until(lambda f: f.of("round_started", tournament_id=tid))
            [round_started] = stream.of("round_started", tournament_id=tid)
            assert round_started["round"] == 1 and round_started["match_id"]
            assert stream.of("tournament_started", tournament_id=tid)
            await stream.until(lambda f: f.of("match_started", match_id=round_started["match_id"]))
        await asyncio.sleep(0.5)
        snapshot = (await follow(system.base, ann["token"])).messages[0]
        [mine] = [t for t in snapshot["tournaments"] if t["tournament_id"] == tid]
        assert mine["status"] == "running" and mine["round"] == 1 and mine["match_id"] == round_started["match_id"]
        for stream in streams.values():
            assert not any(CARD.search(line) for line in stream.raw)
            assert all(DECODER.decode(line) for line in stream.raw)
            await stream.stop()


async def test_refusals(system) -> None:
    async with httpx.AsyncClient(base_url=system.base, timeout=30) as http:
        assert (await http.get("/v1/stream/me")).json()["code"] == "unauthorized"
        player = await register(http, "acct refused")
        bad = await http.get("/v1/stream/me?after=-1", headers=auth(player))
        assert bad.status_code == 400 and bad.json()["code"] == "invalid_field"
        beyond = (await follow(system.base, player["token"], after=5, snapshot=False))
        await beyond.until(lambda f: f.task.done())
        assert [(m["type"], m.get("code")) for m in beyond.messages] == [("error", "resync")]
        assert beyond.messages[0]["details"]["reason"] == "expired"


async def test_my_match_suspended_and_resumed_reach_its_players(system, migrated_database_url: str) -> None:
    """A match the server cannot move on is suspended (here as a failing bot task would): its
    players hear it with the stable reason only, then that an admin resumed it, and whose turn."""
    from infra.store import PostgresEventStore, create_pool
    from infra.vault import Vault
    from services.matches import suspensions
    from services.matches.service import MatchService

    async with httpx.AsyncClient(base_url=system.base, timeout=30) as http:
        players = {seat: await register(http, f"susp {seat}") for seat in "NESW"}
        streams = {seat: await follow(system.base, players[seat]["token"]) for seat in "NESW"}
        created = await http.post("/v1/matches", headers=auth(players["N"]), json={
            "game": "cinch", "options": {"deals": 1}, "seats": {"N": "me", "E": "open", "S": "open", "W": "open"}})
        match_id = created.json()["match_id"]
        for seat in "ESW":
            assert (await http.post(f"/v1/matches/{match_id}/seats/{seat}", headers=auth(players[seat]),
                                    json={})).status_code == 200
        table = await view(http, match_id, players["N"])
        pool = await create_pool(migrated_database_url, max_size=2)
        try:
            svc = MatchService(PostgresEventStore(pool), Vault(pool))
            try:
                raise ValueError("a secret message about the KS")
            except ValueError as error:
                assert await suspensions.suspend(svc, match_id, table["version"], "bots.play_turn", error)
        finally:
            await pool.close()
        for stream in streams.values():
            await stream.until(lambda f: f.of("match_suspended", match_id=match_id))
        admin = {"token": system.admin_token("susp admin")}
        resumed = await http.post(f"/v1/admin/matches/{match_id}/resume", headers=auth(admin),
                                  json={"reason": "fixed", "command_id": str(uuid.uuid4())})
        assert resumed.status_code == 200, resumed.text
        to_act = table["to_act"]
        for seat, stream in streams.items():
            await stream.until(lambda f: f.of("match_resumed", match_id=match_id))
            [suspended] = stream.of("match_suspended", match_id=match_id)
            assert suspended == {"type": "match_suspended", "match_id": match_id, "reason": "task_failed",
                                 "at": suspended["at"]}
            [back] = stream.of("match_resumed", match_id=match_id)
            assert back["status"] == "playing"
            if seat in to_act:      # the turn due is the same seat's again, at the resumed version
                await stream.until(lambda f: any(e["match_version"] == resumed.json()["version"]
                                                 for e in f.of("your_turn", match_id=match_id)))
            assert not any("secret" in line or CARD.search(line) for line in stream.raw)
            decoded = [DECODER.decode(line) for line in stream.raw]     # strictly what the AsyncAPI says
            assert all(isinstance(m, AccountEvent) for m in decoded[1:])
            kinds = [m["event"]["type"] for m in stream.events if m["event"].get("match_id") == match_id]
            assert kinds.index("match_suspended") < kinds.index("match_resumed")
            await stream.stop()
