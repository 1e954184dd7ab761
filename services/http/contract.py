"""The served OpenAPI document made true: what Litestar generates, finished once per app.

Litestar documents what a route declares; what every route shares is added here from the
route's own shape, so that no route can forget it: each error answer is `ErrorOut`
(`{code, message, details}`; Litestar's default 400 is `{status_code, detail}`, which the
server never sends); a route with parameters or a body can answer 400, one with a body 415,
413 and 400 `too_deep` (services/http/bodies.py); a route with a bearer can answer 401; every
route but the probes and the metrics 429 and 503 `not_ready` (services/http/errors.py).
Request schemas get what the validation checks but msgspec cannot say
(`services.http.contract_requests`): a game's options, the seats, the names. Links tie create → seat → act (and the match's
other routes) so a stateful client, schemathesis among them, can follow a real match.
"""

from __future__ import annotations

import copy
from typing import Any

import msgspec

from domain.fair import MAX_ENTROPY_BYTES
from services.http.contract_generators import enum_consts, open_objects
from services.http.contract_requests import COMPONENTS, REQUEST_RULES, SEATS, optional_body
from services.http.contract_views import RESPONSE_RULES, action_body
from services.http.schemas import MAX_VERSION

# The contract's version, in both documents' `info.version`: it moves with every change to
# either document, with an entry in CHANGELOG.md and the documents' fingerprints in
# docs/contract-fingerprints.json (tests/unit/test_contract_version.py holds all three together).
CONTRACT_VERSION = "1.18"

ERROR_REF = {"$ref": "#/components/schemas/ErrorOut"}
ERROR_SCHEMA = {"type": "object", "title": "ErrorOut", "required": ["code", "message", "details"],
                "properties": {"code": {"type": "string", "description": "stable, machine-readable"},
                               "message": {"type": "string", "description": "for a person"},
                               "details": {"type": "object", "additionalProperties": {}}}}
NO_DATABASE = {"/healthz", "/readyz", "/metrics"}


def _error(code: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"code": code, "message": message, "details": details or {}}


SHARED: dict[str, tuple[str, dict[str, dict[str, Any]]]] = {
    "400": ("Malformed request: a path, query or body value that the route refuses; `details.field` names it", {
        "invalid_field": {"summary": "a bad value", "value": _error(
            "invalid_field", "limit: Expected `int` <= 200", {"field": "limit", "source": "query"})}}),
    "401": ("No token, or an unknown or revoked one", {
        "unauthorized": {"summary": "missing token", "value": _error(
            "unauthorized", "send 'Authorization: Bearer <token>' (POST /v1/players gives one)")}}),
    "413": ("The body is larger than 10 MiB", {
        "request_entity_too_large": {"summary": "too large", "value": _error(
            "request_entity_too_large", "Request Entity Too Large")}}),
    "415": ("The body is not JSON (send `Content-Type: application/json`)", {
        "unsupported_media_type": {"summary": "text/plain", "value": _error(
            "unsupported_media_type", "send the body as application/json, not 'text/plain'",
            {"content_type": "text/plain"})}}),
    "429": ("Too many requests from this token (or address); see Retry-After", {
        "rate_limited": {"summary": "rate limited", "value": _error(
            "rate_limited", "too many requests; retry in 12s", {"retry_after": 12})}}),
    "503": ("The database cannot be reached (down, restarting, out of connections); retry after Retry-After", {
        "not_ready": {"summary": "database down", "value": _error(
            "not_ready", "the service cannot reach its database; retry shortly", {"retry_after": 1})}}),
}
BODY_400 = {
    "malformed_json": {"summary": "not JSON", "value": _error("malformed_json", "Expecting value", {"field": "$"})},
    "too_deep": {"summary": "nested too deep", "value": _error(
        "too_deep", "the JSON body nests more than 32 levels of arrays and objects", {"field": "$", "max_depth": 32})},
    "nul_character": {"summary": "a NUL in a string", "value": _error(
        "nul_character", "a string in the JSON body holds U+0000 (NUL), which no field accepts", {"field": "$"})},
}
# Answers in another media type beside JSON: (method, path, status) -> media type.
OTHER_MEDIA = {("get", "/v1/tournaments/{tournament_id}/export", "200"): "text/csv"}


def _structs(names: set[str]) -> list[type[msgspec.Struct]]:
    """The API's Structs that the document names (one class per name), so their schemas can be
    msgspec's own: exactly what msgspec validates (bounds inside nullable fields, unknown fields
    refused), where Litestar's rendering drops some of it."""
    found: dict[str, list[type]] = {}
    todo = list(msgspec.Struct.__subclasses__())
    while todo:
        kind = todo.pop()
        todo.extend(kind.__subclasses__())
        if kind.__module__.startswith("services.") and kind.__name__ in names:
            found.setdefault(kind.__name__, []).append(kind)
    return [kinds[0] for kinds in found.values() if len(set(kinds)) == 1]
# Parameters the handlers check by hand, by (name) or (path, name).
PARAMETER_RULES: dict[Any, dict[str, Any]] = {
    "seat": {"type": "string", "enum": list(SEATS)},
    "after": {"type": "integer", "minimum": 0, "maximum": MAX_VERSION},
    ("/v1/tournaments/{tournament_id}/export", "format"): {"type": "string", "enum": ["json", "csv"], "default": "json"},
    ("/v1/admin/audit", "since"): {"type": "string", "format": "date"},
    ("/v1/admin/audit", "until"): {"type": "string", "format": "date"},
}

# (source method, source path, status) -> links to (method, path) with their parameters.
MATCH = {"match_id": "$response.body#/match_id"}
LINKS: list[tuple[tuple[str, str, str], list[tuple[str, str, dict[str, Any], Any]]]] = [
    (("post", "/v1/matches", "201"), [
        ("post", "/v1/matches/{match_id}/seats/{seat}", MATCH, None),
        ("post", "/v1/matches/{match_id}/actions", MATCH, {"expected_version": "$response.body#/version"}),
        ("get", "/v1/matches/{match_id}", MATCH, None),
        ("get", "/v1/matches/{match_id}/events", MATCH, None),
        ("post", "/v1/matches/{match_id}/start", MATCH, None),
        ("get", "/v1/matches/{match_id}/record", MATCH, None),
        ("delete", "/v1/matches/{match_id}/seats/{seat}", MATCH, None),
        ("post", "/v1/matches/{match_id}/disputes", MATCH, None),
        ("get", "/v1/matches/{match_id}/export", MATCH, None),
    ]),
    (("post", "/v1/matches/{match_id}/seats/{seat}", "200"), [
        ("post", "/v1/matches/{match_id}/actions", MATCH, {"expected_version": "$response.body#/version"}),
        ("get", "/v1/matches/{match_id}", MATCH, None),
    ]),
    (("post", "/v1/matches/{match_id}/actions", "200"), [
        ("post", "/v1/matches/{match_id}/actions", MATCH, {"expected_version": "$response.body#/version"}),
        ("get", "/v1/matches/{match_id}/events", MATCH, None),
    ]),
    (("get", "/v1/matches/{match_id}", "200"), [
        ("post", "/v1/matches/{match_id}/actions", MATCH, {"expected_version": "$response.body#/version"}),
    ]),
    (("post", "/v1/players", "201"), [
        ("get", "/v1/players/{player_id}", {"player_id": "$response.body#/player_id"}, None),
    ]),
    (("post", "/v1/tournaments", "201"), [
        (method, path, {"tournament_id": "$response.body#/tournament_id"}, None)
        for method, path in (("get", "/v1/tournaments/{tournament_id}"),
                             ("post", "/v1/tournaments/{tournament_id}/entries"),
                             ("post", "/v1/tournaments/{tournament_id}/start"),
                             ("get", "/v1/tournaments/{tournament_id}/standings"),
                             ("get", "/v1/tournaments/{tournament_id}/results"))]),
]


def _is_error(status: str) -> bool:
    return status.isdigit() and int(status) >= 400


def _litestar_default(response: dict[str, Any]) -> bool:
    schema = response.get("content", {}).get("application/json", {}).get("schema", {})
    return "status_code" in schema.get("properties", {}) or "status_code" in schema.get("required", [])


CONFLICT = {"command_conflict": {"summary": "a command_id reused with another body", "value": _error(
    "command_conflict", "this command_id was already used with another body",
    {"command_id": "7d444840-9dc0-11d1-b245-5ffdce74fad2"})}}


def _takes_command_id(op: dict[str, Any], schemas: dict[str, Any]) -> bool:
    text = repr(op.get("requestBody", {}))
    refs = [name for name in schemas if f"#/components/schemas/{name}'" in text]
    return "'command_id'" in text or any("command_id" in schemas[name].get("properties", {}) for name in refs)


def _errors(path: str, method: str, op: dict[str, Any], schemas: dict[str, Any]) -> None:
    responses = op.setdefault("responses", {})
    if _takes_command_id(op, schemas):
        conflict = responses.setdefault("409", {"description": "A command_id reused with another body",
                                                "content": {"application/json": {"schema": ERROR_REF}}})
        conflict.setdefault("content", {}).setdefault("application/json", {"schema": ERROR_REF})
        conflict["content"]["application/json"].setdefault("examples", {}).update(copy.deepcopy(CONFLICT))
    wanted = []
    if op.get("parameters") or "requestBody" in op:
        wanted.append("400")
    if "requestBody" in op:
        wanted += ["413", "415"]
    if op.get("security"):
        wanted.append("401")
    if path not in NO_DATABASE and not path.startswith("/schema"):
        wanted += ["429", "503"]
    for status in wanted:
        if status not in responses or _litestar_default(responses[status]):
            text, examples = SHARED[status]
            responses[status] = {"description": text, "content": {"application/json": {
                "schema": ERROR_REF, "examples": copy.deepcopy(examples)}}}
    optional_body(op)
    if "requestBody" in op:
        examples = responses["400"]["content"]["application/json"].setdefault("examples", {})
        examples.update(copy.deepcopy(BODY_400))
    for status, response in responses.items():
        if _is_error(status) and _litestar_default(response):
            text, examples = SHARED.get(status, SHARED["400"])
            response["content"] = {"application/json": {"schema": ERROR_REF, "examples": copy.deepcopy(examples)}}


BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "pattern")


def _bounds_inside(schema: dict[str, Any]) -> None:
    """Litestar puts an optional parameter's bounds beside its `oneOf: [T, null]`, where they
    bind nothing: move them into the branch they belong to."""
    branches = schema.get("oneOf") or schema.get("anyOf")
    moved = {k: schema.pop(k) for k in BOUNDS if k in schema}
    if branches and moved:
        for branch in branches:
            if branch.get("type") != "null":
                branch.update(moved)
    elif moved:
        schema.update(moved)


def _parameters(path: str, op: dict[str, Any]) -> None:
    for parameter in op.get("parameters", []):
        _bounds_inside(parameter.get("schema", {}))
        rule = PARAMETER_RULES.get((path, parameter["name"])) or PARAMETER_RULES.get(parameter["name"])
        if rule is not None:
            nullable = not parameter.get("required") and parameter.get("in") == "query"
            parameter["schema"] = copy.deepcopy(rule)
            if nullable and "default" not in rule:
                parameter["schema"] = {"oneOf": [copy.deepcopy(rule), {"type": "null"}]}


LINK_HEADER = {"Link": {"description": 'The next page, when one may exist: `<…?cursor=…>; rel="next"` '
                                      "(services/http/paging.py)", "required": False,
                       "schema": {"type": "string"}}}


def _paged(op: dict[str, Any]) -> None:
    """A list that takes a `cursor` gives the next one in a `Link` header."""
    if any(p.get("name") == "cursor" and p.get("in") == "query" for p in op.get("parameters", [])):
        ok = op["responses"].get("200")
        if ok is not None:
            ok.setdefault("headers", {}).update(copy.deepcopy(LINK_HEADER))


def _links(doc: dict[str, Any]) -> None:
    paths = doc["paths"]
    for (method, path, status), targets in LINKS:
        response = paths.get(path, {}).get(method, {}).get("responses", {}).get(status)
        if response is None:
            continue
        links = response.setdefault("links", {})
        for to_method, to_path, parameters, body in targets:
            target = paths.get(to_path, {}).get(to_method)
            if target is None or "operationId" not in target:
                continue
            link: dict[str, Any] = {"operationId": target["operationId"], "parameters": dict(parameters)}
            if body is not None:
                link["requestBody"] = body
            links[target["operationId"]] = link


def finish(doc: dict[str, Any]) -> dict[str, Any]:
    """Make `doc` (the dict Litestar serves at /schema) say what the server does, in place."""
    schemas = doc.setdefault("components", {}).setdefault("schemas", {})
    structs = _structs(set(schemas))
    entropy_note = (f"At most {MAX_ENTROPY_BYTES} bytes in UTF-8 (400 `bad_entropy` beyond); \"\" is entropy too, "
                    "distinct from absent.")
    if structs:
        _, exact = msgspec.json.schema_components(structs, ref_template="#/components/schemas/{name}")
        for name, schema in exact.items():
            if name in schemas:
                schemas[name] = {**schema, **{k: v for k, v in schemas[name].items() if k in ("examples",)}}
    schemas.update(copy.deepcopy(COMPONENTS))
    for name, rule in REQUEST_RULES.items():
        if name in schemas:
            rule(schemas[name])
    for name, response_rule in RESPONSE_RULES.items():
        if name in schemas:
            response_rule(schemas[name], schemas)
    for schema in schemas.values():
        entropy = schema.get("properties", {}).get("entropy")
        if entropy is not None:
            for branch in entropy.get("anyOf", [entropy]):
                if branch.get("type") == "string":
                    branch["maxLength"] = min(branch.get("maxLength", MAX_ENTROPY_BYTES), MAX_ENTROPY_BYTES)
            entropy["description"] = entropy_note
    for path, operations in doc.get("paths", {}).items():
        for method, op in operations.items():
            if isinstance(op, dict) and "responses" in op:
                _errors(path, method, op, schemas)
                _parameters(path, op)
                _paged(op)
    schemas["ErrorOut"] = copy.deepcopy(ERROR_SCHEMA)
    acting = doc.get("paths", {}).get("/v1/matches/{match_id}/actions", {}).get("post")
    if acting is not None:
        action_body(acting, schemas)
    for (method, path, status), media in OTHER_MEDIA.items():
        response = doc["paths"].get(path, {}).get(method, {}).get("responses", {}).get(status)
        if response is not None:
            response.setdefault("content", {})[media] = {"schema": {"type": "string"}}
    _links(doc)
    open_objects(doc)
    enum_consts(doc)
    return doc


def install(app: Any) -> None:
    """Finish the document the app serves, once, before its first request."""
    # The plugin that renders /schema keeps the document as a dict after its first build: the
    # dict finished here is the one every render (JSON, YAML, Swagger UI) serves.
    from litestar._openapi.plugin import OpenAPIPlugin

    finish(app.plugins.get(OpenAPIPlugin).provide_openapi_schema())
