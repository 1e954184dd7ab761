"""Test support for Five Hundred: decks that deal chosen hands, and given/when/then helpers.

Imported by the test modules beside it (pytest puts this folder on sys.path).
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from domain.cards import DECK_43, Seat
from domain.five_hundred import GAME
from domain.five_hundred.dealing import DIRECTION, PACKETS
from domain.game import RuleViolation, StartDeal
from domain.tricks import deal_packets

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def _slots(dealer: Seat) -> tuple[dict[Seat, list[int]], list[int]]:
    """Which positions of the deck go to which seat, and which to the kitty."""
    hands, piles, _ = deal_packets(list(range(43)), dealer, DIRECTION, PACKETS)  # type: ignore[arg-type]
    return hands, piles["kitty"]  # type: ignore[return-value]


def deck_for(dealer: Seat = S, hands: Mapping[Seat, Iterable[str]] | None = None,
             kitty: Iterable[str] = ()) -> tuple[str, ...]:
    """A deck that deals these (partial) hands and kitty; the other cards fill the other
    places in canonical order."""
    hands = {seat: list(cards) for seat, cards in (hands or {}).items()}
    kitty = list(kitty)
    placed = [c for cards in hands.values() for c in cards] + kitty
    assert len(placed) == len(set(placed)), "a card is placed twice"
    rest = [c for c in DECK_43 if c not in set(placed)]
    seat_slots, kitty_slots = _slots(dealer)
    deck: list[str | None] = [None] * 43
    for seat, cards in hands.items():
        assert len(cards) <= 10
        for slot, card in zip(seat_slots[seat], cards):
            deck[slot] = card
    for slot, card in zip(kitty_slots, kitty):
        deck[slot] = card
    it = iter(rest)
    return tuple(c if c is not None else next(it) for c in deck)


def deal(dealer: Seat = S, hands: Mapping[Seat, Iterable[str]] | None = None, kitty: Iterable[str] = (),
         options: Mapping[str, Any] | None = None, state: Any = None) -> Any:
    """A state just after the deal."""
    if state is None:
        state = GAME.initial(GAME.parse_options(dict(options or {})))
    state, _ = GAME.apply(state, StartDeal(dealer=dealer, deck=deck_for(dealer, hands, kitty)))
    return state


def act(state: Any, *actions: Mapping[str, Any]) -> Any:
    """Apply actions given in the shared vocabulary; returns the state after the last."""
    for action in actions:
        state, _ = GAME.apply(state, GAME.parse_action(dict(action)))
    return state


def when(state: Any, action: Mapping[str, Any]) -> list[Any]:
    """The events one action produces (raises RuleViolation when refused)."""
    return GAME.decide(state, GAME.parse_action(dict(action)))


def refused(state: Any, action: Mapping[str, Any]) -> str:
    """The code a refused action gets; fails the test when it is accepted."""
    try:
        when(state, action)
    except RuleViolation as violation:
        return violation.code
    raise AssertionError(f"{action} was accepted")


def bid(seat: Seat, tricks: int | None = None, suit: str | None = None, contract: str | None = None) -> dict:
    if contract is not None:
        return {"seat": str(seat), "action": "bid", "contract": contract}
    return {"seat": str(seat), "action": "bid", "tricks": tricks, "suit": suit}


def pass_(seat: Seat) -> dict:
    return {"seat": str(seat), "action": "pass"}


def play(seat: Seat, card: str, suit: str | None = None) -> dict:
    out = {"seat": str(seat), "action": "play", "card": card}
    if suit is not None:
        out["suit"] = suit
    return out


def discard(seat: Seat, cards: Sequence[str]) -> dict:
    return {"seat": str(seat), "action": "discard", "cards": list(cards)}


def contract(seat: Seat, tricks: int | None = None, suit: str | None = None, kind: str | None = None,
             dealer: Seat = S, hands: Mapping[Seat, Iterable[str]] | None = None, kitty: Iterable[str] = (),
             options: Mapping[str, Any] | None = None, state: Any = None) -> Any:
    """A state where `seat` holds the contract (others passed; a misère is bid over a 7♠
    from the seat before the contractor) and has discarded the kitty back: play begins."""
    state = deal(dealer, hands, kitty, options, state)
    order = "NESW"
    before = Seat(order[(order.index(seat) + 3) % 4])
    if kind == "misere":
        # Misère needs a 7-bid under it (B.3.5): the contractor's right-hand opponent bids 7♠
        # (the contractor opens 6♠ if his turn comes first), everyone else passes.
        while state.deal.high < 0 or state.deal.auction[-1][0] != before:
            turn = state.deal.turn
            if turn == before:
                state = act(state, bid(before, 7, "S"))
            elif turn == seat:
                state = act(state, bid(seat, 6, "S"))
            else:
                state = act(state, pass_(turn))
    while state.deal.turn != seat:
        state = act(state, pass_(state.deal.turn))
    state = act(state, bid(seat, tricks, suit, kind))
    while state.phase == "auction":
        state = act(state, pass_(state.deal.turn))
    assert state.phase == "discard" and state.deal.contract.seat == seat
    return act(state, discard(seat, hand(state, seat)[-3:]))  # the kitty goes back out


def hand(state: Any, seat: Seat) -> tuple[str, ...]:
    return state.deal.hands["NESW".index(seat)]
