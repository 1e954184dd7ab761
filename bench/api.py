"""API benchmark: simulated tables play random legal actions over HTTP, every seat on a WebSocket.

    python bench/api.py [--tables 250] [--seconds 20] [--rates 150,300] [--pg URL] [--redis URL] [--profile P]

Starts, on this machine, `atout serve` (the API) and a projector process (read models and
the publisher) on a fresh database, registers players, seats `--tables` matches (four
WebSockets each: 1,000 open sockets by default), then measures, printing JSON:

* `healthz_rps`: the raw `GET /healthz` rate of the same server, as the ceiling;
* `max`: every table acting as fast as its answers come back (commands/s sustained);
* `paced_<rate>`: each of `--rates` actions/s in total, for latencies at a steady load;
* `verdict`: each of `targets` against the figures of this run: the API's CPU per action at
  the max (<= 1.0 ms), the max at least a tenth of `healthz_rps`, action p99 <= 25 ms at
  150/s and <= 50 ms at 300/s, fan-out p99 <= 50 ms at 300/s (with 1,000 sockets), and
  `sustained_300`, the 300 actions/s phase keeping up (at least 97% of the rate accepted,
  nothing refused).

Action latency is request to response. Fan-out latency is commit (the event's
`recorded_at`, the single-statement transaction's time) to arrival on the other seats'
sockets (not the actor's), read back from Postgres at the end. The load generator picks
each move from the seat's legal actions, reading the match from the store through its own
`MatchService` (a bot with a seat's knowledge would do the same from its view); it uses a
tiny keep-alive HTTP/1.1 client so that it costs the shared cores as little as possible.
Loops are bounded in count and time; all traffic is loopback.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import msgspec

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from domain.playout import concrete  # noqa: E402

SEATS = ("N", "E", "S", "W")


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    values = sorted(values)
    return round(values[min(len(values) - 1, int(q * len(values)))] * 1000, 2)


class Http:
    """One keep-alive HTTP/1.1 connection: enough for JSON requests with Content-Length."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: object = None, token: str | None = None) -> tuple[int, bytes]:
        data = b"" if body is None else msgspec.json.encode(body)
        auth = f"Authorization: Bearer {token}\r\n" if token else ""
        message = (f"{method} {path} HTTP/1.1\r\nHost: bench\r\n{auth}Content-Type: application/json\r\n"
                   f"Content-Length: {len(data)}\r\n\r\n").encode() + data
        for attempt in range(2):  # the server closes idle keep-alive connections: reconnect once
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            assert self.reader is not None
            try:
                self.writer.write(message)
                status_line = await self.reader.readline()
            except ConnectionError:
                status_line = b""
            if not status_line:
                self.writer.close()
                self.reader = self.writer = None
                continue
            length = 0
            while (line := await self.reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            return int(status_line.split()[1]), await self.reader.readexactly(length)
        raise ConnectionError("the server closed the connection twice")


class Pacer:
    """Hands out `rate` permits per second in total (rate 0: no limit)."""

    def __init__(self, rate: float) -> None:
        self.rate, self.tokens, self.task = rate, asyncio.Semaphore(0), None

    async def run(self) -> None:
        credit, last = 0.0, time.perf_counter()
        while True:
            await asyncio.sleep(0.005)
            now = time.perf_counter()
            credit, last = credit + (now - last) * self.rate, now
            while credit >= 1:
                self.tokens.release()
                credit -= 1

    async def permit(self) -> None:
        if self.rate > 0:
            await self.tokens.acquire()


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.statuses: dict[int, int] = {}
        self.actors: dict[tuple[str, int], str] = {}  # (match, version) -> seat that caused it
        self.arrivals: list[tuple[str, int, str, float]] = []  # match, version, seat, wall time
        self.recording = False


class Table:
    def __init__(self, port: int, players: list[dict], svc, rng: random.Random) -> None:
        self.http, self.players, self.svc, self.rng = Http(port), players, svc, rng
        self.match_id = ""
        self.sockets: list = []
        self.stats = Stats()  # the current phase's, read by the socket readers

    async def open(self, port: int, options: dict, sockets: bool = True) -> None:
        status, body = await self.http.request("POST", "/v1/matches", {
            "game": "belote", "options": options, "seats": {"N": "me", "E": "open", "S": "open", "W": "open"}},
            self.players[0]["token"])
        assert status == 201, body
        self.match_id = json.loads(body)["match_id"]
        for seat, player in zip(SEATS[1:], self.players[1:]):
            status, body = await self.http.request("POST", f"/v1/matches/{self.match_id}/seats/{seat}", {},
                                                   player["token"])
            assert status == 200, body
        from websockets.asyncio.client import connect

        for seat, player in zip(SEATS, self.players if sockets else []):
            ws = await connect(f"ws://127.0.0.1:{port}/v1/matches/{self.match_id}/ws",
                               additional_headers={"Authorization": f"Bearer {player['token']}"},
                               max_queue=None, compression=None)
            self.sockets.append(ws)
            asyncio.create_task(self._read(ws, seat))

    async def _read(self, ws, seat: str) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for raw in ws:
                stats = self.stats
                if stats.recording:
                    at = time.time()
                    head = raw[:40]  # '{"type":"event","version":123,...'
                    if head.startswith('{"type":"event"'):
                        stats.arrivals.append((self.match_id, int(head[26:head.index(",", 26)]), seat, at))
        except ConnectionClosed:
            pass

    async def play(self, pacer: Pacer, until: float, stats: Stats, limit: int) -> None:
        for _ in range(limit):
            if time.perf_counter() >= until:
                return
            await pacer.permit()
            state = await self.svc.load(self.match_id)
            if state.status != "playing":
                return
            game = state.game
            choices = [(s, a) for s in game.status(state.game_state).to_act
                       for a in game.legal_actions(state.game_state, s)]
            seat, action = self.rng.choice(choices)
            body = {"command_id": str(uuid.uuid4()), "expected_version": state.version, **concrete(action, self.rng)}
            token = self.players[SEATS.index(seat.value)]["token"]
            started = time.perf_counter()
            status, answer = await self.http.request("POST", f"/v1/matches/{self.match_id}/actions", body, token)
            stats.latencies.append(time.perf_counter() - started)
            stats.statuses[status] = stats.statuses.get(status, 0) + 1
            if status == 200:
                for version in range(state.version + 1, json.loads(answer)["version"] + 1):
                    stats.actors[(self.match_id, version)] = seat.value


async def healthz_rate(port: int, seconds: float, connections: int = 16) -> float:
    count, until = 0, time.perf_counter() + seconds

    async def hammer() -> None:
        nonlocal count
        http = Http(port)
        while time.perf_counter() < until:
            status, _ = await http.request("GET", "/healthz")
            count += status == 200

    started = time.perf_counter()
    await asyncio.gather(*(hammer() for _ in range(connections)))
    return round(count / (time.perf_counter() - started), 1)


def cpu_seconds(pids: dict[str, int]) -> dict[str, float]:
    """CPU time (user + system) of each process so far: what an action costs each of them,
    whatever else the shared machine is doing."""
    import psutil

    out = {}
    for who, pid in pids.items():
        times = psutil.Process(pid).cpu_times()
        out[who] = times.user + times.system
    return out


async def phase(tables: list[Table], rate: float, seconds: float, conn: asyncpg.Connection,
                pids: dict[str, int]) -> dict:
    await asyncio.sleep(3.0)  # let the previous phase's backlog (projector, sockets) drain
    stats = Stats()
    cpu_before = cpu_seconds(pids)
    pacer = Pacer(rate)
    ticker = asyncio.create_task(pacer.run()) if rate > 0 else None
    for table in tables:
        table.stats = stats
    stats.recording, started = True, time.perf_counter()
    await asyncio.gather(*(t.play(pacer, started + seconds, stats, limit=100_000) for t in tables))
    elapsed = time.perf_counter() - started
    await asyncio.sleep(1.0)  # let the last fan-outs land
    stats.recording = False
    if ticker:
        ticker.cancel()
    rows = await conn.fetch("SELECT stream_id, stream_version, extract(epoch FROM recorded_at)::float8 FROM events"
                            " WHERE stream_id = ANY($1::text[])", [f"match-{t.match_id}" for t in tables])
    committed = {(r[0][6:], r[1]): r[2] for r in rows}
    fanout = [at - committed[(m, v)] for m, v, seat, at in stats.arrivals
              if stats.actors.get((m, v), seat) != seat and (m, v) in committed]
    accepted = stats.statuses.get(200, 0)
    cpu_after = cpu_seconds(pids)
    cpu_ms = {who: round(1000 * (cpu_after[who] - cpu_before[who]) / max(1, accepted), 2) for who in pids}
    return {"cpu_ms_per_action": cpu_ms,"target_rate": rate or "max", "seconds": round(elapsed, 1), "commands": len(stats.latencies),
            "accepted_per_s": round(accepted / elapsed, 1), "statuses": stats.statuses,
            "action_ms": {"p50": pct(stats.latencies, 0.5), "p99": pct(stats.latencies, 0.99)},
            "fanout_ms": {"p50": pct(fanout, 0.5), "p99": pct(fanout, 0.99), "deliveries": len(fanout)}}


TARGETS = {"cpu_ms_per_action_serve_at_max": "<= 1.0", "accepted_per_s_at_max": ">= 0.10 x healthz_rps",
           "p99_action_ms": "<= 25 at 150/s, <= 50 at 300/s", "p99_fanout_ms_at_300": "<= 50 (1,000 sockets)",
           "sustained_300": ">= 97% of 300/s accepted, nothing refused"}


def verdict(result: dict) -> dict:
    """Each target against this run's figures; a target whose phase did not run is None."""
    at_300, at_150, top = result.get("paced_300"), result.get("paced_150"), result.get("max", {})
    return {
        "cpu_ms_per_action_serve_within_1": None if not top else top["cpu_ms_per_action"]["serve"] <= 1.0,
        "max_at_least_a_tenth_of_healthz": None if not top else top["accepted_per_s"] >= 0.10 * result["healthz_rps"],
        "sustained_300": None if not at_300 else (at_300["accepted_per_s"] >= 0.97 * 300
                                                 and {int(code) for code in at_300["statuses"]} == {200}),
        "p99_action_at_150_within_25ms": None if not at_150 else at_150["action_ms"]["p99"] <= 25,
        "p99_action_at_300_within_50ms": None if not at_300 else at_300["action_ms"]["p99"] <= 50,
        "p99_fanout_at_300_within_50ms": None if not at_300 or at_300["fanout_ms"]["p99"] is None
        or result["sockets"] < 1000 else at_300["fanout_ms"]["p99"] <= 50,
    }


def _with_db(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path="/" + name))


def _wait_ready(port: int, proc: subprocess.Popen, seconds: float = 60) -> None:
    import httpx

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"atout serve exited with {proc.returncode}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise SystemExit("atout serve did not become ready")


async def bench(args: argparse.Namespace) -> dict:
    from infra.heap import settle_heap
    from infra.store import PostgresEventStore, create_pool, migrate
    from infra.vault import Vault
    from services.matches.service import MatchService

    name = f"atout_bench_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(args.pg)
    await admin.execute(f'CREATE DATABASE "{name}"')
    url, prefix = _with_db(args.pg, name), f"atout_bench_{secrets.token_hex(4)}"
    procs: list[subprocess.Popen] = []
    try:
        conn = await asyncpg.connect(url)
        await migrate(conn)
        port = args.port
        env = {k: v for k, v in os.environ.items() if not k.startswith("ATOUT_")}
        env.update(ATOUT_DATABASE_URL=url, ATOUT_REDIS_URL=args.redis, ATOUT_REDIS_PREFIX=prefix,
                   ATOUT_PORT=str(port), ATOUT_LOG_LEVEL="warning",
                   ATOUT_REGISTRATIONS_PER_HOUR="0")   # the load registers its players from one address
        procs.append(subprocess.Popen([sys.executable, "-m", "services.cli", "serve", "--no-projector"], env=env,
                                      cwd=ROOT, stdout=open(args.log, "wb"), stderr=subprocess.STDOUT))
        procs.append(subprocess.Popen([sys.executable, __file__, "--role", "projector"], env=env, cwd=ROOT,
                                      stdout=open(args.log + ".projector", "wb"), stderr=subprocess.STDOUT))
        _wait_ready(port, procs[0])
        result: dict = {"cores": os.cpu_count(), "load_average_at_start": os.getloadavg(), "tables": args.tables,
                        "sockets": 0 if args.no_sockets else 4 * args.tables}
        result["healthz_rps"] = await healthz_rate(port, 5.0)

        http = Http(port)
        players = []
        for i in range(args.players):
            status, body = await http.request("POST", "/v1/players", {"name": f"bench {i}"})
            assert status == 201, body
            players.append(json.loads(body))
        pool = await create_pool(url, max_size=8)
        svc = MatchService(PostgresEventStore(pool), Vault(pool))
        rng = random.Random(args.seed)
        tables = []
        for t in range(args.tables):
            seated = [players[(4 * t + k) % len(players)] for k in range(4)]
            table = Table(port, seated, svc, random.Random(rng.random()))
            await table.open(port, {"deals": 500}, sockets=not args.no_sockets)
            tables.append(table)
        settle_heap()   # the load generator's own collections take the shared cores too
        pids = {"serve": procs[0].pid, "projector": procs[1].pid, "bench": os.getpid()}
        spies = _profile(args, {"serve": procs[0].pid, "projector": procs[1].pid})
        result["max"] = await phase(tables, 0, args.seconds, conn, pids)
        for spy in spies:
            spy.wait(30)
        if spies:
            result["profiles"] = {who: _top(f"{args.profile}.{who}.txt") for who in ("serve", "projector")}
        for rate in args.rates:
            result[f"paced_{rate:g}"] = await phase(tables, rate, args.seconds, conn, pids)
        result["targets"] = TARGETS
        result["verdict"] = verdict(result)
        for table in tables:
            for ws in table.sockets:
                await ws.close()
        await pool.close()
        await conn.close()
        return result
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


def _profile(args: argparse.Namespace, pids: dict[str, int]) -> list[subprocess.Popen]:
    """With --profile PREFIX, py-spy samples the API and the projector during the max phase."""
    spy = Path(sys.executable).parent / "py-spy"
    if not args.profile or not spy.exists():
        return []
    return [subprocess.Popen([str(spy), "record", "-p", str(pid), "-d", str(int(args.seconds)), "-f", "raw",
                              "-o", f"{args.profile}.{who}.txt", "--nonblocking"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for who, pid in pids.items()]


def _top(path: str, count: int = 25) -> list[str]:
    """The functions with the most samples on their stack (inclusive), as '% function'."""
    inclusive: dict[str, int] = {}
    total = 0
    try:
        lines = Path(path).read_text().splitlines()
    except OSError:
        return []
    for line in lines:
        stack, _, n = line.rpartition(" ")
        total += int(n)
        for frame in set(stack.split(";")):
            inclusive[frame] = inclusive.get(frame, 0) + int(n)
    ranked = sorted(inclusive.items(), key=lambda item: -item[1])
    return [f"{100 * n / total:.1f}% {frame}" for frame, n in ranked[:count]]


async def projector_role() -> None:
    """The projector process of the run: the read models and the publisher."""
    import signal

    from infra.heap import settle_heap
    from infra.projections import ProjectionRunner, default_projections, run_projector
    from infra.projections.publisher import Publisher
    from infra.settings import load_settings
    from infra.store import PostgresEventStore, create_pool

    settings = load_settings()
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    pool = await create_pool(settings.database_url, max_size=4)
    runner = ProjectionRunner(PostgresEventStore(pool))
    settle_heap()   # as `atout projector` does
    await run_projector(runner, [*default_projections(), Publisher()], redis_url=settings.redis_url,
                        redis_prefix=settings.redis_prefix, poll_interval=0.5, stop=stop)
    await pool.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--role", default="bench", choices=["bench", "projector"])
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--players", type=int, default=160, help="tokens to spread the per-token rate limit over")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rates", type=lambda text: [float(r) for r in text.split(",")], default=[150.0, 300.0],
                        help="actions/s in total of each paced phase, comma-separated (default 150,300)")
    parser.add_argument("--pg", default=os.environ.get("ATOUT_BENCH_PG", "postgresql://postgres@127.0.0.1:5432/postgres"))
    parser.add_argument("--redis", default=os.environ.get("ATOUT_BENCH_REDIS", "redis://127.0.0.1:6379/0"))
    parser.add_argument("--port", type=int, default=18731)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-sockets", action="store_true", help="no WebSockets: the fan-out's share by difference")
    parser.add_argument("--log", default="/tmp/atout-bench-serve.log")
    parser.add_argument("--profile", help="py-spy output prefix: profile the API and projector in the max phase")
    args = parser.parse_args()
    if args.role == "projector":
        asyncio.run(projector_role())
        return
    print(json.dumps(asyncio.run(bench(args)), indent=2))


if __name__ == "__main__":
    main()
