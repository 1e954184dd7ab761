"""Pages of a list: `limit` rows, newest first, and a cursor to the next page in a `Link`
header (`rel="next"`), so the bodies stay arrays.

A cursor is the last row's sort key — (time, id) — in base64url JSON: opaque to clients, a
keyset to the read model (`(t, id) < cursor`), so a page never repeats or skips a row that
was already there when the first page was read, however many arrive meanwhile. Page size:
1..200, 50 by default (`Limit`); a cursor is at most 200 characters.
"""

from __future__ import annotations

import base64
import binascii
from datetime import datetime
from typing import Annotated, Any
from urllib.parse import urlencode

import msgspec
from litestar import Request, Response
from litestar.params import QueryParameter

from services.http.errors import malformed

CURSOR_CHARS = 200
Cursor = Annotated[str | None, QueryParameter(max_length=CURSOR_CHARS, pattern=r"^[A-Za-z0-9_-]+$",
                                              description="the `cursor` of a `Link: <…>; rel=\"next\"` header: the "
                                                          "page after the one that gave it")]
Key = tuple[datetime, str]


def decode(cursor: str | None) -> Key | None:
    """The sort key a cursor names; 400 `invalid_field` naming `cursor` when it is not one."""
    if cursor is None:
        return None
    try:
        at, key = msgspec.json.decode(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)),
                                      type=tuple[str, str])
        return datetime.fromisoformat(at), key
    except (ValueError, binascii.Error, msgspec.DecodeError, msgspec.ValidationError):
        raise malformed("cursor", "cursor: not a cursor this server gave (take it from the Link header)",
                        source="query") from None


def version_before(cursor: str | None) -> int | None:
    """The stream version a cursor of a list paged by version names (a chat's: the rows older
    than it follow), or None without one; 400 naming `cursor` when it is not such a cursor."""
    key = decode(cursor)
    if key is None:
        return None
    if not (key[1].isascii() and key[1].isdigit() and len(key[1]) <= 18):
        raise malformed("cursor", "cursor: not a cursor of this list (take it from the Link header)", source="query")
    return int(key[1])


def encode(at: str, key: str) -> str:
    return base64.urlsafe_b64encode(msgspec.json.encode([at, key])).rstrip(b"=").decode()


def page(request: Request, rows: list[dict[str, Any]], limit: int, time_field: str, key_field: str) -> Response:
    """`rows` as the body; a `Link` to the next page when this one is full."""
    headers = {}
    if len(rows) >= limit and rows and rows[-1].get(time_field):
        query = {k: v for k, v in request.query_params.items() if k != "cursor"}
        query["cursor"] = encode(rows[-1][time_field], str(rows[-1][key_field]))
        headers["Link"] = f'<{request.url.path}?{urlencode(query)}>; rel="next"'
    return Response(rows, headers=headers)
