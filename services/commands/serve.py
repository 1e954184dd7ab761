"""`atout serve`: the HTTP API, plus embedded Postgres/Redis when no URLs are set.

On the embedded default (no ATOUT_DATABASE_URL) the one process is the whole system: it
also applies the migrations and runs the projector beside the API (services/bootstrap.py),
so `make run` alone gives a working server. With external servers the migrations and the
projector are their own processes (`atout migrate`, `atout projector`); `--projector`
forces either way.

Shutdown order matters: the API stops first (so no request is cut mid-query by
a vanishing database), then the servers this command started. uvicorn captures
SIGINT/SIGTERM while it runs and re-raises them after a graceful stop; a SIGTERM
re-raised onto Python's default handler would kill the process before the
embedded servers are stopped, so we install handlers of our own that unwind the
stack through the `finally` below instead.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import time

import msgspec

from infra.settings import Settings, SettingsError, load_settings
from infra.signing import SigningKeyError, signer

log = logging.getLogger("atout.serve")


class _Stop(BaseException):
    """Raised from a signal handler to unwind to the cleanup code."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="run the HTTP API (with embedded Postgres and Redis unless ATOUT_DATABASE_URL/ATOUT_REDIS_URL are set)",
        description="Run the HTTP API. Settings come from ATOUT_* variables (see docs/settings.md).",
    )
    parser.add_argument("--host", help="override ATOUT_HOST")
    parser.add_argument("--port", type=int, help="override ATOUT_PORT")
    parser.add_argument("--projector", action=argparse.BooleanOptionalAction, default=None,
                        help="run the projector in this process (default: only with the embedded database)")
    parser.set_defaults(func=run)


def _configure_logging(settings: Settings) -> None:
    from services.http.logs import configure

    configure(settings.log_level)


def _raise_stop(signum: int, _frame: object) -> None:
    raise _Stop(signum)


def _ignore(signum: int, _frame: object) -> None:
    log.info("already stopping; signal %s ignored", signum)


def run(args: argparse.Namespace) -> int:
    try:
        settings = load_settings()
    except SettingsError as exc:
        print(f"atout serve: {exc}", file=sys.stderr)
        return 2
    overrides = {k: v for k, v in (("host", args.host), ("port", args.port)) if v is not None}
    settings = msgspec.structs.replace(settings, **overrides)
    _configure_logging(settings)
    if settings.record_key or settings.embedded_database or settings.embedded_redis:
        try:  # the record key, made or read now: a bad key file stops the start, not the first export
            signer(settings)
        except (SigningKeyError, OSError) as exc:
            print(f"atout serve: the record-signing key: {exc}", file=sys.stderr)
            return 2
    else:
        log.warning("ATOUT_RECORD_KEY is unset: exported records will be signed with a key made in %s on first "
                    "use; replicas must share one ATOUT_RECORD_KEY (docs/settings.md)", settings.data_path)

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, _raise_stop)
    started = time.monotonic()
    servers = None
    worker = reviewer = None
    embedded = settings.embedded_database
    projector = embedded if args.projector is None else args.projector
    try:
        if settings.embedded_database or settings.embedded_redis:
            from infra.embedded import start_embedded

            log.info("starting embedded %s under %s",
                     " and ".join(n for n, e in (("postgres", settings.embedded_database),
                                                 ("redis", settings.embedded_redis)) if e),
                     settings.data_path)
            servers = start_embedded(settings.data_path, postgres=settings.embedded_database,
                                     redis=settings.embedded_redis)
            settings = msgspec.structs.replace(
                settings,
                database_url=settings.database_url or servers.database_url,
                redis_url=settings.redis_url or servers.redis_url,
            )
            log.info("embedded servers ready in %.1fs", time.monotonic() - started)
        if embedded:  # bots and turn clocks play on the embedded default too
            from services.workers.embedded import start_worker

            worker = start_worker(settings, queues="bots,clock")
            reviewer = start_worker(settings, queues="reviews", beat=False)
        _serve_http(settings, projector=projector, apply_migrations=embedded)
    except _Stop:
        pass
    except Exception as exc:
        if type(exc).__name__ != "EmbeddedError":
            raise
        print(f"atout serve: {exc}", file=sys.stderr)
        return 1
    except SystemExit as exc:  # uvicorn exits this way when it cannot start (port in use, ...)
        return exc.code if isinstance(exc.code, int) else 1
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, _ignore)
        for child in (worker, reviewer):
            if child is not None:
                child.stop()
        if servers is not None:
            log.info("stopping embedded servers")
            servers.stop()
    return 0


def _serve_http(settings: Settings, *, projector: bool, apply_migrations: bool) -> None:
    import uvicorn

    from infra.heap import settle_heap
    from infra.observability import HttpMetrics
    from services.commands.header_timeout import protocol
    from services.http.app import create_app

    app = create_app(settings, projector=projector, apply_migrations=apply_migrations)
    settle_heap()   # after the imports and the app: what lives as long as the process
    config = uvicorn.Config(
        HttpMetrics(app),  # atout_http_responses_total (infra/observability.py)
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        log_config=None,  # our JSON handler on the root logger (services/http/logs.py)
        lifespan="on",
        # X-Forwarded-For is believed only from the proxies named in ATOUT_TRUSTED_PROXIES:
        # from anyone else it is a header a client wrote (uvicorn would trust 127.0.0.1,
        # which is every local client, and so reset the per-address limits on request).
        proxy_headers=bool(settings.trusted_proxies),
        forwarded_allow_ips=",".join(settings.trusted_proxies),
        timeout_graceful_shutdown=SHUTDOWN_TIMEOUT,
        http=protocol(settings.header_timeout),  # a request's head within ATOUT_HEADER_TIMEOUT, or 408 and closed
    )
    _graceful_server(config, app, settings).run()


# --- graceful shutdown -----------------------------------------------------------------------------

SHUTDOWN_TIMEOUT = 25.0  # seconds for in-flight requests after SIGTERM (k8s grace period: 40 s)


def bound_unread(listeners: list, settings: Settings) -> None:
    """What a client that stops reading may cost: the kernel holds at most `send_buffer`
    bytes for it (instead of autotuning to megabytes, in which a stalled client's backlog
    would sit unnoticed), and a connection whose sent bytes stay unread for `write_timeout`
    seconds — a full receive window never reopening — is cut by the kernel (TCP_USER_TIMEOUT),
    which ends its stream here. Set on the listening sockets: accepted ones inherit both."""
    import socket

    for listener in listeners:
        if listener.family not in (socket.AF_INET, socket.AF_INET6):
            continue
        if settings.send_buffer:
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, settings.send_buffer)
        if hasattr(socket, "TCP_USER_TIMEOUT"):
            listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, int(settings.write_timeout * 1000))


def _graceful_server(config: object, app: object, settings: Settings) -> object:
    """uvicorn's server, whose shutdown on SIGTERM stops accepting, tells every connection to
    finish (in-flight actions complete; WebSockets get close 1012 "service restart") and waits
    for them; live HTTP streams, which never finish on their own, are then ended with a resync
    hint (`services.live.routes.deps.drain`). The lifespan then closes the runtime, and with it the
    projector beside the API, which stops between batches."""
    import asyncio

    import uvicorn

    class GracefulServer(uvicorn.Server):
        async def startup(self, sockets: list | None = None) -> None:
            await super().startup(sockets)
            bound_unread([sock for server in getattr(self, "servers", []) for sock in server.sockets], settings)

        async def shutdown(self, sockets: list | None = None) -> None:
            closing = asyncio.ensure_future(super().shutdown(sockets))
            await asyncio.sleep(0)  # uvicorn closes the listeners and tells each connection first
            try:
                from services.live.routes.deps import drain
            except ImportError:
                pass
            else:
                drained = drain(app)
                if drained:
                    log.info("ended %d live streams for the restart", drained)
            await closing

    return GracefulServer(config)
