"""Bot benchmarks; JSON (not a test: run it by hand, outside make test).

    .venv/bin/python bench/bots.py [--jobs 2] [--out bench-bots.json] [--games coinche,cinch]
        [--rates-basic 400] [--rates-expert 150] [--duel-boards 300] [--ladder-boards 100]
        [--bound-boards 100] [--decision-deals 4] [--skip-figures] [--skip-dispatch]
        [--rates-master 0] [--master-duel-boards 0] [--master-bound-boards 0] [--decision-level expert]

* `rates` (per game and level, four bots of that level, deals from seeded decks): contracts
  made %, partner outbidding wars (a side raising its own partner twice or more in a deal),
  the share of top-level contracts (Coinche 250 or more or capot, Five Hundred 10 tricks)
  and how often they are made, thrown-in deals, stuck-dealer deals (the three others
  passed), and in Cinch the pedros lost to another side per deal.
* `ladder`: duplicate duels (`atout bots duel`'s boards), expert−basic and basic−random,
  margin per deal with its 95% interval; in Cinch the pedros A's seats lost per deal beside
  what `basic` in their place lost on the same boards.
* `master` (sizes 0 by default: `--rates-master`, `--master-duel-boards`,
  `--master-bound-boards`): the rates of four masters, the duel master−expert, and
  `master_bound`: the master's play-only bound (`bench/bound.py`'s `SolvedPlay`: the true
  deal solved double dummy in the play, its calls sampled as the master's) and master−basic
  on the same boards, with the master's share of the bound's margin. `--decision-level
  master` times the master's decisions instead of the expert's, with the worlds searched
  per phase, the decisions that had a solve stopped at the time left (`solve_stopped`),
  those whose first world could not be solved in an eighth of the budget and were searched
  the expert's way (`played_out`), and those that searched no world and played `basic`'s
  card (`no_world_basic_played`).
* `bound`: the perfect-information bound (`bench/bound.py`) against basic on the first
  boards of the expert−basic duel, and the expert's share of its margin there.
* `decision`: time of an `expert` decision (the policy call, from the seat's view to the
  action) p50/p99/max per game: `one_core` from whole deals of four experts played in one
  process before anything else starts (the load average is stated beside it); `under_jobs` from
  the expert rates, while `--jobs` processes ran.
* `dispatch`: event committed -> bot action committed, through the real path: the
  projector's `bot_turns` projection (beside the default read models and the live
  publisher) schedules `bots.play_turn` on the Redis broker, a real `atout worker`
  subprocess loads the match, asks the policy and appends. Bots are `random`, so think
  time is ~0 and what is measured is the dispatch: the gap between the two events'
  commit timestamps (Postgres `now()` of each append), overall and split: after a bot's
  own action (the worker chains the next bot at once) and after another process's append
  (a human's card or the match start, scheduled by that process's after-commit hook, as
  the API does). Needs a Postgres server
  (`--database-url`, default the local one; a fresh database is made and dropped) and
  Redis (`--redis-url`).

The figures run is split in small tasks spread over `--jobs` processes; the JSON (with
the sample sizes asked and done) is rewritten to `--out` after every task, so a run cut
short still reports what it finished. The last complete JSON is printed at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from domain.bots import policy_for  # noqa: E402
from domain.bots.arena import board_margins, play, summarize  # noqa: E402
from domain.cards import PARTNER, SEATS, Seat  # noqa: E402
from domain.games import load  # noqa: E402

GAMES: dict[str, tuple[str, dict[str, Any]]] = {
    "classic": ("belote", {"variant": "classic"}),
    "sans_atout": ("belote", {"variant": "sans_atout"}),
    "coinche": ("belote", {"variant": "coinche"}),
    "coinche_official": ("belote", {"variant": "coinche", "rules": "official"}),
    "cinch": ("cinch", {}),
    "cinch_individual": ("cinch", {"mode": "individual"}),
    "five_hundred": ("five_hundred", {}),
}
CONFIGS = [("belote", {"variant": "classic"}), ("belote", {"variant": "coinche"}), ("cinch", {}),
           ("five_hundred", {})]          # the dispatch's matches
SEED = 7
CHUNK = 5
FIRST = [0]                                  # `--from-board`: the first board (deal) of every sample
EXPERT: dict[str, Any] = {}                  # the expert's settings inside a task
EXPERT_SETTINGS: dict[str, Any] = {}         # what `--worlds` asks for the figures (none: its own budget)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def figures(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0}
    ms = [v * 1000 for v in values]
    return {"n": len(ms), "p50_ms": round(percentile(ms, 50), 1), "p99_ms": round(percentile(ms, 99), 1),
            "max_ms": round(max(ms), 1), "mean_ms": round(statistics.fmean(ms), 1)}


# --- what one deal says ---------------------------------------------------------------------

def _side(seat: Seat, individual: bool) -> str:
    return str(seat) if individual else ("NS" if seat in (Seat.N, Seat.S) else "EW")


def _pedros_played(summary: dict[str, Any]) -> list[tuple[Seat, Seat]]:
    """(who played it, who took the trick) for each pedro played in a Cinch deal."""
    from domain.cinch.ranking import left_pedro, right_pedro
    from domain.cinch.state import NEXT

    if summary.get("contract") is None:
        return []
    trump = summary["contract"]["trump"]
    pedros = {left_pedro(trump), right_pedro(trump)}
    out = []
    for trick in summary["tricks"]:
        seat = Seat(trick["leader"])
        for card in trick["cards"]:
            if card in pedros:
                out.append((seat, Seat(trick["winner"])))
            seat = NEXT[seat]
    return out


def _pedros_lost(summary: dict[str, Any], individual: bool) -> int:
    return sum(1 for by, to in _pedros_played(summary) if _side(by, individual) != _side(to, individual))


def _pedros_lost_by(summary: dict[str, Any], seats: frozenset[Seat]) -> int:
    """Pedros the `seats` (a side, or one seat for itself) played into a trick another took."""
    return sum(1 for by, to in _pedros_played(summary) if by in seats and to not in seats)


def deal_facts(game_name: str, raw: dict[str, Any], dealer: Seat, actions: list[dict[str, Any]],
               summary: dict[str, Any]) -> dict[str, Any]:
    individual = raw.get("mode") == "individual"
    contract = summary.get("contract")
    raises = {"NS": 0, "EW": 0}
    high: Seat | None = None
    auction = [a for a in actions if a["action"] in ("bid", "pass", "take", "name")]
    for a in actions:
        if a["action"] != "bid":
            continue
        seat = Seat(a["seat"])
        if high is not None and not individual and high == PARTNER[seat]:
            raises[_side(seat, False)] += 1
        high = seat
    facts: dict[str, Any] = {"contract": contract is not None, "made": summary.get("result") == "made",
                             "war": max(raises.values()) >= 2, "top": False}
    if contract is not None:
        if game_name == "belote" and raw.get("variant") == "coinche":
            value = contract.get("value")
            facts["top"] = value == "capot" or (isinstance(value, int) and value >= 250)
        elif game_name == "five_hundred":
            facts["top"] = contract.get("tricks") == 10
    if game_name == "cinch":
        facts["stuck"] = len(auction) >= 3 and all(a["action"] == "pass" for a in auction[:3])
        facts["pedros_lost"] = _pedros_lost(summary, individual) if contract else 0
    return facts


def rates(records: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(records)
    if not n:
        return {"deals": 0}
    with_contract = [r for r in records if r["contract"]]
    top = [r for r in with_contract if r["top"]]
    pct = lambda k, rs: round(100 * sum(1 for r in rs if r[k]) / len(rs), 1) if rs else None  # noqa: E731
    out = {"deals": n, "contracts_made_pct": pct("made", with_contract), "wars_pct": pct("war", records),
           "top_contracts_pct": pct("top", with_contract), "top_made_pct": pct("made", top),
           "thrown_in_pct": round(100 * (n - len(with_contract)) / n, 1)}
    if "stuck" in records[0]:
        out["stuck_dealer_pct"] = pct("stuck", records)
        out["pedros_lost_per_deal"] = round(sum(r["pedros_lost"] for r in records) / n, 3)
    return out


# --- tasks (one process each) ---------------------------------------------------------------

def _settings(level: str, raw: dict[str, Any]) -> dict[str, Any]:
    """The searching levels get the match's options and `--worlds`."""
    return {"options": raw, **EXPERT} if level in ("expert", "master") else {}


def _rates_task(key: str, level: str, deals: list[int]) -> dict[str, Any]:
    game_name, raw = GAMES[key]
    game = load(game_name)
    options = game.parse_options(raw)
    policy = policy_for(game_name, level, **_settings(level, raw))
    times: list[float] = []

    def record(seat: Seat, seconds: float) -> None:
        if getattr(policy, "last_worlds", 0):
            times.append(seconds)

    out = []
    for k in deals:
        rng = random.Random(f"rates/{SEED}/{k}")
        deck = list(game.deck)
        rng.shuffle(deck)
        state, actions = play(game, options, SEATS[k % 4], deck, {s: policy for s in SEATS}, rng,
                              on_decision=record)
        out.append(deal_facts(game_name, raw, SEATS[k % 4], actions, game.deal_summary(state)))
    return {"records": out, "times": times}


def _duel_task(key: str, a: str, b: str, boards: list[int]) -> dict[str, Any]:
    game_name, raw = GAMES[key]
    game = load(game_name)
    options = game.parse_options(raw)
    pa = policy_for(game_name, a, **_settings(a, raw))
    pb = policy_for(game_name, b, **_settings(b, raw))
    margins, pedros = {}, {}
    lost: list[int] = []

    def count(seats: frozenset[Seat], state: Any) -> None:
        lost.append(_pedros_lost_by(game.deal_summary(state), seats))

    for board in boards:
        lost.clear()
        m = board_margins(game, options, board, SEED, pa, pb, after=count if game_name == "cinch" else None)
        margins[board] = sum(m) / len(m)
        if game_name == "cinch":
            pedros[board] = [sum(lost), _pedros_in_its_place(game, options, board, pb if b == "basic" else None)]
    return {"margins": margins, "pedros": pedros}


def _pedros_in_its_place(game: Any, options: Any, board: int, basic: Any) -> int | None:
    """The pedros A's seats lose when `basic` sits there instead (every seat `basic`, the same
    deck, dealer and random numbers as each seating of the board): what A's count is held to."""
    from domain.bots.arena import board_deal, board_rng, seatings

    if basic is None:
        return None
    deck, dealer = board_deal(game, board, SEED)
    total = 0
    for name, seats_of_a in seatings(game, options):
        state, _ = play(game, options, dealer, deck, {s: basic for s in SEATS}, board_rng(board, SEED, name))
        total += _pedros_lost_by(game.deal_summary(state), seats_of_a)
    return total


def _bound_task(key: str, boards: list[int]) -> dict[str, Any]:
    from bench.bound import Oracle

    game_name, raw = GAMES[key]
    game = load(game_name)
    options = game.parse_options(raw)
    oracle = Oracle(game_name, options=raw, **EXPERT)
    basic = policy_for(game_name, "basic")
    margins = {}
    for board in boards:
        m = board_margins(game, options, board, SEED, oracle, basic, before=oracle.observe)
        margins[board] = sum(m) / len(m)
    return {"margins": margins}


def _master_bound_task(key: str, boards: list[int]) -> dict[str, Any]:
    from bench.bound import master_boards

    game_name, raw = GAMES[key]
    out = master_boards(game_name, raw, boards, SEED, dict(EXPERT))
    return {"bound": dict(zip(boards, out["bound"])), "master": dict(zip(boards, out["master"]))}


def run_task(task: tuple, expert: dict[str, Any] | None = None) -> tuple[tuple, dict[str, Any]]:
    EXPERT.clear()
    EXPERT.update(expert or {})
    kind, *args = task
    fn = {"rates": _rates_task, "duel": _duel_task, "bound": _bound_task, "master_bound": _master_bound_task}[kind]
    return task, fn(*args)


def _chunks(n: int) -> list[list[int]]:
    """Boards (deals) `FIRST[0]` to `n` in tasks of `CHUNK`: a later run extends an earlier one."""
    return [list(range(k, min(n, k + CHUNK))) for k in range(FIRST[0], n, CHUNK)]


def plan(games: list[str], sizes: dict[str, int]) -> list[tuple]:
    """Cheap tasks first, then game by game in turn, so a cut run has some of everything."""
    stages: list[list[tuple]] = [
        [("rates", g, "basic", c) for g in games for c in _chunks(sizes["rates_basic"])],
        [("duel", g, "basic", "random", c) for g in games for c in _chunks(sizes["ladder_boards"])],
    ]
    bound = _chunks(sizes["bound_boards"])
    duel = _chunks(sizes["duel_boards"])
    expert_rates = _chunks(sizes["rates_expert"])
    mixed = []
    for i in range(max(len(duel), len(expert_rates), len(bound))):
        for g in games:
            if i < len(duel):
                mixed.append(("duel", g, "expert", "basic", duel[i]))
            if i < len(bound):
                mixed.append(("bound", g, bound[i]))
            if i < len(expert_rates):
                mixed.append(("rates", g, "expert", expert_rates[i]))
    kinds = [(("duel", "master", "expert"), _chunks(sizes.get("master_duel_boards", 0))),
             (("master_bound",), _chunks(sizes.get("master_bound_boards", 0))),
             (("rates", "master"), _chunks(sizes.get("rates_master", 0)))]
    master = [(kind[0], g, *kind[1:], chunks[i]) for i in range(max(len(c) for _, c in kinds))
              for g in games for kind, chunks in kinds if i < len(chunks)]
    return [t for stage in stages for t in stage] + mixed + master


class Report:
    """What the finished tasks say, rewritten to `path` after each."""

    def __init__(self, path: str | None, games: list[str], sizes: dict[str, int], jobs: int) -> None:
        self.path, self.games, self.sizes, self.jobs = path, games, sizes, jobs
        self.records: dict[tuple[str, str], list] = {}
        self.times: dict[str, list[float]] = {}
        self.margins: dict[tuple[str, str], dict[int, float]] = {}
        self.pedros: dict[tuple[str, str], dict[int, list]] = {}
        self.extra: dict[str, Any] = {}
        self.started = time.monotonic()
        self.load = [os.getloadavg()]

    def add(self, task: tuple, result: dict[str, Any]) -> None:
        kind = task[0]
        if kind == "rates":
            self.records.setdefault((task[1], task[2]), []).extend(result["records"])
            if task[2] == "expert":
                self.times.setdefault(task[1], []).extend(result["times"])
            if task[2] == "master":
                self.times.setdefault(f"{task[1]}/master", []).extend(result["times"])
        elif kind == "duel":
            self.margins.setdefault((task[1], f"{task[2]}-{task[3]}"), {}).update(result["margins"])
            self.pedros.setdefault((task[1], f"{task[2]}-{task[3]}"), {}).update(result.get("pedros", {}))
        elif kind == "master_bound":
            self.margins.setdefault((task[1], "solved-play-basic"), {}).update(result["bound"])
            self.margins.setdefault((task[1], "master-basic"), {}).update(result["master"])
        else:
            self.margins.setdefault((task[1], "bound-basic"), {}).update(result["margins"])
        self.load.append(os.getloadavg())
        self.write()

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "cpus": os.cpu_count(), "jobs": self.jobs, "seed": SEED, "sizes_asked": self.sizes,
            "expert_settings": EXPERT_SETTINGS or "default (its time budget)",
            "seconds": round(time.monotonic() - self.started), "load_average_1min": {
                "min": round(min(x[0] for x in self.load), 2), "max": round(max(x[0] for x in self.load), 2)},
            "rates": {}, "ladder": {}, "bound": {}, "decision": {"under_jobs": {}}}
        for g in self.games:
            out["rates"][g] = {lvl: rates(self.records.get((g, lvl), [])) for lvl in ("basic", "expert", "master")}
            out["ladder"][g] = {}
            for pair in ("master-expert", "expert-basic", "basic-random"):
                m = self.margins.get((g, pair), {})
                if m:
                    out["ladder"][g][pair] = summarize([m[k] for k in sorted(m)])
                p = [v for v in self.pedros.get((g, pair), {}).values() if v[1] is not None]
                if p:
                    deals = len(p) * (4 if GAMES[g][1].get("mode") == "individual" else 2)
                    out["ladder"][g][pair]["pedros_lost_per_deal"] = {
                        "a": round(sum(v[0] for v in p) / deals, 3),
                        "basic_in_its_place": round(sum(v[1] for v in p) / deals, 3), "deals": deals}
            bound, expert = self.margins.get((g, "bound-basic"), {}), self.margins.get((g, "expert-basic"), {})
            both = sorted(set(bound) & set(expert))
            if both:
                b = summarize([bound[k] for k in both])
                e = summarize([expert[k] for k in both])
                gap = b["margin_per_deal"]
                out["bound"][g] = {"boards": len(both), "bound_minus_basic": b, "expert_minus_basic": e,
                                   "expert_share": round(e["margin_per_deal"] / gap, 3) if gap > 0 else None}
            out["decision"]["under_jobs"][g] = figures(self.times.get(g, []))
            if self.times.get(f"{g}/master"):
                out["decision"]["under_jobs"][f"{g}/master"] = figures(self.times[f"{g}/master"])
            solved, master = self.margins.get((g, "solved-play-basic"), {}), self.margins.get((g, "master-basic"), {})
            both = sorted(set(solved) & set(master))
            if both:
                b = summarize([solved[k] for k in both])
                m = summarize([master[k] for k in both])
                gap = b["margin_per_deal"]
                out.setdefault("master_bound", {})[g] = {
                    "boards": len(both), "solved_play_minus_basic": b, "master_minus_basic": m,
                    "master_share": round(m["margin_per_deal"] / gap, 3) if gap > 0 else None}
        out["per_board"] = {f"{g}/{pair}": {str(k): m[k] for k in sorted(m)} for (g, pair), m in self.margins.items()}
        out.update(self.extra)                   # per_board: to join a run with the one it extends
        return out

    def write(self) -> None:
        if self.path:
            tmp = self.path + ".tmp"
            with open(tmp, "w") as f:
                json.dump(self.json(), f, indent=1)
            os.replace(tmp, self.path)


def decisions(games: list[str], deals: int, level: str = "expert") -> dict[str, Any]:
    """Decision times of `level` in this one process: whole deals of four of them (the
    master's also per phase, with the worlds each decision searched)."""
    out: dict[str, Any] = {"level": level, "load_average_1min_before": round(os.getloadavg()[0], 2)}
    for key in games:
        game_name, raw = GAMES[key]
        game = load(game_name)
        expert = policy_for(game_name, level, options=raw)
        searched: list[float] = []
        phases: dict[str, dict[str, list[float]]] = {}
        if level == "master":                    # a worker has loaded the solver after its first turn
            _warm(game, raw)

        def record(seat: Seat, seconds: float, expert: Any = expert) -> None:
            stopped = getattr(expert, "last_stopped", 0)
            if expert.last_worlds or stopped:      # searched, if only to have its one solve stopped
                searched.append(seconds)
                phase = phases.setdefault(str(getattr(expert, "last_phase", None) or "all"),
                                          {"ms": [], "worlds": [], "stopped": 0, "blind": 0, "played_out": 0})
                phase["ms"].append(seconds)
                phase["worlds"].append(expert.last_worlds)
                phase["stopped"] += bool(stopped)
                phase["blind"] += not expert.last_worlds
                phase["played_out"] += getattr(expert, "last_way", None) == "played out"

        for k in range(deals):
            rng = random.Random(f"decision/{k}")
            deck = list(game.deck)
            rng.shuffle(deck)
            play(game, game.parse_options(raw), SEATS[k % 4], deck, {s: expert for s in SEATS}, rng,
                 on_decision=record)
        out[key] = figures(searched)
        if level == "master":
            out[key]["phases"] = {name: {**figures(p["ms"]), "worlds_min": min(p["worlds"]),
                                         "worlds_p50": percentile(p["worlds"], 50),
                                         "worlds_mean": round(sum(p["worlds"]) / len(p["worlds"]), 1),
                                         "solve_stopped": p["stopped"], "no_world_basic_played": p["blind"],
                                         "played_out": p["played_out"]}
                                  for name, p in phases.items()}
    out["load_average_1min_after"] = round(os.getloadavg()[0], 2)
    return out


def _warm(game: Any, raw: dict[str, Any]) -> None:
    """Solve the first position of a deal of four `basic` bots that the solver takes (the
    compiled kernel loaded, as in a worker after its first turn)."""
    basic = policy_for(game.name, "basic")
    solved = []

    def solve(s: Any) -> None:
        if not solved:
            try:
                solved.append(game.double_dummy.solve(s))
            except ValueError:              # not yet in the play
                pass

    deck = list(game.deck)
    random.Random("warm").shuffle(deck)
    play(game, game.parse_options(raw), SEATS[0], deck, {s: basic for s in SEATS}, random.Random(0), before=solve)


def run_figures(games: list[str], sizes: dict[str, int], jobs: int, path: str | None,
                decision_level: str = "expert") -> Report:
    report = Report(path, games, sizes, jobs)
    if sizes["decision_deals"]:                  # first, while none of this run's processes compete
        report.extra["decision_one_core"] = decisions(games, sizes["decision_deals"], decision_level)
        report.write()
    tasks = plan(games, sizes)
    report.extra["tasks"] = {"planned": len(tasks), "done": 0}
    if jobs <= 1:
        for task in tasks:
            report.extra["tasks"]["done"] += 1
            report.add(*run_task(task, EXPERT_SETTINGS))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(run_task, t, EXPERT_SETTINGS): t for t in tasks}
            for future in as_completed(futures):
                report.extra["tasks"]["done"] += 1
                try:
                    report.add(*future.result())
                except Exception as error:            # one broken task must not lose the run
                    report.extra.setdefault("errors", []).append(f"{futures[future]}: {error!r}")
                    report.write()
    return report


async def dispatch(database_url: str, redis_url: str, matches: int, parallel: int) -> dict[str, float]:
    import asyncpg
    import redis.asyncio as aioredis

    from domain import match as rules
    from infra.projections import ProjectionRunner, WakePublisher, default_projections, run_projector
    from infra.projections.publisher import Publisher
    from infra.settings import Settings
    from infra.store import PostgresEventStore, create_pool, migrate
    from infra.store.connection import connect
    from infra.vault import Vault
    from services.matches.service import MatchService
    from services.bots import fastpath
    from services.workers.app import make_app
    from services.workers.claims import TurnClaims
    from services.bots.reactor import projection as bot_turns, scheduler_off_loop
    from services.workers.sends import Sends

    name = f"atout_bench_{secrets.token_hex(4)}"
    prefix = f"atout_bench_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(database_url)
    await admin.execute(f'CREATE DATABASE "{name}"')
    url = database_url.rsplit("/", 1)[0] + "/" + name
    conn = await connect(url)
    await migrate(conn)
    await conn.close()
    pool = await create_pool(url, max_size=6)
    redis = aioredis.from_url(redis_url)
    settings = Settings(database_url=url, redis_url=redis_url, redis_prefix=prefix)
    wake = WakePublisher(redis, prefix)

    hooks = []

    async def after_append(result) -> None:          # what services.bootstrap composes for the API
        await wake(result)
        for hook in hooks:
            await hook(result)

    svc = MatchService(PostgresEventStore(pool, after_append=after_append), Vault(pool))
    app = make_app(settings)
    sends = Sends("fast_path")                                    # as services.bots.fastpath composes the API's
    hooks.append(fastpath.hook(svc, scheduler_off_loop(app, TurnClaims(redis, prefix), sends)))
    stop = asyncio.Event()
    projections = [*default_projections(), Publisher(redis_url=redis_url, prefix=prefix), bot_turns(settings)]
    projector = asyncio.create_task(run_projector(ProjectionRunner(PostgresEventStore(pool)), projections,
                                                  redis_url=redis_url, redis_prefix=prefix, stop=stop))
    env = {**os.environ, "ATOUT_DATABASE_URL": url, "ATOUT_REDIS_URL": redis_url, "ATOUT_REDIS_PREFIX": prefix,
           "ATOUT_LOG_LEVEL": "warning"}
    worker = subprocess.Popen([sys.executable, "-m", "services.cli", "worker", "--concurrency", "2"], cwd=ROOT,
                              env=env, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    gaps: list[float] = []
    split: dict[str, list[float]] = {"after_a_bot": [], "after_another_process": []}
    try:
        await asyncio.sleep(3.0)                      # the worker's start
        seats = {s: "bot:random" for s in "NESW"}
        games = [CONFIGS[k % len(CONFIGS)] for k in range(matches)]
        ids: list[str] = []
        for start in range(0, matches, parallel):
            batch = []
            for game_name, raw in games[start:start + parallel]:
                created = await svc.create_match(game_name, {**raw, "deals": 1}, seats)
                await svc.start(created.match_id)
                batch.append(created.match_id)
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                states = [await svc.load(m) for m in batch]
                if all(s.status == "finished" for s in states):
                    break
                await asyncio.sleep(0.2)
            ids += batch
        for match_id in ids:
            rows = await pool.fetch("SELECT stream_version, type, recorded_at, tx_id FROM events "
                                    "WHERE stream_id = $1 ORDER BY stream_version", f"match-{match_id}")
            first_of_tx: dict[int, str] = {}
            for row in rows:
                first_of_tx.setdefault(row["tx_id"], row["type"])
            action = rules.ActionTaken.__struct_config__.tag
            for before, row in zip(rows, rows[1:]):
                if row["type"] == action and before["stream_version"] > 1:
                    gap = (row["recorded_at"] - before["recorded_at"]).total_seconds()
                    gaps.append(gap)
                    by_bot = first_of_tx[before["tx_id"]] == action
                    split["after_a_bot" if by_bot else "after_another_process"].append(gap)
    finally:
        os.killpg(worker.pid, 15)
        worker.wait(15)
        stop.set()
        await asyncio.wait_for(projector, 10)
        await asyncio.to_thread(sends.close)
        app.close()
        await pool.close()
        async for key in redis.scan_iter(match=f"{prefix}*"):
            await redis.unlink(key)
        await redis.aclose()
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()
    return {**figures(gaps), "matches": matches, "parallel": parallel,
            **{k: figures(v) for k, v in split.items() if v}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default=",".join(GAMES), help=f"of {', '.join(GAMES)}")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", default=None, help="file rewritten with the JSON after every task")
    parser.add_argument("--rates-basic", type=int, default=400, help="deals per game, four basic bots")
    parser.add_argument("--rates-expert", type=int, default=150, help="deals per game, four experts")
    parser.add_argument("--duel-boards", type=int, default=300, help="expert-basic boards per game")
    parser.add_argument("--ladder-boards", type=int, default=100, help="basic-random boards per game")
    parser.add_argument("--bound-boards", type=int, default=100, help="bound-basic boards per game")
    parser.add_argument("--worlds", type=int, default=None,
                        help="strength figures with the expert at this many worlds and no time budget, so a loaded "
                             "machine does not weaken it (decision times always use the default budget)")
    parser.add_argument("--decision-deals", type=int, default=4, help="deals of four experts per game, one core")
    parser.add_argument("--rates-master", type=int, default=0, help="deals per game, four masters")
    parser.add_argument("--master-duel-boards", type=int, default=0, help="master-expert boards per game")
    parser.add_argument("--master-bound-boards", type=int, default=0,
                        help="boards per game of the master's solved-play bound and master-basic")
    parser.add_argument("--decision-level", default="expert", choices=["expert", "master"])
    parser.add_argument("--from-board", type=int, default=0,
                        help="the first board (deal) of every sample, the sizes its end: extends an earlier run")
    parser.add_argument("--matches", type=int, default=12, help="one-deal matches of four random bots (dispatch)")
    parser.add_argument("--parallel", type=int, default=4, help="matches played at once (dispatch)")
    parser.add_argument("--database-url", default=os.environ.get("ATOUT_DATABASE_URL")
                        or "postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--redis-url", default=os.environ.get("ATOUT_REDIS_URL") or "redis://127.0.0.1:6379/0")
    parser.add_argument("--skip-figures", action="store_true", help="only the dispatch")
    parser.add_argument("--skip-dispatch", action="store_true")
    args = parser.parse_args()
    FIRST[0] = args.from_board
    games = [g for g in args.games.split(",") if g]
    unknown = [g for g in games if g not in GAMES]
    if unknown:
        parser.error(f"unknown games {unknown}; games are {', '.join(GAMES)}")
    sizes = {"rates_basic": args.rates_basic, "rates_expert": args.rates_expert, "duel_boards": args.duel_boards,
             "ladder_boards": args.ladder_boards, "bound_boards": min(args.bound_boards, args.duel_boards),
             "decision_deals": args.decision_deals, "rates_master": args.rates_master,
             "master_duel_boards": args.master_duel_boards, "master_bound_boards": args.master_bound_boards}
    if args.worlds is not None:
        EXPERT_SETTINGS.update({"budget": None, "worlds": args.worlds})
    out: dict[str, Any] = {"cpus": os.cpu_count()}
    report = None
    if not args.skip_figures:
        report = run_figures(games, sizes, args.jobs, args.out, args.decision_level)
        out = report.json()
    if not args.skip_dispatch:
        out["dispatch"] = asyncio.run(dispatch(args.database_url, args.redis_url, args.matches, args.parallel))
        if report is not None:
            report.extra["dispatch"] = out["dispatch"]
            report.write()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
