"""Helpers for the Cinch rule tests: decks arranged so that a deal gives chosen hands, and
given-events / when-command / then-events plumbing through the real GameRules."""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from domain.cards import DECK_52, Seat, seats_from
from domain.cinch import GAME
from domain.cinch.ranking import TABLES
from domain.game import StartDeal

ORDER = ("N", "E", "S", "W")


def eldest_first(dealer: str) -> list[str]:
    return [str(s) for s in seats_from(Seat(dealer), "clockwise")][1:] + [dealer]


def arrange(dealer: str, hands: Mapping[str, Sequence[str]], stock: Sequence[str] = (),
            last: Iterable[str] = ()) -> list[str]:
    """A deck (top first) that deals each seat the cards listed for it first (up to nine,
    in the order they arrive) and puts `stock` on top of the stock. Unlisted places are
    filled with the other cards, those in `last` as late as possible."""
    named = [c for h in hands.values() for c in h] + list(stock)
    assert len(named) == len(set(named)), "a card is named twice"
    late = set(last)
    rest = [c for c in DECK_52 if c not in named and c not in late] + \
           [c for c in DECK_52 if c not in named and c in late]
    full = {}
    for seat in ORDER:
        mine = list(hands.get(seat, ()))
        assert len(mine) <= 9
        while len(mine) < 9:
            mine.append(rest.pop(0))
        full[seat] = mine
    deck: list[str] = []
    for packet in range(3):
        for seat in eldest_first(dealer):
            deck.extend(full[seat][packet * 3:packet * 3 + 3])
    deck.extend(stock)
    deck.extend(rest)
    assert sorted(deck) == sorted(DECK_52)
    return deck


def arrange_play(dealer: str, trump: str, play_hands: Mapping[str, Sequence[str]]) -> list[str]:
    """A deck after which, once the dealer robs keeping his six, every seat holds exactly
    its `play_hands` cards at the first lead (non-dealers: their trumps dealt, their plain
    cards drawn from the stock, eldest first)."""
    trumps = TABLES[trump].trumps
    hands: dict[str, list[str]] = {}
    stock: list[str] = []
    used = {c for h in play_hands.values() for c in h}
    plain_pool = [c for c in DECK_52 if c not in used and c not in trumps]
    for seat in eldest_first(dealer)[:3]:
        own = [c for c in play_hands[seat] if c in trumps]
        hands[seat] = own + [plain_pool.pop(0) for _ in range(9 - len(own))]
        stock.extend(c for c in play_hands[seat] if c not in trumps)
    spare = plain_pool + [c for c in DECK_52 if c in trumps and c not in used]  # shown by the dealer if need be
    hands[dealer] = list(play_hands[dealer]) + spare[:3]
    return arrange(dealer, hands, stock, last=trumps)


def auction(dealer: str, bidder: str, value: int) -> list[dict[str, Any]]:
    """`bidder` bids `value`, everyone else passes (a stuck dealer bids)."""
    return [{"seat": s, "action": "bid", "value": value} if s == bidder else {"seat": s, "action": "pass"}
            for s in eldest_first(dealer)]


def to_first_lead(dealer: str, bidder: str, value: int, trump: str, play_hands: Mapping[str, Sequence[str]]
                  ) -> tuple[list[str], list[dict[str, Any]]]:
    """(deck, actions) reaching the first lead with exactly `play_hands`."""
    deck = arrange_play(dealer, trump, play_hands)
    actions = auction(dealer, bidder, value) + [
        {"seat": bidder, "action": "trump", "suit": trump},
        {"seat": dealer, "action": "rob", "keep": list(play_hands[dealer])}]
    return deck, actions


def options(**raw: Any) -> Any:
    return GAME.parse_options(raw)


def run(opts: Any, deals: Sequence[tuple[str, Sequence[str], Sequence[Mapping[str, Any]]]], state: Any = None
        ) -> tuple[Any, list[Any]]:
    """Play (dealer, deck, actions) deals through decide/evolve; (state, every event)."""
    state = GAME.initial(opts) if state is None else state
    events: list[Any] = []
    for dealer, deck, actions in deals:
        state, evs = GAME.apply(state, StartDeal(dealer=Seat(dealer), deck=tuple(deck)))
        events.extend(evs)
        for action in actions:
            state, evs = GAME.apply(state, GAME.parse_action(action))
            events.extend(evs)
    return state, events


def given(opts: Any, events: Sequence[Any]) -> Any:
    return GAME.fold(opts, events)


def when(state: Any, action: Mapping[str, Any]) -> list[Any]:
    return GAME.decide(state, GAME.parse_action(action))


def record(played: Sequence[tuple[str, Sequence[str], Sequence[Mapping[str, Any]]]], **opts: Any) -> dict[str, Any]:
    return {"game": "cinch", "options": opts,
            "deals": [{"dealer": d, "deck": list(deck), "actions": list(actions)} for d, deck, actions in played]}
