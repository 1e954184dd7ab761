"""What each process runs is what the features declare, and nothing else decides it.

The API app, the projector, the worker and beat are built here the way their commands build
them (`services.http.app.create_app`, `services.commands.projections.all_projections`,
`services.bootstrap.worker_app`), in a fresh interpreter that has imported nothing else, and
compared with the features' declarations and with the literal list of what the system has.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from services.visibility import Visibility

ROOT = Path(__file__).resolve().parents[2]

PROBE = r"""
import json
from litestar import Router
from infra.settings import Settings
from services import bootstrap
from services.http.app import create_app
from services.commands.projections import all_projections

def handlers(items):
    for item in items:
        if not isinstance(item, Router):       # the web client's static files: a router of its own
            yield item

settings = Settings(redis_url="redis://127.0.0.1:1/0")
app = create_app(settings)
def route_handlers(route):
    return getattr(route, "route_handlers", None) or [route.route_handler]

mounted = {getattr(h, "fn", h) for route in app.routes for h in route_handlers(route)}
declared = {getattr(h, "fn", h) for h in handlers(bootstrap.route_handlers())}
worker = bootstrap.worker_app(settings)
import importlib, pkgutil
import services
undeclared = []
route_modules = [info.name for info in pkgutil.walk_packages(services.__path__, "services.")
                 if info.name.startswith("services.http.") or ".routes." in info.name]
for name in route_modules:
    module = importlib.import_module(name)
    for handler in handlers(getattr(module, "ROUTES", [])):
        if getattr(handler, "fn", handler) not in mounted:
            undeclared.append(f"{name}:{getattr(getattr(handler, 'fn', handler), '__name__', handler)}")
print(json.dumps({
    "undeclared": sorted(undeclared),
    "route_modules": len(route_modules),
    "features": [f.name for f in bootstrap.FEATURES],
    "missing_routes": sorted(str(getattr(h, "__name__", h)) for h in declared - mounted),
    "paths": sorted({p for route in app.routes for p in [route.path]}),
    "lifespans": len(bootstrap.lifespan_hooks()),
    "projections": [p.name for p in all_projections(settings)],
    "tasks": sorted(t for t in worker.tasks if not t.startswith("celery.")),
    "beat": sorted(worker.conf.beat_schedule),
}))
"""


@pytest.fixture(scope="module")
def processes() -> dict:
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_features_are_the_literal_list(processes) -> None:
    assert processes["features"] == ["site", "players", "matches", "hints", "live streams", "bots and clocks",
                                     "tournaments", "duplicate", "disputes", "suspended matches", "account stream", "ratings",
                                     "invitations", "follow and block", "chat", "reviews", "quick play"]


def test_the_api_mounts_every_declared_route(processes) -> None:
    """And every route a route module defines (its `ROUTES`: `services/http/`, each feature's
    `routes/`) is declared by a feature."""
    assert processes["route_modules"] >= 30
    assert processes["missing_routes"] == []
    assert processes["undeclared"] == []
    paths = set(processes["paths"])
    for path in ("/healthz", "/metrics", "/v1/players", "/v1/matches/{match_id:str}/actions",
                 "/v1/matches/{match_id:str}/ws", "/v1/tournaments/{tournament_id:str}/live",
                 "/v1/admin/disputes", "/v1/matches/{match_id:str}/disputes", "/v1/matches/{match_id:str}/hint",
                 "/v1/admin/matches/suspended", "/v1/stream/me", "/v1/stream/me/ws",
                 "/v1/matches/{match_id:str}/invitations", "/v1/invitations/{invitation_id:str}/accept",
                 "/v1/players/me/following/tables", "/v1/players/me/blocks",
                 "/v1/matches/{match_id:str}/chat", "/v1/matches/{match_id:str}/chat/stream",
                 "/v1/matches/{match_id:str}/chat/ws", "/v1/matches/{match_id:str}/deals/{deal:int}/analysis",
                 "/v1/admin/fairplay", "/v1/quickplay", "/v1/quickplay/stats"):
        assert path in paths, path
    assert processes["lifespans"] >= 1                     # the live streams' fan-out


def test_the_projector_runs_every_declared_projection(processes) -> None:
    assert processes["projections"] == ["match_summaries", "lobby", "hand_records", "publisher", "bot_turns",
                                        "tournament_standings", "disputes", "ratings", "invitations", "social_ties",
                                        "chat_publisher", "chat_reports", "account_events"]


def test_the_worker_and_beat_run_every_declared_task(processes) -> None:
    assert processes["tasks"] == ["bots.play_turn", "clock.expire", "duplicate.daily", "quickplay.tick", "reviews.review_pending",
                                  "sweeper.sweep", "tournaments.advance", "tournaments.match_finished",
                                  "tournaments.tick"]
    assert processes["beat"] == ["quickplay", "reviews", "sweep", "tournaments"]


async def test_visibility_fails_closed() -> None:
    """No check declared: no match is public, no organiser owns one, nobody is an entrant."""
    closed = Visibility()
    assert await closed.is_public("any") is False
    assert await closed.organisers("any") == set() and await closed.entrants("any") == set()

    async def yes(_: str) -> bool:
        return True

    async def no(_: str) -> bool:
        return False

    assert await Visibility([yes]).is_public("m") is True
    assert await Visibility([yes, no]).is_public("m") is False


LOADS = r"""
import json, sys
from infra.settings import Settings
from services import bootstrap
import services.cli                                    # every command's module: `atout worker` is one
settings = Settings(redis_url="redis://127.0.0.1:1/0", database_url="postgresql://nobody@127.0.0.1:1/none")
built = [p.name for p in bootstrap.projections(settings)]
worker = bootstrap.worker_app(settings)
print(json.dumps({"projections": len(built), "tasks": len(worker.tasks),
                  "http": sorted(m for m in sys.modules if m.split(".")[0] in ("litestar", "uvicorn")
                                 or ".routes" in m or (m.startswith("services.http.") and not m.endswith(".feature")))}))
"""


def test_the_worker_and_the_projector_load_no_http_module() -> None:
    """Built from the same declarations as the API, they import no Litestar, no route module and
    nothing of the HTTP package: a feature names its routes lazily (`services.features.Lazy`)."""
    out = subprocess.run([sys.executable, "-c", LOADS], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    loaded = json.loads(out.stdout.strip().splitlines()[-1])
    assert loaded["projections"] >= 10 and loaded["tasks"] >= 6
    assert loaded["http"] == []
