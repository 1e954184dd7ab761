"""Probes for orchestrators: liveness says the process answers, readiness says it can work.

They are separate because restarting a process cannot fix an unreachable database:
k8s should restart on a failing `/healthz` but only stop routing on a failing `/readyz`.
"""

from __future__ import annotations

from typing import Literal

import msgspec
from litestar import Request, Response, get
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import Example

from infra.health import check_all


class Alive(msgspec.Struct):
    status: Literal["ok"]


class Ready(msgspec.Struct):
    """Every server the process needs answers (`checks`: server -> "ok")."""

    status: Literal["ok"]
    checks: dict[str, str]


class NotReady(msgspec.Struct):
    """A server does not answer: `details` says, server by server, "ok" or what failed."""

    code: Literal["not_ready"]
    message: str
    details: dict[str, str]


@get("/healthz", sync_to_thread=False, tags=["health"], responses={200: ResponseSpec(
    data_container=Alive, description="The process answers", generate_examples=False,
    examples=[Example(summary="alive", value={"status": "ok"})])})
def healthz() -> dict[str, str]:
    return {"status": "ok"}


@get("/readyz", tags=["health"], responses={
    200: ResponseSpec(data_container=Ready, description="Postgres and Redis answer", generate_examples=False,
                      examples=[Example(summary="ready", value={"status": "ok", "checks": {"postgres": "ok",
                                                                                           "redis": "ok"}})]),
    503: ResponseSpec(data_container=NotReady, description="A server does not answer", generate_examples=False,
                      examples=[Example(summary="Redis down", value={
                          "code": "not_ready", "message": "not ready: redis not answering",
                          "details": {"postgres": "ok", "redis": "Connection refused"}})])})
async def readyz(request: Request) -> Response:
    settings = request.app.state.settings
    results = await check_all(settings.database_url, settings.redis_url)
    if all(r.ok for r in results.values()):
        return Response({"status": "ok", "checks": {name: "ok" for name in results}}, status_code=200)
    failing = {name: r.error for name, r in results.items() if not r.ok}
    return Response(
        {
            "code": "not_ready",
            "message": f"not ready: {', '.join(failing)} not answering",
            "details": {name: r.error or "ok" for name, r in results.items()},
        },
        status_code=503,
    )


ROUTES = [healthz, readyz]
