"""The search of `search.py` compiled by numba: the same alpha-beta, the same table of bounds
at trick starts, the same move order, on int64 arrays instead of Python objects, because a
pure-Python node costs about 10 µs and a whole deal needs 10^4 to 10^6 of them
(docs/doubledummy.md). Compiled once per machine and cached beside this file (`cache=True`).

The transposition table is a fixed open array shared by every solve of the process: an entry
carries the number of the search that wrote it, so a new search starts on an empty table
without clearing it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

INF = 1 << 20
# params: one contract of one game, as `Table` describes it
TRUMP, RULE, PLAYERS, DIFF, BASE, LAST, CAPOT, STOP, JOKER, STOP_VALUE = range(10)
FOLLOW, CINCH, BELOTE, BELOTE_HOUSE = range(4)
RULES = {"follow": FOLLOW, "cinch": CINCH, "belote": BELOTE, "belote_house": BELOTE_HOUSE}
# tab rows: per card
SUIT, BONUS, POINTS, RANK, RUN = range(5)
TT_BITS = 20
MAX_DEPTH = 48
MAX_MOVES = 16


@njit(cache=True)
def _legal(hand: int, led: int, win_seat: int, win_card: int, partner: int, tab: np.ndarray,
           sm: np.ndarray, trump: int, rule: int) -> int:
    if led < 0:
        return hand
    follow = hand & sm[led]
    if rule == FOLLOW or trump < 0:
        return follow if follow else hand
    if rule == CINCH:
        if led == trump:
            return follow if follow else hand
        return (hand & (follow | sm[trump])) if follow else hand
    top = win_card if tab[SUIT, win_card] == trump else -1
    if follow:
        if led != trump:
            return follow
        over = follow & ~((2 << top) - 1)
        return over if over else follow
    if led == trump or win_seat == partner:
        return hand
    trumps = hand & sm[trump]
    if not trumps:
        return hand
    if top < 0:
        return trumps
    over = trumps & ~((2 << top) - 1)
    if over:
        return over
    return trumps if rule == BELOTE_HOUSE else hand


@njit(cache=True)
def _slot(h0: int, h1: int, h2: int, h3: int, meta: int, mask: int) -> int:
    x = h0 * 0x2545F4914F6CDD1D
    x ^= h1 * 0x27BB2EE687B0B0FD + (x >> 31)
    x ^= h2 * 0x1B873593 + (x >> 29)
    x ^= h3 * 0x5851F42D4C957F2D + (x >> 27)
    x ^= meta * 0x14057B7EF767814F + (x >> 33)
    return (x ^ (x >> 32)) & mask


@njit(cache=True)
def _canon_pos(c: int, every: int, tab: np.ndarray) -> int:
    """Where `c` sits once the cards still out of its run are packed to the run's bottom."""
    start = tab[RUN, c]
    p = start
    for x in range(start, c):
        if (every >> x) & 1:
            p += 1
    return p


# frame fields: one row per ply of the explicit stack (numba cannot cache a recursive function)
(SEAT, NPLAYED, LED, WS, WK, WC, PTS, TMASK, FLAGS, LEFT, ALPHA, BETA, A0, B0, SLOT, META, HAVE, OLD_LO,
 OLD_HI, BEST, BESTC, I, N, NAMED, LAST_NAMED, HAND, SHOWN, GAIN, RESTRICT, CARD, REM, K0, K1, K2, K3) = range(35)
FIELDS = 35
ENTER, NEXT, RETURN, CHILD_DONE = range(4)


@njit(cache=True)
def run(hands: np.ndarray, voids: np.ndarray, fr: np.ndarray, tab: np.ndarray, sm: np.ndarray, nxt: np.ndarray,
        mine: np.ndarray, params: np.ndarray, moves: np.ndarray, prio: np.ndarray, tt_keys: np.ndarray,
        tt_vals: np.ndarray, gen: int) -> int:
    """Alpha-beta from the position in frame 0 (`search.py`'s `node`, unrolled onto `fr`)."""
    joker = params[JOKER]
    players = params[PLAYERS]
    stop = params[STOP]
    diff = params[DIFF] == 1
    ncards = tab.shape[1]
    mask = tt_keys.shape[0] - 1
    last_row = fr.shape[0] - 1          # its first field counts the nodes visited (benchmarks read it)
    d = 0
    v = 0
    state = ENTER
    while True:
        if state == ENTER:
            fr[last_row, 0] += 1
            seat = fr[d, SEAT]
            nplayed = fr[d, NPLAYED]
            led = fr[d, LED]
            alpha = fr[d, ALPHA]
            beta = fr[d, BETA]
            if nplayed == 0 and fr[d, LEFT] == 0:
                v = 0
                state = RETURN
                continue
            if nplayed == 0 and fr[d, LEFT] == 1:
                # the last trick: one card each, nothing to choose
                s = seat
                p = 0
                ws = -1
                wk = -1
                first_suit = -1
                for j in range(players):
                    h = hands[s]
                    c = 0
                    while not (h >> c) & 1:
                        c += 1
                    if j == 0:
                        first_suit = tab[SUIT, c]
                    b = tab[BONUS, c]
                    k = c + b if b else (c if tab[SUIT, c] == first_suit else -1)
                    if k > wk:
                        ws = s
                        wk = k
                    p += tab[POINTS, c]
                    s = nxt[s]
                if stop >= 0:
                    v = params[STOP_VALUE] if ws == stop else 0
                elif diff:
                    p += params[CAPOT] if (fr[d, FLAGS] | (1 if mine[ws] == 1 else 2)) != 3 else params[LAST]
                    v = p if mine[ws] == 1 else -p
                else:
                    v = p + params[BASE] if mine[ws] == 1 else 0
                state = RETURN
                continue
            fr[d, SLOT] = -1
            fr[d, HAVE] = 0
            best_first = -1
            if nplayed == 0:
                # what the rest can still be worth at most, either way: it settles many probes
                rem = fr[d, REM]
                if stop >= 0:
                    upper = max(0, params[STOP_VALUE])
                    lower = min(0, params[STOP_VALUE])
                elif diff:
                    flags = fr[d, FLAGS]
                    upper = rem + (params[CAPOT] if flags != 3 and flags != 2 else params[LAST])
                    lower = -rem - (params[CAPOT] if flags != 3 and flags != 1 else params[LAST])
                else:
                    upper = rem + params[BASE] * fr[d, LEFT]
                    lower = 0
                if upper <= alpha:
                    v = upper
                    state = RETURN
                    continue
                if lower >= beta:
                    v = lower
                    state = RETURN
                    continue
            if nplayed == 0 and fr[d, RESTRICT] == -1:
                jv = 0
                if joker >= 0:
                    for s in range(4):
                        if (hands[s] >> joker) & 1:
                            jv = voids[s] + 16 * s
                # the key: each run of touching equal-point cards packed to its bottom, owners kept in
                # order, so deals differing only in which small cards are gone share their entries
                k0 = 0
                k1 = 0
                k2 = 0
                k3 = 0
                every = hands[0] | hands[1] | hands[2] | hands[3]
                p = -1
                run = -1
                for c in range(ncards):
                    if not (every >> c) & 1:
                        continue
                    if tab[RUN, c] != run:
                        run = tab[RUN, c]
                        p = run
                    bit = 1 << p
                    if (hands[0] >> c) & 1:
                        k0 |= bit
                    elif (hands[1] >> c) & 1:
                        k1 |= bit
                    elif (hands[2] >> c) & 1:
                        k2 |= bit
                    else:
                        k3 |= bit
                    p += 1
                fr[d, K0] = k0
                fr[d, K1] = k1
                fr[d, K2] = k2
                fr[d, K3] = k3
                meta = seat | (fr[d, FLAGS] << 2) | (jv << 4) | (gen << 12)
                slot = _slot(k0, k1, k2, k3, meta, mask)
                fr[d, SLOT] = slot
                fr[d, META] = meta
                if (tt_keys[slot, 4] == meta and tt_keys[slot, 0] == k0 and tt_keys[slot, 1] == k1
                        and tt_keys[slot, 2] == k2 and tt_keys[slot, 3] == k3):
                    lo = tt_vals[slot, 0]
                    hi = tt_vals[slot, 1]
                    fr[d, HAVE] = 1
                    fr[d, OLD_LO] = lo
                    fr[d, OLD_HI] = hi
                    best_first = tt_vals[slot, 2]
                    if lo >= beta:
                        v = lo
                        state = RETURN
                        continue
                    if hi <= alpha:
                        v = hi
                        state = RETURN
                        continue
                    if lo > alpha:
                        alpha = lo
                    if hi < beta:
                        beta = hi
            fr[d, ALPHA] = alpha
            fr[d, BETA] = beta
            fr[d, A0] = alpha
            fr[d, B0] = beta
            hand = hands[seat]
            fr[d, HAND] = hand
            win_seat = fr[d, WS]
            win_key = fr[d, WK]
            legal = _legal(hand, led, win_seat, fr[d, WC], (seat + 2) % 4, tab, sm, params[TRUMP],
                           params[RULE]) & fr[d, RESTRICT]
            others = ((hands[0] | hands[1] | hands[2] | hands[3]) & ~hand) | fr[d, TMASK]
            friend = win_seat >= 0 and mine[win_seat] == mine[seat]
            n = 0
            prev = -1
            for c in range(ncards):
                if not (legal >> c) & 1:
                    continue
                if (prev >= 0 and tab[SUIT, prev] == tab[SUIT, c] and tab[POINTS, prev] == tab[POINTS, c]
                        and not others & ((1 << c) - (2 << prev))):
                    prev = c
                    continue
                prev = c
                b = tab[BONUS, c]
                if nplayed == 0:
                    master = not (others & sm[tab[SUIT, c]] & ~((2 << c) - 1))
                    pr = (2000 if master and (b or tab[POINTS, c]) else 0) + b + tab[RANK, c] * 8 + tab[POINTS, c]
                else:
                    k = c + b if b else (c if tab[SUIT, c] == led else -1)
                    if k > win_key:
                        pr = (100 + tab[POINTS, c] - 2 * k) if friend else (1000 - k + tab[POINTS, c])
                    else:
                        pr = (200 + 4 * tab[POINTS, c]) if friend else (-4 * tab[POINTS, c] - tab[RANK, c])
                if best_first >= 0 and _canon_pos(c, others | hand, tab) == best_first:
                    pr = 1 << 30
                j = n
                while j > 0 and prio[d, j - 1] < pr:
                    prio[d, j] = prio[d, j - 1]
                    moves[d, j] = moves[d, j - 1]
                    j -= 1
                prio[d, j] = pr
                moves[d, j] = c
                n += 1
            fr[d, N] = n
            fr[d, I] = -1
            fr[d, NAMED] = 1
            fr[d, LAST_NAMED] = 0
            fr[d, BEST] = -INF if mine[seat] == 1 else INF
            fr[d, BESTC] = -1
            state = NEXT
        elif state == NEXT:
            seat = fr[d, SEAT]
            nplayed = fr[d, NPLAYED]
            done = fr[d, ALPHA] >= fr[d, BETA]
            named = fr[d, NAMED] + 1
            c = fr[d, CARD]
            while not done:
                if named > fr[d, LAST_NAMED]:
                    i = fr[d, I] + 1
                    if i >= fr[d, N]:
                        done = True
                        break
                    fr[d, I] = i
                    c = moves[d, i]
                    if nplayed == 0:
                        named = tab[SUIT, c]
                        fr[d, LAST_NAMED] = named
                        if c == joker:
                            named = 0
                            fr[d, LAST_NAMED] = 3
                    else:
                        named = fr[d, LED]
                        fr[d, LAST_NAMED] = named
                if nplayed == 0 and c == joker and voids[seat] != 15 and (voids[seat] >> named) & 1:
                    named += 1
                    continue
                break
            if done:
                if fr[d, ALPHA] >= fr[d, BETA]:
                    if fr[d, I] == 0:
                        fr[last_row, 1 + 3 * (nplayed > 0)] += 1
                    else:
                        fr[last_row, 2 + 3 * (nplayed > 0)] += 1
                else:
                    fr[last_row, 3 + 3 * (nplayed > 0)] += 1
                best = fr[d, BEST]
                slot = fr[d, SLOT]
                if slot >= 0:
                    lo = fr[d, OLD_LO] if fr[d, HAVE] else -INF
                    hi = fr[d, OLD_HI] if fr[d, HAVE] else INF
                    if best <= fr[d, A0]:
                        hi = min(hi, best)
                    elif best >= fr[d, B0]:
                        lo = max(lo, best)
                    else:
                        lo = best
                        hi = best
                    tt_keys[slot, 0] = fr[d, K0]
                    tt_keys[slot, 1] = fr[d, K1]
                    tt_keys[slot, 2] = fr[d, K2]
                    tt_keys[slot, 3] = fr[d, K3]
                    tt_keys[slot, 4] = fr[d, META]
                    tt_vals[slot, 0] = lo
                    tt_vals[slot, 1] = hi
                    best_card = fr[d, BESTC]
                    every = hands[0] | hands[1] | hands[2] | hands[3]
                    tt_vals[slot, 2] = _canon_pos(best_card, every, tab) if best_card >= 0 else -1
                v = best
                state = RETURN
                continue
            fr[d, NAMED] = named
            fr[d, CARD] = c
            b = tab[BONUS, c]
            k = c + b if b else (c if tab[SUIT, c] == named else -1)
            if nplayed == 0 or k > fr[d, WK]:
                ws = seat
                wk = k
                wc = c
            else:
                ws = fr[d, WS]
                wk = fr[d, WK]
                wc = fr[d, WC]
            hands[seat] = fr[d, HAND] ^ (1 << c)
            shown = voids[seat]
            fr[d, SHOWN] = shown
            if nplayed > 0 and tab[SUIT, c] != named:
                voids[seat] = shown | (1 << named)
            p = fr[d, PTS] + tab[POINTS, c]
            e = d + 1
            if nplayed + 1 == players:
                if stop >= 0 and ws == stop:
                    fr[d, GAIN] = 0
                    v = params[STOP_VALUE]
                    state = CHILD_DONE
                    continue
                f = fr[d, FLAGS]
                if diff:
                    f = f | (1 if mine[ws] == 1 else 2)
                    if fr[d, LEFT] == 1:
                        p += params[CAPOT] if f != 3 else params[LAST]
                    gain = p if mine[ws] == 1 else -p
                else:
                    gain = p + params[BASE] if mine[ws] == 1 else 0
                fr[d, GAIN] = gain
                fr[e, SEAT] = ws
                fr[e, NPLAYED] = 0
                fr[e, LED] = -1
                fr[e, WS] = -1
                fr[e, WK] = -1
                fr[e, WC] = -1
                fr[e, PTS] = 0
                fr[e, TMASK] = 0
                fr[e, FLAGS] = f
                fr[e, REM] = fr[d, REM] - tab[POINTS, c]
                fr[e, LEFT] = fr[d, LEFT] - 1
                fr[e, ALPHA] = fr[d, ALPHA] - gain
                fr[e, BETA] = fr[d, BETA] - gain
            else:
                fr[d, GAIN] = 0
                fr[e, SEAT] = nxt[seat]
                fr[e, NPLAYED] = nplayed + 1
                fr[e, LED] = named
                fr[e, WS] = ws
                fr[e, WK] = wk
                fr[e, WC] = wc
                fr[e, PTS] = p
                fr[e, TMASK] = fr[d, TMASK] | (1 << c)
                fr[e, FLAGS] = fr[d, FLAGS]
                fr[e, REM] = fr[d, REM] - tab[POINTS, c]
                fr[e, LEFT] = fr[d, LEFT]
                fr[e, ALPHA] = fr[d, ALPHA]
                fr[e, BETA] = fr[d, BETA]
            fr[e, RESTRICT] = -1
            d = e
            state = ENTER
        elif state == RETURN:
            if d == 0:
                return v
            d -= 1
            state = CHILD_DONE
        else:
            seat = fr[d, SEAT]
            v += fr[d, GAIN]
            hands[seat] = fr[d, HAND]
            voids[seat] = fr[d, SHOWN]
            if mine[seat] == 1:
                if v > fr[d, BEST]:
                    fr[d, BEST] = v
                    fr[d, BESTC] = fr[d, CARD]
                    if v > fr[d, ALPHA]:
                        fr[d, ALPHA] = v
            else:
                if v < fr[d, BEST]:
                    fr[d, BEST] = v
                    fr[d, BESTC] = fr[d, CARD]
                    if v < fr[d, BETA]:
                        fr[d, BETA] = v
            state = NEXT


_TT_KEYS = np.zeros((1 << TT_BITS, 5), np.int64)
_TT_VALS = np.zeros((1 << TT_BITS, 3), np.int64)
_MOVES = np.zeros((MAX_DEPTH, MAX_MOVES), np.int64)
_PRIO = np.zeros((MAX_DEPTH, MAX_MOVES), np.int64)
_FRAMES = np.zeros((MAX_DEPTH, FIELDS), np.int64)
_ARRAYS: dict[int, tuple] = {}
_GEN = [0]


def _arrays(t) -> tuple:
    """The table's facts as int64 arrays, once per table (tables are cached by their game)."""
    got = _ARRAYS.get(id(t))
    if got is not None and got[0] is t:
        return got
    n = len(t.codes)
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
    got = (t, tab, np.array(t.suit_mask, np.int64), np.array(t.nxt, np.int64), params)
    _ARRAYS[id(t)] = got
    return got


def make_search(t, mine: tuple[bool, ...]):
    """The compiled twin of `search.make_search`: a search for the side `mine` with its own
    (numbered) share of the transposition table."""
    _, tab, sm, nxt, base_params = _arrays(t)
    params = base_params.copy()
    if t.stop_seat >= 0:
        params[STOP_VALUE] = -1 if mine[t.stop_seat] else 1
    mine_a = np.array([1 if m else 0 for m in mine], np.int64)
    _GEN[0] = (_GEN[0] + 1) % (1 << 40)
    gen = _GEN[0]

    def search(pos, alpha: int, beta: int, restrict: int = -1) -> int:
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
        fr[0, NPLAYED], fr[0, LED], fr[0, WS], fr[0, WK], fr[0, WC] = len(pos.plays), pos.led, win_seat, win_key, win_card
        fr[0, PTS], fr[0, TMASK], fr[0, FLAGS], fr[0, LEFT] = pts, tmask, pos.flags, pos.tricks_left
        fr[0, ALPHA], fr[0, BETA], fr[0, RESTRICT], fr[0, CARD] = alpha, beta, restrict, -1
        every = pos.hands[0] | pos.hands[1] | pos.hands[2] | pos.hands[3]
        fr[0, REM] = sum(t.points[c] for c in range(len(t.codes)) if every >> c & 1)
        return int(run(hands, np.array(pos.voids, np.int64), fr, tab, sm, nxt, mine_a, params, _MOVES, _PRIO,
                       _TT_KEYS, _TT_VALS, gen))

    return search, None
