"""Every game's view carries the envelope: the same fields with the same meaning, checked
against the rules themselves at every step of random deals in every game and variant; the
deprecated aliases equal their envelope names; deal indexes are the events' own."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from domain.cards import SEATS, Seat
from domain.envelope import ENVELOPE_FIELDS, Envelope
from domain.games import GAMES
from domain.playout import play_deal

VARIANTS = [("belote", {"variant": "classic"}), ("belote", {"variant": "sans_atout"}),
            ("belote", {"variant": "coinche"}), ("cinch", {"mode": "partnership"}),
            ("cinch", {"mode": "individual"}), ("five_hundred", {})]


def _json(view: Any) -> dict[str, Any]:
    return msgspec.json.decode(msgspec.json.encode(view))


def _played(table: dict[str, Any]) -> list[str]:
    tricks = [*table["tricks"], *([table["trick"]] if table["trick"] else [])]
    return [card for t in tricks for _, card in t["plays"]]


def _check(game_name: str, game: Any, state: Any, dealer: Seat | None, deals: int) -> None:
    status = game.status(state)
    sides = set(game.sides(state.options))
    for seat in (*SEATS, None):
        view = game.view(state, seat)
        assert isinstance(view, Envelope)
        table = _json(view)
        assert set(ENVELOPE_FIELDS) <= set(table)
        assert table["game"] == game_name and table["seat"] == (None if seat is None else str(seat))
        assert table["match_score"] == status.match_score and set(table["match_score"]) == sides
        assert table["deal_index"] == status.deals_played - 1 == deals - 1
        assert table["dealer"] == (None if dealer is None else str(dealer))
        assert table["winner"] == status.winner
        if status.phase == "in_deal":
            assert table["turn"] is None or Seat(table["turn"]) in status.to_act
        else:
            assert table["turn"] is None and table["phase"] == status.phase
        contract = table["contract"]
        assert contract is None or {"seat", "trump"} <= set(contract)
        if table["phase"] == "play":
            trick = table["trick"]
            assert trick is not None and trick["winner"] is None and trick["leader"] in {s.value for s in SEATS}
            if not trick["plays"]:
                assert trick["leader"] == table["turn"]
            else:
                assert trick["plays"][0][0] == trick["leader"]
        else:
            assert table["trick"] is None
        for done in table["tricks"]:
            assert done["winner"] is not None and done["plays"][0][0] == done["leader"]
        assert set(table["deal_points"]) == sides
        legal = game.legal_actions(state, seat) if seat is not None else []
        assert table["legal"] == _json(legal)
        if seat is None:
            assert table["hand"] is None
        else:
            assert not set(table["hand"]) & set(_played(table))
            assert {a["card"] for a in table["legal"] if "card" in a} <= set(table["hand"])
        for old, new in game.view_aliases.items():
            assert table[old] == table[new], old
        if game.deals_started_field is not None:
            assert table[game.deals_started_field] == table["deal_index"] + 1


@pytest.mark.parametrize("game_name,options", VARIANTS, ids=lambda v: str(v))
def test_every_view_carries_the_envelope_at_every_step(game_name: str, options: dict[str, Any]) -> None:
    game = GAMES[game_name]
    rng = random.Random(f"envelope-{game_name}-{options}")
    state = game.initial(game.parse_options(options))
    _check(game_name, game, state, None, 0)
    for deal in range(3):
        if game.status(state).phase == "match_over":
            break
        dealer = None
        for command, state, events in play_deal(game, state, rng):
            dealer = command.dealer if dealer is None else dealer
            for event in events:
                if hasattr(event, "deal"):
                    assert event.deal == deal
                if type(event).__name__ == "DealScored":
                    assert game.view(state, None).deal_points == event.points
            _check(game_name, game, state, dealer, deal + 1)


def test_a_spectator_and_a_seat_see_the_same_public_envelope() -> None:
    for game_name, options in VARIANTS:
        game = GAMES[game_name]
        state = game.initial(game.parse_options(options))
        for _, state, _ in play_deal(game, state, random.Random(7)):
            seen = _json(game.view(state, None))
            for seat in SEATS:
                mine = _json(game.view(state, seat))
                for field in ("match_score", "deal_index", "dealer", "turn", "contract", "trick", "tricks",
                              "deal_points", "winner", "phase"):
                    assert mine[field] == seen[field], (game_name, field)
