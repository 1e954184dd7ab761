"""The duplicate routes' answers are typed in the served document and the examples it shows
hold to their schemas (the answers themselves are checked against it end to end:
tests/e2e/test_duplicate_system.py)."""

from __future__ import annotations

import pytest

from tests.api.typed_answers import served
from tests.typed_contract import untyped_bodies

pytestmark = [pytest.mark.db, pytest.mark.redis]

ONE = "/v1/tournaments/{tournament_id}"
ROUTES = {("post", f"{ONE}/play"), ("get", f"{ONE}/boards/{{board}}/traveller"), ("post", "/v1/tournaments"),
          ("get", ONE), ("get", f"{ONE}/standings"), ("post", f"{ONE}/entries")}


async def test_the_duplicate_answers_are_typed_and_their_examples_hold(client) -> None:
    contract = await served(client)
    untyped = {k: v for k, v in untyped_bodies(contract.document).items()
               if any(k == f"{m.upper()} {p} {s}" for m, p in ROUTES for s in ("200", "201"))}
    assert untyped == {}
    assert contract.example_errors(ROUTES) == {}
    traveller = contract.document["paths"][f"{ONE}/boards/{{board}}/traveller"]["get"]
    assert {"200", "403", "404"} <= set(traveller["responses"])
