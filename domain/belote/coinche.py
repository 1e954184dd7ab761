"""The Coinche auction (belote.md §5.2, §8b): rising bids, coinche and surcoinche.

House lets a defender coinche, and the coinched team's second player surcoinche, out of
turn (§6 row 9); Official takes both only in turn. `can_*` functions raise the reason a
command is refused; `legal_*` list what a seat may do, in the README's vocabulary.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.cards import Seat
from domain.game import RuleViolation, verify

from domain.belote.commands import Bid, Coinche, Pass, Surcoinche
from domain.belote.events import AuctionClosed, BidMade, Coinched, Contract, Passed, Surcoinched, ThrownIn
from domain.belote.options import Options
from domain.belote.ranking import BELOTE_SUITS, DENOMINATIONS, NO_TRUMPS
from domain.belote.state import COINCHE, NEXT, PARTNER, TEAM, Auction, Call, Deal, State, deal_in, verify_turn

MIN_BID = 80
CAPOT = "capot"
CAPOT_VALUE = 250
HIGHEST_BID = 650                # the top number, with combinations


def max_bid(options: Options) -> int:
    """160 without combinations, 650 with them (A-23); capot is above every number."""
    return HIGHEST_BID if options.combinations else 160


def contract_value(value: int | str) -> int:
    return CAPOT_VALUE if value == CAPOT else int(value)


def bid_bounds(options: Options, auction: Auction) -> tuple[int, int] | None:
    """The lowest and the highest number a bid may name now (capot outranks both), or None
    when no bid may be made: after a coinche (A-25) or over a capot. `can_bid` checks a bid
    against it and `legal_bids` lists from it."""
    high = auction.high
    if auction.coincher is not None or (high is not None and high.value == CAPOT):
        return None
    return (MIN_BID if high is None else high.value + 10), max_bid(options)


def denominations(options: Options) -> tuple[str, ...]:
    """What a bid's `suit` may name: the four suits, and TA and SA with `contracts` "suits_ta_sa"."""
    return DENOMINATIONS if options.ta_sa else BELOTE_SUITS


def trump_of(denomination: str) -> str | None:
    """The contract's `trump` for a bid's `suit`: the suit, "TA", or None for sans atout."""
    return None if denomination == NO_TRUMPS else denomination


def can_bid(options: Options, auction: Auction, value: int | str, suit: str = "S") -> None:
    verify(suit in denominations(options), "illegal_bid",
           "tout atout (TA) and sans atout (SA) are bid only with the contracts option suits_ta_sa",
           suit=suit)
    bounds = bid_bounds(options, auction)
    if bounds is None:
        verify(auction.coincher is None, "illegal_bid", "after a coinche no further bid is allowed (A-25)")
        raise RuleViolation("illegal_bid", "nothing outranks a capot bid")
    if value == CAPOT:
        return
    low, top = bounds
    verify(value % 10 == 0 and MIN_BID <= value <= top, "illegal_bid",
           f"a bid is a multiple of 10 from {MIN_BID} to {top}, or capot", value=value)
    verify(value >= low, "illegal_bid", f"a bid must be higher than the current {low - 10}", value=value)


def coinche_refused(auction: Auction, seat: Seat) -> str | None:
    """Why `seat` may not coinche now, or None when it may (turn aside)."""
    if auction.high is None:
        return "there is no bid to coinche"
    if auction.coincher is not None:
        return "the contract is already coinched"
    if TEAM[auction.high.seat] == TEAM[seat]:
        return "only an opponent of the bidder may coinche"
    return None


def surcoinche_refused(auction: Auction, seat: Seat) -> str | None:
    """Why `seat` may not surcoinche now, or None when it may (turn aside)."""
    if auction.coincher is None:
        return "only a coinched contract can be surcoinched"
    if TEAM[auction.high.seat] != TEAM[seat]:
        return "only the coinched team may surcoinche"
    if seat in auction.spoken:
        return "a player who passed after the coinche may not surcoinche"
    return None


def can_coinche(auction: Auction, seat: Seat) -> None:
    reason = coinche_refused(auction, seat)
    if reason is not None:
        raise RuleViolation("illegal_coinche", reason)


def can_surcoinche(auction: Auction, seat: Seat) -> None:
    reason = surcoinche_refused(auction, seat)
    if reason is not None:
        raise RuleViolation("illegal_surcoinche", reason)


def _contract(auction: Auction, multiplier: int) -> AuctionClosed:
    high = auction.high
    return AuctionClosed(Contract(high.seat, TEAM[high.seat], trump_of(high.suit), high.value, multiplier))


def decide_bid(state: State, command: Bid) -> list[Any]:
    deal = deal_in(state, "auction", "bid", COINCHE)
    verify_turn(deal.turn, command.seat)
    can_bid(state.options, deal.auction, command.value, command.suit)
    return [BidMade(command.seat, command.value, command.suit)]


def pass_events(deal: Deal, command: Pass) -> list[Any]:
    """A pass in the Coinche auction (the variant and phase already checked by the caller)."""
    verify_turn(deal.turn, command.seat)
    auction = deal.auction
    events: list[Any] = [Passed(command.seat)]
    if auction.coincher is not None:
        if auction.spoken:
            events.append(_contract(auction, 2))      # both coinched players passed (§5.2.3)
    elif auction.high is None:
        if auction.passes == 3:
            events.append(ThrownIn(deal.number))      # four passes, no bid (§5.2.5)
    elif auction.passes == 2:
        events.append(_contract(auction, 1))          # three passes after a bid (§5.2.4)
    return events


def decide_coinche(state: State, command: Coinche) -> list[Any]:
    deal = deal_in(state, "auction", "coinche", COINCHE)
    if state.options.official:
        verify_turn(deal.turn, command.seat)
    can_coinche(deal.auction, command.seat)
    return [Coinched(command.seat)]


def decide_surcoinche(state: State, command: Surcoinche) -> list[Any]:
    deal = deal_in(state, "auction", "surcoinche", COINCHE)
    if state.options.official:
        verify_turn(deal.turn, command.seat)
    can_surcoinche(deal.auction, command.seat)
    return [Surcoinched(command.seat), _contract(deal.auction, 4)]


# --- evolve -------------------------------------------------------------------------------

def evolve_passed(state: State, event: Passed) -> State:
    deal = state.deal
    auction = deal.auction
    call = Call(event.seat, "pass")
    if auction.coincher is not None:
        auction = replace(auction, spoken=auction.spoken + (event.seat,))
        turn = PARTNER[event.seat]                    # the coincher's partner has nothing to say
    else:
        auction = replace(auction, passes=auction.passes + 1)
        turn = NEXT[event.seat]
    return replace(state, deal=replace(deal, auction=auction, turn=turn, calls=deal.calls + (call,)))


def evolve_bid(state: State, event: BidMade) -> State:
    deal = state.deal
    call = Call(event.seat, "bid", event.suit, event.value)
    return replace(state, deal=replace(deal, auction=replace(deal.auction, high=call, passes=0),
                                       turn=NEXT[event.seat], calls=deal.calls + (call,)))


def evolve_coinched(state: State, event: Coinched) -> State:
    """The turn goes to the first contracting player after the coincher (§8b)."""
    deal = state.deal
    return replace(state, deal=replace(deal, auction=replace(deal.auction, coincher=event.seat, passes=0),
                                       turn=NEXT[event.seat], calls=deal.calls + (Call(event.seat, "coinche"),)))


def evolve_surcoinched(state: State, event: Surcoinched) -> State:
    deal = state.deal
    return replace(state, deal=replace(deal, calls=deal.calls + (Call(event.seat, "surcoinche"),)))


# --- legal actions ------------------------------------------------------------------------

_NUMBERED_BIDS = {names: tuple({"action": "bid", "value": value, "suit": s}
                               for value in range(MIN_BID, HIGHEST_BID + 1, 10) for s in names)
                  for names in (BELOTE_SUITS, DENOMINATIONS)}
_CAPOT_BIDS = {names: tuple({"action": "bid", "value": CAPOT, "suit": s} for s in names)
               for names in (BELOTE_SUITS, DENOMINATIONS)}
"""Every bid once, in the order the legal list gives them; each legal list holds copies
(an auction's list of seventy-odd bids is built in every view and every bot's turn)."""


def legal_bids(options: Options, deal: Deal, seat: Seat) -> list[dict[str, Any]]:
    auction = deal.auction
    in_turn = deal.turn == seat
    out: list[dict[str, Any]] = []
    if in_turn:
        out.append({"action": "pass"})
        bounds = bid_bounds(options, auction)
        if bounds is not None:
            low, top = bounds
            names = denominations(options)
            first = (low - MIN_BID) // 10 * len(names)
            last = (top - MIN_BID) // 10 * len(names) + len(names)
            out.extend(map(dict.copy, _NUMBERED_BIDS[names][first:last]))
            out.extend(map(dict.copy, _CAPOT_BIDS[names]))
    if in_turn or not options.official:
        if coinche_refused(auction, seat) is None:
            out.append({"action": "coinche"})
        if surcoinche_refused(auction, seat) is None:
            out.append({"action": "surcoinche"})
    return out


def may_act_out_of_turn(options: Options, deal: Deal, seat: Seat) -> bool:
    """House only: a coinche or a surcoinche (§6 row 9)."""
    return not options.official and (coinche_refused(deal.auction, seat) is None
                                      or surcoinche_refused(deal.auction, seat) is None)
