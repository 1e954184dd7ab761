"""One error shape everywhere: `{"code", "message", "details"}` (architecture, "The public contract").

Routes never build error responses: they raise, and the handlers here map every kind of
failure to its status once — the framework's own validation errors (400 with the field
path), the service's (UnknownMatch 404, ConcurrencyError 409 `stale_version`,
CommandConflictError 409 `command_conflict`), the rules' (RuleViolation 422 with the
rule's own code), and a database that cannot be reached (503 `not_ready`: Postgres down,
restarting or out of connections is the server's state, never the request's fault, and a
client may retry). Keeping the mapping in one table is what keeps the order of checks and
the codes identical across routes.
"""

from __future__ import annotations

import logging
import re
from http import HTTPStatus
from typing import Any, TypeVar

import asyncpg
import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException

from domain.game import RuleViolation
from infra.store import CommandConflictError, ConcurrencyError
from services.matches.service import UnknownMatch
from services.refusals import (
    BadField,
    Conflict,
    Forbidden,
    NotFound,
    NotNow,
    Refused,
    TooMany,
)

log = logging.getLogger(__name__)
T = TypeVar("T")


def error_body(code: str, message: str, details: Any = None) -> dict[str, Any]:
    return {"code": code, "message": message, "details": details if details is not None else {}}


class ApiError(HTTPException):
    """An HTTP error with a stable machine-readable `code` and structured `details`."""

    def __init__(self, status_code: int, code: str, message: str, details: dict[str, Any] | None = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(detail=message, status_code=status_code, headers=headers)
        self.code = code
        self.details = details or {}


def malformed(field: str, message: str, code: str = "invalid_field", **details: Any) -> ApiError:
    return ApiError(400, code, message, {"field": field, **details})


def rejected(violation: RuleViolation) -> ApiError:
    return ApiError(422, violation.code, violation.message, dict(violation.details))


_AT = re.compile(r"^(?P<message>.*?)(?: - at `(?P<path>[^`]*)`)?$", re.S)
_MISSING = re.compile(r"missing required field `(?P<field>[^`]+)`")


def field_path(error: msgspec.ValidationError, root: str = "$") -> tuple[str, str]:
    """(JSON path, message) of a msgspec validation error, the path rooted at `root`."""
    found = _AT.match(str(error))
    message = found["message"] if found else str(error)
    path = (found["path"] if found and found["path"] else "$").replace("$", root, 1)
    if missing := _MISSING.search(message):
        path = f"{path}.{missing['field']}"
    return path, message


def convert(value: Any, type_: type[T], root: str = "$") -> T:
    """`msgspec.convert` whose failure is a 400 naming the offending field."""
    try:
        return msgspec.convert(value, type_)
    except msgspec.ValidationError as error:
        path, message = field_path(error, root)
        raise malformed(path, f"{path}: {message}") from None


def _status_code_name(status: int) -> str:
    try:
        return HTTPStatus(status).phrase.lower().replace(" ", "_").replace("-", "_")
    except ValueError:
        return "error"


def _respond(status: int, code: str, message: str, details: Any = None,
             headers: dict[str, str] | None = None) -> Response:
    return Response(error_body(code, message, details), status_code=status, headers=headers)


def http_exception(_: Request, exc: HTTPException) -> Response:
    if isinstance(exc, ApiError):
        return _respond(exc.status_code, exc.code, exc.detail, exc.details, exc.headers)
    if isinstance(exc, ValidationException):
        return validation_exception(_, exc)
    if exc.status_code == 400:  # the framework could not decode the body at all
        return _respond(400, "malformed_json", exc.detail, {"field": "$"})
    code = getattr(exc, "code", None) or _status_code_name(exc.status_code)
    return _respond(exc.status_code, code, exc.detail, exc.extra or None, exc.headers)


def validation_exception(_: Request, exc: ValidationException) -> Response:
    """Litestar's own checks of path, query and body values: name the first bad field."""
    errors = exc.extra if isinstance(exc.extra, list) else []
    first = errors[0] if errors else {}
    key, source = first.get("key", ""), first.get("source", "body")
    if source == "body":
        field = "$" if key in ("", "data") else f"$.{key}"
        if first.get("message") == "'data'":
            return _respond(400, "malformed_json", "the request needs a JSON body", {"field": "$"})
        if missing := _MISSING.search(first.get("message", "")):
            field = f"{field}.{missing['field']}"
    else:
        field = key
    message = f"{field}: {first.get('message', exc.detail)}" if first else exc.detail
    return _respond(400, "invalid_field", message, {"field": field, "source": source, "errors": errors})


# The one place a service's refusal becomes a status: services say why (a kind), HTTP says how.
REFUSAL_STATUS: dict[type[Refused], int] = {BadField: 400, Forbidden: 403, NotFound: 404, Conflict: 409,
                                            NotNow: 422, TooMany: 429}


def refused(_: Request, exc: Refused) -> Response:
    return _respond(REFUSAL_STATUS[type(exc)], exc.code, exc.message, exc.details)


def rule_violation(_: Request, exc: RuleViolation) -> Response:
    return _respond(422, exc.code, exc.message, exc.details)


def unknown_match(_: Request, exc: UnknownMatch) -> Response:
    return _respond(404, "unknown_match", f"no match {exc.match_id!r}", {"match_id": exc.match_id})


def stale_version(_: Request, exc: ConcurrencyError) -> Response:
    return _respond(409, "stale_version", f"the match is at version {exc.current_version}, not {exc.expected_version}",
                    {"current_version": exc.current_version, "expected_version": exc.expected_version})


def command_conflict(_: Request, exc: CommandConflictError) -> Response:
    return _respond(409, "command_conflict", "this command_id was already used with another body",
                    {"command_id": str(exc.command_id)})


# What a request meets when Postgres cannot serve it: refused or lost connections (OSError,
# timeouts included), a server starting or shutting down, no connection slot left.
UNAVAILABLE: tuple[type[Exception], ...] = (OSError, asyncpg.PostgresConnectionError,
                                           asyncpg.exceptions.OperatorInterventionError,
                                           asyncpg.exceptions.TooManyConnectionsError)
RETRY_AFTER = 1


def unavailable(request: Request, exc: Exception) -> Response:
    log.warning("database unavailable on %s %s: %s", request.method, request.url.path, exc)
    return _respond(503, "not_ready", "the service cannot reach its database; retry shortly",
                    {"retry_after": RETRY_AFTER}, headers={"Retry-After": str(RETRY_AFTER)})


def unhandled(request: Request, exc: Exception) -> Response:
    log.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return _respond(500, "internal_error", "internal server error")


HANDLERS: dict[type[Exception], Any] = {
    HTTPException: http_exception,
    ValidationException: validation_exception,
    Refused: refused,
    RuleViolation: rule_violation,
    UnknownMatch: unknown_match,
    ConcurrencyError: stale_version,
    CommandConflictError: command_conflict,
    **{kind: unavailable for kind in UNAVAILABLE},
    Exception: unhandled,
}
