"""`atout record play` for belote (shared/rules/README.md "Match records"): output, --legal,
the README's conventions and every error code, through `domain.record.play_record` and once
through the CLI."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from belote_support import classic_deck, coinche_deck, suit_per_seat

from domain.record import play_record

ROOT = Path(__file__).resolve().parents[3]


def capot_record(**options):
    h = suit_per_seat()
    first = {s: h[s][:5] for s in h}
    rest = {"N": h["N"][6:], "W": h["W"][5:], "S": h["S"][5:], "E": h["E"][5:]}
    deck = classic_deck("E", first, h["N"][5], rest, taker="N")
    actions = [{"seat": "N", "action": "take"}]
    leads = ["AS", "TS", "KS", "QS", "JS", "9S", "8S", "7S"]
    others = {s: list(reversed(h[s])) for s in "WSE"}
    for lead in leads:
        actions.append({"seat": "N", "action": "play", "card": lead})
        for s in "WSE":
            actions.append({"seat": s, "action": "play", "card": others[s].pop(0)})
    return {"game": "belote", "options": {"variant": "classic", "combinations": False, **options},
            "deals": [{"dealer": "E", "deck": deck, "actions": actions}]}


def test_a_whole_classic_deal():
    result = play_record(capot_record())
    assert result["ok"] is True
    deal = result["deals"][0]
    assert deal["contract"] == {"seat": "N", "team": "NS", "trump": "S"}
    assert deal["result"] == "made"
    assert deal["tricks"][0] == {"leader": "N", "cards": ["AS", "AH", "AD", "AC"], "winner": "N"}
    assert deal["points"] == {"NS": 252, "EW": 0} and deal["score"] == {"NS": 272, "EW": 0}
    assert result["match_score"] == {"NS": 272, "EW": 0} and result["winner"] is None


def test_legal_after_a_finished_deal_is_empty():
    assert play_record(capot_record(), legal=True)["legal"] == {}


def test_incomplete_deal_and_legal_in_the_middle():
    record = capot_record()
    record["deals"][0]["actions"] = record["deals"][0]["actions"][:7]   # take + 6 cards
    result = play_record(record, legal=True)
    deal = result["deals"][0]
    assert deal["result"] == "incomplete" and deal["score"] == {"NS": 0, "EW": 0}
    assert deal["points"] == {"NS": 11 + 11 + 11 + 11, "EW": 0}        # no dix de der
    assert len(deal["tricks"]) == 1 and deal["contract"]["trump"] == "S"
    assert result["legal"] == {"S": [{"action": "play", "card": c} for c in "7D 8D 9D TD JD QD KD".split()]}


def test_contract_is_null_during_the_auction():
    record = capot_record()
    record["deals"][0]["actions"] = []
    result = play_record(record, legal=True)
    assert result["deals"][0]["contract"] is None and result["deals"][0]["result"] == "incomplete"
    assert result["legal"] == {"N": [{"action": "take"}, {"action": "pass"}]}


def test_thrown_in_deal_then_the_next_dealer():
    deck = capot_record()["deals"][0]["deck"]
    passes = [{"seat": s, "action": "pass"} for s in "NWSENWSE"]
    record = {"game": "belote", "options": {}, "deals": [{"dealer": "E", "deck": deck, "actions": passes},
                                                         {"dealer": "N", "deck": deck, "actions": []}]}
    result = play_record(record)
    assert result["deals"][0] == {"contract": None, "result": "thrown_in", "tricks": [],
                                  "points": {"NS": 0, "EW": 0}, "score": {"NS": 0, "EW": 0}}
    record["deals"][1]["dealer"] = "E"
    assert play_record(record) == {"ok": False, "deal": 1, "index": None, "code": "wrong_dealer",
                                   "message": play_record(record)["message"]}


def test_coinche_contract_fields():
    deck = coinche_deck("E", suit_per_seat())
    actions = [{"seat": "N", "action": "bid", "value": 80, "suit": "S"},
               {"seat": "W", "action": "coinche"}, {"seat": "S", "action": "pass"},
               {"seat": "N", "action": "pass"}]
    result = play_record({"game": "belote", "options": {"variant": "coinche"},
                          "deals": [{"dealer": "E", "deck": deck, "actions": actions}]})
    assert result["deals"][0]["contract"] == {"seat": "N", "team": "NS", "trump": "S", "value": 80,
                                              "multiplier": 2}


def test_rulings_void_and_adjust():
    record = capot_record()
    record["rulings"] = [{"deal": 0, "ruling": "adjust", "score": {"NS": -20, "EW": 20}}]
    assert play_record(record)["match_score"] == {"NS": 252, "EW": 20}
    record["rulings"] = [{"deal": 0, "ruling": "void"}]
    assert play_record(record)["match_score"] == {"NS": 0, "EW": 0}


# --- errors ---------------------------------------------------------------------------------

def error(record):
    result = play_record(record)
    assert result["ok"] is False and result["message"]
    return result["code"], result["deal"], result["index"]


def with_actions(actions, **options):
    record = capot_record(**options)
    record["deals"][0]["actions"] = actions
    return record


def test_record_level_errors():
    assert error({"game": "belote", "deals": "x"}) == ("bad_record", None, None)
    assert error({"game": "skat", "deals": []}) == ("bad_record", None, None)
    assert error({"game": "belote", "options": {"trumps": 1}, "deals": []}) == ("bad_option", None, None)
    assert error({"game": "belote", "options": {"variant": "tout_atout"}, "deals": []}) == ("bad_option", None, None)
    assert error({"game": "belote", "options": {"target": 0}, "deals": []}) == ("bad_option", None, None)
    assert error({"game": "belote", "options": {"combinations": "yes"}, "deals": []}) == ("bad_option", None, None)


def test_deal_level_errors():
    record = capot_record()
    record["deals"][0]["deck"] = record["deals"][0]["deck"][:-1] + ["7S"]
    assert error(record) == ("bad_deck", 0, None)
    record["deals"][0]["deck"] = record["deals"][0]["deck"][:-1] + ["2S"]
    assert error(record) == ("bad_deck", 0, None)
    record["deals"][0]["deck"] = record["deals"][0]["deck"][:-1] + ["XX"]
    assert error(record) == ("bad_deck", 0, None)


def test_match_over_and_deal_incomplete():
    record = capot_record(target=100)
    record["deals"].append(dict(record["deals"][0], dealer="N"))
    assert error(record) == ("match_over", 1, None)
    record = capot_record()
    record["deals"][0]["actions"] = record["deals"][0]["actions"][:3]
    record["deals"].append(dict(record["deals"][0], dealer="N"))
    assert error(record) == ("deal_incomplete", 0, 3)


@pytest.mark.parametrize("actions,code,index", [
    ([{"seat": "N", "action": "jump"}], "bad_action", 0),
    ([{"seat": "N", "action": "take", "suit": "S"}], "bad_action", 0),
    ([{"seat": "X", "action": "take"}], "bad_action", 0),
    ([{"seat": "N", "action": "take"}, {"seat": "N", "action": "play", "card": "1S"}], "bad_action", 1),
    ([{"seat": "N", "action": "bid", "value": 80, "suit": "S"}], "bad_action", 0),
    ([{"seat": "W", "action": "take"}], "not_your_turn", 0),
    ([{"seat": "N", "action": "play", "card": "AS"}], "wrong_phase", 0),
    ([{"seat": "N", "action": "name", "suit": "H"}], "illegal_bid", 0),
    ([{"seat": "N", "action": "take"}, {"seat": "N", "action": "play", "card": "AH"}], "card_not_in_hand", 1),
    ([{"seat": "N", "action": "take"}, {"seat": "N", "action": "play", "card": "AS"},
      {"seat": "W", "action": "play", "card": "AD"}], "card_not_in_hand", 2),
    ([{"seat": "N", "action": "take"}, {"seat": "N", "action": "declare", "combinations": False}],
     "illegal_declare", 1),
    ([{"seat": "N", "action": "declare", "combinations": False}], "wrong_phase", 0),
    ([{"seat": s, "action": "pass"} for s in "NWSENWSE"] + [{"seat": "N", "action": "pass"}], "deal_over", 8),
])
def test_action_errors(actions, code, index):
    assert error(with_actions(actions)) == (code, 0, index)


def test_illegal_card_coinche_and_surcoinche_codes():
    hands = {"N": "AS 7S TS KS 7D 8D 9D TD", "W": "KD QD JD AD 7C 8C 9C TC",
             "S": "9S QS 7H 8H 9H JC QC KC", "E": "JS 8S TH JH QH KH AH AC"}
    deck = coinche_deck("E", {s: h.split() for s, h in hands.items()})
    base = {"game": "belote", "options": {"variant": "coinche", "combinations": False}}
    bid = [{"seat": "N", "action": "bid", "value": 80, "suit": "S"}]
    passes = [{"seat": s, "action": "pass"} for s in "WSE"]
    plays = [{"seat": "N", "action": "play", "card": "AS"}, {"seat": "W", "action": "play", "card": "KD"},
             {"seat": "S", "action": "play", "card": "QS"}]
    assert error({**base, "deals": [{"dealer": "E", "deck": deck, "actions": bid + passes + plays}]}) == \
        ("illegal_card", 0, 6)
    assert error({**base, "deals": [{"dealer": "E", "deck": deck, "actions": bid + [
        {"seat": "S", "action": "coinche"}]}]}) == ("illegal_coinche", 0, 1)
    assert error({**base, "deals": [{"dealer": "E", "deck": deck, "actions": bid + [
        {"seat": "S", "action": "surcoinche"}]}]}) == ("illegal_surcoinche", 0, 1)


def test_through_the_cli(tmp_path):
    path = tmp_path / "record.json"
    path.write_text(json.dumps(capot_record()))
    atout = ROOT / ".venv" / "bin" / "atout"
    run = subprocess.run([str(atout), "record", "play", str(path), "--legal"], capture_output=True, text=True,
                         cwd=ROOT)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["ok"] and out["legal"] == {} and out["match_score"] == {"NS": 272, "EW": 0}
    path.write_text("{not json")
    run = subprocess.run([str(atout), "record", "play", str(path)], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode != 0 and json.loads(run.stdout)["code"] == "bad_record"
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize("suit,trump,score", [("TA", "TA", {"NS": 46, "EW": 196}), ("SA", None, {"NS": 240, "EW": 0})])
def test_tout_atout_and_sans_atout_records(suit, trump, score):
    """A bid's `suit` is "TA" or "SA"; the contract's `trump` is "TA", or null for SA, as in
    Variant B (the worked deals of test_belote_ta_sa.py, W taking at 80: made in TA, failed
    in SA, where EW take 48 of 130)."""
    from test_belote_ta_sa import HANDS, SA_PLAYS, TA_PLAYS

    plays = TA_PLAYS if suit == "TA" else SA_PLAYS
    actions = [{"seat": "N", "action": "pass"}, {"seat": "W", "action": "bid", "value": 80, "suit": suit},
               *({"seat": s, "action": "pass"} for s in "SEN")]
    actions += [{"seat": s, "action": "play", "card": c} for s, c in zip(plays[::2], plays[1::2])]
    record = {"game": "belote", "options": {"variant": "coinche", "contracts": "suits_ta_sa", "combinations": False},
              "deals": [{"dealer": "E", "deck": coinche_deck("E", HANDS), "actions": actions}]}
    deal = play_record(record)["deals"][0]
    assert deal["contract"] == {"seat": "W", "team": "EW", "trump": trump, "value": 80, "multiplier": 1}
    assert deal["score"] == score
    record["options"].pop("contracts")
    assert play_record(record)["ok"] is False                  # without the option, TA and SA are illegal bids
