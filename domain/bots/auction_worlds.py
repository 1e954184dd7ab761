"""Worlds for a decision before the card play: whole deals consistent with what a seat has
seen of the auction.

Before the play a seat knows its own hand, the public cards (the Belote turn-up) and every
call made so far. A world is built the way the real deal was: a deck with the seat's own
cards where the dealing put them and the other cards shuffled over the places it could not
see, dealt by the real rules (`StartDeal`), then the auction's calls replayed on it. Where
the cards land is learnt once per (game, options, dealer, seat) by dealing a deck in its
canonical order and reading the seat's view — no knowledge of a game's dealing is written
twice.

Calls carry information: a world in which the other seats, played by `basic`, would have
made the calls they made is likelier than one where they would not. So each world is the
best of a few draws by that test (the first draw that explains every call wins), which
leans the worlds toward what the auction said without ever refusing to give one.

`first_lead` plays a world on from a decision to the first lead, `basic` at every seat: the
contract a candidate call leads to, for the master's solved calls (`solved_calls.py`).
"""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any, Callable

import msgspec

from domain.cards import Seat
from domain.game import GameRules, StartDeal

MAX_DECISIONS = 64          # after the candidate, before a rollout gives up (an auction has ~10)
_LAYOUTS: dict[tuple[str, bytes, str, str], tuple[tuple[int, ...], int | None]] = {}


def _layout(game: GameRules, options: Any, dealer: Seat, seat: Seat) -> tuple[tuple[int, ...], int | None]:
    """(the deck places of `seat`'s hand, the place of the turn-up or None) for this deal."""
    key = (game.name, msgspec.json.encode(options), str(dealer), str(seat))
    if key not in _LAYOUTS:
        deck = list(game.deck)
        state, _ = game.apply(game.initial(options), StartDeal(dealer=dealer, deck=tuple(deck)))
        view = game.view(state, seat)
        up = getattr(view, "turn_up", None)
        _LAYOUTS[key] = (tuple(deck.index(c) for c in view.hand), deck.index(up) if up else None)
    return _LAYOUTS[key]


def calls(game_name: str, table: Any) -> list[dict[str, Any]]:
    """The auction so far in the shared action vocabulary, each with its `seat`."""
    if game_name == "belote":
        return [{"seat": str(c.seat), "action": c.action,
                 **({"suit": c.suit} if c.suit is not None else {}),
                 **({"value": c.value} if c.value is not None else {})} for c in table.calls]
    if game_name == "cinch":
        return [{"seat": str(s), "action": "pass"} if v is None else {"seat": str(s), "action": "bid", "value": v}
                for s, v in table.bids]
    return [dict(c) for c in table.auction]


def _same(a: dict[str, Any] | None, b: dict[str, Any]) -> bool:
    """Whether `a` (what basic would call) tells the same story as the call `b` made: the
    same action, and for a bid the same strain at about the same level."""
    if a is None or a.get("action") != b.get("action"):
        return False
    if b.get("action") != "bid":
        return True
    if a.get("suit") != b.get("suit"):
        return False
    for key, slack in (("value", 20), ("tricks", 1)):
        x, y = a.get(key), b.get(key)
        if isinstance(x, int) and isinstance(y, int):
            return abs(x - y) <= (1 if "suit" not in b else slack)
        if x != y:
            return False
    return True


def _draw(game: GameRules, options: Any, table: Any, past: list[dict[str, Any]], rng: random.Random,
          explain: Callable[[Any, Seat], dict[str, Any] | None] | None) -> tuple[Any, int]:
    me, dealer = table.seat, table.dealer
    places, up_place = _layout(game, options, dealer, me)
    mine = list(table.hand)
    up = getattr(table, "turn_up", None)
    seen = set(mine) | ({up} if up else set())
    rest = [c for c in game.deck if c not in seen]
    rng.shuffle(rest)
    deck: list[Any] = [None] * len(game.deck)
    for place, card in zip(places, mine):
        deck[place] = card
    if up_place is not None:
        deck[up_place] = up
    it = iter(rest)
    deck = [c if c is not None else next(it) for c in deck]
    state, _ = game.apply(game.initial(options), StartDeal(dealer=dealer, deck=tuple(deck)))
    explained, missed = 0, False
    for call in past:
        seat = Seat(call["seat"])
        if explain is not None and not missed and seat != me:
            if _same(explain(game.view(state, seat), seat), call):
                explained += 1
            else:
                missed = True
        state, _ = game.apply(state, game.parse_action(call))
    return state, (0 if not missed else len(past) - explained)


def world(game: GameRules, options: Any, table: Any, rng: random.Random, draws: int = 16,
          explain: Callable[[Any, Seat], dict[str, Any] | None] | None = None) -> Any:
    """A full state of the deal, at this decision, that the seat's view cannot tell from the
    real one. `explain(view, seat)` is what a seat would have called (`basic`): of `draws`
    draws, the first whose calls it explains all, else the one explained longest before
    its first unexplained call."""
    past = calls(game.name, table)
    best, best_misses = None, None
    for _ in range(max(1, draws if explain is not None and past else 1)):
        state, misses = _draw(game, options, table, past, rng, explain)
        if best_misses is None or misses < best_misses:
            best, best_misses = state, misses
        if misses == 0:
            break
    return best


def basic_command(game: Any, family: ModuleType, state: Any, rng: random.Random) -> Any | None:
    """`basic`'s command at the seat whose turn it is (a House coinche out of turn left out);
    None when the deal is over (thrown in) or no seat's turn is to be played."""
    status = game.status(state)
    turn = state.deal.turn if state.deal is not None else None
    if status.phase != "in_deal" or turn is None or turn not in status.to_act:
        return None
    action = family.basic(game.view(state, turn), rng)
    return None if action is None else game.parse_action({"seat": str(turn), **action})


def first_lead(game: Any, family: ModuleType, state: Any, command: Any, rng: random.Random) -> Any | None:
    """The state at the first lead after `command` and `basic`'s decisions at every seat
    whose turn it is; None when the deal ends first (thrown in)."""
    for _ in range(MAX_DECISIONS):
        for event in game.decide(state, command):
            state = game.evolve(state, event)
        if family.to_act(state) is not None:
            return state
        command = basic_command(game, family, state, rng)
        if command is None:
            return None
    return None
