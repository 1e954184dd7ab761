"""`GET /v1/tournaments/formats` describes every format the rules run, each field it reads
typed from the creation body itself, and `GET /v1/games` every game's options from their
schemas: a format added to the rules without its fields, or a field or an option the
description cannot type, fails here rather than in a client's form."""

from __future__ import annotations

from domain.tournaments import events as ev
from services.matches.routes.games import games
from services.tournaments.routes.formats import formats
from services.tournaments.routes.tournaments import CreateIn


def test_every_format_is_described_with_typed_fields() -> None:
    described = formats()
    assert [f["format"] for f in described] == list(ev.FORMATS)
    body = set(CreateIn.__struct_fields__)
    for fmt in described:
        for field in fmt["fields"]:
            assert field["name"].split(".")[0] in body, field
            assert field["kind"] in ("choice", "integer", "boolean", "datetime"), field
            if field["kind"] == "choice":
                assert field["default"] is None or field["default"] in field["values"], field


def test_what_each_format_requires() -> None:
    fields = {f["format"]: {x["name"]: x for x in f["fields"]} for f in formats()}
    assert all(fields[f]["options.deals"]["required"] for f in ev.NEEDS_DEALS)
    assert not fields["swiss"]["options.deals"]["required"]
    assert fields["robot"]["closes_at"]["required"] and fields["robot"]["options.deals"]["maximum"] == 36
    assert fields["swiss"]["options.deals"]["maximum"] == 1000
    assert fields["swiss"]["seeding"]["values"] == ["rating", "registration"]
    assert fields["duplicate"]["scoring"]["default"] == "matchpoints"
    assert fields["swiss"]["rounds"]["minimum"] == 1 and fields["swiss"]["no_show_grace"]["default"] == ev.NO_SHOW_GRACE
    assert "rounds" not in fields["round_robin"] and "seeding" not in fields["duplicate"]


def test_every_game_is_described_with_its_options_and_defaults() -> None:
    described = {g["game"]: {f["name"]: f for f in g["fields"]} for g in games()}
    assert list(described) == ["belote", "cinch", "five_hundred"]
    assert described["belote"]["options.variant"]["values"] == ["classic", "sans_atout", "coinche"]
    assert described["belote"]["options.target"]["default"] is None          # by variant: the game's
    assert described["cinch"]["options.mode"]["default"] == "partnership"
    assert (described["cinch"]["options.min_bid"]["minimum"], described["cinch"]["options.min_bid"]["maximum"]) == (1, 14)
    assert described["five_hundred"]["options.misere"] == {**described["five_hundred"]["options.misere"],
                                                           "kind": "boolean", "default": True}
    assert all(g["options.deals"]["default"] is None for g in described.values())
