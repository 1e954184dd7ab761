"""Helpers for the belote tests: decks that deal chosen hands, and given/when/then driving
through the real GameRules (StartDeal and player actions, never a hand-built state)."""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from domain.belote import GAME
from domain.cards import DECK_32, Seat, seats_from
from domain.game import RuleViolation, StartDeal

ORDER = ("N", "W", "S", "E")          # counter-clockwise


def eldest_of(dealer: str) -> str:
    return ORDER[(ORDER.index(dealer) + 1) % 4]


def dealer_for(eldest: str) -> str:
    return ORDER[(ORDER.index(eldest) - 1) % 4]


def cards(text: str) -> list[str]:
    return text.split()


def _fill(hands: dict[str, Sequence[str]]) -> dict[str, list[str]]:
    """Complete partial hands to 8 cards each with the unused cards, in deck order."""
    used = [c for h in hands.values() for c in h]
    assert len(used) == len(set(used)), f"a card appears twice in {hands}"
    spare = [c for c in DECK_32 if c not in used]
    out = {}
    for seat in ORDER:
        hand = list(hands.get(seat, ()))
        while len(hand) < 8:
            hand.append(spare.pop(0))
        out[seat] = hand
    return out


def coinche_deck(dealer: str, hands: dict[str, Sequence[str]]) -> list[str]:
    """The deck that deals `hands` 3-2-3 from eldest."""
    full = _fill(hands)
    order = [str(s) for s in seats_from(Seat(eldest_of(dealer)), "counter_clockwise")]
    deck: list[str] = []
    for start, n in ((0, 3), (3, 2), (5, 3)):
        for seat in order:
            deck.extend(full[seat][start:start + n])
    return deck


def classic_deck(dealer: str, first: dict[str, Sequence[str]], turn_up: str, rest: dict[str, Sequence[str]],
                 taker: str | None = None) -> list[str]:
    """The deck for classic / sans atout: `first` = 5 cards each (dealt 3-2), the turn-up
    (classic; pass None for sans atout), then `rest` = what each seat gets after the auction
    (3 each, 2 for the taker in classic)."""
    order = [str(s) for s in seats_from(Seat(eldest_of(dealer)), "counter_clockwise")]
    deck: list[str] = []
    for start, n in ((0, 3), (3, 2)):
        for seat in order:
            deck.extend(first[seat][start:start + n])
    if turn_up is not None:
        deck.append(turn_up)
    for seat in order:
        deck.extend(rest[seat])
    assert sorted(deck) == sorted(DECK_32), "not a permutation of the deck"
    return deck


def new_match(**options: Any) -> Any:
    return GAME.initial(GAME.parse_options(options))


def act(state: Any, seat: str, action: str, **fields: Any) -> Any:
    """Apply one action given in the README vocabulary; returns the new state."""
    state, _ = GAME.apply(state, GAME.parse_action({"seat": seat, "action": action, **fields}))
    return state


def given(options: dict[str, Any], dealer: str, deck: Sequence[str],
          actions: Iterable[tuple] = (), state: Any = None) -> Any:
    """Start a deal from `deck` and apply `actions` ((seat, action, {fields}) or (seat, action))."""
    state = state if state is not None else new_match(**options)
    state, _ = GAME.apply(state, StartDeal(dealer=Seat(dealer), deck=tuple(deck)))
    for a in actions:
        seat, action, *rest = a
        state = act(state, seat, action, **(rest[0] if rest else {}))
    return state


def when(state: Any, seat: str, action: str, **fields: Any) -> list[Any]:
    """The events `decide` answers to one action."""
    return GAME.decide(state, GAME.parse_action({"seat": seat, "action": action, **fields}))


def refused(state: Any, seat: str, action: str, **fields: Any) -> str:
    """The code of the rule violation one action raises."""
    try:
        GAME.decide(state, GAME.parse_action({"seat": seat, "action": action, **fields}))
    except RuleViolation as violation:
        return violation.code
    raise AssertionError(f"{seat} {action} {fields} was accepted")


def legal_cards(state: Any, seat: str) -> set[str]:
    return {a["card"] for a in GAME.legal_actions(state, Seat(seat)) if a["action"] == "play"}


def coinche_play(options: dict[str, Any], leader: str, hands: dict[str, Sequence[str]], trump: str,
                 plays: Sequence[tuple[str, str]] = (), bidder: str | None = None) -> Any:
    """A Coinche deal with these hands (completed to 8 cards), `bidder` (default: the
    leader) bidding 80 in `trump`, the others passing, then `plays` ((seat, card)) to trick 1.
    Combinations are off unless `options` says otherwise."""
    dealer = dealer_for(leader)
    bidder = bidder or leader
    opts = {"variant": "coinche", "combinations": False, **options}
    order = [leader, *[s for s in ORDER[ORDER.index(leader) + 1:] + ORDER[:ORDER.index(leader)]]]
    actions: list[tuple] = []
    i = order.index(bidder)
    for seat in order[:i]:
        actions.append((seat, "pass"))
    actions.append((bidder, "bid", {"value": 80, "suit": trump}))
    for k in range(1, 4):
        actions.append((order[(i + k) % 4], "pass"))
    actions.extend((seat, "play", {"card": card}) for seat, card in plays)
    return given(opts, dealer, coinche_deck(dealer, hands), actions)


def play_on(state: Any, n: int | None = None, prefer: str | None = None) -> Any:
    """Play `n` cards (all remaining when None), each time the seat in turn's first legal
    card (or `prefer`'s choice where it is legal) — a quick way through tricks a test does
    not look at."""
    count = 0
    while state.deal.phase == "play" and (n is None or count < n):
        seat = state.deal.turn
        plays = [a for a in GAME.legal_actions(state, seat) if a["action"] == "play" and "belote" not in a]
        state = act(state, str(seat), "play", card=plays[0]["card"])
        count += 1
    return state


def suit_per_seat(dealer: str = "E") -> dict[str, list[str]]:
    """N all spades, W all hearts, S all diamonds, E all clubs (ranks in natural order)."""
    ranks = "7 8 9 T J Q K A".split()
    return {seat: [r + suit for r in ranks] for seat, suit in zip("NWSE", "SHDC")}


def random_deal(state: Any, rng: Any) -> Any:
    """Deal a shuffled deck and play random legal actions to the deal's end."""
    from domain.playout import choose_action

    deck = list(GAME.deck)
    rng.shuffle(deck)
    state, _ = GAME.apply(state, StartDeal(dealer=GAME.status(state).next_dealer or Seat.N, deck=tuple(deck)))
    while GAME.status(state).phase == "in_deal":
        state, _ = GAME.apply(state, GAME.parse_action(choose_action(GAME, state, rng)))
    return state


def find_litige(**options: Any) -> Any:
    """A match whose first deal ended in a litige, found by seeded random play (the search
    starts near a seed known to give one, to keep the tests quick)."""
    import random

    for seed in (*range(250, 400), *range(0, 250), *range(400, 5000)):
        state = random_deal(new_match(**options), random.Random(seed))
        if state.deal.result == "litige":
            return state
    raise AssertionError("no litige in 5000 random deals")
