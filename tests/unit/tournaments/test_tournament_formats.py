"""`GET /v1/tournaments/formats` describes every format the rules run, each field it reads
typed from the creation body itself: a format added to the rules without its fields, or a
field the description cannot type, fails here rather than in a client's form."""

from __future__ import annotations

from domain.tournaments import events as ev
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
    assert fields["swiss"]["seeding"]["values"] == ["rating", "registration"]
    assert fields["duplicate"]["scoring"]["default"] == "matchpoints"
    assert fields["swiss"]["rounds"]["minimum"] == 1 and fields["swiss"]["no_show_grace"]["default"] == ev.NO_SHOW_GRACE
    assert "rounds" not in fields["round_robin"] and "seeding" not in fields["duplicate"]
