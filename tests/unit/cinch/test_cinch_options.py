"""Match options (README "Match options") and the individual mode (A.7, Clarifications)."""

from __future__ import annotations

import pytest

from cinch_support import record
from domain.cinch import GAME
from domain.cinch.options import Options
from domain.game import RuleViolation
from domain.record import play_record
from test_cinch_examples import cs1_deal


def test_defaults():
    assert GAME.parse_options({}) == Options(mode="partnership", target=51, min_bid=1, failure_scoring="shortfall",
                                             low_point="trick_winner", deals=None)
    assert GAME.sides(GAME.parse_options({})) == ("NS", "EW")
    assert GAME.sides(GAME.parse_options({"mode": "individual"})) == ("N", "E", "S", "W")


@pytest.mark.parametrize("raw, name", [
    ({"mode": "cutthroat"}, "mode"), ({"target": 0}, "target"), ({"target": True}, "target"),
    ({"target": "51"}, "target"), ({"min_bid": 0}, "min_bid"), ({"min_bid": 15}, "min_bid"),
    ({"failure_scoring": "f1"}, "failure_scoring"), ({"low_point": "player"}, "low_point"),
    ({"deals": 0}, "deals"), ({"variant": "classic"}, "variant"),
])
def test_bad_options_name_themselves(raw, name):
    with pytest.raises(RuleViolation) as error:
        GAME.parse_options(raw)
    assert error.value.code == "bad_option" and error.value.details["option"] == name


def test_all_values_accepted():
    opts = GAME.parse_options({"mode": "individual", "target": 62, "min_bid": 14, "failure_scoring": "points_plus_bid",
                               "low_point": "holder", "deals": 4})
    assert opts.individual and opts.target == 62 and opts.min_bid == 14 and opts.deals == 4


def test_individual_mode_the_published_hand_each_for_himself():
    result = play_record(record([cs1_deal()], mode="individual"))
    deal = result["deals"][0]
    assert deal["contract"] == {"seat": "E", "team": "E", "trump": "D", "value": 8}
    assert deal["points"] == {"N": 7, "E": 7, "S": 0, "W": 0}
    assert deal["result"] == "failed" and deal["score"] == {"N": 7, "E": -8, "S": 0, "W": 0}
    assert result["match_score"] == {"N": 7, "E": -8, "S": 0, "W": 0}


def test_individual_mode_low_to_the_holder():
    deal = play_record(record([cs1_deal()], mode="individual", low_point="holder"))["deals"][0]
    assert deal["points"] == {"N": 7, "E": 6, "S": 1, "W": 0}
    assert deal["score"] == {"N": 7, "E": -8, "S": 1, "W": 0}


def test_individual_adjust_by_seat():
    rec = record([cs1_deal()], mode="individual")
    rec["rulings"] = [{"deal": 0, "ruling": "adjust", "score": {"E": 8}}]
    assert play_record(rec)["match_score"] == {"N": 7, "E": 0, "S": 0, "W": 0}
