"""An answer against the schema its route shows in the served OpenAPI document.

The tests of typed answers call a route for real and validate the JSON they get (status
and body) against that route's response schema, as a generated client would read it, with
`jsonschema_rs`; the document's own examples for the same routes are validated the same way.
"""

from __future__ import annotations

from typing import Any

import jsonschema_rs


async def served(client: Any) -> dict[str, Any]:
    """The OpenAPI document as the app serves it (finished: services.http.contract)."""
    answer = await client.get("/schema/openapi.json")
    assert answer.status_code == 200, answer.text
    return answer.json()


def schema_of(doc: dict[str, Any], method: str, path: str, status: int | str) -> dict[str, Any]:
    """The JSON body schema of `method path` answering `status`, its `$ref`s resolvable."""
    response = doc["paths"][path][method.lower()]["responses"][str(status)]
    return {**response["content"]["application/json"]["schema"], "components": doc["components"]}


def check(doc: dict[str, Any], method: str, path: str, answer: Any, status: int) -> Any:
    """`answer` (an HTTP response) has `status` and a body valid by its route's schema; the body."""
    assert answer.status_code == status, (method, path, answer.status_code, answer.text)
    body = answer.json()
    errors = [f"{e.instance_path}: {e.message}"
              for e in jsonschema_rs.validator_for(schema_of(doc, method, path, status)).iter_errors(body)]
    assert not errors, (method, path, errors, body)
    return body


def check_examples(doc: dict[str, Any], routes: list[tuple[str, str, int]]) -> int:
    """Every example the document gives for these routes' success bodies is valid by their
    schema (and each route has one); how many were checked."""
    checked = 0
    for method, path, status in routes:
        content = doc["paths"][path][method.lower()]["responses"][str(status)]["content"]["application/json"]
        examples = [e["value"] for e in content.get("examples", {}).values()]
        assert examples, (method, path, "no example")
        validator = jsonschema_rs.validator_for(schema_of(doc, method, path, status))
        for value in examples:
            errors = [f"{e.instance_path}: {e.message}" for e in validator.iter_errors(value)]
            assert not errors, (method, path, errors, value)
            checked += 1
    return checked
