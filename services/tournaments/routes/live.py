"""Live tournament: `GET /v1/tournaments/{id}/live` (SSE or NDJSON by `Accept`, as the match
stream) and `WS /v1/tournaments/{id}/ws` (auth by header or a first `{"type":"auth"}` message).

Messages: `{"type":"snapshot","version":V0,"view":…,"standings":[…]}` (the tournament as this
reader may see it), then with `after=V` the events `V < version <= V0`, then live ones, each
`{"type":"event","version":V,"event":{…}}`; the stream ends after `tournament_closed`. What a
player may not see keeps its version: a table's `result_recorded` becomes `{type, round,
table, hidden: true}` (its round is still open at some table), a `pairing_submitted` is
`null`; `round_closed` then carries the round's results and the standings after it. The
organiser and admins get everything as it happens — unless they play an entry of it
(`services/visibility.py`): then they read it as any entrant does.

Why tailing the store and not Redis like the match stream: a tournament has a handful of
events a round, and its stream is the truth, read in version order, so a tail is gap-free
and resumable by construction, with no projector in the path and no new channels in the
match fan-out (`infra/fanout.py`, per-seat channels). The cost is one primary-key read per
watcher every `ATOUT_TOURNAMENT_LIVE_POLL` seconds (default 1) while nothing happens.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import msgspec
from litestar import Request, WebSocket, get, websocket
from litestar.exceptions import WebSocketDisconnect
from litestar.params import FromPath, FromQuery
from litestar.response import Stream

from domain import tournaments as rules
from domain.tournaments import events as ev
from infra.players import PlayerStore
from services.http import asyncapi as A
from services.http.asyncapi import Channel
from services.http.auth import authenticated, bearer_token, principal_from_token
from services.http.bodies import loads
from services.http.errors import ApiError
from services.http.ratelimit import rate_limited
from services.http.schemas import (
    BEARER,
    AfterOrNone,
    Caller,
    PathStr,
    Runtime,
    ex,
    live_params,
)
from services.live.routes.deps import until_disconnect
from services.live.routes.http import KEEPALIVE, NDJSON, SSE, transport_of
from services.runtime import Runtime as OpenRuntime
from services.tournaments.routes import examples as X
from services.tournaments.routes.views import (
    HANDLERS,
    player_names,
    sees_all,
    service,
    standings,
    view,
)
from services.tournaments.service import (
    REGISTRY,
    TournamentService,
    UnknownTournament,
    stream_of,
)

POLL = 1.0               # seconds between reads while nothing happens: ATOUT_TOURNAMENT_LIVE_POLL's default
AUTH_TIMEOUT = 10.0
_encode = msgspec.json.Encoder().encode


def shown(before: rules.State, after: rules.State, event: Any, full: bool) -> dict[str, Any] | None:
    """One event as a reader sees it (`full`: the organiser or an admin)."""
    if isinstance(event, ev.PairingSubmitted) and not full:
        return None                                    # the organiser's draft of the next round
    body = msgspec.to_builtins(event)
    if isinstance(event, ev.ResultRecorded) and not full:
        return {"type": body["type"], "round": event.round, "table": event.table, "hidden": True}
    if isinstance(event, ev.RoundClosed):
        rnd = next(r for r in view(after, True)["rounds"] if r["round"] == event.round)
        body["results"] = [t["result"] for t in rnd["tables"] if t["result"] is not None]
        body["standings"] = standings(after)["overall"]
    if isinstance(event, ev.TournamentClosed):
        body["standings"] = standings(after)["overall"]
    return body


async def messages(svc: TournamentService, tournament_id: str, principal: Any, after: int | None,
                   poll: float = POLL, players: PlayerStore | None = None) -> AsyncIterator[bytes | None]:
    """The reader's messages; None is "nothing new" (for keep-alives). UnknownTournament
    before the first message for an unknown id."""
    recorded = await svc.store.read_stream(stream_of(tournament_id))
    state = rules.initial()
    folded = []
    for r in recorded:
        event = REGISTRY.decode_recorded(r)
        before, state = state, rules.evolve(state, event)
        folded.append((r.stream_version, before, state, event))
    if state.status == "new":
        raise UnknownTournament(tournament_id)
    full = sees_all(principal, state)
    names = await player_names(players, state) if players is not None else {}
    yield _encode({"type": "snapshot", "version": state.version, "view": view(state, full, names),
                   "standings": standings(state)["overall"]})
    if after is not None:
        for version, before, now, event in folded:
            if version > after:
                yield _event(version, shown(before, now, event, full))
    while state.status != "closed":
        fresh = await svc.store.read_stream(stream_of(tournament_id), state.version)
        if not fresh:
            yield None
            await asyncio.sleep(poll)
            continue
        for r in fresh:
            event = REGISTRY.decode_recorded(r)
            before, state = state, rules.evolve(state, event)
            # Asked again at each event: an organiser who registers an entry stops seeing all.
            yield _event(r.stream_version, shown(before, state, event, sees_all(principal, state)))


def _event(version: int, body: dict[str, Any] | None) -> bytes:
    return _encode({"type": "event", "version": version, "event": body})


def _messages(runtime: OpenRuntime, tournament_id: str, principal: Any,
              after: int | None) -> AsyncIterator[bytes | None]:
    return messages(service(runtime), tournament_id, principal, after, runtime.settings.tournament_live_poll,
                    runtime.players)


@get("/v1/tournaments/{tournament_id:str}/live", guards=[authenticated, rate_limited], tags=["tournaments"],
     security=BEARER, exception_handlers=HANDLERS, summary="Live tournament: SSE (Accept: text/event-stream) or NDJSON",
     description="A snapshot of the tournament as I may see it, then (with `after=V`) the events after V, then "
                 "live events: rounds paired, tables opened, results (hidden from players until the round has "
                 "closed at every table), rounds closed with results and standings, the close.",
     responses=X.answers(200, str, [ex("NDJSON", X.LIVE)], "One JSON message a line (or SSE events)", 401, 404,
                         429, media_type="application/x-ndjson"))
async def live(request: Request, tournament_id: PathStr, principal: Caller, runtime: Runtime,
               after: AfterOrNone = None) -> Stream:
    sse, after = transport_of(request, after)
    stream = _messages(runtime, tournament_id, principal, after)
    poll = runtime.settings.tournament_live_poll
    first = await stream.__anext__()                   # UnknownTournament answers 404 here

    async def body() -> AsyncIterator[bytes]:
        try:
            yield _frame(first, sse)
            quiet = 0.0
            async for message in stream:
                if message is None:
                    quiet += poll
                    if sse and quiet >= KEEPALIVE:
                        quiet = 0.0
                        yield b": keep-alive\n\n"
                    continue
                quiet = 0.0
                yield _frame(message, sse)
        finally:
            await stream.aclose()

    return Stream(body(), media_type=SSE if sse else NDJSON,
                  headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def _frame(message: bytes, sse: bool) -> bytes:
    if not sse:
        return message + b"\n"
    version = msgspec.json.decode(message).get("version")
    return b"id: %d\ndata: %s\n\n" % (version, message)


@websocket("/v1/tournaments/{tournament_id:str}/ws", name="tournament_ws")
async def live_ws(socket: WebSocket, tournament_id: FromPath[str], after: FromQuery[str | None] = None) -> None:
    """The same messages on a WebSocket; closes 1000 after `tournament_closed`, 4400 for a bad
    id or `after`, 4401 without a valid token, 4404 for an unknown tournament."""
    await socket.accept()
    try:
        version = live_params("tournament_id", tournament_id, after, socket.scope.get("query_string", b""))
    except ApiError as bad:
        await socket.send_data(_encode({"type": "error", "code": bad.code, "message": bad.detail,
                                        "details": bad.details}).decode())
        await socket.close(4400, bad.code)
        return
    token = bearer_token(socket.headers)
    if token is None:
        with contextlib.suppress(TimeoutError, msgspec.DecodeError, WebSocketDisconnect):
            async with asyncio.timeout(AUTH_TIMEOUT):
                first = loads(await socket.receive_data(mode="text"))
            token = first.get("token") if isinstance(first, dict) and first.get("type") == "auth" else None
    principal = await principal_from_token(socket.app.state, token)
    if principal is None:
        await socket.send_data(_error("unauthorized", "send 'Authorization: Bearer <token>' or {type: auth, token}"))
        await socket.close(4401, "unauthorized")
        return
    stream = _messages(socket.app.state.runtime, tournament_id, principal, version)
    sender = asyncio.create_task(_send_all(socket, stream))
    watcher = asyncio.create_task(until_disconnect(socket))   # notice a client gone while all is quiet
    try:
        done, _ = await asyncio.wait({sender, watcher}, return_when=asyncio.FIRST_COMPLETED)
        if sender in done and not sender.cancelled():
            if isinstance(sender.exception(), UnknownTournament):
                await socket.send_data(_error("unknown_tournament", f"no tournament {tournament_id!r}"))
                await socket.close(4404, "unknown_tournament")
            elif sender.exception() is None:
                await socket.close(1000, "tournament_closed")
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass                                           # the client went away while we closed
    finally:
        for task in (sender, watcher):
            task.cancel()
        await asyncio.gather(sender, watcher, return_exceptions=True)
        await stream.aclose()


async def _send_all(socket: WebSocket, stream: AsyncIterator[bytes | None]) -> None:
    async for message in stream:
        if message is not None:
            await socket.send_data(message.decode())


def _error(code: str, message: str, version: int = 0) -> str:
    """Errors carry `type` and `version` like every message: the stream's last version sent
    (0 before any)."""
    return _encode({"type": "error", "version": version, "code": code, "message": message, "details": {}}).decode()


ROUTES = [live, live_ws]
CHANNELS = (
    Channel("tournamentSocket", "/v1/tournaments/{tournament_id}/ws", "ws",
            "A tournament as the caller may see it: the snapshot with the standings, then every event; closes "
            "1000 after tournament_closed, 4401 unauthorized, 4404 unknown_tournament.",
            (A.TOURNAMENT_SNAPSHOT, A.EVENT, A.ERROR), (A.AUTH,), A.AFTER),
    Channel("tournamentStream", "/v1/tournaments/{tournament_id}/live", "http",
            "The same messages as tournamentSocket on SSE or NDJSON (by Accept).",
            (A.TOURNAMENT_SNAPSHOT, A.EVENT, A.ERROR), (), A.AFTER),
)
