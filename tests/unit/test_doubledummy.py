"""The double-dummy solvers against a brute-force minimax through the real rules
(tests/dd_reference.py), on random deals of every variant: every position of the last three
tricks, a few of the last four, and whole deals, where the solver's own best line, played
through decide/evolve, must end on the value it announced. bench/dd.py runs the same
comparison on a thousand deals per game."""

from __future__ import annotations

import itertools
import random
import zlib
from collections.abc import Callable
from typing import Any

import pytest

import domain.doubledummy as dd
from domain.cards import JOKER
from domain.games import GAMES
from tests.dd_reference import (
    LEAVES,
    ducking_line,
    low_hand_misere,
    minimax,
    play_states,
    side_of,
    to_act,
)

BELOTE = [{"variant": v, "rules": r, "combinations": c}
          for v, r, c in itertools.product(("classic", "sans_atout", "coinche"), ("house", "official"), (True, False))]
CINCH = [{"mode": m, "low_point": low} for m in ("partnership", "individual") for low in ("trick_winner", "holder")]


FIVE_HUNDRED = ["suit", "NT", "misere"]
CASES = ([("belote", o, None) for o in BELOTE] + [("cinch", o, None) for o in CINCH]
         + [("five_hundred", {}, k) for k in FIVE_HUNDRED])
IDS = [f"{g}-{'-'.join(str(v) for v in o.values()) or k}" for g, o, k in CASES]


def deals(game_name: str, raw: dict, kind: str | None, rng: random.Random, count: int) -> list[list[Any]]:
    """`count` random deals in play (each as its list of positions), of the wanted kind."""
    game = GAMES[game_name]
    options = game.parse_options(raw)
    out: list[list[Any]] = []
    for _ in range(500):
        if kind == "misere":
            states = ducking_line(game, low_hand_misere(game, options, rng), rng)
            if len(states[-1].deal.hands[list("NESW").index(to_act(states[-1]))]) > 3:
                continue
        else:
            states = play_states(game, options, rng, kind)
        out.append(states)
        if len(out) == count:
            return out
    raise AssertionError(f"fewer than {count} {kind} deals of 500 with three tricks to solve")


def check_endings(game_name: str, positions: list[Any], tricks: int) -> int:
    game = GAMES[game_name]
    seen = 0
    for state in positions:
        if len(state.deal.hands[list("NESW").index(to_act(state))]) > tricks:
            continue
        seat = to_act(state)
        side = side_of(game, state, seat)
        expected = minimax(game, state, side)[1]
        assert game.double_dummy.value(state) == expected, (state.deal.hands, state.deal.trick)
        if len(state.deal.hands["NESW".index(seat)]) <= 2:
            # each card's value: the best of its actions (a Joker lead names a suit)
            cards: dict[str, tuple[int, int]] = {}
            for action in game.legal_actions(state, seat):
                if action["action"] == "play":
                    child, _ = game.apply(state, game.parse_action({"seat": str(seat), **action}))
                    got = minimax(game, child, side)
                    if action["card"] not in cards or got[0] > cards[action["card"]][0]:
                        cards[action["card"]] = got
            assert game.double_dummy.solve(state).cards == {c: v for c, (_, v) in cards.items()}
        seen += 1
    return seen


@pytest.mark.parametrize("game_name,raw,kind", CASES, ids=IDS)
def test_last_three_tricks_match_brute_force(game_name: str, raw: dict, kind: str | None) -> None:
    rng = random.Random(zlib.crc32(f"{game_name}{raw}{kind}".encode()))
    seen = sum(check_endings(game_name, states, 3) for states in deals(game_name, raw, kind, rng, 4))
    assert seen >= (4 if kind == "misere" else 20)


def test_the_no_trump_joker_on_lead_near_the_end_matches_brute_force() -> None:
    """The last two tricks are played out in loops, the leader's Joker naming each suit it may:
    checked where its holder leads with two or three tricks left, a case the random endings
    above meet only now and then."""
    rng = random.Random(29)
    seen = 0
    for states in deals("five_hundred", {}, "NT", rng, 120):
        for state in states:
            seat = to_act(state)
            hand = state.deal.hands["NESW".index(seat)]
            if len(hand) <= 3 and JOKER in hand and not state.deal.trick.plays:
                seen += check_endings("five_hundred", [state], 3)
    assert seen >= 15


@pytest.mark.parametrize("game_name,raw,kind", [CASES[0], CASES[10], CASES[12], CASES[13], CASES[15], CASES[16],
                                                CASES[17], CASES[18]], ids=lambda x: str(x))
def test_last_four_tricks_match_brute_force(game_name: str, raw: dict, kind: str | None) -> None:
    rng = random.Random(4)
    for states in deals(game_name, raw, kind, rng, 1):
        four = [s for s in states if len(s.deal.hands[list("NESW").index(to_act(s))]) == 4]
        check_endings(game_name, four[:2], 4)


def value_for(game_name: str, state: Any, side: str, otherwise: int) -> int:
    """The solver's value of `state` for `side` (Five Hundred, where the Joker names a suit:
    tricks are zero-sum, ten in all, or the contractor's one trick in misère)."""
    game = GAMES[game_name]
    if game.status(state).phase != "in_deal":
        return LEAVES[game_name](state, side)[1]
    v = game.double_dummy.value(state)
    if side_of(game, state, to_act(state)) == side:
        return v
    return -v if state.deal.contract.spec.misere else 10 - v


def play_best_line(game_name: str, state: Any) -> None:
    """Each seat in turn plays a card the solver values at its best; the deal must end on the
    value announced at the first lead."""
    game = GAMES[game_name]
    solver = game.double_dummy
    side = side_of(game, state, to_act(state))
    first = solver.solve(state)
    assert first.value == solver.value(state)
    legal = {a["card"] for a in game.legal_actions(state, to_act(state)) if a["action"] == "play"}
    assert set(first.cards) == legal
    while game.status(state).phase == "in_deal":
        seat = to_act(state)
        solution = solver.solve(state)
        card = next(c for c, v in solution.cards.items() if v == solution.value)
        children = [game.apply(state, game.parse_action({"seat": str(seat), **a}))[0]
                    for a in game.legal_actions(state, seat) if a.get("card") == card]
        # a Joker led in no-trumps: the suit to name is the one keeping the value
        state = children[0] if len(children) == 1 else max(
            children, key=lambda child: value_for(game_name, child, solution.side, solution.value))
    assert LEAVES[game_name](state, side)[1] == first.value


@pytest.mark.parametrize("game_name,raw,kind", [CASES[0], CASES[3], CASES[6], CASES[9], CASES[12], CASES[14],
                                                CASES[16], CASES[17], CASES[18]], ids=lambda x: str(x))
def test_best_line_attains_the_solved_value(game_name: str, raw: dict, kind: str | None) -> None:
    rng = random.Random(7)
    for states in deals(game_name, raw, kind, rng, 1):
        play_best_line(game_name, states[0])


def test_the_pure_python_search_agrees_with_the_compiled_one() -> None:
    rng = random.Random(11)
    cases: list[tuple[str, Callable[[Any], int], Any]] = []
    for game_name, raw, kind in (CASES[0], CASES[12], CASES[17]):
        for states in deals(game_name, raw, kind, rng, 2):
            for state in states[-16:]:
                cases.append((game_name, GAMES[game_name].double_dummy.value, state))
    compiled = [value(state) for _, value, state in cases]
    dd.SEARCH[0] = dd.python_search
    try:
        assert [value(state) for _, value, state in cases] == compiled
    finally:
        dd.SEARCH[0] = dd.make_search


@pytest.mark.parametrize("game_name,raw,kind", [CASES[0], CASES[2], CASES[12], CASES[14], CASES[16]],
                         ids=lambda x: str(x))
def test_contract_table(game_name: str, raw: dict, kind: str | None) -> None:
    """Every contract, every side; the deal's own contract with its own leader is the value
    at the first lead (Belote), at most the table's (the better seat: Cinch, Five Hundred)."""
    rng = random.Random(5)
    game = GAMES[game_name]
    state = deals(game_name, raw, kind, rng, 1)[0][0]
    table = game.double_dummy.contract_table(state)
    side = side_of(game, state, to_act(state))
    sides = set(game.sides(state.options))
    assert all(set(row) == sides for row in table.values())
    if game_name == "belote":
        label = state.deal.contract.trump or "SA"
        assert table[label][side] == game.double_dummy.value(state)
        assert set(table) == ({"SA"} if raw["variant"] == "sans_atout" else {"S", "H", "D", "C"})
    elif game_name == "cinch":
        assert table[state.deal.contract.trump][side] >= game.double_dummy.value(state)
    else:
        assert set(table) == {"S", "C", "D", "H", "NT"}
        assert table[state.deal.contract.denomination][side] >= game.double_dummy.value(state)


def test_every_game_declares_its_solver() -> None:
    for name, game in GAMES.items():
        assert game.double_dummy is not None, name
        assert {"solve", "value", "contract_table"} <= set(dir(game.double_dummy))


def test_solution_units() -> None:
    rng = random.Random(2)
    units = {"belote": "card_points", "cinch": "points", "five_hundred": "tricks"}
    for name, game in GAMES.items():
        state = play_states(game, game.parse_options({}), rng)[-1]
        solution = game.double_dummy.solve(state)
        assert solution.unit == units[name]
        assert solution.side == side_of(game, state, to_act(state))


def test_solves_from_several_threads_give_the_values_of_one() -> None:
    """A worker reviewing deals in threads, the API's hints beside it: the process's one
    transposition table serves one solve at a time, so threads get what one thread gets."""
    from concurrent.futures import ThreadPoolExecutor

    rng = random.Random(23)
    cases = [(name, s) for name in ("belote", "five_hundred") for d in deals(name, {}, None, rng, 3) for s in d[-20:-12]]

    def solve(case: tuple[str, Any]) -> Any:
        return GAMES[case[0]].double_dummy.solve(case[1])

    alone = [solve(c) for c in cases]
    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(solve, cases * 3)) == alone * 3


def test_a_solve_in_a_thread_leaves_the_interpreter_to_the_others() -> None:
    """The compiled search releases the GIL: a solve run off an event loop (a board's par, a
    hint) must not stop the loop for as long as a probe lasts (about 90 ms on these deals
    when the kernel held it). A busy machine may also keep the loop's thread off a core for a
    while, so the measure is taken up to three times: a kernel holding the GIL stalls every
    one of them, a loaded scheduler seldom all three."""
    import threading
    import time

    game = GAMES["five_hundred"]
    positions = [states[0] for states in deals("five_hundred", {"deals": 1}, None, random.Random(3), 12)]
    game.double_dummy.value(positions[0])                   # compiled before the clock starts

    def longest_wait() -> float:
        done = threading.Event()

        def solve_all() -> None:
            for position in positions:
                game.double_dummy.value(position)
            done.set()

        worker = threading.Thread(target=solve_all)
        gap, last = 0.0, time.perf_counter()
        worker.start()
        while not done.is_set():
            time.sleep(0.002)
            now = time.perf_counter()
            gap, last = max(gap, now - last), now
        worker.join()
        return gap

    gaps = []
    for _ in range(3):
        gaps.append(longest_wait())
        if gaps[-1] < 0.03:
            break
    gap = min(gaps)
    assert gap < 0.03, f"the interpreter waited {gap * 1000:.0f} ms behind a solve (each try: {gaps})"


@pytest.mark.parametrize("search", ["compiled", "python"])
def test_a_node_budget_stops_a_solve_and_leaves_the_next_exact(search: str) -> None:
    """A caller on a clock gives a solve its nodes: past them the solve raises and gives no
    value, and neither it nor the budget changes what the next solve finds."""
    game = GAMES["belote"]
    state = deals("belote", {}, None, random.Random(31), 1)[0][-12 if search == "python" else 0]
    dd.SEARCH[0] = dd.make_search if search == "compiled" else dd.python_search
    try:
        exact = game.double_dummy.solve(state)
        before = dd.nodes_visited()
        game.double_dummy.solve(state)
        cost = dd.nodes_visited() - before
        assert cost > 100
        with pytest.raises(dd.OutOfNodes), dd.node_budget(cost // 4):
            game.double_dummy.solve(state)
        assert dd.nodes_visited() - before == cost + cost // 4
        assert game.double_dummy.solve(state) == exact
        with dd.node_budget(3 * cost):
            assert game.double_dummy.solve(state) == exact
    finally:
        dd.SEARCH[0] = dd.make_search


@pytest.mark.parametrize("game_name,raw,kind", [CASES[0], CASES[16]], ids=["belote-classic", "five_hundred-suit"])
def test_a_window_wider_than_a_probe_gives_the_probes_value(game_name: str, raw: dict, kind: str | None,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The search is fail-soft within any window, not only the null windows the bisection
    probes with: one search over the whole range the value may lie in finds it exactly, also
    where the table already holds a position's exact value inside the window."""
    solver = GAMES[game_name].double_dummy
    positions = [state for states in deals(game_name, raw, kind, random.Random(5), 40) for state in states[-20:]]
    probed = [solver.value(state) for state in positions]

    def one_search(search: Any, pos: Any, bounds: tuple[int, int], restrict: int = -1) -> int:
        return search(pos, bounds[0] - 1, bounds[1] + 1, restrict)

    monkeypatch.setattr(dd, "_bisect", one_search)
    assert [solver.value(state) for state in positions] == probed


def test_the_search_numbers_start_again_on_an_empty_table() -> None:
    """An entry keeps 24 bits of the number of the search that wrote it. When the numbers
    start again, an entry of an earlier search with the same number must not serve the new
    one: here the other side's values of the same positions, which would be wrong."""
    from domain.belote.doubledummy import _setup
    from domain.doubledummy import compiled, kernel

    def value(t: Any, pos: Any, side: tuple[bool, ...]) -> int:
        search, _ = compiled.make_search(t, side)
        return dd._bisect(search, pos, dd._range(t, pos, side))

    rng = random.Random(11)
    for states in deals("belote", {"variant": "classic"}, None, rng, 6):
        t, pos, mine = _setup(states[0])[:3]
        other = tuple(not m for m in mine)
        fresh = value(t, pos, other)
        compiled._GEN[0] = kernel.SEARCHES - 1          # the last number: the next is 1 again
        value(t, pos, mine)
        compiled._GEN[0] = kernel.SEARCHES - 1
        assert value(t, pos, other) == fresh            # number 1 again, the entries above gone


def dealt_back(hands: tuple[int, int, int, int], runs: list[int]) -> tuple[int, ...]:
    """The packed key the plain way: each run's cards still out dealt back to their owners
    from the run's bottom, one at a time."""
    out = list(hands)
    every = hands[0] | hands[1] | hands[2] | hands[3]
    for m in runs:
        start = (m & -m).bit_length() - 1
        out = [h & ~m for h in out]
        for p, c in enumerate(dd.bits(every & m)):
            owner = next(i for i in range(4) if hands[i] >> c & 1)
            out[owner] |= 1 << (start + p)
    return tuple(out)


def test_packed_keys_are_the_cards_dealt_back_to_the_bottom_of_each_run() -> None:
    """The kernel packs a run by extracting each hand's bits (`_pext`: the processor's own
    instruction where it is fast, else a loop): the same keys as dealing the cards back."""
    from domain.doubledummy import compiled, kernel
    from domain.five_hundred.doubledummy import table

    rng = random.Random(3)
    for _ in range(2000):
        x, m = rng.getrandbits(63), rng.getrandbits(63)
        assert kernel.pext_loop(x, m) == sum(1 << i for i, c in enumerate(dd.bits(m)) if x >> c & 1)
    t = table("S")
    runs = [int(r) for r in compiled._arrays(t)[3]]
    assert runs and max(r.bit_count() for r in runs) >= 8          # a whole suit is a run
    cards = list(range(len(t.codes)))
    for _ in range(500):
        rng.shuffle(cards)
        gone = rng.randrange(len(cards) - 4)
        hands = [0, 0, 0, 0]
        for i, c in enumerate(cards[gone:]):
            hands[i % 4] |= 1 << c
        assert tuple(kernel._packed(*hands, compiled._arrays(t)[3])) == dealt_back(tuple(hands), runs)


FALLBACK = """
import json, random, sys
import domain.doubledummy.kernel as kernel
kernel.FAST_PEXT = False
from domain.games import GAMES
from tests.dd_reference import play_states
game = GAMES["five_hundred"]
states = [play_states(game, game.parse_options({}), random.Random(seed))[-24] for seed in range(4)]
values = [game.double_dummy.value(state) for state in states]
from domain.doubledummy import compiled
from domain.five_hundred.doubledummy import table
runs = compiled._arrays(table("S"))[3]
rng = random.Random(5)
keys = []
for _ in range(200):
    cards = rng.sample(range(43), rng.randrange(4, 40))
    hands = [sum(1 << c for c in cards[i::4]) for i in range(4)]
    keys.append([hands, [int(k) for k in kernel._packed(*hands, runs)]])
print(json.dumps({"values": values, "keys": keys}))
"""


def test_a_processor_without_a_fast_bit_extraction_gets_the_same_values(tmp_path: Any) -> None:
    """The kernel compiled without the processor's bit extraction (an ARM machine, an older
    x86, AMD's Zen 1 and 2) finds the same values: compiled afresh in its own cache."""
    import json
    import os
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), PYTHONPATH=root)
    out = subprocess.run([sys.executable, "-c", FALLBACK], env=env, capture_output=True, text=True, cwd=root,
                         check=True, timeout=300).stdout
    got = json.loads(out)
    from domain.doubledummy import compiled
    from domain.five_hundred.doubledummy import table

    runs = [int(r) for r in compiled._arrays(table("S"))[3]]
    assert all(tuple(key) == dealt_back(tuple(hands), runs) for hands, key in got["keys"])
    game = GAMES["five_hundred"]
    states = [play_states(game, game.parse_options({}), random.Random(seed))[-24] for seed in range(4)]
    assert got["values"] == [game.double_dummy.value(state) for state in states]
