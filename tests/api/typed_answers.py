"""What the typed-answers tests share: the document the app serves, a check that an answer
(or an example the document shows) is what the document says for its route and status, and a
read of a route that answers from read models once they have caught up.

Why the served document (`/schema/openapi.json`) and not the app's `openapi_schema`: the served
one is finished (services/http/contract.py) and is what clients are generated from."""

from __future__ import annotations

from typing import Any

import jsonschema_rs

from infra.projections import ProjectionRunner
from infra.store import PostgresEventStore
from services.bootstrap import projections
from tests.eventually import projected

JSON = "application/json"


class Contract:
    """The served document, with a validator per (method, path, status), made once."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self._validators: dict[tuple[str, str, str], Any] = {}

    def schema(self, method: str, path: str, status: int | str) -> dict[str, Any]:
        return self.document["paths"][path][method.lower()]["responses"][str(status)]["content"][JSON]["schema"]

    def validator(self, method: str, path: str, status: int | str) -> Any:
        key = (method.lower(), path, str(status))
        if key not in self._validators:
            schema = self.schema(method, path, status)
            self._validators[key] = jsonschema_rs.validator_for({**schema, "components": self.document["components"]})
        return self._validators[key]

    def errors(self, method: str, path: str, status: int | str, body: Any) -> list[str]:
        return [f"{e.instance_path}: {e.message}"[:300] for e in self.validator(method, path, status).iter_errors(body)]

    def check(self, answer: Any, method: str, path: str) -> Any:
        """`answer` (an httpx response) against its route's schema for the status it has; its JSON."""
        body = answer.json()
        assert not (problems := self.errors(method, path, answer.status_code, body)), (method, path, problems[:5])
        return body

    def example_errors(self, routes: set[tuple[str, str]]) -> dict[str, list[str]]:
        """Every example of the success answers of `routes` ((method, path)) against its schema."""
        out: dict[str, list[str]] = {}
        for method, path in routes:
            for status, response in self.document["paths"][path][method]["responses"].items():
                content = (response.get("content") or {}).get(JSON)
                if not str(status).startswith("2") or content is None:
                    continue
                assert content.get("examples"), f"{method} {path} {status}: no example"
                for name, example in content["examples"].items():
                    if problems := self.errors(method, path, status, example["value"]):
                        out[f"{method} {path} {status} {name}"] = problems
        return out


async def served(client: Any) -> Contract:
    answer = await client.get("/schema/openapi.json")
    assert answer.status_code == 200, answer.text
    return Contract(answer.json())


def check(contract: Contract, method: str, path: str, answer: Any, status: int) -> Any:
    """`answer` has `status` and a body valid by its route's schema for it; the body."""
    assert answer.status_code == status, (method, path, answer.status_code, answer.text)
    return contract.check(answer, method, path)


def check_examples(contract: Contract, routes: list[tuple[str, str, int]]) -> int:
    """Every example the document gives for these routes' success bodies is valid by their
    schema (each route has one); how many were checked."""
    checked = 0
    for method, path, status in routes:
        content = contract.document["paths"][path][method.lower()]["responses"][str(status)]["content"][JSON]
        assert content.get("examples"), (method, path, "no example")
        for example in content["examples"].values():
            assert not (problems := contract.errors(method, path, status, example["value"])), (method, path, problems)
            checked += 1
    return checked


async def read_projected(client: Any, pool: Any, path: str, who: Any, check: Any, *only: Any,
                         params: dict[str, Any] | None = None) -> Any:
    """`GET path` as `who`, after the projections (all, or `only` these) have caught up as the
    projector beside the app would, until `check` holds of the body: the answer last read."""
    return await projected(ProjectionRunner(PostgresEventStore(pool)), lambda: only or projections(),
                           lambda: client.get(path, headers=who.headers, params=params),
                           lambda answer: answer.status_code != 200 or check(answer.json()))
