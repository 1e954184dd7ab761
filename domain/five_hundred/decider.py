"""decide and evolve: one dispatch table per direction, the rules live in auction.py,
play.py and scoring.py.

`decide` checks in the README's order — malformed, deal over, wrong phase, turn, legality —
and `evolve` trusts its events (no re-validation: replaying a stream must be cheap).
"""

from __future__ import annotations

from typing import Any, Callable

import msgspec

from domain.cards import DECK_43, SEATS
from domain.five_hundred import auction, play
from domain.five_hundred.messages import (
    Bid, BidMade, CardPlayed, CardsDealt, ContractWon, DealScored, DealVoided, Discard, Discarded, HandExposed,
    KittyTaken, Pass, Passed, Play, ScoreAdjusted, TrickTaken,
)
from domain.five_hundred.bids import find
from domain.five_hundred.scoring import outcome
from domain.five_hundred.state import (
    AUCTION, AWAITING_DEAL, DISCARD, IN_DEAL, MATCH_OVER, SEAT_INDEX, SIDE_NAMES, DealRecord, State, make_contract,
)
from domain.game import AdjustScore, RuleViolation, StartDeal, VoidDeal, verify
from domain.tricks import check_start_deal, deal_packets, eldest, next_dealer

DIRECTION = "clockwise"
PACKETS = (3, ("kitty", 3), 4, 3)   # B.1.3: 3 each, 3 to the kitty, 4 each, 3 each


# --- decide ----------------------------------------------------------------------------------

def expected_dealer(state: State) -> Any:
    """Any seat for the first deal; then the deal passes to the left (B.1.3), thrown in or not."""
    return next_dealer(state.dealer, DIRECTION) if state.dealer is not None else None


def _start_deal(state: State, command: StartDeal) -> list[Any]:
    check_start_deal(command, DECK_43, expected_dealer(state), state.phase == MATCH_OVER, state.phase in IN_DEAL)
    return [CardsDealt(deal=state.deal, dealer=command.dealer, deck=tuple(command.deck))]


def _in_deal(decider: Callable[[State, Any], list[Any]]) -> Callable[[State, Any], list[Any]]:
    """A seat's decision: shape first, then 'deal over', then the decider's own checks."""
    def checked(state: State, command: Any) -> list[Any]:
        if state.phase not in IN_DEAL:
            _malformed(command)
            raise RuleViolation("deal_over", "no deal is being played")
        return decider(state, command)
    return checked


def _malformed(command: Any) -> None:
    """The shape checks a decider makes before 'deal over', so the order holds everywhere."""
    if isinstance(command, Bid):
        verify(find(command.tricks, command.suit, command.contract) is not None, "bad_action", "no such bid")
    elif isinstance(command, Discard):
        verify(len(command.cards) == 3 and len(set(command.cards)) == 3, "bad_action",
               "discard exactly three different cards")


def _between_deals(state: State, deal: int) -> None:
    verify(state.phase not in IN_DEAL, "wrong_phase", "a ruling is made between deals")
    verify(0 <= deal < len(state.history), "bad_action", f"deal {deal} has not been played")


def _void(state: State, command: VoidDeal) -> list[Any]:
    _between_deals(state, command.deal)
    verify(not state.history[command.deal].voided, "bad_action", f"deal {command.deal} is already void")
    return [DealVoided(deal=command.deal, admin=command.admin, reason=command.reason)]


def _adjust(state: State, command: AdjustScore) -> list[Any]:
    verify(set(command.score) <= set(SIDE_NAMES) and
           all(isinstance(v, int) and not isinstance(v, bool) for v in command.score.values()),
           "bad_action", "an adjustment gives integer points to NS and/or EW")
    _between_deals(state, command.deal)
    return [ScoreAdjusted(deal=command.deal, score=dict(command.score), admin=command.admin, reason=command.reason)]


_DECIDE: dict[type, Callable[[State, Any], list[Any]]] = {
    StartDeal: _start_deal,
    Bid: _in_deal(auction.decide_bid),
    Pass: _in_deal(auction.decide_pass),
    Discard: _in_deal(play.decide_discard),
    Play: play.decide_play,   # the hot path checks shape, deal over and phase itself
    VoidDeal: _void,
    AdjustScore: _adjust,
}


def decide(state: State, command: Any) -> list[Any]:
    decider = _DECIDE.get(type(command))
    if decider is None:
        raise RuleViolation("bad_action", f"five_hundred has no command {type(command).__name__}")
    return decider(state, command)


# --- evolve ----------------------------------------------------------------------------------

def _dealt(state: State, event: CardsDealt) -> dict[str, Any]:
    hands, piles, _ = deal_packets(event.deck, event.dealer, DIRECTION, PACKETS)
    return {"phase": AUCTION, "deal": state.deal + 1, "dealer": event.dealer,
            "hands": tuple(tuple(hands[s]) for s in SEATS), "kitty": tuple(piles["kitty"]), "kitty_taken": (), "discards": (),
            "auction": (), "passed": (False, False, False, False), "high": -1,
            "turn": eldest(event.dealer, DIRECTION), "contract": None, "trick": None, "tricks": (),
            "won": (0, 0), "void": ("", "", "", ""), "exposed": False}


def _contract(state: State, event: ContractWon) -> dict[str, Any]:
    index = find(event.tricks, event.suit, None if event.contract == "tricks" else event.contract)
    return {"contract": make_contract(event.seat, index), "phase": DISCARD, "turn": event.seat}  # type: ignore[arg-type]


def _kitty(state: State, event: KittyTaken) -> dict[str, Any]:
    i = SEAT_INDEX[event.seat]
    hand = state.hands[i] + state.kitty
    return {"hands": state.hands[:i] + (hand,) + state.hands[i + 1:], "kitty": (), "kitty_taken": state.kitty}


def _settle(state: State, history: tuple[DealRecord, ...]) -> dict[str, Any]:
    """Between deals (the only time history changes): the match score and winner follow
    from the whole history, so a ruling can end, change or reopen the match."""
    score, over, winner = outcome(history, state.options)
    return {"history": history, "score": score, "winner": winner, "phase": MATCH_OVER if over else AWAITING_DEAL}


def _scored(state: State, event: DealScored) -> dict[str, Any]:
    record = DealRecord(deal=event.deal, dealer=state.dealer, contract=state.contract,  # type: ignore[arg-type]
                        result=event.result, tricks=state.tricks, points=(event.points["NS"], event.points["EW"]),
                        score=(event.score["NS"], event.score["EW"]))
    return {**_settle(state, state.history + (record,)), "turn": None}


def _voided(state: State, event: DealVoided) -> dict[str, Any]:
    history = list(state.history)
    history[event.deal] = msgspec.structs.replace(history[event.deal], voided=True)
    return _settle(state, tuple(history))


def _adjusted(state: State, event: ScoreAdjusted) -> dict[str, Any]:
    history = list(state.history)
    record = history[event.deal]
    adjust = (record.adjust[0] + event.score.get("NS", 0), record.adjust[1] + event.score.get("EW", 0))
    history[event.deal] = msgspec.structs.replace(record, adjust=adjust)
    return _settle(state, tuple(history))


def _fields(change: Callable[[State, Any], dict[str, Any]]) -> Callable[[State, Any], State]:
    """Most events change a few fields: their evolve functions return just those."""
    def evolve_one(state: State, event: Any) -> State:
        return msgspec.structs.replace(state, **change(state, event))
    return evolve_one


_EVOLVE: dict[type, Callable[[State, Any], State]] = {
    CardsDealt: _fields(_dealt),
    BidMade: _fields(auction.evolve_bid),
    Passed: _fields(auction.evolve_pass),
    ContractWon: _fields(_contract),
    KittyTaken: _fields(_kitty),
    Discarded: _fields(play.evolve_discard),
    CardPlayed: play.evolve_card,        # the hot pair returns the new state itself
    TrickTaken: play.evolve_trick,
    HandExposed: _fields(play.evolve_exposed),
    DealScored: _fields(_scored),
    DealVoided: _fields(_voided),
    ScoreAdjusted: _fields(_adjusted),
}


def evolve(state: State, event: Any) -> State:
    return _EVOLVE[type(event)](state, event)
