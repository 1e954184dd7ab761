"""A Five Hundred board's par (domain/five_hundred/par.py) against the real rules: the par
contract, bid through the decider, its kitty taken and its best candidate discard made, then
played out card by card on the solver's line (the Joker's named suit included), scores
exactly the par; and the candidate discards are the ones the docs name."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.cards import DECK_43, SEAT_INDEX
from domain.five_hundred import GAME, doubledummy
from domain.five_hundred.events import DealScored
from domain.five_hundred.par import RULES, discards, par

OPTIONS = GAME.parse_options({"deals": 1})


def act(state: Any, seat: Any, **action: Any) -> tuple[Any, list[Any]]:
    return GAME.apply(state, GAME.parse_action({"seat": str(seat), **action}))


def bid_of(contract: dict[str, Any]) -> dict[str, Any]:
    if "tricks" in contract:
        return {"action": "bid", "tricks": contract["tricks"], "suit": contract["trump"] or "NT"}
    return {"action": "bid", "contract": contract["contract"]}


def auction_to(state: Any, contract: dict[str, Any]) -> Any:
    """Passes to the par's seat, its bid, passes to the end of the auction."""
    while str(state.deal.turn) != contract["seat"]:
        state = act(state, state.deal.turn, action="pass")[0]
    state = act(state, state.deal.turn, **bid_of(contract))[0]
    while state.phase == "auction":
        state = act(state, state.deal.turn, action="pass")[0]
    return state


def best_discard(state: Any) -> Any:
    """The contractor's candidate discard worth the most, each solved exactly."""
    seat = state.deal.turn
    hand = state.deal.hands[SEAT_INDEX[seat]]
    spec = state.deal.contract.spec
    played = [act(state, seat, action="discard", cards=list(cards))[0]
              for cards in discards(hand, spec.denomination, spec.misere)]
    return max(played, key=doubledummy.value)


def played_out(state: Any) -> DealScored:
    """Every seat plays a legal action whose position the solver values at the best (a
    Joker led is tried under each suit it may name)."""
    while True:
        seat = state.deal.turn
        solution = doubledummy.solve(state)
        for action in GAME.legal_actions(state, seat):
            if solution.cards.get(action["card"]) != solution.value:
                continue
            after, events = act(state, seat, **action)
            scored = [e for e in events if isinstance(e, DealScored)]
            if scored:
                return scored[0]
            again = doubledummy.solve(after)
            if again.side != solution.side:    # the other side's tricks; in misère its 0 or +1
                again = again.value * -1 if state.deal.contract.spec.misere else 10 - again.value
            else:
                again = again.value
            if again == solution.value:
                state = after
                break
        else:
            raise AssertionError(f"no action of {seat} attains the solver's {solution.value}")


@pytest.mark.parametrize("seed", ["par 500 1", "par 500 2"])   # 10♠ by N; open misère by W
def test_the_par_contract_played_perfectly_scores_the_par(seed: str) -> None:
    deck = list(DECK_43)
    random.Random(seed).shuffle(deck)
    board = par(OPTIONS, "E", deck)
    assert board.contract is not None and board.unit == "tricks"
    scored = played_out(best_discard(auction_to(RULES.dealt(OPTIONS, "E", deck), board.contract)))
    assert dict(scored.score) == board.score
    assert dict(scored.points) == board.card_points


def test_the_candidate_discards_are_the_lowest_three_and_each_short_suit_voided() -> None:
    hand = ["JK", "JS", "JC", "AS", "KS", "QS", "9S", "4H", "5H", "KD", "6D", "7C", "AC"]
    got = discards(hand, "S", misere=False)
    # spades are trumps (the left bower JC with them, the Joker above): never shed while three
    # others are there; hearts, diamonds and clubs two each
    # the lowest three void hearts already; diamonds or clubs voided, then the lowest heart
    assert got == [("4H", "5H", "6D"), ("4H", "6D", "KD"), ("4H", "7C", "AC")]


def test_two_short_suits_are_voided_together() -> None:
    hand = ["JK", "JS", "JC", "AS", "KS", "QS", "9S", "8S", "AH", "KD", "5D", "QC", "6C"]
    # a singleton heart, two diamonds, two clubs: each voided alone, and the singleton with
    # either doubleton
    assert discards(hand, "S", misere=False) == [("5D", "6C", "AH"), ("5D", "6C", "KD"), ("5D", "6C", "QC"),
                                                 ("5D", "AH", "KD"), ("6C", "AH", "QC")]

def test_a_misere_contractor_sheds_his_highest_cards() -> None:
    hand = ["JK", "AS", "KH", "4H", "5H", "6H", "5S", "6S", "7S", "4D", "5D", "5C", "6C"]
    got = discards(hand, "NT", misere=True)
    assert tuple(sorted(["JK", "AS", "KH"])) in got
