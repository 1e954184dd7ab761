"""B.7 scoring (Avondale values, no overtricks, slam, defenders' 10 a trick, misère) and
B.8 the end of the match (front door at the target by a made contract, back door at minus
the target), the `deals` option, and the rulings that void a deal or adjust a score."""

from __future__ import annotations

import pytest
from five_hundred_support import E, N, S, W, contract, refused

from domain.five_hundred import GAME
from domain.five_hundred.bids import BIDS, find
from domain.five_hundred.events import BidMade, ContractWon, DealScored, DealVoided, ScoreAdjusted
from domain.five_hundred.options import Options
from domain.five_hundred.scoring import score_deal
from domain.five_hundred.state import make_contract
from domain.game import AdjustScore, RuleViolation, StartDeal, VoidDeal


def _score(seat, won, tricks=None, suit=None, kind=None):
    return score_deal(make_contract(seat, find(tricks, suit, kind)), won)


# --- B.7 -----------------------------------------------------------------------------------

@pytest.mark.parametrize("tricks, suit, value", [(6, "S", 40), (7, "H", 200), (8, "NT", 320), (9, "D", 380)])
def test_made_contract_scores_its_value_without_overtricks(tricks, suit, value):
    # NS contract, 9 tricks made, the defenders took one.
    assert _score(N, (9, 1), tricks, suit) == ("made", (value, 10))


def test_exactly_the_bid_is_made():
    assert _score(E, (3, 7), 7, "C") == ("made", (30, 160))


def test_failed_contract_loses_its_value_and_defenders_still_score_their_tricks():
    assert _score(S, (7, 3), 8, "H") == ("failed", (-300, 30))
    assert _score(W, (6, 4), 10, "NT") == ("failed", (60, -520))


def test_slam_scores_250_when_the_bid_is_worth_less():
    assert _score(N, (10, 0), 6, "S") == ("made", (250, 0))
    assert _score(N, (10, 0), 7, "NT") == ("made", (250, 0))


def test_slam_scores_the_bid_when_it_is_worth_250_or_more():
    assert _score(E, (0, 10), 8, "S") == ("made", (0, 250))  # 240 < 250
    assert _score(E, (0, 10), 8, "C") == ("made", (0, 260))
    assert _score(E, (0, 10), 10, "NT") == ("made", (0, 520))


def test_misere_plus_or_minus_250_and_open_misere_500_defenders_score_nothing():
    assert _score(N, (0, 10), kind="misere") == ("made", (250, 0))
    assert _score(N, (1, 3), kind="misere") == ("failed", (-250, 0))
    assert _score(W, (10, 0), kind="open_misere") == ("made", (0, 500))
    assert _score(W, (2, 1), kind="open_misere") == ("failed", (0, -500))


# --- B.8 (given events: a contract, then the deal's score) ------------------------------------------

def finished(state, seat, score, tricks=7, suit="NT", result="made", kind=None):
    """Deal, `seat` wins the auction, the deal is scored with `score` (NS, EW)."""
    dealer = GAME.status(state).next_dealer or N
    state, _ = GAME.apply(state, StartDeal(dealer=dealer, deck=GAME.deck))
    spec = find(None if kind else tricks, None if kind else suit, kind)
    b = BIDS[spec]
    events = [BidMade(seat=seat, tricks=b.tricks, suit=b.suit, contract=kind),
              ContractWon(seat=seat, tricks=b.tricks, suit=b.suit, contract=b.kind, value=b.value),
              DealScored(deal=state.deals_played - 1, result=result, points={"NS": 5, "EW": 5},
                         score={"NS": score[0], "EW": score[1]})]
    for event in events:
        state = GAME.evolve(state, event)
    return state


def new(**options):
    return GAME.initial(Options(**options))


def test_a_side_wins_at_500_by_making_a_contract():
    state = finished(new(), N, (480, 20))
    state = finished(state, S, (40, 60), 6, "S")
    st = GAME.status(state)
    assert st.phase == "match_over" and st.winner == "NS" and st.match_score == {"NS": 520, "EW": 80}


def test_defenders_reaching_500_do_not_win_until_they_make_a_contract():
    state = finished(new(), E, (0, 490))
    state = finished(state, N, (-40, 30), 6, "S", result="failed")
    assert GAME.status(state).phase == "awaiting_deal" and state.score == (-40, 520)
    state = finished(state, E, (0, 40), 6, "S")
    assert GAME.status(state).winner == "EW"


def test_a_side_at_minus_500_loses():
    state = finished(new(), N, (-420, 0), 9, "NT", result="failed")
    state = finished(state, S, (-80, 40), 6, "D", result="failed")
    st = GAME.status(state)
    assert st.phase == "match_over" and st.winner == "EW"


def test_both_sides_over_500_the_contractors_who_made_win():
    state = finished(new(), E, (0, 460))
    state = finished(state, N, (480, 0), 10, "D")
    state = finished(state, N, (40, 60), 6, "S")  # NS 520 (made), EW 520 (defending)
    assert GAME.status(state).winner == "NS"


def test_target_option_and_losing_limit_minus_target():
    state = finished(new(target=200), N, (220, 0), 7, "H")
    assert GAME.status(state).winner == "NS"
    state = finished(new(target=200), N, (-220, 0), 7, "H", result="failed")
    assert GAME.status(state).winner == "EW"


def test_misere_made_counts_as_a_contract_for_the_win():
    state = finished(new(), W, (0, 300))
    state = finished(state, E, (0, 250), kind="misere")
    assert GAME.status(state).winner == "EW"


def test_no_deal_after_the_match_is_over():
    state = finished(new(), N, (520, 0), 10, "NT")
    with pytest.raises(RuleViolation) as error:
        GAME.decide(state, StartDeal(dealer=GAME.status(state).next_dealer or E, deck=GAME.deck))
    assert error.value.code == "match_over"
    assert GAME.status(state).next_dealer is None


def test_deals_option_plays_exactly_n_deals_and_the_side_ahead_wins():
    state = finished(new(deals=2), N, (600, 0), 10, "NT")
    assert GAME.status(state).phase == "awaiting_deal"  # no front door in a fixed number of deals
    state = finished(state, E, (0, 700), 10, "NT")
    st = GAME.status(state)
    assert st.phase == "match_over" and st.winner == "EW"


def test_deals_option_tie_is_a_tie_and_a_thrown_in_deal_counts():
    state = finished(new(deals=2), N, (60, 60), 6, "C")
    state, _ = GAME.apply(state, StartDeal(dealer=GAME.status(state).next_dealer, deck=GAME.deck))
    for seat in ("N", "E", "S", "W"):
        if state.phase == "auction":
            state, _ = GAME.apply(state, GAME.parse_action({"seat": str(state.deal.turn), "action": "pass"}))
    st = GAME.status(state)
    assert st.phase == "match_over" and st.winner is None and st.match_score == {"NS": 60, "EW": 60}


# --- Rulings -------------------------------------------------------------------------------------

def test_a_voided_deal_no_longer_counts_and_can_reopen_a_finished_match():
    state = finished(new(), N, (300, 0))
    state = finished(state, N, (220, 0), 7, "NT")
    assert GAME.status(state).winner == "NS"
    events = GAME.decide(state, VoidDeal(deal=0, reason="misdeal found later"))
    assert events == [DealVoided(deal=0, reason="misdeal found later")]
    state = GAME.evolve(state, events[0])
    st = GAME.status(state)
    assert st.phase == "awaiting_deal" and st.winner is None and st.match_score == {"NS": 220, "EW": 0}
    assert GAME.decide(state, StartDeal(dealer=st.next_dealer, deck=GAME.deck))


def test_an_adjusted_score_can_end_the_match_at_minus_500_or_change_the_winner():
    state = finished(new(), N, (-300, 0), 8, "NT", result="failed")
    state, events = GAME.apply(state, AdjustScore(deal=0, score={"NS": -250}))
    assert events == [ScoreAdjusted(deal=0, score={"NS": -250})]
    assert GAME.status(state).winner == "EW" and state.score == (-550, 0)
    state, _ = GAME.apply(state, AdjustScore(deal=0, score={"NS": 250}))
    assert GAME.status(state).phase == "awaiting_deal" and GAME.status(state).winner is None


def test_an_adjustment_alone_never_wins_by_the_front_door():
    state = finished(new(), N, (40, 60), 6, "S")
    state, _ = GAME.apply(state, AdjustScore(deal=0, score={"EW": 600}))
    assert GAME.status(state).winner is None and state.score == (40, 660)


def test_rulings_are_made_between_deals_on_played_deals():
    state = finished(new(), N, (40, 60), 6, "S")
    with pytest.raises(RuleViolation) as error:
        GAME.decide(state, VoidDeal(deal=3))
    assert error.value.code == "bad_action"
    with pytest.raises(RuleViolation) as error:
        GAME.decide(state, AdjustScore(deal=0, score={"XY": 3}))
    assert error.value.code == "bad_action"
    voided, _ = GAME.apply(state, VoidDeal(deal=0))
    with pytest.raises(RuleViolation) as error:
        GAME.decide(voided, VoidDeal(deal=0))
    assert error.value.code == "bad_action"
    state, _ = GAME.apply(state, StartDeal(dealer=E, deck=GAME.deck))
    with pytest.raises(RuleViolation) as error:
        GAME.decide(state, VoidDeal(deal=0))
    assert error.value.code == "wrong_phase"


def test_a_played_deal_scores_through_the_table():
    """End to end: a contract played out gives the table's score in DealScored."""
    state = contract(N, 6, "NT", dealer=W)
    while state.phase == "play":
        seat = state.deal.turn
        state, events = GAME.apply(state, GAME.parse_action({"seat": str(seat), **GAME.legal_actions(state, seat)[0]}))
    record = state.history[-1]
    ns, ew = record.points
    assert ns + ew == 10
    if ns >= 6:
        assert record.result == "made" and record.score == ((250 if ns == 10 else 120), 10 * ew)
    else:
        assert record.result == "failed" and record.score == (-120, 10 * ew)


def test_deal_events_after_the_deal_are_deal_over():
    state = finished(new(), N, (40, 60), 6, "S")
    assert refused(state, {"seat": "N", "action": "pass"}) == "deal_over"
    assert refused(state, {"seat": "N", "action": "bid", "tricks": 11, "suit": "S"}) == "bad_action"


def test_both_sides_at_minus_target_by_adjustment_the_side_less_deep_wins_equal_plays_on():
    state = finished(new(), N, (-100, 0), 6, "NT", result="failed")
    state, _ = GAME.apply(state, AdjustScore(deal=0, score={"NS": -450, "EW": -600}))
    assert GAME.status(state).winner == "NS"
    state, _ = GAME.apply(state, AdjustScore(deal=0, score={"NS": -50}))
    st = GAME.status(state)
    assert st.match_score == {"NS": -600, "EW": -600} and st.winner is None and st.phase == "awaiting_deal"


def test_a_voided_deal_still_counts_as_one_of_the_n_deals():
    state = finished(new(deals=2), N, (40, 60), 6, "S")
    state, _ = GAME.apply(state, VoidDeal(deal=0))
    state = finished(state, E, (0, 40), 6, "S")
    st = GAME.status(state)
    assert st.phase == "match_over" and st.match_score == {"NS": 0, "EW": 40} and st.winner == "EW"


def test_a_voided_winning_deal_no_longer_wins_and_a_later_qualifying_deal_does():
    state = finished(new(), N, (460, 0), 10, "D")
    state = finished(state, N, (100, 0), 6, "H")     # NS 560 by a made contract: NS win
    state, _ = GAME.apply(state, VoidDeal(deal=1))
    assert GAME.status(state).winner is None
    reopened = state
    state, _ = GAME.apply(reopened, AdjustScore(deal=1, score={"NS": 50}))  # 510, but deal 1 no longer counts
    assert GAME.status(state).winner is None and GAME.status(state).phase == "awaiting_deal"
    state, _ = GAME.apply(reopened, AdjustScore(deal=0, score={"NS": 50}))  # 510 after deal 0, made there
    assert GAME.status(state).winner == "NS"
