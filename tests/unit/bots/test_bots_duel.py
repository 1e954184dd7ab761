"""`atout bots duel`: duplicate boards (the same deck played twice, partnerships swapped)
and the JSON it prints."""

from __future__ import annotations

import json

from domain.bots import policy_for
from domain.bots.arena import board_margins, duplicate_board, summarize
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
    assert main(["bots", "duel", "--game", "cinch", "--options", '{"mode": "solo"}']) == 2
    assert main(["bots", "duel", "--game", "cinch", "--a", "genius"]) == 2


def test_cinch_individual_rotates_a_over_the_four_seats() -> None:
    game = load("cinch")
    options = game.parse_options({"mode": "individual"})
    basic = policy_for("cinch", "basic")
    margins = board_margins(game, options, 2, 1, basic, basic)
    assert len(margins) == 4                        # A in N, E, S, W in turn, B in the three others
    assert abs(sum(margins)) < 1e-9                  # the same player in every seat: the seatings cancel


def test_the_duel_command_plays_cinch_individual(capsys) -> None:
    code = main(["bots", "duel", "--game", "cinch", "--options", '{"mode": "individual"}', "--a", "basic",
                 "--b", "random", "--deals", "4", "--seed", "3", "--jobs", "1"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["boards"] == 4 and out["options"] == {"mode": "individual"}
    assert out["margin_per_deal"] > 0               # basic beats random seat for seat
