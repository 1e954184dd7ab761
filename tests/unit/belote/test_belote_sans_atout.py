"""Sans atout (belote.md §4): one round, no turn-up, no trump, no belote, Ace 11/19 and the
130/162 deal totals (§6 row 3)."""

from __future__ import annotations

import pytest
from belote_support import classic_deck, given, play_on, suit_per_seat, when

from domain.belote import GAME
from domain.belote.events import CardPlayed, DealScored
from domain.cards import Seat


def sa_deal(rules, actions=(("N", "take"),)):
    h = suit_per_seat()
    deck = classic_deck("E", {s: h[s][:5] for s in h}, None, {s: h[s][5:] for s in h})
    return given({"variant": "sans_atout", "rules": rules, "combinations": False}, "E", deck, list(actions))


@pytest.mark.parametrize("rules,points", [("house", 220), ("official", 252)])
def test_capot_totals(rules, points):
    state = play_on(sa_deal(rules), 31)
    scored = when(state, "E", "play", card=GAME.legal_actions(state, Seat.E)[0]["card"])[-1]
    assert scored == DealScored(0, "made", {"NS": points, "EW": 0}, {"NS": points, "EW": 0}, 0)


def test_no_belote_in_no_trump():
    state = sa_deal("house")
    assert state.deal.belote_holder is None
    assert not any("belote" in a for a in GAME.legal_actions(state, Seat.N))
    # "belote": false is accepted and ignored with any card
    assert when(state, "N", "play", card="KS", belote=False) == [CardPlayed(Seat.N, "KS")]


@pytest.mark.parametrize("rules,capot", [("house", 220), ("official", 252)])
def test_dedans_with_the_defenders_capot(rules, capot):
    """W takes, but eldest N leads his spades and wins every trick: the defence scores the
    no-trump capot total."""
    state = play_on(sa_deal(rules, [("N", "pass"), ("W", "take")]))
    summary = GAME.deal_summary(state)
    assert summary["contract"] == {"seat": "W", "team": "EW", "trump": None}
    assert summary["result"] == "failed"
    assert summary["points"] == {"NS": capot, "EW": 0} and summary["score"] == {"NS": capot, "EW": 0}
