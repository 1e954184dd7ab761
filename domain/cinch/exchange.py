"""From the auction to the first lead (A.4.4–A.4.9): the bidder names trumps; every
non-dealer's non-trumps go face up automatically; a non-dealer left with more than six
trumps sheds the excess (`discard`); the dealer tops the non-dealers up to six from the
stock, eldest first, reusing the face-up discards if the stock runs out (A.4.8); then the
dealer robs the pack and keeps any six (`rob`)."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.cards import Seat, with_hand
from domain.game import RuleViolation
from domain.tricks import Trick

from domain.cinch.commands import Discard, NameTrump, Rob
from domain.cinch.events import CardsDrawn, NonTrumpsDiscarded, PackRobbed, TrumpNamed, TrumpsDiscarded
from domain.cinch.ranking import TABLES
from domain.cinch.state import HAND_SIZE, PREVIOUS, State, non_dealers, verify_turn

# --- what a seat may do ------------------------------------------------------------------


def excess(state: State, seat: Seat) -> int:
    """How many trumps `seat` must still shed (0 unless it is his turn to discard)."""
    return len(state.deal.hand(seat)) - HAND_SIZE if state.phase == "discard" else 0


def pool(state: State) -> tuple[str, ...]:
    """What the robbing dealer chooses from: his nine, then the rest of the stock."""
    assert state.deal.dealer is not None
    return state.deal.hand(state.deal.dealer) + state.deal.stock


def can_discard(state: State, command: Discard) -> RuleViolation | None:
    hand = state.deal.hand(command.seat)
    need = len(hand) - HAND_SIZE
    for card in command.cards:
        if card not in hand:
            return RuleViolation("card_not_in_hand", f"{card} is not in {command.seat}'s hand", {"card": card})
    if len(command.cards) != need:
        return RuleViolation("illegal_discard", f"{command.seat} must shed exactly {need} trumps to keep six",
                             {"count": need})
    return None


def can_rob(state: State, command: Rob) -> RuleViolation | None:
    cards = pool(state)
    for card in command.keep:
        if card not in cards:
            return RuleViolation("card_not_in_hand", f"{card} is neither in the dealer's hand nor in the stock",
                                 {"card": card})
    return None


def legal_exchange(state: State, seat: Seat) -> list[dict[str, Any]]:
    if state.phase == "trump":
        return [{"action": "trump", "suit": s} for s in ("S", "H", "D", "C")]
    if state.phase == "discard":
        hand = state.deal.hand(seat)
        return [{"action": "discard", "cards": {"choose": len(hand) - HAND_SIZE, "from": list(hand)}}]
    return [{"action": "rob", "keep": {"choose": HAND_SIZE, "from": list(pool(state))}}]


def keep_order(trump: str, card: str) -> tuple[int, int]:
    """How much a card is worth keeping when shedding trumps or robbing the pack: counting
    trumps first, then the other trumps high to low, then aces and kings, then the rest by
    rank (A.4.5, A.4.7). The bots shed and rob by it, and par takes the same choice."""
    table = TABLES[trump]
    if card in table.trumps:
        return (2 + (table.points.get(card, 0) > 0), table.strength_of[card])
    return (1 if card[0] in "AK" else 0, "23456789TJQKA".index(card[0]))


# --- decisions -------------------------------------------------------------------------------


def decide_trump(state: State, command: NameTrump) -> list[Any]:
    verify_turn(state, command.seat, "trump")
    trumps = TABLES[command.suit].trumps
    events: list[Any] = [TrumpNamed(seat=command.seat, suit=command.suit)]
    assert state.deal.dealer is not None
    sizes: dict[Seat, int] = {}
    face_up: list[str] = []
    for seat in non_dealers(state.deal.dealer):
        hand = state.deal.hand(seat)
        plain = tuple([c for c in hand if c not in trumps])
        events.append(NonTrumpsDiscarded(seat=seat, cards=plain))
        sizes[seat] = len(hand) - len(plain)
        face_up.extend(plain)
    if all(n <= HAND_SIZE for n in sizes.values()):
        events.extend(draws(state.deal.dealer, sizes, state.deal.stock, face_up))
    return events


def decide_discard(state: State, command: Discard) -> list[Any]:
    verify_turn(state, command.seat, "discard")
    problem = can_discard(state, command)
    if problem:
        raise problem
    event = TrumpsDiscarded(seat=command.seat, cards=command.cards)
    if state.deal.pending[1:]:
        return [event]
    assert state.deal.dealer is not None
    sizes = {s: len(state.deal.hand(s)) - (len(command.cards) if s == command.seat else 0)
             for s in non_dealers(state.deal.dealer)}
    return [event, *draws(state.deal.dealer, sizes, state.deal.stock, [c for _, c in state.deal.face_up])]


def draws(dealer: Seat, sizes: dict[Seat, int], stock: tuple[str, ...], face_up: list[str]) -> list[CardsDrawn]:
    """A.4.6 and A.4.8: each non-dealer, eldest first, holding `sizes[seat]` cards, gets the
    top of the stock up to six; once it is empty, the face-up discards in the order they
    were made (never a trump: they are all non-trumps)."""
    taken = reused = 0
    events = []
    for seat in non_dealers(dealer):
        need = HAND_SIZE - sizes[seat]
        cards = stock[taken:taken + need]
        taken += len(cards)
        short = need - len(cards)
        again = tuple(face_up[reused:reused + short])
        reused += short
        events.append(CardsDrawn(seat=seat, cards=cards, count=len(cards), reused=again))
    return events


def decide_rob(state: State, command: Rob) -> list[Any]:
    verify_turn(state, command.seat, "rob")
    problem = can_rob(state, command)
    if problem:
        raise problem
    assert state.deal.contract is not None and state.deal.contract.trump is not None
    trumps = TABLES[state.deal.contract.trump].trumps
    keep = set(command.keep)
    cards = pool(state)
    kept = tuple(c for c in cards if c in keep)
    took = sum(1 for c in state.deal.stock if c in keep)
    left = [c for c in cards if c not in keep]
    shown = tuple(c for c in left if c in trumps)
    buried = tuple(c for c in left if c not in trumps)
    return [PackRobbed(seat=command.seat, kept=kept, took=took, shown=shown, buried=buried,
                       buried_count=len(buried))]


# --- evolution -----------------------------------------------------------------------------


def evolve_trump_named(state: State, event: TrumpNamed) -> State:
    deal = state.deal
    assert deal.contract is not None
    return replace(state, phase="discard", deal=replace(deal, contract=replace(deal.contract, trump=event.suit),
                                                        turn=None))


def evolve_non_trumps_discarded(state: State, event: NonTrumpsDiscarded) -> State:
    deal, seat, gone = state.deal, event.seat, event.cards
    hand = tuple([c for c in deal.hand(seat) if c not in gone])
    pending = deal.pending + (seat,) if len(hand) > HAND_SIZE else deal.pending
    return replace(state, deal=replace(deal, hands=with_hand(deal.hands, seat, hand),
                                       face_up=deal.face_up + tuple([(seat, c) for c in gone]),
                                       pending=pending, turn=pending[0] if pending else None))


def evolve_trumps_discarded(state: State, event: TrumpsDiscarded) -> State:
    deal, gone = state.deal, set(event.cards)
    hand = tuple(c for c in deal.hand(event.seat) if c not in gone)
    pending = deal.pending[1:]
    return replace(state, deal=replace(deal, hands=with_hand(deal.hands, event.seat, hand),
                                       shed=deal.shed + tuple((event.seat, c) for c in event.cards),
                                       pending=pending, turn=pending[0] if pending else None))


def evolve_cards_drawn(state: State, event: CardsDrawn) -> State:
    deal = state.deal
    hand = deal.hand(event.seat) + event.cards + event.reused
    deal = replace(deal, hands=with_hand(deal.hands, event.seat, hand), stock=deal.stock[event.count:],
                   reused=deal.reused + tuple((event.seat, c) for c in event.reused),
                   drawn=deal.drawn + ((event.seat, event.count + len(event.reused)),))
    if event.seat == PREVIOUS[deal.dealer]:  # type: ignore[index]
        return replace(state, phase="rob", deal=replace(deal, turn=deal.dealer))
    return replace(state, deal=deal)


def evolve_pack_robbed(state: State, event: PackRobbed) -> State:
    deal = state.deal
    assert deal.contract is not None
    leader = deal.contract.seat
    return replace(state, phase="play", deal=replace(deal, hands=with_hand(deal.hands, event.seat, event.kept),
                                                     stock=(), shed=deal.shed + tuple((event.seat, c) for c in event.shown),
                                                     buried=event.buried, took=event.took, turn=leader,
                                                     trick=Trick(leader=leader)))
