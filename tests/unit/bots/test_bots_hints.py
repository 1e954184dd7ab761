"""Hints: the expert's choice with a reason, from a seat's view only.

Two states that differ only in cards the seat cannot see give the same hint (action and
reason), with no seed given: the hint seeds itself from the view. Every decision of whole
deals of every game gets a reason whose code is a documented one and whose words are
filled in, and the suggested action is one of the seat's legal actions.
"""

from __future__ import annotations

import random
from pathlib import Path

import msgspec
import pytest

from domain.bots.hints import NEEDS, REASONS, Reason, reason, seed_of, suggest
from domain.game import StartDeal
from domain.games import load
from domain.cards import Seat
from domain.playout import choose_action
from tests.unit.bots.test_bots_hidden import CONFIGS, IDS, _hands, _midplay, _swap_hidden

DOCS = Path(__file__).resolve().parents[3] / "docs" / "bots.md"


@pytest.mark.parametrize("game_name,raw", CONFIGS, ids=IDS)
def test_a_hint_depends_on_the_view_only(game_name, raw) -> None:
    for seed, done in ((1, 1), (2, 3)):
        game, state, me = _midplay(game_name, raw, seed, done)
        other = _swap_hidden(game_name, state, me, random.Random(seed))
        assert _hands(game_name, other) != _hands(game_name, state)
        first, second = game.view(state, me), game.view(other, me)
        assert seed_of(first) == seed_of(second)
        assert suggest(game_name, first, worlds=6) == suggest(game_name, second, worlds=6)


def test_the_seed_follows_the_view() -> None:
    game, state, me = _midplay("cinch", {}, 3, 1)
    other = next(s for s in Seat if s != me)
    assert seed_of(game.view(state, me)) != seed_of(game.view(state, other))


@pytest.mark.parametrize("game_name,raw", CONFIGS, ids=IDS)
def test_every_decision_gets_a_documented_reason(game_name, raw) -> None:
    """Whole deals of random play: at each decision, the basic bot's action, the random
    one and (sometimes) the expert's all get a reason; the expert's action is legal."""
    game = load(game_name)
    rng = random.Random(11)
    codes: set[str] = set()
    for deal in range(3):
        deck = list(game.deck)
        rng.shuffle(deck)
        state, _ = game.apply(game.initial(game.parse_options(raw)), StartDeal(dealer=Seat.W, deck=tuple(deck)))
        for step in range(300):
            status = game.status(state)
            if status.phase != "in_deal":
                break
            seat = status.to_act[0]
            view = game.view(state, seat)
            played = choose_action(game, state, rng, public_turns=True)
            for action in (played, None):
                said = reason(game_name, view, action)
                assert isinstance(said, Reason) and said.code in REASONS and said.words.strip()
                assert "{" not in said.words and "None" not in said.words
                if said.params.get("needs"):
                    assert said.params["needs"] in NEEDS and said.params["tricks_needed"] > 0
                codes.add(said.code)
            if step % 7 == 0:
                hint = suggest(game_name, view, worlds=4)
                if hint.action is not None:
                    assert hint.action["seat"] == str(seat)
                    assert {k: v for k, v in hint.action.items() if k != "seat"} in view.legal or \
                        hint.action["action"] in ("discard", "rob")
            state, _ = game.apply(state, game.parse_action(played))
    assert len(codes) >= 5, codes


def test_every_code_is_documented() -> None:
    text = DOCS.read_text()
    for code in [*REASONS, *NEEDS]:
        assert f"`{code}`" in text, code
    assert msgspec.json.encode(reason("cinch", None, None)) == msgspec.json.encode(Reason(
        code="nothing_now", words=REASONS["nothing_now"], params={}))


def test_a_capot_needs_every_trick() -> None:
    """Coinche capot: the takers are told how many tricks remain (all of them are needed),
    the defence that one trick defeats it, nobody anything once a trick is lost."""
    from domain.bots.hint_tables import contract_tricks
    from domain.cards import SEATS, TEAM

    seen = set()
    for seed in range(4, 40):
        game, state, to_act = _midplay("belote", {"variant": "coinche"}, seed, 2)
        me = Seat(SEATS[seed % 4]) if seed % 2 else to_act     # a seat waiting too: its reason's clause
        view = game.view(state, me)
        done = len(view.tricks)
        winners = {TEAM[t.winner] for t in view.tricks}
        for team in ("NS", "EW"):
            capot = msgspec.structs.replace(view, contract=msgspec.structs.replace(view.contract, team=team,
                                                                                   value="capot"))
            needs = contract_tricks("belote", capot)
            if winners != {team}:
                assert needs == (None, None)
                seen.add("lost")
            elif team == TEAM[me]:
                assert needs == ("contract_needs", 8 - done)
                if me == to_act:
                    card = next(a["card"] for a in capot.legal if a["action"] == "play")
                    said = reason("belote", capot, {"action": "play", "card": card})
                    assert said.params["needs"] == "contract_needs" and said.params["tricks_needed"] == 8 - done
                    seen.add("said")
                seen.add("takers")
            else:
                assert needs == ("defence_needs", 1)
                seen.add("defence")
        if contract_tricks("belote", view) != (None, None):
            assert view.contract.value == "capot"
    assert seen == {"lost", "takers", "defence", "said"}
