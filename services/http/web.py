"""The reference web client: static files, no build step.

`GET /` is the player's page (`services/web/index.html`), `GET /admin` the admin's page for
stepping through a disputed deal (`admin.html`), `GET /verify` the standalone page that
recomputes a match record's deals (`verify.html`: one file, nothing else of Atout's); their scripts and style are under `/web/`.
Nothing here needs a token: the pages talk to the same public API as any other client
(`docs/web-client.md`). The files ship as package data (`pyproject.toml`).
"""

from __future__ import annotations

from pathlib import Path

from litestar import get
from litestar.response import File
from litestar.static_files import create_static_files_router

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
NO_CACHE = {"Cache-Control": "no-cache"}


def _page(name: str) -> File:
    return File(WEB_DIR / name, media_type="text/html; charset=utf-8", content_disposition_type="inline",
                headers=NO_CACHE)


@get("/", include_in_schema=False, name="web_index")
async def index() -> File:
    return _page("index.html")


@get("/admin", include_in_schema=False, name="web_admin")
async def admin() -> File:
    return _page("admin.html")


@get("/verify", include_in_schema=False, name="web_verify")
async def verify() -> File:
    return _page("verify.html")


ROUTES = [index, admin, verify, create_static_files_router(path="/web", directories=[WEB_DIR], name="web",
                                                   include_in_schema=False)]
