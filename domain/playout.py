"""Random legal playouts for any game: property tests, the engine benchmark and the
`random` bot level all use this one driver, so it goes only through `GameRules`."""

from __future__ import annotations

import random
from typing import Any, Iterator

from domain.cards import Seat
from domain.game import GameRules, StartDeal


def concrete(action: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Turn a compact legal action (`{"keep": {"choose": 6, "from": [...]}}`) into one
    concrete choice, uniformly; other actions pass through."""
    out = dict(action)
    for key, value in action.items():
        if isinstance(value, dict) and "choose" in value and "from" in value:
            out[key] = rng.sample(list(value["from"]), value["choose"])
    return out


def choose_action(game: GameRules, state: Any, rng: random.Random, public_turns: bool = False
                  ) -> dict[str, Any] | None:
    """A uniformly chosen legal action among those of every seat that may act, with its seat.

    With `public_turns`, only the seats the status names are asked: cheaper, and what a
    table does, but it never takes a seat's private out-of-turn actions (declining Belote
    combinations), which the status does not list so as not to tell who holds one."""
    seats = game.status(state).to_act if public_turns else tuple(Seat)
    choices = [(seat, a) for seat in seats for a in game.legal_actions(state, seat)]
    if not choices:
        return None
    seat, action = rng.choice(choices)
    return {"seat": str(seat), **concrete(action, rng)}


def play_deal(game: GameRules, state: Any, rng: random.Random, dealer: Seat | None = None,
              max_actions: int = 1000, public_turns: bool = False) -> Iterator[tuple[Any, Any, list[Any]]]:
    """Deal a shuffled deck and play random legal actions to the deal's end, yielding
    (command, state after, events) for each step, the deal itself first."""
    status = game.status(state)
    dealer = status.next_dealer or dealer or rng.choice(list(Seat))
    deck = list(game.deck)
    rng.shuffle(deck)
    command: Any = StartDeal(dealer=dealer, deck=tuple(deck))
    state, events = game.apply(state, command)
    yield command, state, events
    for _ in range(max_actions):
        if game.status(state).phase != "in_deal":
            return
        action = choose_action(game, state, rng, public_turns)
        if action is None:
            raise AssertionError("a deal in progress with nobody able to act")
        command = game.parse_action(action)
        state, events = game.apply(state, command)
        yield command, state, events
    raise AssertionError(f"deal did not end within {max_actions} actions")


def play_match(game: GameRules, options: Any, rng: random.Random, max_deals: int = 200) -> Any:
    """A whole random match; returns the final state."""
    state = game.initial(options)
    for _ in range(max_deals):
        if game.status(state).phase == "match_over":
            return state
        for _, state, _ in play_deal(game, state, rng):
            pass
    return state
