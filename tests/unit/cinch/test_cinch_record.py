"""`atout record play` for cinch (shared/rules/README.md, "Match records" and its conventions):
results, --legal with the compact form, and every error code, in process and through the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cinch_support import arrange, record
from domain.record import play_record
from test_cinch_examples import cs1_deal

ATOUT = Path(sys.executable).parent / "atout"


def test_a_finished_deal_and_legal_after_it_is_empty():
    result = play_record(record([cs1_deal()]), legal=True)
    assert result["ok"] and result["legal"] == {}
    assert result["winner"] is None and result["match_score"] == {"NS": 15, "EW": 0}


def test_incomplete_deal_conventions():
    dealer, deck, actions = cs1_deal()
    during_auction = play_record(record([(dealer, deck, actions[:2])]))["deals"][0]
    assert during_auction == {"contract": None, "result": "incomplete", "tricks": [],
                              "points": {"NS": 0, "EW": 0}, "score": {"NS": 0, "EW": 0}}
    mid_play = play_record(record([(dealer, deck, actions[:6 + 9])]))["deals"][0]
    assert mid_play["contract"] == {"seat": "E", "team": "EW", "trump": "D", "value": 8}
    assert mid_play["result"] == "incomplete" and len(mid_play["tricks"]) == 2
    assert mid_play["points"] == {"NS": 0, "EW": 7} and mid_play["score"] == {"NS": 0, "EW": 0}


def test_legal_lists_the_seat_to_act_and_compact_choices():
    dealer, deck, actions = cs1_deal()
    auction = play_record(record([(dealer, deck, actions[:1])]), legal=True)["legal"]
    assert list(auction) == ["S"] and auction["S"][0] == {"action": "pass"} and auction["S"][1] == \
        {"action": "bid", "value": 9}
    rob = play_record(record([(dealer, deck, actions[:5])]), legal=True)["legal"]
    assert list(rob) == ["N"] and len(rob["N"]) == 1
    assert rob["N"][0]["action"] == "rob" and rob["N"][0]["keep"]["choose"] == 6
    assert len(rob["N"][0]["keep"]["from"]) == 9 + 16 - 8
    play = play_record(record([(dealer, deck, actions[:6])]), legal=True)["legal"]
    assert play == {"E": [{"action": "play", "card": c} for c in ["AD", "KD", "8D", "TD", "8S", "AS"]]}


def test_legal_discard_in_compact_form():
    from test_cinch_scoring import CLUBS
    hands = {"E": ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "2D", "3D"]}
    deck = arrange("N", hands, last=CLUBS)
    actions = [{"seat": "E", "action": "bid", "value": 3}, {"seat": "S", "action": "pass"},
               {"seat": "W", "action": "pass"}, {"seat": "N", "action": "pass"},
               {"seat": "E", "action": "trump", "suit": "C"}]
    legal = play_record(record([("N", deck, actions)]), legal=True)["legal"]
    assert legal == {"E": [{"action": "discard", "cards": {"choose": 1, "from": hands["E"][:7]}}]}


def error(rec):
    result = play_record(rec)
    assert not result["ok"]
    return result["deal"], result["index"], result["code"]


def test_errors_at_record_and_deal_level():
    dealer, deck, actions = cs1_deal()
    assert error({"game": "cinch", "options": {"mode": "solo"}, "deals": []}) == (None, None, "bad_option")
    assert error({"game": "cinch", "options": {"low_point": "dealer"}, "deals": []}) == (None, None, "bad_option")
    assert error({"game": "cinch", "options": {"min_bid": 15}, "deals": []}) == (None, None, "bad_option")
    assert error({"game": "cinch", "deals": "x"}) == (None, None, "bad_record")
    assert error(record([(dealer, deck[:-1], [])])) == (0, None, "bad_deck")
    assert error(record([(dealer, deck[:-1] + ["JK"], [])])) == (0, None, "bad_deck")
    assert error(record([(dealer, deck, actions), ("W", deck, [])])) == (1, None, "wrong_dealer")
    assert error(record([(dealer, deck, actions), ("E", deck, [])], deals=1)) == (1, None, "match_over")
    assert error(record([(dealer, deck, actions[:3]), ("E", deck, [])])) == (0, 3, "deal_incomplete")


@pytest.mark.parametrize("index, action, code", [
    (0, {"seat": "E", "action": "bid", "value": 15}, "bad_action"),
    (0, {"seat": "E", "action": "play", "card": "1X"}, "bad_action"),
    (0, {"seat": "E", "action": "bid", "value": 3, "extra": 1}, "bad_action"),
    (0, {"seat": "E", "action": "play", "card": "AD"}, "wrong_phase"),
    (0, {"seat": "S", "action": "pass"}, "not_your_turn"),
    (1, {"seat": "S", "action": "bid", "value": 8}, "illegal_bid"),
    (3, {"seat": "N", "action": "pass"}, None),
    (6, {"seat": "E", "action": "play", "card": "QD"}, "card_not_in_hand"),
    (7, {"seat": "S", "action": "play", "card": "2S"}, "illegal_card"),
    (30, {"seat": "N", "action": "play", "card": "QD"}, "deal_over"),
])
def test_errors_at_an_action(index, action, code):
    dealer, deck, actions = cs1_deal()
    bad = actions[:index] + [action] + actions[index + 1:]
    if code is None:
        assert play_record(record([(dealer, deck, bad)]))["ok"]
    else:
        assert error(record([(dealer, deck, bad)])) == (0, index, code)


def test_ten_of_hearts_may_be_written_10h():
    dealer, deck, actions = cs1_deal()
    actions = [dict(a, card="10D") if a.get("card") == "TD" else a for a in actions]
    deck = ["10S" if c == "TS" else c for c in deck]
    assert play_record(record([(dealer, deck, actions)]))["match_score"] == {"NS": 15, "EW": 0}


def test_the_cli(tmp_path):
    dealer, deck, actions = cs1_deal()
    path = tmp_path / "cs1.json"
    path.write_text(json.dumps(record([(dealer, deck, actions[:5])])))
    out = subprocess.run([str(ATOUT), "record", "play", str(path), "--legal"], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["ok"] and result["legal"]["N"][0]["keep"]["choose"] == 6
    path.write_text(json.dumps(record([(dealer, deck, actions[:1] + [{"seat": "E", "action": "pass"}])])))
    out = subprocess.run([str(ATOUT), "record", "play", str(path)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 1
    assert json.loads(out.stdout) == {"ok": False, "deal": 0, "index": 1, "code": "not_your_turn",
                                      "message": json.loads(out.stdout)["message"]}
