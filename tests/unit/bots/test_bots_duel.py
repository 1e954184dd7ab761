"""`atout bots duel`: duplicate boards (the same deck played twice, partnerships swapped)
and the JSON it prints."""

from __future__ import annotations

import json

from domain.bots import policy_for
from domain.bots.arena import duplicate_board, summarize
from domain.games import load
from services.cli import main


def test_a_level_against_itself_scores_nothing_on_a_duplicate_board() -> None:
    game = load("cinch")
    basic = policy_for("cinch", "basic")
    as_ns, as_ew = duplicate_board(game, game.parse_options({}), 3, 1, basic, basic)
    assert as_ns + as_ew == 0                       # the same players on both seatings cancel out


def test_summary_interval() -> None:
    out = summarize([1.0, 3.0, 5.0, -1.0])
    assert out["boards"] == 4 and out["a_won"] == 3 and out["b_won"] == 1 and out["margin_per_deal"] == 2.0
    low, high = out["ci95"]
    assert low < 2.0 < high


def test_the_duel_command_prints_json(capsys) -> None:
    code = main(["bots", "duel", "--game", "five_hundred", "--a", "basic", "--b", "random", "--deals", "3",
                 "--seed", "2", "--jobs", "1"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["boards"] == 3 and out["a"] == "basic" and len(out["ci95"]) == 2
    assert out["a_won"] + out["b_won"] + out["tied"] == 3


def test_the_duel_command_refuses_bad_input(capsys) -> None:
    assert main(["bots", "duel", "--game", "bridge"]) == 2
    assert main(["bots", "duel", "--game", "cinch", "--options", '{"mode": "individual"}']) == 2
    assert main(["bots", "duel", "--game", "cinch", "--a", "genius"]) == 2
