"""Every view of a game, every event as a seat is sent it and every finished deal's summary fit
the schemas both API documents (OpenAPI, and AsyncAPI for the live streams) give them; every
action a game lists as legal fits a declared shape, and every action a seat sends from it fits
a declared shape of what is sent.

A generated client reads a view by these schemas alone: one listed action without a shape
makes the whole view unreadable to it (and leaves it no command class to send). Random deals
of every way of playing (each combination of the options that change the play), every seat
and a spectator at every step, until every shape and every command has been seen at least
once: some (Cinch's shedding of a seventh trump) come up once in several hundred deals."""

from __future__ import annotations

import itertools
import random
from typing import Any

import jsonschema_rs
import msgspec
import pytest
from litestar.testing import TestClient

from domain.cards import Seat
from domain.game import AdjustScore, GameRules, RuleViolation, StartDeal, VoidDeal
from domain.games import GAMES
from domain.playout import concrete, play_deal
from infra.settings import Settings
from services.http.app import create_app
from services.http.contract_views import legal

MIN_DEALS, MAX_DEALS = 100, 6000
SYSTEM = {kind.__struct_config__.tag for kind in (StartDeal, VoidDeal, AdjustScore)}


def seat_commands(game: GameRules) -> set[str]:
    """The actions a seat may send: the game's command tags but the server's own."""
    return {kind.__struct_config__.tag for kind in game.command_types} - SYSTEM


def wire(value: Any) -> Any:
    """`value` as a client reads it: encoded to JSON and back."""
    return msgspec.json.decode(msgspec.json.encode(value))


def ways_of_playing(game: GameRules) -> list[Any]:
    """The game's parsed options for each combination of its enumerated and yes/no options
    (the combinations it refuses left out), one deal each."""
    choices = {name: schema.get("enum", [False, True])
               for name, schema in game.options_schema.items()
               if "enum" in schema or schema.get("type") == "boolean"}
    ways = []
    for values in itertools.product(*choices.values()):
        try:
            ways.append(game.parse_options({**dict(zip(choices, values)), "deals": 1}))
        except RuleViolation:
            continue
    return ways


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_seat_command_has_a_declared_shape(name: str) -> None:
    game = GAMES[name]
    assert seat_commands(game) == {shape["title"] for shape in game.action_shapes}


@pytest.fixture(scope="module")
def documents() -> list[tuple[dict[str, Any], str]]:
    """The served OpenAPI and AsyncAPI documents (the app built with no database), each with
    the schema its events are typed by: a view and an event are typed in both."""
    with TestClient(create_app(Settings(database_url="postgresql://nobody@127.0.0.1:1/none"))) as client:
        return [(client.get("/schema/openapi.json").json(), "EventOut"),
                (client.get("/schema/asyncapi.json").json(), "Event")]


def _validator(schema: dict[str, Any], document: dict[str, Any]) -> Any:
    return jsonschema_rs.validator_for({**schema, "components": document["components"]})


@pytest.fixture(scope="module")
def views(documents: list[tuple[dict[str, Any], str]]) -> list[Any]:
    """Validators of a game's view (a match view's `table`: one of the games' views), one by
    each document."""
    return [_validator(document["components"]["schemas"]["MatchViewOut"]["properties"]["table"], document)
            for document, _ in documents]


@pytest.fixture(scope="module")
def events(documents: list[tuple[dict[str, Any], str]]) -> list[Any]:
    """Validators of an event as a seat is sent it, one by each document."""
    return [_validator(document["components"]["schemas"][name]["properties"]["event"], document)
            for document, name in documents]


@pytest.fixture(scope="module")
def summaries(documents: list[tuple[dict[str, Any], str]]) -> list[Any]:
    """Validators of a finished deal's summary (in `deal_finished`), one by each document."""
    return [_validator(document["components"]["schemas"]["DealFinished"]["properties"]["summary"], document)
            for document, _ in documents]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_view_event_and_legal_action_fits_the_documents(name: str, views: list[Any], events: list[Any],
                                                             summaries: list[Any]) -> None:
    game = GAMES[name]
    shapes = {shape["title"]: jsonschema_rs.validator_for(shape) for shape in legal(name)}
    sent = jsonschema_rs.validator_for({"anyOf": legal(name, sent=True)})
    commands = seat_commands(game)
    ways, rng, deals = ways_of_playing(game), random.Random(11), 0
    seen, listed = set[str](), set[str]()
    assert ways
    while deals < max(MIN_DEALS, len(ways) * 4) or seen != set(shapes) or listed != commands:
        assert deals < MAX_DEALS, f"{name}: never {sorted(set(shapes) - seen)} {sorted(commands - listed)}"
        for _, state, happened in play_deal(game, game.initial(ways[deals % len(ways)]), rng):
            for looking in (*Seat, None):
                shown = wire(game.view(state, looking))
                for view in views:
                    assert view.is_valid(shown), (name, looking, next(view.iter_errors(shown)).message)
                for event in (wire(game.redact(event, looking)) for event in happened):
                    assert all(schema.is_valid(event) for schema in events), (name, looking, event)
            for seat in Seat:
                for action in game.legal_actions(state, seat):
                    listed.add(action["action"])
                    fits = {title for title, shape in shapes.items() if shape.is_valid(action)}
                    assert fits, (name, action)
                    seen |= fits
                    assert sent.is_valid(concrete(action, rng)), (name, action)
        summed = wire(game.deal_summary(state))
        assert all(summary.is_valid(summed) for summary in summaries), (name, summed)
        deals += 1


def test_an_undeclared_action_is_found() -> None:
    """The check itself: Cinch without its `discard` shape does not fit a listed discard."""
    shapes = [jsonschema_rs.validator_for(shape) for shape in legal("cinch") if "Discard" not in shape["title"]]
    discard = {"action": "discard", "cards": {"choose": 1, "from": ["5H", "TH", "8H", "QH", "4H", "9H", "6H"]}}
    assert not any(shape.is_valid(discard) for shape in shapes)
