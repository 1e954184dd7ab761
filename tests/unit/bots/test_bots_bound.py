"""The perfect-information bound cheats by construction, so nothing that serves a match
may reach it: no module of the service, the infrastructure or the domain imports `bench`,
no bot level names it, and only the bench's own arena hook hands it the truth."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from domain.bots import LEVELS, policy_for
from domain.bots.arena import board_margins
from domain.games import load

ROOT = Path(__file__).resolve().parents[3]


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in (
                "import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant):
            out.add(str(node.args[0].value))
    return out


@pytest.mark.parametrize("package", ["domain", "infra", "services"])
def test_nothing_that_serves_a_match_imports_the_bench(package) -> None:
    files = sorted((ROOT / package).rglob("*.py"))
    assert files
    offenders = {str(f.relative_to(ROOT)): sorted(m for m in _imports(f) if m == "bench" or m.startswith("bench."))
                 for f in files}
    assert {f: m for f, m in offenders.items() if m} == {}
    assert not any("Oracle" in f.read_text() or "SolvedPlay" in f.read_text() for f in files)


def test_no_bot_level_is_the_bound() -> None:
    for name in ("bound", "oracle", "perfect"):
        assert name not in LEVELS
        with pytest.raises(ValueError):
            policy_for("cinch", name)
    for level in LEVELS:
        policy = policy_for("five_hundred", level)
        assert type(policy).__name__ not in ("Oracle", "SolvedPlay")


def test_the_import_check_would_see_an_import(tmp_path) -> None:
    bad = tmp_path / "leak.py"
    bad.write_text("from bench.bound import Oracle\nimport bench.bots\n")
    assert _imports(bad) >= {"bench.bound", "bench.bots"}


def test_the_bound_searches_the_true_deal() -> None:
    from bench.bound import Oracle

    game = load("cinch")
    options = game.parse_options({})
    oracle = Oracle("cinch", budget=None)
    seen: list = []

    def observe(state) -> None:
        oracle.observe(state)
        seen.append(state)

    basic = policy_for("cinch", "basic")
    board_margins(game, options, 1, 5, oracle, basic, before=observe)
    assert seen and oracle.truth is seen[-1]
    table = game.view(seen[-1], game.status(seen[-1]).to_act[0])
    assert oracle.play_world(table, random.Random(0), options) is seen[-1]
    assert oracle.auction_world(table, random.Random(0), options) is seen[-1]


def test_the_bound_bids_by_the_true_deal() -> None:
    """The bound is the expert's whole algorithm on the truth, bidding included: where its
    call is not basic's, that call does better than basic's in the true deal."""
    from bench.bound import Oracle

    game = load("belote")
    raw = {"variant": "coinche"}
    options = game.parse_options(raw)
    oracle = Oracle("belote", options=raw, budget=None, worlds=8)
    basic = policy_for("belote", "basic")
    departures: list[tuple] = []

    def policy(view, rng):
        action = oracle(view, rng)
        if view.phase == "auction" and action is not None:
            plain = basic(view, random.Random(0))
            if plain is not None and action != plain:
                departures.append((oracle.truth, action, plain))
        return action

    for board in range(3):
        board_margins(game, options, board, 7, policy, basic, before=oracle.observe)
    assert departures
    for truth, action, plain in departures:
        seat = game.parse_action(action).seat
        value = oracle.playout(truth, game.parse_action(action), seat, random.Random(1))
        assert value > oracle.playout(truth, game.parse_action(plain), seat, random.Random(1))


def test_a_bound_told_one_phase_samples_the_other() -> None:
    """`knows=("play",)` (how much the play's knowledge alone is worth): the truth in the
    play, the expert's own sampled worlds before it."""
    from bench.bound import Oracle

    game = load("belote")
    raw = {"variant": "coinche"}
    options = game.parse_options(raw)
    oracle = Oracle("belote", ("play",), options=raw, budget=None, worlds=4)
    seen: list = []
    board_margins(game, options, 2, 7, oracle, policy_for("belote", "basic"),
                  before=lambda state: (oracle.observe(state), seen.append(state)))
    auction = next(s for s in seen if s.deal.phase == "auction")
    oracle.observe(auction)
    table = game.view(auction, auction.deal.turn)
    world = oracle.auction_world(table, random.Random(0), options)
    assert world.deal.hand(table.seat) == auction.deal.hand(table.seat)
    assert [set(h) for h in world.deal.hands] != [set(h) for h in auction.deal.hands]
    played = next(s for s in seen if s.deal.phase == "play")
    oracle.observe(played)
    assert oracle.play_world(game.view(played, played.deal.turn), random.Random(0), options) is played


def _bound_board(bound, board: int) -> tuple[list[int], dict[int, list[int]]]:
    """The worlds of each solved call and, per trick, of each card with a choice."""
    game = load("belote")
    calls: list[int] = []
    tricks: dict[int, list[int]] = {}

    def policy(view, rng):
        action = bound(view, rng)
        if view.phase == "auction" and bound.last_way == "solved":
            calls.append(bound.last_worlds)
        elif view.phase == "play" and bound.last_way is not None and len({a.get("card") for a in view.legal}) > 1:
            tricks.setdefault(len(view.tricks), []).append(bound.last_worlds)
        return action

    board_margins(game, game.parse_options({"variant": "coinche"}), board, 7, policy, policy_for("belote", "basic"),
                  before=bound.observe)
    return calls, tricks


def test_the_master_bound_calls_with_the_masters_worlds() -> None:
    """The solved-play bound's calls are the master's: searched over its worlds, not over the
    play's one world (with one world no call can beat basic's, so it would bid as basic)."""
    from bench.bound import SolvedPlay

    calls, tricks = _bound_board(SolvedPlay("belote", options={"variant": "coinche"}, budget=None, worlds=4), 1)
    assert calls and max(calls) == 4
    assert tricks and all(w == 1 for ws in tricks.values() for w in ws)


def test_a_partial_bound_knows_the_first_tricks_and_no_node_cap_cuts_the_truth() -> None:
    from bench.bound import SolvedPlay

    bound = SolvedPlay("belote", known_tricks=2, options={"variant": "coinche"}, budget=None, worlds=4, nodes=1)
    _, tricks = _bound_board(bound, 1)
    assert tricks[0] and all(w == 1 for t in (0, 1) for w in tricks.get(t, []))      # the truth, solved whole
    assert any(tricks.get(t) for t in range(2, 8))
    assert all(w == 0 for t in range(2, 8) for w in tricks.get(t, []))                # one node: nothing solved
