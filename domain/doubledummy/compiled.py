"""The compiled search driven from Python: a table's facts as int64 arrays, the
transposition table, and the `make_search` twin of `search.make_search`.

The transposition table is a fixed open array shared by every solve of the process: an entry
carries the number of the search that wrote it, so a new search starts on an empty table
without clearing it (one search at a time: `domain.doubledummy.ONE_SOLVE`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from domain.doubledummy.budget import LIMIT, OutOfNodes
from domain.doubledummy.kernel import (
    ABORTED,
    ALPHA,
    BASE,
    BETA,
    CAPOT,
    CARD,
    DIFF,
    FIELDS,
    FLAGS,
    JOKER,
    LAST,
    LED,
    LEFT,
    MAX_CARDS,
    MAX_DEPTH,
    MAX_MOVES,
    NPLAYED,
    PLAYERS,
    PTS,
    REM,
    RESTRICT,
    RULE,
    RULES,
    SEARCHES,
    SEAT,
    STOP,
    STOP_VALUE,
    TMASK,
    TRUMP,
    TT_BITS,
    WC,
    WK,
    WS,
    run,
)
from domain.doubledummy.table import Position, Table

_TT: list[np.ndarray] = []           # made at the first solve (2 MB)
_MOVES = np.zeros((MAX_DEPTH, MAX_MOVES), np.int64)
_PRIO = np.zeros((MAX_DEPTH, MAX_MOVES), np.int64)
_FRAMES = np.zeros((MAX_DEPTH, FIELDS), np.int64)
_ARRAYS: dict[int, tuple] = {}
_GEN = [0]


def _arrays(t: Table) -> tuple:
    """The table's facts as int64 arrays, once per table (tables are cached by their game)."""
    got = _ARRAYS.get(id(t))
    if got is not None and got[0] is t:
        return got
    n = len(t.codes)
    if n > MAX_CARDS:
        raise ValueError(f"a deck of {n} cards: the transposition table's keys hold {MAX_CARDS}")
    rank = [0] * n
    for c in range(1, n):
        rank[c] = rank[c - 1] + 1 if t.suit[c] == t.suit[c - 1] else 0
    run = [0] * n
    for c in range(1, n):
        same = t.suit[c] == t.suit[c - 1] and t.points[c] == t.points[c - 1] and t.bonus[c] == t.bonus[c - 1]
        run[c] = run[c - 1] if same else c
    tab = np.array([t.suit, t.bonus, t.points, rank, run], np.int64)
    params = np.zeros(10, np.int64)
    params[TRUMP], params[RULE], params[PLAYERS] = t.trump, RULES[t.rule], t.players
    params[DIFF], params[BASE] = t.mode == "diff", t.trick_base
    params[LAST], params[CAPOT], params[STOP], params[JOKER] = t.last_bonus, t.capot_bonus, t.stop_seat, t.joker
    spans: dict[int, int] = {}
    for c in range(n):
        spans[run[c]] = spans.get(run[c], 0) | (1 << c)
    runs = np.array([m for m in spans.values() if m & (m - 1)], np.int64)
    got = (t, tab, np.array(t.suit_mask, np.int64), runs, np.array(t.nxt, np.int64), params)
    _ARRAYS[id(t)] = got
    return got


def _table(bits: int = TT_BITS) -> np.ndarray:
    """The transposition table: `2**bits` rows of eight words, each row one 64-byte cache line
    holding a bucket of two entries (`kernel.py` lays them out), so a probe reads one line.
    2 MB: a search's entries stay in the processor's second-level cache or near it, where a
    table eight times larger sent a third of the probes to memory."""
    rows = 1 << bits
    buf = np.zeros(rows * 8 + 8, np.int64)
    skip = (-buf.ctypes.data % 64) // 8
    return buf[skip:skip + rows * 8].reshape(rows, 8)


def make_search(t: Table, mine: tuple[bool, ...]) -> tuple[Any, None]:
    """The compiled twin of `search.make_search`: a search for the side `mine` with its own
    (numbered) share of the transposition table."""
    _, tab, sm, runs, nxt, base_params = _arrays(t)
    params = base_params.copy()
    if t.stop_seat >= 0:
        params[STOP_VALUE] = -1 if mine[t.stop_seat] else 1
    mine_a = np.array([1 if m else 0 for m in mine], np.int64)
    if not _TT:
        _TT.append(_table())
    tt = _TT[0]
    _GEN[0] = _GEN[0] % (SEARCHES - 1) + 1
    if _GEN[0] == 1:
        # an entry keeps 24 bits of its search's number: where the numbers start again, no
        # entry of an earlier search may pass for this one's
        tt[:] = 0
    gen = _GEN[0]

    def search(pos: Position, alpha: int, beta: int, restrict: int = -1) -> int:
        hands = np.array(pos.hands, np.int64)
        win_seat, win_key, win_card, pts, tmask = -1, -1, -1, 0, 0
        for s, c in pos.plays:
            b = t.bonus[c]
            k = c + b if b else (c if t.suit[c] == pos.led else -1)
            if k > win_key:
                win_seat, win_key, win_card = s, k, c
            pts += t.points[c]
            tmask |= 1 << c
        fr = _FRAMES
        fr[0, SEAT] = t.nxt[pos.plays[-1][0]] if pos.plays else pos.leader
        fr[0, NPLAYED], fr[0, LED] = len(pos.plays), pos.led
        fr[0, WS], fr[0, WK], fr[0, WC] = win_seat, win_key, win_card
        fr[0, PTS], fr[0, TMASK], fr[0, FLAGS], fr[0, LEFT] = pts, tmask, pos.flags, pos.tricks_left
        fr[0, ALPHA], fr[0, BETA], fr[0, RESTRICT], fr[0, CARD] = alpha, beta, restrict, -1
        every = pos.hands[0] | pos.hands[1] | pos.hands[2] | pos.hands[3]
        fr[0, REM] = sum(t.points[c] for c in range(len(t.codes)) if every >> c & 1)
        v = int(run(hands, np.array(pos.voids, np.int64), fr, tab, sm, runs, nxt, mine_a, params, _MOVES, _PRIO,
                    tt, gen, LIMIT[0]))
        if v == ABORTED:
            raise OutOfNodes
        return v

    return search, None


def visited() -> int:
    """The nodes every compiled search of the process has visited (the kernel's counter)."""
    return int(_FRAMES[-1, 0])
