"""A brute-force double-dummy reference for any game: plain minimax through the real rules
(`GameRules.legal_actions`, `decide`, `evolve`), written once, so it can catch a solver bug
instead of sharing it. Also the random deals in play the tests and the benchmark draw from.

Each game's leaf says what a finished deal is worth to a side: the key both sides play on
(higher is better for the side) and the value the solver reports. They differ only in
Belote, where the teams play on the difference of card points and the value is the side's
own points (docs/doubledummy.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from domain.cards import SEAT_INDEX, TEAM, Seat
from domain.game import GameRules
from domain.playout import play_deal

Leaf = Callable[[Any, str], tuple[int, int]]


def _belote_leaf(state: Any, side: str) -> tuple[int, int]:
    deal = state.deal
    other = "EW" if side == "NS" else "NS"
    belote = 20 if deal.belote == "done" and TEAM[deal.belote_holder] == side else 0
    return deal.points[side] - deal.points[other], deal.points[side] + belote


def _cinch_leaf(state: Any, side: str) -> tuple[int, int]:
    v = state.history[-1].points[side]
    return v, v


def _five_hundred_leaf(state: Any, side: str) -> tuple[int, int]:
    record = state.history[-1]
    contract = record.contract
    i = 0 if side == "NS" else 1
    if contract.spec.misere:
        taken = record.points[contract.side]
        v = -taken if i == contract.side else taken
    else:
        v = record.points[i]
    return v, v


LEAVES: dict[str, Leaf] = {"belote": _belote_leaf, "cinch": _cinch_leaf, "five_hundred": _five_hundred_leaf}


def side_of(game: GameRules, state: Any, seat: Seat) -> str:
    """The side a seat plays for: its team, or itself in individual Cinch."""
    if game.name == "cinch" and state.options.individual:
        return str(seat)
    return TEAM[seat]


def to_act(state: Any) -> Seat:
    return state.deal.turn


def in_play(game: GameRules, state: Any) -> bool:
    if game.status(state).phase != "in_deal":
        return False
    deal = state.deal
    phase = getattr(state, "phase", None) if game.name != "belote" else deal.phase
    return phase == "play" and deal.turn is not None


def minimax(game: GameRules, state: Any, side: str) -> tuple[int, int]:
    """(key, value) of the deal for `side` with perfect play: the side maximizes the key, the
    others minimize it."""
    if game.status(state).phase != "in_deal":
        return LEAVES[game.name](state, side)
    seat = to_act(state)
    maximize = side_of(game, state, seat) == side
    best: tuple[int, int] | None = None
    for action in game.legal_actions(state, seat):
        if action["action"] != "play":
            continue
        child, _ = game.apply(state, game.parse_action({"seat": str(seat), **action}))
        result = minimax(game, child, side)
        if best is None or (result[0] > best[0] if maximize else result[0] < best[0]):
            best = result
    assert best is not None
    return best


def cards_left(state: Any) -> int:
    return sum(len(h) for h in state.deal.hands)


def contract_kind(state: Any) -> str:
    """A Five Hundred contract's kind: "misere", "NT" or "suit"."""
    spec = state.deal.contract.spec
    return "misere" if spec.misere else ("NT" if spec.denomination == "NT" else "suit")


def play_states(game: GameRules, options: Any, rng: random.Random, kind: str | None = None) -> list[Any]:
    """Every position with a seat to play of one random deal that reached its play (in Five
    Hundred, of a contract of `kind` when given: random auctions end mostly in no-trumps)."""
    while True:
        state = game.initial(options)
        out = [s for _, s, _ in play_deal(game, state, rng) if in_play(game, s)]
        if out and (kind is None or contract_kind(out[0]) == kind):
            return out


def endings(game: GameRules, options: Any, rng: random.Random, tricks: int) -> Iterator[Any]:
    """The positions of one random deal where the seat to act holds at most `tricks` cards:
    its last `tricks` tricks (none, for a misère deal stopped before them)."""
    for state in play_states(game, options, rng):
        if len(state.deal.hands[SEAT_INDEX[to_act(state)]]) <= tricks:
            yield state


def ducking_line(game: GameRules, state: Any, rng: random.Random) -> list[Any]:
    """The positions of a Five Hundred misère deal played on from `state` with the contractor
    ducking (the highest card that loses the trick, else his lowest) and the others at
    random: random play alone catches him within a few tricks, so its last tricks would
    never be reached."""
    from domain.five_hundred.ranking import STRENGTH, plain_order
    out = []
    contractor = state.deal.contract.seat
    while game.status(state).phase == "in_deal":
        out.append(state)
        seat = to_act(state)
        actions = [a for a in game.legal_actions(state, seat) if a["action"] == "play"]
        action = rng.choice(actions)
        if seat == contractor:
            trick = state.deal.trick
            strength = STRENGTH["NT"][trick.led] if trick.plays else {}
            best = max((strength[c] for _, c in trick.plays), default=None)
            losing = [a for a in actions if best is not None and strength[a["card"]] < best]
            action = (max(losing, key=lambda a: plain_order(a["card"])) if losing
                      else min(actions, key=lambda a: plain_order(a["card"])))
        state, _ = game.apply(state, game.parse_action({"seat": str(seat), **action}))
    return out


def low_hand_misere(game: GameRules, options: Any, rng: random.Random) -> Any:
    """The first lead of a random Five Hundred misère deal whose contractor is given ten low
    cards (random bidding finds misère seldom, and with hands that cannot play it)."""
    from msgspec.structs import replace

    from domain.five_hundred.ranking import plain_order
    state = play_states(game, options, rng, "misere")[0]
    deal = state.deal
    ci = SEAT_INDEX[deal.contract.seat]
    cards = [c for h in deal.hands for c in h]
    rng.shuffle(cards)
    cards.sort(key=plain_order)
    low = rng.sample(cards[:16], 10)
    rest = [c for c in cards if c not in low]
    rng.shuffle(rest)
    hands, k = [], 0
    for i in range(4):
        if i == ci:
            hands.append(tuple(low))
        else:
            hands.append(tuple(rest[k:k + 10]))
            k += 10
    return replace(state, deal=replace(deal, hands=tuple(hands)))


def first_lead(game: GameRules, options: Any, rng: random.Random) -> Any:
    """The state when a random deal's first card is about to be led."""
    return play_states(game, options, rng)[0]


__all__ = [
    "LEAVES",
    "cards_left",
    "contract_kind",
    "ducking_line",
    "endings",
    "first_lead",
    "in_play",
    "low_hand_misere",
    "minimax",
    "play_states",
    "side_of",
    "to_act",
]
