"""Fair-play signals measured: how often honest bots are flagged, how often a planted cheat is.

Two runs of bot-only deals through the real rules (`domain.bots.arena`), each deal then
reviewed exactly as the workers review it (`domain.review`):

- `honest`: four honest double-dummy searchers (`tests/fairplay_cheat.py`, no peek);
- `cheat`: North-South see each other's hand (the planted cheat: the same search with the
  partner's real hand in every world), East-West honest.

The null is fitted on the first half of the honest run (its bot seats, as the server fits
it on bot seats); the false-positive rate is the share of honest partnership windows of the
rest — the honest run's second half and the cheat run's East-West — flagged by
`domain.fairplay.verdict`; the detection rate the share of the cheat's windows flagged. A
window is `--window` deals of one partnership (both seats' signals), the server's
`MIN_DECISIONS` applying; besides the disjoint windows the runs hold, `--bootstrap` windows
are drawn from each pool of deals with replacement, so the rates rest on more than a handful
of windows. Prints one JSON object.

    .venv/bin/python bench/fairplay.py --game belote --deals 120 --window 20
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Iterator
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from domain import fairplay, review  # noqa: E402
from domain.bots import arena  # noqa: E402
from domain.cards import SEATS, TEAM  # noqa: E402
from domain.games import load  # noqa: E402
from tests.fairplay_cheat import WorldSearcher  # noqa: E402


def deals(game_name: str, raw: dict[str, Any], n: int, seed: int, cheat: bool, worlds: int, review_worlds: int
          ) -> Iterator[dict[str, fairplay.Tally]]:
    """Per deal, each partnership's tally of signals."""
    game = load(game_name)
    options = game.parse_options(raw)
    current: list[Any] = [None]

    def truth() -> Any:
        return current[0]

    def before(state: Any) -> None:
        current[0] = state

    policies = {s: WorldSearcher(game_name, options, truth, peek=cheat and TEAM[s] == "NS", worlds=worlds)
                for s in SEATS}
    for board in range(n):
        deck, dealer = arena.board_deal(game, board, seed)
        state, actions = arena.play(game, options, dealer, deck, policies, random.Random(f"{seed}/{board}"),
                                    before=before)
        reviewed = review.review(game, options, str(dealer), deck, actions, worlds=review_worlds, seed=board)
        tallies = {"NS": fairplay.Tally(), "EW": fairplay.Tally()}
        for card in reviewed.cards:
            if card.signal is not None:
                side = TEAM[card.seat] if card.seat in TEAM else card.seat
                tallies[side] = tallies[side].add(fairplay.Tally(1, card.signal, card.signal * card.signal))
        yield tallies


def windows(per_deal: list[fairplay.Tally], size: int) -> list[fairplay.Tally]:
    out = []
    for i in range(0, len(per_deal) - size + 1, size):
        total = fairplay.Tally()
        for t in per_deal[i:i + size]:
            total = total.add(t)
        out.append(total)
    return out


def drawn(per_deal: list[fairplay.Tally], size: int, count: int, rng: random.Random) -> list[fairplay.Tally]:
    out = []
    for _ in range(count):
        total = fairplay.Tally()
        for t in rng.choices(per_deal, k=size):
            total = total.add(t)
        out.append(total)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="belote")
    parser.add_argument("--options", default='{"variant": "classic"}')
    parser.add_argument("--deals", type=int, default=120, help="deals per run")
    parser.add_argument("--window", type=int, default=20, help="deals per window")
    parser.add_argument("--worlds", type=int, default=6, help="the bots' worlds per decision")
    parser.add_argument("--review-worlds", type=int, default=review.WORLDS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bootstrap", type=int, default=2000, help="windows drawn with replacement per pool")
    args = parser.parse_args()
    raw = json.loads(args.options)
    started = time.perf_counter()
    honest = list(deals(args.game, raw, args.deals, args.seed, False, args.worlds, args.review_worlds))
    cheat = list(deals(args.game, raw, args.deals, args.seed + 1, True, args.worlds, args.review_worlds))
    half = len(honest) // 2
    fit = fairplay.Tally()
    for d in honest[:half]:
        fit = fit.add(d["NS"]).add(d["EW"])
    null = fairplay.null_model({args.game: fit})
    honest_windows = [w for side in ("NS", "EW") for w in windows([d[side] for d in honest[half:]], args.window)]
    honest_windows += windows([d["EW"] for d in cheat], args.window)
    cheat_windows = windows([d["NS"] for d in cheat], args.window)

    def judged(ws: list[fairplay.Tally]) -> list[fairplay.Verdict]:
        return [fairplay.verdict({args.game: w}, null) for w in ws]

    h, c = judged(honest_windows), judged(cheat_windows)
    rate = lambda vs: round(sum(v.flagged for v in vs) / len(vs), 4) if vs else None   # noqa: E731
    rng = random.Random(args.seed)
    honest_pool = [d[side] for d in honest[half:] for side in ("NS", "EW")] + [d["EW"] for d in cheat]
    boot_h = judged(drawn(honest_pool, args.window, args.bootstrap, rng))
    boot_c = judged(drawn([d["NS"] for d in cheat], args.window, args.bootstrap, rng))
    print(json.dumps({
        "game": args.game, "options": raw, "deals_per_run": args.deals, "window_deals": args.window,
        "bot_worlds": args.worlds, "review_worlds": args.review_worlds,
        "null": None if args.game not in null else {"decisions": null[args.game].n,
                                                     "mean": round(null[args.game].mean, 3),
                                                     "sd": round(null[args.game].sd, 3)},
        "min_null": fairplay.MIN_NULL, "flag_z": fairplay.FLAG_Z, "min_decisions": fairplay.MIN_DECISIONS,
        "honest_windows": len(h), "false_positive_rate": rate(h),
        "honest_z": [v.z for v in h], "honest_decisions": [v.decisions for v in h],
        "cheat_windows": len(c), "detection_rate": rate(c),
        "cheat_z": [v.z for v in c], "cheat_decisions": [v.decisions for v in c],
        "bootstrap_windows": args.bootstrap, "bootstrap_false_positive_rate": rate(boot_h),
        "bootstrap_detection_rate": rate(boot_c),
        "seconds": round(time.perf_counter() - started, 1), "load": os.getloadavg()[0],
    }))


if __name__ == "__main__":
    main()
