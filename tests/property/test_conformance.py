"""The conformance suite every game in `domain.games` passes, through `GameRules` alone:
random legal playouts (domain/playout.py) under every combination of the game's enumerated
options, checking at every step what any game owes the rest of Atout.

* `legal_actions` is exactly what `decide` accepts: every offered action (a compact one as
  a concrete choice) is accepted, and a well-formed action not offered is refused — unless
  its events are those of an offered one (the same move said another way). The candidates
  come from the game's own vocabulary as the playout meets it: every action offered to any
  seat so far, every card of the deck played, each field given every value seen for it, an
  integer moved by one, a compact choice one too short, one too long or reaching outside.
* `decide` is pure (the same command, the same events) and `evolve` trusts its events:
  folding the events, also after a JSON round trip through the game's event types, gives
  the live state.
* Views and redacted events never show a card still in another seat's hand, and a view's
  `legal` is the seat's legal actions.
* The status's `to_act` names exactly the seats with something to do (tests/property/
  test_to_act.py, beside this suite).
* A match of `deals` deals ends after them with a winner or a tie.

Each game's own invariants (its cards all accounted for, its scores) stay in its own
tests/property/test_<game>_playouts.py.
"""

from __future__ import annotations

import itertools
import random
import re
from typing import Any, Union

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.cards import SEATS, Seat
from domain.game import GameRules, RuleViolation, StartDeal
from domain.games import GAMES
from domain.playout import concrete, play_deal


def _accepted(game: GameRules, options: dict[str, Any]) -> bool:
    try:
        game.parse_options(options)
    except RuleViolation:
        return False
    return True


def _ways(game: GameRules) -> list[dict[str, Any]]:
    """Every combination of the game's enumerated and yes/no options (the rest at default)
    that the game accepts (an option of one variant is refused with the others)."""
    choices = {name: schema["enum"] if "enum" in schema else [False, True]
               for name, schema in game.options_schema.items()
               if "enum" in schema or schema.get("type") == "boolean"}
    ways = [dict(zip(choices, values)) for values in itertools.product(*choices.values())]
    return [options for options in ways if _accepted(game, options)]


CONFIGS = [(game.name, options) for game in GAMES.values() for options in _ways(game)]
IDS = [f"{name}-{'-'.join(str(v) for v in options.values()) or 'default'}" for name, options in CONFIGS]
SEEDS = st.integers(0, 2**32 - 1)
SAMPLE = 60          # candidates tried per seat and step, beside every offered action


def _key(action: dict[str, Any]) -> bytes:
    return msgspec.json.encode(action, order="sorted")


def _compact(offer: dict[str, Any]) -> str | None:
    return next((k for k, v in offer.items() if isinstance(v, dict) and "choose" in v), None)


def offered(legal: list[dict[str, Any]], action: dict[str, Any]) -> bool:
    """Whether `action` (without its seat) is one of `legal`, a compact offer's choices included."""
    for offer in legal:
        if offer.get("action") != action.get("action"):
            continue
        key = _compact(offer)
        if key is None:
            if offer == action:
                return True
            continue
        chosen, spec = action.get(key), offer[key]
        rest = {k: v for k, v in offer.items() if k != key}
        if isinstance(chosen, list) and len(chosen) == spec["choose"] and len(set(chosen)) == len(chosen) \
                and set(chosen) <= set(spec["from"]) and {k: v for k, v in action.items() if k != key} == rest:
            return True
    return False


class Vocabulary:
    """The well-formed actions of one game met so far, and the values seen for each field."""

    def __init__(self, game: GameRules) -> None:
        self.actions: dict[bytes, dict[str, Any]] = {}
        self.compact: dict[bytes, dict[str, Any]] = {}
        self.values: dict[str, dict[bytes, Any]] = {}
        self.deck = list(game.deck)
        for card in self.deck:
            self.add({"action": "play", "card": card})

    def add(self, action: dict[str, Any]) -> None:
        if _compact(action) is not None:
            self.compact.setdefault(_key(action), action)
            return
        self.actions.setdefault(_key(action), action)
        for field, value in action.items():
            if field != "action":
                self.values.setdefault(field, {}).setdefault(_key(value), value)

    def candidates(self, rng: random.Random) -> list[dict[str, Any]]:
        out: dict[bytes, dict[str, Any]] = dict(self.actions)
        for action in list(self.actions.values()):
            for field, value in action.items():
                if field == "action":
                    continue
                for other in self.values[field].values():
                    out.setdefault(_key({**action, field: other}), {**action, field: other})
                if isinstance(value, int) and not isinstance(value, bool):
                    for step in (-1, 1):
                        out.setdefault(_key({**action, field: value + step}), {**action, field: value + step})
        for offer in self.compact.values():
            key = _compact(offer)
            spec, pool = offer[key], list(offer[key]["from"])
            base = {k: v for k, v in offer.items() if k != key}
            chosen = rng.sample(pool, spec["choose"])
            outside = [c for c in self.deck if c not in pool]
            variants = [chosen, chosen[:-1], chosen + [c for c in pool if c not in chosen][:1]]
            if chosen and outside:
                variants.append(chosen[:-1] + [rng.choice(outside)])
            for cards in variants:
                out.setdefault(_key({**base, key: cards}), {**base, key: cards})
        return list(out.values())


def _events(game: GameRules, state: Any, seat: Seat, action: dict[str, Any]) -> list[Any] | None:
    try:
        return game.decide(state, game.parse_action({"seat": str(seat), **action}))
    except RuleViolation:
        return None


def check_legal_is_accepted(game: GameRules, state: Any, vocabulary: Vocabulary, rng: random.Random) -> None:
    legal = {seat: game.legal_actions(state, seat) for seat in SEATS}
    for seat in SEATS:
        for action in legal[seat]:
            vocabulary.add(action)
            one = concrete(action, rng)
            events = _events(game, state, seat, one)
            assert events, f"{seat} {one} offered but refused"
            assert game.decide(state, game.parse_action({"seat": str(seat), **one})) == events, "decide is not pure"
    candidates = vocabulary.candidates(rng)
    for seat in SEATS:
        effects = [_key(msgspec.to_builtins(_events(game, state, seat, concrete(a, rng))))
                   for a in legal[seat] if _compact(a) is None]
        for action in rng.sample(candidates, min(SAMPLE, len(candidates))):
            if offered(legal[seat], action):
                continue
            events = _events(game, state, seat, action)
            assert events is None or _key(msgspec.to_builtins(events)) in effects, \
                f"{seat} {action} accepted but not offered"


CARD = re.compile(rb'"((?:[2-9TJQKA][SHDC])|JK)"')


def cards_in(value: Any) -> set[str]:
    return {m.decode() for m in CARD.findall(msgspec.json.encode(value))}


def check_views(game: GameRules, state: Any, events: list[Any]) -> None:
    """No view or redacted event shows a card another seat holds and the table has not seen."""
    hands = {seat: set(game.view(state, seat).hand or ()) for seat in SEATS}
    public = cards_in(game.view(state, None))
    for seat in (*SEATS, None):
        hidden = set().union(*(cards for other, cards in hands.items() if other != seat)) - public
        view = game.view(state, seat)
        assert not cards_in(view) & hidden, (seat, cards_in(view) & hidden)
        if seat is not None:
            assert view.legal == game.legal_actions(state, seat)
        for event in events:
            assert not cards_in(game.redact(event, seat)) & hidden, (seat, event)


@pytest.mark.parametrize("name,options", CONFIGS, ids=IDS)
@settings(max_examples=2, deadline=None)
@given(seed=SEEDS)
def test_a_deal_keeps_what_every_game_owes(name: str, options: dict[str, Any], seed: int) -> None:
    game = GAMES[name]
    rules = game.parse_options(options)
    rng = random.Random(seed)
    vocabulary = Vocabulary(game)
    state = game.initial(rules)
    stream: list[Any] = []
    for _, state, events in play_deal(game, state, rng):
        stream += events
        check_views(game, state, events)
        if game.status(state).phase == "in_deal":
            check_legal_is_accepted(game, state, vocabulary, rng)
    decoder = msgspec.json.Decoder(list[Union[game.event_types]])  # type: ignore[valid-type]
    assert game.fold(rules, stream) == state
    assert game.fold(rules, decoder.decode(msgspec.json.encode(stream))) == state


@pytest.mark.parametrize("name,options", CONFIGS, ids=IDS)
@settings(max_examples=2, deadline=None)
@given(seed=SEEDS)
def test_a_match_of_deals_ends_after_them(name: str, options: dict[str, Any], seed: int) -> None:
    game = GAMES[name]
    rules = game.parse_options({**options, "deals": 2})
    rng = random.Random(seed)
    state = game.initial(rules)
    stream: list[Any] = []
    for _ in range(2):
        assert game.status(state).phase == "awaiting_deal"
        for command, state, events in play_deal(game, state, rng):
            stream += events
    status = game.status(state)
    assert status.phase == "match_over" and status.deals_played == 2
    assert status.winner is None or status.winner in game.sides(rules)
    assert game.fold(rules, stream) == state
    assert game.legal_actions(state, Seat.N) == [] and not game.status(state).to_act
    with pytest.raises(RuleViolation):
        game.decide(state, StartDeal(dealer=Seat.N, deck=game.deck))


def test_every_game_has_its_ways_of_playing_here() -> None:
    assert {name for name, _ in CONFIGS} == set(GAMES)
