"""What Five Hundred's kitty discard is worth, and how much of it sampled worlds can find.

For each board of `basic`'s auctions (seed, board numbers as the duels deal them; misère
contracts left out, their discard is a shedding rule), at the contractor's discard:

* `all`: the double-dummy score margin of the contractor's side after each of the 286 ways
  to discard three of thirteen cards, on the true deal — the best of them against `basic`'s
  is what a discard could gain with every card seen (an upper bound, play being perfect);
* `shortlist`: the discards the master would weigh — in each effective suit its weakest
  cards, never the Joker (about 16) — and their best against `basic`'s on the true deal;
* `worlds`: the shortlist's discard with the best mean margin over W worlds dealt from the
  contractor's view (the auction's affinity, as the expert deals), W = 4, 8, 16, 32, and its
  margin on the true deal against `basic`'s;
* `probes`: the same worlds, each candidate asked only whether the contract is made (one
  null-window probe at the bid's tricks, `reaches`) — the cheaper question, since a discard's
  worth is mostly a failed contract made — the most often made chosen (ties: `basic`'s);
  and each way's process time a world (`seconds_a_world`).

Solves from the first lead cost several milliseconds each, so this takes minutes:

    .venv/bin/python bench/kitty.py --boards 200 --jobs 2 [--seed 7] [--from-board 0] [--out F]
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from msgspec.structs import replace  # noqa: E402

from domain.bots import arena  # noqa: E402
from domain.bots.five_hundred import _affinity, basic  # noqa: E402
from domain.bots.sampling import deal_hidden  # noqa: E402
from domain.cards import DECK_43, JOKER, SEATS  # noqa: E402
from domain.five_hundred.commands import Discard  # noqa: E402
from domain.five_hundred.ranking import NO_TRUMP, STRENGTH, SUIT_OF  # noqa: E402
from domain.five_hundred.doubledummy import score_margin  # noqa: E402
from domain.five_hundred.state import NOBODY, SEAT_INDEX, State  # noqa: E402
from domain.games import GAMES  # noqa: E402

WORLDS = (4, 8, 16, 32)
GAME = GAMES["five_hundred"]


def dd_margin(state: State) -> int:
    """The contractor's side's score less the other's, every card played perfectly from the
    first lead (the contractor is on lead): the best of `margins`, for one value's cost."""
    contract = state.deal.contract
    return score_margin(contract, contract.side, GAME.double_dummy.value(state))


def shortlist(hand: tuple[str, ...], denomination: str) -> list[tuple[str, ...]]:
    """Each way to make up three discards from the weakest cards of each effective suit (the
    bowers in the trump suit), the Joker kept: a high card kept over a low one of its suit."""
    suit_of = SUIT_OF[denomination]
    groups: dict[Any, list[str]] = {}
    for c in hand:
        if c != JOKER:
            groups.setdefault(suit_of[c], []).append(c)
    for suit, cards in groups.items():
        cards.sort(key=lambda c: STRENGTH[denomination][suit][c])
    out: list[tuple[str, ...]] = []
    for counts in itertools.product(*(range(min(3, len(g)) + 1) for g in groups.values())):
        if sum(counts) == 3:
            out.append(tuple(c for g, k in zip(groups.values(), counts) for c in g[:k]))
    return out


def discard_state(options: Any, board: int, seed: int) -> State | None:
    """The true state at the contractor's discard when four `basic` bots bid the board."""
    deck, dealer = arena.board_deal(GAME, board, seed)
    seen: list[State] = []

    def before(state: State) -> None:
        if state.phase == "discard" and not seen:
            seen.append(state)

    arena.play(GAME, options, dealer, deck, {s: basic for s in SEATS}, arena.board_rng(board, seed, "NS"),
               before=before)
    return seen[0] if seen and seen[0].deal.contract.sitting_out == NOBODY else None


def measure(board: int, seed: int) -> dict[str, Any] | None:
    state = discard_state(GAME.parse_options({}), board, seed)
    if state is None:
        return None
    seat = state.deal.turn
    hand = state.deal.hands[SEAT_INDEX[seat]]
    view = GAME.view(state, seat)
    mine = frozenset(basic(view, random.Random(0))["cards"])

    def margin(world: State, cards: tuple[str, ...]) -> int:
        return dd_margin(GAME.apply(world, Discard(seat=seat, cards=cards))[0])

    every = {frozenset(d): margin(state, d) for d in itertools.combinations(hand, 3)}
    candidates = shortlist(hand, state.deal.contract.denomination)
    if mine not in map(frozenset, candidates):
        candidates.append(tuple(mine))
    anchor = [frozenset(c) for c in candidates].index(mine)
    truth = [every[frozenset(c)] for c in candidates]
    rng = random.Random(f"{seed}/{board}/kitty")
    hidden = [c for c in DECK_43 if c not in hand]
    weight = _affinity(view, state.deal.contract)
    target = state.deal.contract.spec.tricks
    sums, made, picks, probed = [0] * len(candidates), [0] * len(candidates), {}, {}
    spent = {"margins": 0.0, "probes": 0.0}
    for w in range(1, max(WORLDS) + 1):
        dealt = deal_hidden(hidden, {s: 10 for s in SEATS if s != seat}, rng, weight=weight)
        world = replace(state, deal=replace(state.deal, hands=tuple(hand if s == seat else tuple(dealt[s])
                                                                    for s in SEATS)))
        began = time.process_time()
        for i, cards in enumerate(candidates):
            sums[i] += margin(world, cards)
        spent["margins"] += time.process_time() - began
        began = time.process_time()
        for i, cards in enumerate(candidates):
            made[i] += GAME.double_dummy.reaches(GAME.apply(world, Discard(seat=seat, cards=cards))[0], target)
        spent["probes"] += time.process_time() - began
        if w in WORLDS:
            picks[w] = truth[max(range(len(candidates)), key=lambda i: (sums[i], i == anchor))]
            probed[w] = truth[max(range(len(candidates)), key=lambda i: (made[i], i == anchor))]
    return {"board": board, "candidates": len(candidates), "basic": every[mine], "all": max(every.values()),
            "shortlist": max(truth), "worlds": picks, "probes": probed,
            "seconds_a_world": {k: round(v / max(WORLDS), 4) for k, v in spent.items()}}


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    def gain(values: list[int]) -> dict[str, Any]:
        n = len(values)
        mean = sum(values) / n
        se = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n) if n > 1 else float("inf")
        return {"mean": round(mean, 2), "se": round(se, 2), "better": sum(v > 0 for v in values),
                "worse": sum(v < 0 for v in values)}

    return {"boards": len(rows), "candidates_mean": round(sum(r["candidates"] for r in rows) / len(rows), 1),
            "basic_best_of_all": sum(r["basic"] == r["all"] for r in rows),
            "all_minus_basic": gain([r["all"] - r["basic"] for r in rows]),
            "shortlist_minus_basic": gain([r["shortlist"] - r["basic"] for r in rows]),
            "worlds_minus_basic": {str(w): gain([r["worlds"][w] - r["basic"] for r in rows]) for w in WORLDS},
            "probes_minus_basic": {str(w): gain([r["probes"][w] - r["basic"] for r in rows]) for w in WORLDS},
            "seconds_a_world_p50": {k: sorted(r["seconds_a_world"][k] for r in rows)[len(rows) // 2]
                                    for k in ("margins", "probes")}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=200, help="the board after the last one measured")
    parser.add_argument("--from-board", type=int, default=0, help="the first board measured")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--jobs", type=int, default=1, help="processes, at least 1")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.jobs < 1:
        parser.error("--jobs is at least 1")
    boards = range(args.from_board, args.boards)
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = [r for r in pool.map(measure, boards, itertools.repeat(args.seed), chunksize=4) if r is not None]
    if len(rows) < 2:
        parser.error(f"boards {args.from_board}-{args.boards - 1} hold {len(rows)} discards: at least 2 are needed")
    result = {"game": "five_hundred", "seed": args.seed, "summary": summary(rows), "per_board": rows}
    text = json.dumps(result, indent=1)
    if args.out:
        args.out.write_text(text)
    print(json.dumps(result["summary"], indent=1))


if __name__ == "__main__":
    main()
