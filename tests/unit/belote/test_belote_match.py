"""The match (belote.md §7): target, ties at the target, the `deals` option, rulings (void,
adjust) that change the score and the winner, and dealer rotation."""

from __future__ import annotations

import pytest
from belote_support import classic_deck, find_litige, given, play_on, suit_per_seat

from domain.belote import GAME
from domain.cards import Seat
from domain.game import AdjustScore, RuleViolation, StartDeal, VoidDeal

H = suit_per_seat()


def deck_for(dealer):
    """N holds all spades and is the taker wherever the deal starts (the turn-up is a spade)."""
    return classic_deck(dealer, {s: H[s][:5] for s in H}, H["N"][5],
                        {"N": H["N"][6:], "W": H["W"][5:], "S": H["S"][5:], "E": H["E"][5:]}, taker="N")


def capot(state=None, dealer="E", **options):
    order = "NWSE"
    eldest = order[(order.index(dealer) + 1) % 4]
    seats = [order[(order.index(eldest) + k) % 4] for k in range(4)]
    actions = [(s, "pass") for s in seats[:seats.index("N")]] + [("N", "take")]
    return play_on(given({"variant": "classic", "combinations": False, **options}, dealer, deck_for(dealer),
                         actions, state=state))


def thrown_in(state, dealer):
    order = "NWSE"
    eldest = order[(order.index(dealer) + 1) % 4]
    seats = [order[(order.index(eldest) + k) % 4] for k in range(4)]
    return given({}, dealer, deck_for(dealer), [(s, "pass") for s in seats * 2], state=state)


def refused(state, command):
    with pytest.raises(RuleViolation) as error:
        GAME.decide(state, command)
    return error.value.code


def test_reaching_the_target_ends_the_match():
    state = capot(target=272)
    status = GAME.status(state)
    assert status.phase == "match_over" and status.winner == "NS" and status.next_dealer is None
    assert refused(state, StartDeal(dealer=Seat.N, deck=tuple(deck_for("N")))) == "match_over"
    assert GAME.legal_actions(state, Seat.N) == []


def test_below_the_target_the_next_dealer_must_deal():
    state = capot(target=1000)
    assert GAME.status(state).phase == "awaiting_deal" and GAME.status(state).next_dealer == Seat.N
    assert refused(state, StartDeal(dealer=Seat.S, deck=tuple(deck_for("S")))) == "wrong_dealer"
    state = capot(state, dealer="N")
    assert GAME.status(state).match_score == {"NS": 544, "EW": 0}


def test_equal_totals_over_the_target_play_on():
    state = capot(target=272)
    state, _ = GAME.apply(state, AdjustScore(deal=0, score={"EW": 272}))
    assert GAME.status(state).phase == "awaiting_deal" and GAME.status(state).winner is None
    state, _ = GAME.apply(state, AdjustScore(deal=0, score={"EW": 1}))
    assert GAME.status(state).winner == "EW"


def test_a_void_ruling_reopens_a_finished_match():
    state = capot(target=200)
    assert GAME.status(state).winner == "NS"
    state, events = GAME.apply(state, VoidDeal(deal=0, reason="misdeal"))
    status = GAME.status(state)
    assert status.phase == "awaiting_deal" and status.winner is None and status.match_score == {"NS": 0, "EW": 0}
    assert status.next_dealer == Seat.N
    assert refused(state, VoidDeal(deal=0)) == "bad_action"
    assert refused(state, VoidDeal(deal=3)) == "bad_action"
    assert refused(state, AdjustScore(deal=0, score={"XX": 3})) == "bad_action"


def test_a_ruling_on_the_deal_in_play_is_refused():
    state = given({"variant": "classic"}, "E", deck_for("E"))
    assert refused(state, VoidDeal(deal=0)) == "wrong_phase"


def test_fixed_number_of_deals_thrown_in_deals_count_and_a_tie_is_a_tie():
    state = capot(deals=2)
    assert GAME.status(state).phase == "awaiting_deal"
    state = thrown_in(state, "N")
    status = GAME.status(state)
    assert status.phase == "match_over" and status.winner == "NS"
    state, _ = GAME.apply(state, AdjustScore(deal=1, score={"EW": 272}))
    status = GAME.status(state)
    assert status.phase == "match_over" and status.winner is None       # a tie is a tie


def test_dealer_rotation_also_after_a_thrown_in_deal():
    state = thrown_in(GAME.initial(GAME.parse_options({})), "E")
    assert GAME.status(state).next_dealer == Seat.N
    state = thrown_in(state, "N")
    assert GAME.status(state).next_dealer == Seat.W


def test_the_pool_pending_at_match_end_is_dropped():
    state = find_litige(combinations=False)
    assert state.pool > 0
    state, _ = GAME.apply(state, AdjustScore(deal=0, score={"NS": 1000}))
    assert GAME.status(state).winner == "NS" and state.pool == 0


def test_a_new_deal_during_a_deal_is_the_wrong_phase():
    state = given({"variant": "classic"}, "E", deck_for("E"))
    assert refused(state, StartDeal(dealer=Seat.N, deck=tuple(deck_for("N")))) == "wrong_phase"
