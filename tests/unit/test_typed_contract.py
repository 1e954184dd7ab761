"""Every success answer of the served OpenAPI document is typed: a client generator gets a
class (or a documented map) at every depth, never a bare object. Each feature's API tests
validate real answers against these schemas (tests/api/test_typed_answers_*.py)."""

from __future__ import annotations

from litestar.testing import TestClient

from infra.settings import Settings
from services.http.app import create_app
from tests.typed_contract import success_bodies, untyped_bodies


def test_no_success_body_is_untyped_at_any_depth() -> None:
    with TestClient(create_app(Settings(database_url="postgresql://nobody@127.0.0.1:1/none"))) as client:
        document = client.get("/schema/openapi.json").json()
    assert success_bodies(document) >= 80
    assert untyped_bodies(document) == {}


def test_the_count_sees_an_untyped_body() -> None:
    """The counter itself: a bare object, an array of them, `{}` and a map of anything are
    found at any depth; a typed map and an object with properties are not."""
    bare = {"paths": {"/x": {"get": {"responses": {"200": {"content": {"application/json": {"schema": {
        "type": "object", "properties": {
            "a": {"type": "object"}, "b": {"type": "array", "items": {"type": "object"}}, "c": {},
            "d": {"type": "object", "additionalProperties": {}},
            "e": {"type": "object", "additionalProperties": {"type": "integer"}},
            "f": {"$ref": "#/components/schemas/F"}}}}}}}}}},
        "components": {"schemas": {"F": {"type": "object", "properties": {"g": {"type": "object"}}}}}}
    found = untyped_bodies(bare)["GET /x 200"]
    assert sorted(found) == ["$.a: object without properties", "$.b[]: object without properties",
                             "$.c: any value", "$.d: object without properties",
                             "$.f<F>.g: object without properties"]


def test_a_null_option_is_valid_by_the_schema_exactly_when_the_game_accepts_it() -> None:
    """The request schema of a game's options says what its `parse_options` does with null: a
    null `deals` (or Belote's `target`) is "not set" and accepted — stored matches and
    tournaments hold such nulls — any other null option is a 400 `bad_option`."""
    import jsonschema_rs

    from domain.game import RuleViolation
    from domain.games import GAMES
    from services.http.contract_requests import OPTIONS

    for name, game in GAMES.items():
        for option, schema in OPTIONS[name].items():
            try:
                game.parse_options({option: None})
                accepted = True
            except RuleViolation:
                accepted = False
            assert jsonschema_rs.validator_for(schema).is_valid(None) == accepted, (name, option)
