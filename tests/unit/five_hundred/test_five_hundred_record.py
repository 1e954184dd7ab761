"""`atout record play` for five_hundred through the shared record player: summaries under the
README's conventions, `--legal` with the compact discard, rulings, and every error code."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from five_hundred_support import deck_for

from domain.cards import DECK_43, Seat
from domain.five_hundred import GAME
from domain.game import StartDeal
from domain.playout import choose_action
from domain.record import play_record

ROOT = Path(__file__).resolve().parents[3]


def recorded_deal(seed: int, dealer: str = "N", state=None, stop: int | None = None):
    """A random legal deal as a record entry (and the state it ends in)."""
    rng = random.Random(seed)
    deck = list(DECK_43)
    rng.shuffle(deck)
    state = state or GAME.initial(GAME.parse_options({}))
    state, _ = GAME.apply(state, StartDeal(dealer=Seat(dealer), deck=tuple(deck)))
    actions = []
    while GAME.status(state).phase == "in_deal" and (stop is None or len(actions) < stop):
        action = choose_action(GAME, state, rng)
        if state.phase == "auction" and state.deal.high >= 0 and rng.random() < 0.8:
            action = {"seat": str(state.deal.turn), "action": "pass"}  # modest contracts: the match goes on
        actions.append(action)
        state, _ = GAME.apply(state, GAME.parse_action(action))
    return {"dealer": dealer, "deck": deck, "actions": actions}, state


def record(*deals, **extra):
    return {"game": "five_hundred", "options": extra.pop("options", {}), "deals": list(deals), **extra}


def test_a_played_deal_summary():
    entry, state = recorded_deal(1)
    out = play_record(record(entry))
    assert out["ok"] is True
    summary = out["deals"][0]
    assert summary == GAME.deal_summary(state)
    assert summary["result"] in ("made", "failed")
    c = summary["contract"]
    assert set(c) >= {"seat", "team", "trump"} and ("tricks" in c) != ("contract" in c)
    assert all(set(t) == {"leader", "cards", "winner"} for t in summary["tricks"])
    assert out["match_score"] == summary["score"]


def test_a_thrown_in_deal():
    out = play_record(record({"dealer": "S", "deck": list(DECK_43),
                              "actions": [{"seat": s, "action": "pass"} for s in "WNES"]}), legal=True)
    assert out["deals"] == [{"contract": None, "result": "thrown_in", "tricks": [], "points": {"NS": 0, "EW": 0},
                             "score": {"NS": 0, "EW": 0}}]
    assert out["legal"] == {} and out["winner"] is None


def test_an_incomplete_deal_in_the_auction_and_legal_actions():
    out = play_record(record({"dealer": "S", "deck": list(DECK_43),
                              "actions": [{"seat": "W", "action": "bid", "tricks": 9, "suit": "NT"}]}), legal=True)
    assert out["deals"][0] == {"contract": None, "result": "incomplete", "tricks": [],
                               "points": {"NS": 0, "EW": 0}, "score": {"NS": 0, "EW": 0}}
    legal = out["legal"]
    assert list(legal) == ["N"]
    assert legal["N"] == [{"action": "pass"}, {"action": "bid", "tricks": 10, "suit": "S"},
                          {"action": "bid", "tricks": 10, "suit": "C"}, {"action": "bid", "tricks": 10, "suit": "D"},
                          {"action": "bid", "contract": "open_misere"}, {"action": "bid", "tricks": 10, "suit": "H"},
                          {"action": "bid", "tricks": 10, "suit": "NT"}]


def test_the_discard_is_listed_in_the_compact_form():
    deck = deck_for(Seat.S, kitty=["JK", "JH", "JD"])
    actions = [{"seat": "W", "action": "bid", "tricks": 6, "suit": "H"}] + \
              [{"seat": s, "action": "pass"} for s in "NES"]
    out = play_record(record({"dealer": "S", "deck": list(deck), "actions": actions}), legal=True)
    (only,) = out["legal"]["W"]
    assert only["action"] == "discard" and only["cards"]["choose"] == 3
    assert len(only["cards"]["from"]) == 13 and {"JK", "JH", "JD"} <= set(only["cards"]["from"])
    assert out["deals"][0]["contract"] == {"seat": "W", "team": "EW", "trump": "H", "tricks": 6}
    assert out["deals"][0]["result"] == "incomplete"


def test_an_incomplete_deal_in_play_lists_completed_tricks_only():
    entry, state = recorded_deal(3, stop=None)
    n_auction = next(i for i, a in enumerate(entry["actions"]) if a["action"] == "discard") + 1
    entry["actions"] = entry["actions"][:n_auction + 6]  # one trick and two cards
    out = play_record(record(entry), legal=True)
    summary = out["deals"][0]
    assert summary["result"] == "incomplete" and summary["contract"] is not None
    assert len(summary["tricks"]) == (2 if summary["contract"].get("contract") else 1)
    assert summary["score"] == {"NS": 0, "EW": 0} and sum(summary["points"].values()) == len(summary["tricks"])
    (seat,) = out["legal"]
    assert all(a["action"] == "play" for a in out["legal"][seat])


def test_misere_contract_in_the_summary():
    deck = list(DECK_43)
    actions = [{"seat": "W", "action": "bid", "tricks": 7, "suit": "S"},
               {"seat": "N", "action": "bid", "contract": "misere"}] + \
              [{"seat": s, "action": "pass"} for s in "ESW"]
    out = play_record(record({"dealer": "S", "deck": deck, "actions": actions}))
    assert out["deals"][0]["contract"] == {"seat": "N", "team": "NS", "trump": None, "contract": "misere"}


def test_two_deals_and_rulings():
    first, state = recorded_deal(10, dealer="E")
    second, state = recorded_deal(110, dealer="S", state=state)
    assert GAME.status(state).phase == "awaiting_deal"
    out = play_record(record(first, second, rulings=[{"deal": 0, "ruling": "void"}]))
    assert out["ok"] and out["match_score"] == out["deals"][1]["score"]
    out = play_record(record(first, second, rulings=[{"deal": 1, "ruling": "adjust", "score": {"NS": -20, "EW": 20}}]))
    total = {side: out["deals"][0]["score"][side] + out["deals"][1]["score"][side] for side in ("NS", "EW")}
    assert out["match_score"] == {"NS": total["NS"] - 20, "EW": total["EW"] + 20}


# --- Error codes ------------------------------------------------------------------------------

PASSES = [{"seat": s, "action": "pass"} for s in "WNES"]


def error(rec):
    out = play_record(rec)
    assert out["ok"] is False
    return out["code"], out["deal"], out["index"]


def test_record_level_errors():
    assert error({"game": "five_hundreds", "deals": []}) == ("bad_record", None, None)
    assert error(record(options={"misere": "no"})) == ("bad_option", None, None)


def test_deal_level_errors():
    assert error(record({"dealer": "S", "deck": list(DECK_43[:-1]), "actions": []})) == ("bad_deck", 0, None)
    assert error(record({"dealer": "S", "deck": list(DECK_43[:-1]) + ["ZZ"], "actions": []}))[0] == "bad_deck"
    thrown = {"dealer": "S", "deck": list(DECK_43), "actions": PASSES}
    assert error(record(thrown, {"dealer": "S", "deck": list(DECK_43), "actions": []})) == ("wrong_dealer", 1, None)
    short = {"dealer": "S", "deck": list(DECK_43), "actions": PASSES[:2]}
    assert error(record(short, {"dealer": "W", "deck": list(DECK_43), "actions": []})) == ("deal_incomplete", 0, 2)


def test_match_over_error():
    deck = list(DECK_43)
    won = {"dealer": "S", "deck": deck, "actions": [{"seat": "W", "action": "bid", "tricks": 6, "suit": "S"}]}
    out = play_record(record(won))
    assert out["ok"]
    rec = record({"dealer": "S", "deck": deck, "actions": PASSES}, {"dealer": "W", "deck": deck, "actions": []},
                 options={"deals": 1})
    assert error(rec) == ("match_over", 1, None)


@pytest.mark.parametrize("actions, code, index", [
    ([{"seat": "W", "action": "bet", "tricks": 6, "suit": "S"}], "bad_action", 0),
    ([{"seat": "W", "action": "bid", "tricks": 6, "suit": "S", "extra": 1}], "bad_action", 0),
    ([{"seat": "Q", "action": "pass"}], "bad_action", 0),
    (PASSES + [{"seat": "W", "action": "pass"}], "deal_over", 4),
    ([{"seat": "W", "action": "play", "card": "AS"}], "wrong_phase", 0),
    ([{"seat": "N", "action": "pass"}], "not_your_turn", 0),
    ([{"seat": "W", "action": "bid", "tricks": 7, "suit": "S"}, {"seat": "N", "action": "bid", "tricks": 6, "suit": "NT"}],
     "illegal_bid", 1),
])
def test_action_errors(actions, code, index):
    assert error(record({"dealer": "S", "deck": list(DECK_43), "actions": actions})) == (code, 0, index)


def test_card_errors():
    deck = deck_for(Seat.S, {Seat.W: ["AS", "KS"], Seat.N: ["QS", "AH"]})
    auction = [{"seat": "W", "action": "bid", "tricks": 6, "suit": "NT"}] + [{"seat": s, "action": "pass"} for s in "NES"]
    state, _ = GAME.apply(GAME.initial(GAME.parse_options({})), StartDeal(dealer=Seat.S, deck=deck))
    for a in auction:
        state, _ = GAME.apply(state, GAME.parse_action(a))
    kitty = list(state.deal.hands[3][-3:])
    base = auction + [{"seat": "W", "action": "discard", "cards": kitty}]
    not_held = {"seat": "W", "action": "play", "card": "QS"}
    assert error(record({"dealer": "S", "deck": list(deck), "actions": base + [not_held]})) == \
        ("card_not_in_hand", 0, len(base))
    revoke = [{"seat": "W", "action": "play", "card": "AS"}, {"seat": "N", "action": "play", "card": "AH"}]
    assert error(record({"dealer": "S", "deck": list(deck), "actions": base + revoke})) == \
        ("illegal_card", 0, len(base) + 1)


def test_atout_record_play_cli(tmp_path):
    entry, _ = recorded_deal(11, stop=3)
    path = tmp_path / "five_hundred.json"
    path.write_text(json.dumps(record(entry)))
    atout = ROOT / ".venv" / "bin" / "atout"
    command = [str(atout)] if atout.exists() else [sys.executable, "-m", "services.cli"]
    done = subprocess.run([*command, "record", "play", str(path), "--legal"], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["ok"] and out["deals"][0]["result"] == "incomplete" and out["legal"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record({"dealer": "S", "deck": list(DECK_43), "actions": [{"seat": "N", "action": "pass"}]})))
    done = subprocess.run([*command, "record", "play", str(bad)], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode != 0
    assert json.loads(done.stdout) == {"ok": False, "deal": 0, "index": 0, "code": "not_your_turn",
                                       "message": json.loads(done.stdout)["message"]}
