"""Classic and sans atout deal scores (belote.md §3.5-3.6, §4.4), the litige pool across
deals (§3.6.3, §8b), capot (§2.3) and a whole deal through the rules."""

from __future__ import annotations

import random

import pytest
from belote_support import classic_deck, find_litige, given, play_on, random_deal, suit_per_seat

from domain.belote import GAME
from domain.belote.events import DealScored
from domain.belote.scoring import classic_score
from domain.cards import Seat

Z = {"NS": 0, "EW": 0}


def score(P, B=Z, K=Z, A="NS", capot=None, official=False, totals=(162, 252), pool=0):
    return classic_score(A, P, B, K, capot, official, *totals, pool)


def test_t12_classic_made_with_belote():
    result = score({"NS": 97, "EW": 65}, B={"NS": 20, "EW": 0})
    assert result.result == "made" and result.score == {"NS": 117, "EW": 65}


def test_made_needs_strictly_more_than_the_defence():
    assert score({"NS": 82, "EW": 80}).score == {"NS": 82, "EW": 80}


def test_dedans_gives_162_to_the_defence_and_the_takers_keep_their_belote():
    result = score({"NS": 70, "EW": 92}, B={"NS": 20, "EW": 0})
    assert result.result == "failed"
    assert result.score == {"NS": 20, "EW": 162}       # 90 < 92: dedans, belote imprenable


def test_litige_puts_the_takers_points_in_the_pool():
    result = score({"NS": 81, "EW": 81})
    assert result.result == "litige" and result.score == {"NS": 0, "EW": 81} and result.pool == 81
    result = score({"NS": 71, "EW": 91}, B={"NS": 20, "EW": 0})   # 91-91 with belote
    assert result.score == {"NS": 0, "EW": 91} and result.pool == 91


def test_the_pool_goes_to_the_next_winner_and_accumulates_over_litiges():
    assert score({"NS": 81, "EW": 81}, pool=81).pool == 162
    made = score({"NS": 100, "EW": 62}, pool=81)
    assert made.score == {"NS": 181, "EW": 62} and made.pool == 0
    failed = score({"NS": 60, "EW": 102}, pool=81)
    assert failed.score == {"NS": 0, "EW": 243} and failed.pool == 0


def test_capot_by_the_takers_and_by_the_defence():
    assert score({"NS": 252, "EW": 0}, capot="NS").score == {"NS": 252, "EW": 0}
    assert score({"NS": 0, "EW": 252}, capot="EW").score == {"NS": 0, "EW": 252}


@pytest.mark.parametrize("official,totals,expected", [(False, (130, 220), 130), (True, (162, 252), 162)])
def test_sans_atout_dedans_uses_the_no_trump_deal_total(official, totals, expected):
    result = score({"NS": 50, "EW": 80}, official=official, totals=totals)
    assert result.score == {"NS": 0, "EW": expected}


def test_sans_atout_house_litige_at_65():
    assert score({"NS": 65, "EW": 65}, totals=(130, 220)).result == "litige"


# --- whole deals through the rules -------------------------------------------------------------

def capot_deal(**options):
    """N holds all spades and takes the spade turn-up: N leads spades and wins every trick."""
    h = suit_per_seat()
    first = {s: h[s][:5] for s in h}
    rest = {"N": h["N"][6:], "W": h["W"][5:], "S": h["S"][5:], "E": h["E"][5:]}
    deck = classic_deck("E", first, h["N"][5], rest, taker="N")
    return given({"variant": "classic", "combinations": False, **options}, "E", deck, [("N", "take")])


def test_capot_with_belote_through_the_rules():
    state = play_on(capot_deal(), 31)
    events = GAME.decide(state, GAME.parse_action({"seat": "E", "action": "play", "card": "AC"}))
    assert events[-1] == DealScored(0, "made", {"NS": 252, "EW": 0}, {"NS": 272, "EW": 0}, 0)
    state = play_on(state)
    summary = GAME.deal_summary(state)
    assert summary["result"] == "made" and summary["score"] == {"NS": 272, "EW": 0}
    assert summary["contract"] == {"seat": "N", "team": "NS", "trump": "S"}
    assert len(summary["tricks"]) == 8 and all(t["winner"] == "N" for t in summary["tricks"])
    assert state.deal.announces == ((Seat.N, "belote"), (Seat.N, "rebelote"))


def test_a_litige_pool_survives_a_thrown_in_deal_and_goes_to_the_next_winner():
    options = {"variant": "classic", "combinations": False}
    state = find_litige(**options)
    pool = state.pool
    assert pool > 0 and state.deal.score[state.deal.contract.team] == 0
    # a thrown-in deal leaves the pool alone
    dealer = str(GAME.status(state).next_dealer)
    order = "NWSE"
    eldest = order[(order.index(dealer) + 1) % 4]
    seats = [order[(order.index(eldest) + k) % 4] for k in range(4)]
    state = given(options, dealer, GAME.deck, [(s, "pass") for s in seats * 2], state=state)
    assert state.deal.result == "thrown_in" and state.pool == pool
    # the next played deal that is not a litige pays the pool to its winner
    rng = random.Random(1)
    while True:
        state = random_deal(state, rng)
        if state.deal.result in ("made", "failed"):
            break
        assert GAME.status(state).phase != "match_over"
    assert state.pool == 0
    contract = state.deal.contract
    winner = contract.team if state.deal.result == "made" else {"NS": "EW", "EW": "NS"}[contract.team]
    P = state.deal.points
    belote = 20 if any(seat in ("NS" if winner == "NS" else "EW") for seat, _ in state.deal.announces) else 0
    base = P[winner] if state.deal.result == "made" else (252 if P[winner] == 252 else 162)
    assert state.deal.score[winner] == base + belote + pool


def test_dealer_rotation_counter_clockwise_after_each_deal():
    state = capot_deal()
    state = play_on(state)
    assert GAME.status(state).next_dealer == Seat.N     # E dealt, N (E's right) deals next
