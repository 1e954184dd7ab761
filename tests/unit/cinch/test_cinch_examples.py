"""The worked examples of shared/rules/cinch.md (CS-1 to CS-4), each through the real rules."""

from __future__ import annotations

import pytest

from cinch_support import options, record, run, to_first_lead
from domain.cinch import GAME
from domain.cinch.play import legal_cards
from domain.cinch.ranking import TABLES
from domain.record import play_record
from domain.tricks import Trick, current_winner, play_to_trick

# --- CS-1: the published hand (C-ARN) ------------------------------------------------------

CS1_HANDS = {
    "E": ["AD", "KD", "8S", "8D", "AS", "TD"],
    "S": ["3D", "2D", "2S", "9H", "3C", "5D"],
    "W": ["5H", "6D", "7D", "JS", "QH", "JC"],
    "N": ["4D", "9D", "TS", "QC", "JD", "QD"],
}
CS1_TRICKS = [  # (leader, cards in play order, winner)
    ("E", ["AD", "3D", "5H", "4D"], "E"),
    ("E", ["KD", "2D", "6D", "9D"], "E"),
    ("E", ["8S", "2S", "7D", "TS"], "W"),
    ("W", ["JS", "QC", "8D", "9H"], "E"),
    ("E", ["AS", "3C", "QH", "JD"], "N"),
    ("N", ["QD", "TD", "5D", "JC"], "N"),
]
ORDER = ["N", "E", "S", "W"]


def cs1_deal():
    deck, actions = to_first_lead("N", "E", 8, "D", CS1_HANDS)
    for leader, cards, _ in CS1_TRICKS:
        i = ORDER.index(leader)
        actions += [{"seat": ORDER[(i + k) % 4], "action": "play", "card": c} for k, c in enumerate(cards)]
    return "N", deck, actions


@pytest.mark.parametrize("failure_scoring", ["shortfall", "points_plus_bid"])
def test_cs1_bid_8_failed_7_to_7_gives_ns_15(failure_scoring):
    result = play_record(record([cs1_deal()], failure_scoring=failure_scoring))
    assert result["ok"], result
    deal = result["deals"][0]
    assert deal["contract"] == {"seat": "E", "team": "EW", "trump": "D", "value": 8}
    assert [(t["leader"], t["cards"], t["winner"]) for t in deal["tricks"]] == CS1_TRICKS
    assert deal["points"] == {"NS": 7, "EW": 7}
    assert deal["result"] == "failed"
    assert deal["score"] == {"NS": 15, "EW": 0}
    assert result["match_score"] == {"NS": 15, "EW": 0}


def test_cs1_hands_at_first_lead_are_the_published_ones():
    dealer, deck, actions = cs1_deal()
    state, _ = run(options(), [(dealer, deck, actions[:6])])
    assert state.phase == "play" and state.deal.turn == "E"
    for seat, hand in CS1_HANDS.items():
        assert sorted(state.deal.hand(seat)) == sorted(hand)


def test_cs1_trumping_while_holding_the_led_suit_is_legal():
    # Trick 4: E trumps W's spade lead with 8D while still holding AS (A.5.3); trick 3: W
    # trumps with 7D while holding JS. Both are in the legal set offered.
    table = TABLES["D"]
    trick = play_to_trick(Trick(leader="W"), "W", "JS", table.rules)
    trick = play_to_trick(trick, "N", "QC", table.rules)
    assert set(legal_cards(("8D", "AS", "TD"), trick, table)) == {"8D", "AS", "TD"}
    trick3 = play_to_trick(Trick(leader="E"), "E", "8S", table.rules)
    trick3 = play_to_trick(trick3, "S", "2S", table.rules)
    assert "7D" in legal_cards(("5H", "6D", "7D", "JS", "QH", "JC")[2:], trick3, table)


def test_cs1_with_low_to_the_holder_ns_take_low():
    result = play_record(record([cs1_deal()], low_point="holder"))
    assert result["deals"][0]["points"] == {"NS": 8, "EW": 6}
    assert result["deals"][0]["score"] == {"NS": 14 + 8 - 6, "EW": 0}


# --- CS-2: trump lead and the Left Pedro ---------------------------------------------------------


def test_cs2_trump_lead_left_pedro_and_low_to_the_trick_winner():
    table = TABLES["D"]
    trick = play_to_trick(Trick(leader="W"), "W", "AD", table.rules)
    assert legal_cards(("5H", "AS", "3C"), trick, table) == ("5H",)
    trick = play_to_trick(trick, "N", "5H", table.rules)
    assert set(legal_cards(("KC", "9S"), trick, table)) == {"KC", "9S"}
    trick = play_to_trick(trick, "E", "KC", table.rules)
    assert legal_cards(("2D", "TH"), trick, table) == ("2D",)
    trick = play_to_trick(trick, "S", "2D", table.rules)
    assert current_winner(trick, table.rules) == "W"


@pytest.mark.parametrize("low_point, ew, ns", [("trick_winner", 7, 0), ("holder", 6, 1)])
def test_cs2_through_a_deal(low_point, ew, ns):
    # W is the bidder and leads AD; the hands hold the example's cards plus cards that do not
    # change what is legal. Only the first trick is played.
    hands = {"W": ["AD", "KD", "QD", "JD", "TD", "9D"], "N": ["5H", "AS", "3C", "4S", "6S", "7S"],
             "E": ["KC", "9S", "8S", "TS", "JS", "QS"], "S": ["2D", "TH", "9H", "8H", "7H", "6H"]}
    deck, actions = to_first_lead("E", "W", 3, "D", hands)
    state, _ = run(options(low_point=low_point), [("E", deck, actions)])
    assert state.deal.turn == "W"  # the bidder leads
    state, _ = GAME.apply(state, GAME.parse_action({"seat": "W", "action": "play", "card": "AD"}))
    assert [a["card"] for a in GAME.legal_actions(state, "N")] == ["5H"]
    plays = [("N", "5H"), ("E", "KC")]
    for seat, card in plays:
        state, _ = GAME.apply(state, GAME.parse_action({"seat": seat, "action": "play", "card": card}))
    assert [a["card"] for a in GAME.legal_actions(state, "S")] == ["2D"]
    state, _ = GAME.apply(state, GAME.parse_action({"seat": "S", "action": "play", "card": "2D"}))
    summary = GAME.deal_summary(state)
    assert summary["tricks"] == [{"leader": "W", "cards": ["AD", "5H", "KC", "2D"], "winner": "W"}]
    assert summary["points"] == {"NS": ns, "EW": ew}


# --- CS-3: plain-suit lead options ------------------------------------------------------------


def test_cs3_plain_lead_legal_sets():
    table = TABLES["S"]
    trick = play_to_trick(Trick(leader="N"), "N", "KD", table.rules)
    assert set(legal_cards(("3D", "9S", "5C", "AH"), trick, table)) == {"3D", "9S", "5C"}
    assert set(legal_cards(("5H", "KC", "2C"), trick, table)) == {"5H", "KC", "2C"}
    assert set(legal_cards(("QD", "JD"), trick, table)) == {"QD", "JD"}


@pytest.mark.parametrize("east, winner, ew", [("3D", "N", 0), ("5C", "E", 5)])
def test_cs3_outcomes(east, winner, ew):
    table = TABLES["S"]
    trick = Trick(leader="N")
    for seat, card in [("N", "KD"), ("E", east), ("S", "KC"), ("W", "QD")]:
        trick = play_to_trick(trick, seat, card, table.rules)
    assert current_winner(trick, table.rules) == winner
    assert sum(table.points.get(c, 0) for c in trick.cards) == ew


# --- CS-4: Pedro order ------------------------------------------------------------------------


def test_cs4_pedro_order():
    table = TABLES["H"]
    trick = Trick(leader="N")
    for seat, card in [("N", "6H"), ("E", "5D"), ("S", "5H"), ("W", "4H")]:
        trick = play_to_trick(trick, seat, card, table.rules)
    assert current_winner(trick, table.rules) == "N"
    assert sum(table.points.get(c, 0) for c in trick.cards) == 10
    assert table.rules.strength("6H", "H") > table.rules.strength("5H", "H") > \
        table.rules.strength("5D", "H") > table.rules.strength("4H", "H")
