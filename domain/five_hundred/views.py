"""What one seat (or a spectator, `None`) may see: the only path out of the domain.

A seat sees its own hand, the kitty it took and its discards if it is the contractor, everything
played, and — in open misère after trick 1 — the contractor's hand face up (B.6.4). Nothing
else of another seat's unplayed cards, the kitty or the discards ever appears, in the view
or in a redacted event.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Final


from domain.cards import SEATS, Card, Seat
from domain.envelope import Envelope, deal_index, trick_plays
from domain.five_hundred.actions import legal_actions
from domain.five_hundred.bids import BIDS
from domain.five_hundred.events import DealStarted, Discarded, DealSeen, KittyTaken
from domain.five_hundred.state import IN_DEAL, MATCH_OVER, NOBODY, PLAY, SEAT_INDEX, SIDE_NAMES, State
from domain.five_hundred.summary import contract_json, trick_json
from domain.tricks import Trick, deal_packets


ALIASES: Final = MappingProxyType({"score": "match_score", "tricks_won": "deal_points"})
"""Deprecated view fields equal to an envelope field (old name -> envelope name)."""
DEALS_STARTED: Final = "deal"
"""The deprecated view field counting deals started: the envelope's `deal_index` + 1."""


class TableView(Envelope, frozen=True, kw_only=True):
    """The envelope (phases awaiting_deal, auction, discard, play, match_over; `deal_points`:
    tricks each side has won this deal) and what is Five Hundred's own. A trick also lists
    its `cards` in play order (deprecated: `plays` names the seats)."""

    contract: dict[str, Any] | None
    trick: dict[str, Any] | None        # and `led`: the suit to follow (a Joker led in no-trumps
    tricks: list[dict[str, Any]]        # or misère: the suit its leader named)
    deal: int                           # deprecated: deals started (deal_index + 1)
    score: dict[str, int]               # deprecated alias of match_score
    tricks_won: dict[str, int]          # deprecated alias of deal_points
    hand_sizes: dict[str, int]
    kitty_size: int
    kitty_taken: tuple[Card, ...]       # only the contractor: which cards of his hand came from the kitty
    auction: list[dict[str, Any]]       # every call so far, public
    high_bid: dict[str, Any] | None
    sitting_out: Seat | None            # the misère contractor's partner
    discarded: tuple[Card, ...]         # only the contractor sees his own discards
    exposed: dict[str, tuple[Card, ...]]  # open misère: the contractor's hand, face up after trick 1
    shown_void: dict[str, str]          # suits each seat has shown void in (public: it follows from the plays)
    deals: list[dict[str, Any]]         # per-deal results of the match, with rulings
    match_over: bool


def _call(seat: Seat, index: int) -> dict[str, Any]:
    return {"seat": str(seat), "action": "pass"} if index < 0 else {"seat": str(seat), **BIDS[index].action()}


def _trick(trick: Trick) -> dict[str, Any]:
    """A trick as the record has it, plus the effective suit led: a Joker led in no-trumps
    names a suit that no card shows, and every later card must follow it."""
    return {**trick_json(trick), "plays": trick_plays(trick), "led": trick.led}


def view(state: State, seat: Seat | None) -> TableView:
    in_deal = state.phase in IN_DEAL
    contract = state.deal.contract
    own = SEAT_INDEX[seat] if seat is not None else NOBODY
    is_contractor = contract is not None and own != NOBODY and SEATS[own] == contract.seat
    exposed: dict[str, tuple[Card, ...]] = {}
    if state.deal.exposed and contract is not None:
        exposed[str(contract.seat)] = state.deal.hands[SEAT_INDEX[contract.seat]]
    trick = state.deal.trick if state.phase == PLAY else None
    score = {SIDE_NAMES[0]: state.score[0], SIDE_NAMES[1]: state.score[1]}
    won = {SIDE_NAMES[0]: state.deal.won[0], SIDE_NAMES[1]: state.deal.won[1]}
    return TableView(
        game="five_hundred", seat=seat, phase=state.phase, deal_index=deal_index(state.deals_played), deal=state.deals_played,
        dealer=state.deal.dealer, turn=state.deal.turn if in_deal else None,
        hand=None if seat is None else state.deal.hands[own] if in_deal else (),
        legal=legal_actions(state, seat) if seat is not None else [],
        hand_sizes={str(s): len(state.deal.hands[i]) for i, s in enumerate(SEATS)} if in_deal else {},
        kitty_size=len(state.deal.kitty) if in_deal else 0,
        kitty_taken=state.deal.kitty_taken if is_contractor and in_deal else (),
        auction=[_call(s, i) for s, i in state.deal.auction],
        high_bid=BIDS[state.deal.high].action() if state.deal.high >= 0 else None,
        contract=contract_json(contract),
        sitting_out=SEATS[contract.sitting_out] if contract is not None and contract.sitting_out != NOBODY else None,
        discarded=state.deal.discards if is_contractor else (),
        exposed=exposed,
        trick=_trick(trick) if trick is not None else None,
        tricks=[_trick(t) for t in state.deal.tricks],
        deal_points=won, tricks_won=won,
        shown_void={str(s): state.deal.void[i] for i, s in enumerate(SEATS) if state.deal.void[i]},
        deals=[{"deal": r.deal, "dealer": str(r.dealer), "contract": contract_json(r.contract), "result": r.result,
                "score": {"NS": r.score[0], "EW": r.score[1]}, "voided": r.voided,
                "adjust": {"NS": r.adjust[0], "EW": r.adjust[1]}} for r in state.history],
        match_score=score, score=score,
        winner=state.winner, match_over=state.phase == MATCH_OVER,
    )


def redact(event: Any, seat: Seat | None) -> Any:
    """This seat's copy of an event: the deal becomes its own hand; the kitty and the
    discard name their cards only to the contractor; everything else is public."""
    if isinstance(event, DealStarted):
        hand: tuple[Card, ...] = ()
        if seat is not None:
            hands, _, _ = deal_packets(event.deck, event.dealer, "clockwise", (3, ("kitty", 3), 4, 3))
            hand = tuple(hands[seat])
        return DealSeen(deal=event.deal, dealer=event.dealer, seat=seat, hand=hand)
    if isinstance(event, (KittyTaken, Discarded)):
        return event if seat is not None and seat == event.seat else type(event)(seat=event.seat)
    return event
