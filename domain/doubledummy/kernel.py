"""The search compiled by numba, on int64 arrays instead of Python objects, because a
pure-Python node costs about 10 µs and a whole deal needs 10^4 to 10^6 of them. It is
`search.py`'s alpha-beta with what the measurements of docs/doubledummy.md kept on top: keys
with touching equal-point cards packed, bounds from the points still out (narrowed in the
trick game by the tricks each side is sure to take, and within a trick by the points already
on it once its holder cannot be beaten), the last two tricks played out in loops, masters led
first. Compiled once per machine and cached beside this
file (`cache=True`); an explicit stack, because numba cannot cache a recursive function.

Every compiled function is in this one module on purpose: numba's cache checks only the
source file of the function it compiled, so a helper edited in another module would leave a
stale kernel in the cache. `compiled.py` drives it from Python.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

INF = 1 << 20
ABORTED = 1 << 40                   # `run`'s answer when it reached its node limit: no value
# params: one contract of one game, as `Table` describes it
TRUMP, RULE, PLAYERS, DIFF, BASE, LAST, CAPOT, STOP, JOKER, STOP_VALUE = range(10)
FOLLOW, FOLLOW_OR_TRUMP, OVERTRUMP, OVERTRUMP_OR_TRUMP, OVERTAKE = range(5)
RULES = {"follow": FOLLOW, "follow_or_trump": FOLLOW_OR_TRUMP, "overtrump": OVERTRUMP,
         "overtrump_or_trump": OVERTRUMP_OR_TRUMP, "overtake": OVERTAKE}
# tab rows: per card
SUIT, BONUS, POINTS, RANK, RUN = range(5)
# the transposition table: 2^TT_BITS rows of one 64-byte cache line, each a bucket of two
# entries of four words (columns 0-3 and 4-7), the packed hands k0..k3 of a trick start kept
# whole in the first three, so an entry serves its own position only:
#   the cards still out (k0 | k1 | k2 | k3, 52 bits) | meta (seat, capot flags, Joker's voids) << 52
#   the cards of seats 1 and 3 | the search's number, its low 12 bits << 52
#   the cards of seats 2 and 3 | the search's number, its high 12 bits << 52
#   lower bound + INF | upper bound + INF << 22 | best card's place + 1 << 44 | tricks left << 52
# (a card's owner is read off which of the two masks hold it; decks of up to 52 cards)
TT_BITS = 15
BOUND = (1 << 22) - 1
MAX_CARDS = 52
SEARCHES = 1 << 24                  # an entry keeps 24 bits of its search's number
MAX_DEPTH = 48
MAX_MOVES = 16


@njit(cache=True, nogil=True)
def _legal(hand: int, led: int, win_seat: int, win_card: int, partner: int, tab: np.ndarray,
           sm: np.ndarray, trump: int, rule: int) -> int:
    if led < 0:
        return hand
    follow = hand & sm[led]
    if rule == OVERTAKE:
        if not follow:
            return hand
        over = follow & ~((2 << win_card) - 1)
        return over if over else follow
    if rule == FOLLOW or trump < 0:
        return follow if follow else hand
    if rule == FOLLOW_OR_TRUMP:
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
    return trumps if rule == OVERTRUMP_OR_TRUMP else hand


@njit(cache=True, nogil=True)
def _slot(h0: int, h1: int, h2: int, h3: int, meta: int, mask: int) -> int:
    x = h0 * 0x2545F4914F6CDD1D
    x ^= h1 * 0x27BB2EE687B0B0FD + (x >> 31)
    x ^= h2 * 0x1B873593 + (x >> 29)
    x ^= h3 * 0x5851F42D4C957F2D + (x >> 27)
    x ^= meta * 0x14057B7EF767814F + (x >> 33)
    return (x ^ (x >> 32)) & mask


@njit(cache=True, nogil=True)
def _canon_pos(c: int, every: int, tab: np.ndarray) -> int:
    """Where `c` sits once the cards still out of its run are packed to the run's bottom."""
    start = tab[RUN, c]
    p = start
    for x in range(start, c):
        if (every >> x) & 1:
            p += 1
    return p


@intrinsic
def _tz(typingctx, x):
    """The processor's count of trailing zero bits (64 for 0)."""
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))
    return types.int64(types.int64), codegen


@intrinsic
def _lz(typingctx, x):
    """The processor's count of leading zero bits (64 for 0)."""
    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))
    return types.int64(types.int64), codegen


@intrinsic
def _pop(typingctx, x):
    """The processor's count of set bits."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.int64(types.int64), codegen


def host_cpu() -> str:
    """The processor the kernel is compiled for, as LLVM names it (benchmarks print it)."""
    try:
        import llvmlite.binding as llvm

        return str(llvm.get_host_cpu_name())
    except (ImportError, RuntimeError, AttributeError):
        return "unknown"


def _host_has_fast_pext() -> bool:
    """Whether this processor extracts bits in one fast instruction (BMI2's PEXT): x86-64 with
    BMI2, but not AMD's Zen 1 and 2, which run it in microcode (hundreds of cycles). numba
    keys its cache by the processor, so a kernel compiled one way is never loaded on the other;
    a cache built for any processor (`NUMBA_CPU_NAME`) goes without."""
    try:
        import llvmlite.binding as llvm
        from numba.core import config

        if config.CPU_NAME:
            return False
        return bool(llvm.get_host_cpu_features().get("bmi2")) and host_cpu() not in ("znver1", "znver2")
    except (ImportError, RuntimeError, AttributeError):
        return False


FAST_PEXT = _host_has_fast_pext()


def pext_loop(x: int, m: int) -> int:
    """The bits of x where m has ones, packed to the bottom, one bit of m at a time."""
    out = 0
    bit = 1
    while m:
        low = m & -m
        if x & low:
            out |= bit
        bit <<= 1
        m ^= low
    return out


@intrinsic
def _pext(typingctx, x, m):
    """`pext_loop`, as the processor's instruction where it has a fast one (`_packed` calls
    it only then; the loop keeps it sound on any processor)."""
    def codegen(context, builder, signature, args):
        if FAST_PEXT:
            fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
            fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.bmi.pext.64")
            return builder.call(fn, args)
        return context.compile_internal(builder, pext_loop, signature, args)
    return types.int64(types.int64, types.int64), codegen


@njit(cache=True, nogil=True)
def _low(x: int) -> int:
    """The index of the lowest set bit of x (> 0)."""
    return _tz(x)


@njit(cache=True, nogil=True)
def _high(x: int) -> int:
    """The index of the highest set bit of x (> 0)."""
    return 63 - _lz(x)


@njit(cache=True, nogil=True)
def _count(x: int) -> int:
    """The number of set bits of x (>= 0)."""
    return _pop(x)


@njit(cache=True, nogil=True)
def _cash(hands: np.ndarray, seat: int, mine: np.ndarray, tab: np.ndarray, sm: np.ndarray,
          params: np.ndarray) -> tuple:
    """The tricks and points `seat`, on lead, is sure to cash: the masters it holds from the
    top of each suit, a plain suit only as many rounds as every opponent able to ruff it (or
    to play the Joker) must still follow, and its small cards of a suit too once its masters
    have drawn the opponents' cards of it, none of them able to ruff and no partner holding
    one to overtake, nor forced to ruff for want of other cards (every trick counted must
    leave `seat` on lead)."""
    trump = params[TRUMP]
    joker = params[JOKER]
    follow_or_trump = params[RULE] == FOLLOW_OR_TRUMP
    side = mine[seat]
    lead = hands[seat]
    every = hands[0] | hands[1] | hands[2] | hands[3]
    q = 0
    qp = 0
    for s in range(5 if joker >= 0 else 4):
        x = every & sm[s]
        if not x or not (lead >> _high(x)) & 1:
            # without the master, nothing of the suit is sure
            continue
        cap = 99
        longest = 0
        helped = False
        for o in range(4):
            if mine[o] == side:
                # a partner's card of the suit could take the lead from the leader's small cards
                helped = helped or (o != seat and hands[o] & sm[s] != 0)
                continue
            ho = hands[o]
            if not ho:
                continue
            longest = max(longest, _count(ho & sm[s]))
            if s != trump and s != 4 and ((trump >= 0 and ho & sm[trump]) or (joker >= 0 and (ho >> joker) & 1)):
                if follow_or_trump and trump >= 0 and ho & sm[trump]:
                    cap = 0
                else:
                    cap = min(cap, _count(ho & sm[s]))
        k = 0
        while x and k < cap:
            h = _high(x)
            if not (lead >> h) & 1:
                break
            k += 1
            qp += tab[POINTS, h]
            x ^= 1 << h
        q += k
        if cap == 99 and k >= longest and not helped:
            # the opponents are out of the suit and cannot ruff, and no partner can overtake:
            # the leader's small cards of it win too, and keep him on lead
            x &= lead
            while x:
                h = _low(x)
                q += 1
                qp += tab[POINTS, h]
                x &= x - 1
    ruffs = (sm[trump] if trump >= 0 else 0) | ((1 << joker) if joker >= 0 else 0)
    for o in range(4):
        if o != seat and mine[o] == side and hands[o] & ruffs:
            # a partner left with only trumps (or the Joker) must overtake and take the lead:
            # only as many tricks as he has other cards to play are sure
            m = _count(hands[o] & ~ruffs)
            if q > m:
                q = m
                qp = 0
    return q, qp


@njit(cache=True, nogil=True)
def _sure(hands: np.ndarray, seat: int, mine: np.ndarray, tab: np.ndarray, sm: np.ndarray, params: np.ndarray,
          free: bool) -> tuple:
    """At a trick's start, tricks and points each side is sure to take, whatever the other
    does: (tricks, points) for the side on lead, then for the other side.

    The side on lead: its leader cashes the masters it holds from the top of each suit, a
    plain suit only as many rounds as every opponent able to ruff it (or to play the Joker)
    must still follow; or it holds the top trumps. The other side: the top trumps one of its
    seats holds (or the no-trump Joker). A run of top trumps held by one seat wins a trick
    each, however the play goes: only its own cards beat them. Points counted are those of
    the sure winners alone. The leader's cashing counts only when his lead is `free` (not
    restricted to one card by the caller)."""
    trump = params[TRUMP]
    joker = params[JOKER]
    side = mine[seat]
    every = hands[0] | hands[1] | hands[2] | hands[3]
    q = 0
    qp = 0
    if free:
        q, qp = _cash(hands, seat, mine, tab, sm, params)
        partner = (seat + 2) % 4
        if params[PLAYERS] == 4 and mine[partner] == side and hands[partner]:
            # or a card led to a master of the partner's, who then cashes his own
            entry = False
            for s in range(4):
                x = every & sm[s]
                if not x or not hands[seat] & x or not (hands[partner] >> _high(x)) & 1:
                    continue
                entry = True
                if s != trump:
                    for o in range(4):
                        ho = hands[o]
                        if mine[o] != side and not ho & x and ((trump >= 0 and ho & sm[trump])
                                                               or (joker >= 0 and (ho >> joker) & 1)):
                            entry = False
                        if (mine[o] != side and params[RULE] == FOLLOW_OR_TRUMP and trump >= 0
                                and ho & sm[trump]):
                            entry = False
                if entry:
                    break
            if entry:
                q2, qp2 = _cash(hands, partner, mine, tab, sm, params)
                q = max(q, q2)
                qp = max(qp, qp2)
    ra = 0
    rap = 0
    rb = 0
    rbp = 0
    top = -1
    if trump >= 0:
        x = every & sm[trump]
        if x:
            top = _high(x)
    elif joker >= 0 and (every >> joker) & 1:
        top = joker
        x = 1 << joker
    if top >= 0:
        holder = 0
        for o in range(4):
            if (hands[o] >> top) & 1:
                holder = o
        ho = hands[holder]
        r = 0
        rp = 0
        while x:
            h = _high(x)
            if not (ho >> h) & 1:
                break
            r += 1
            rp += tab[POINTS, h]
            x ^= 1 << h
        if mine[holder] == side:
            ra = r
            rap = rp
        else:
            rb = r
            rbp = rp
    return max(q, ra), max(qp, rap), rb, rbp


@njit(cache=True, nogil=True)
def _packed(h0: int, h1: int, h2: int, h3: int, runs: np.ndarray) -> tuple:
    """The hands with each run of touching equal-point cards packed to its bottom, owners kept
    in order: deals differing only in which small cards are gone share their entries. Only
    the runs of two cards or more (`runs`, their masks) can move, and only once a card below
    another of the run is gone; then each hand's cards of the run are extracted at the run's
    cards still out (`_pext`), or, without a fast instruction, dealt back one at a time."""
    every = h0 | h1 | h2 | h3
    for r in range(runs.shape[0]):
        m = runs[r]
        e = every & m
        start = _low(m)
        low = e >> start
        if low & (low + 1) == 0:
            continue                    # what is left of the run sits at its bottom already
        if FAST_PEXT:
            h0 = (h0 & ~m) | (_pext(h0, e) << start)
            h1 = (h1 & ~m) | (_pext(h1, e) << start)
            h2 = (h2 & ~m) | (_pext(h2, e) << start)
            h3 = (h3 & ~m) | (_pext(h3, e) << start)
            continue
        # one card still out at a time, to its owner (no fast instruction)
        k0 = h0 & ~m
        k1 = h1 & ~m
        k2 = h2 & ~m
        k3 = h3 & ~m
        p = start
        while e:
            c = _low(e)
            e &= e - 1
            bit = 1 << p
            if (h0 >> c) & 1:
                k0 |= bit
            elif (h1 >> c) & 1:
                k1 |= bit
            elif (h2 >> c) & 1:
                k2 |= bit
            else:
                k3 |= bit
            p += 1
        h0, h1, h2, h3 = k0, k1, k2, k3
    return h0, h1, h2, h3


@njit(cache=True, nogil=True)
def _ruffed(hands: np.ndarray, seat: int, suit: int, nxt: np.ndarray, trumps: int) -> bool:
    """Whether an opponent of `seat` (a partnership game), void in the suit (`suit`, its mask),
    holds a trump (`trumps`, their mask) to ruff a lead of it."""
    for o in (nxt[seat], nxt[nxt[nxt[seat]]]):
        if not hands[o] & suit and hands[o] & trumps:
            return True
    return False


# frame fields: one row per ply of the explicit stack (numba cannot cache a recursive function);
# unsigned, so that an offset made of them needs no fix for a negative index
(SEAT, NPLAYED, LED, WS, WK, WC, PTS, TMASK, FLAGS, LEFT, ALPHA, BETA, A0, B0, SLOT, HAVE, OLD_LO,
 OLD_HI, BEST, BESTC, I, N, NAMED, LAST_NAMED, HAND, SHOWN, GAIN, RESTRICT, CARD, REM, K0, K1, K2) = (
    np.uint64(x) for x in range(33))
FIELDS = 33
UFIELDS = np.uint64(FIELDS)
ENTER, NEXT, RETURN, CHILD_DONE = range(4)


@njit(cache=True, nogil=True)
def _last(hands: np.ndarray, seat: int, flags: int, tab: np.ndarray, nxt: np.ndarray, mine: np.ndarray,
          params: np.ndarray) -> int:
    """The last trick's value, `seat` to lead: one card each, nothing to choose."""
    s = seat
    p = 0
    ws = -1
    wk = -1
    first_suit = -1
    for j in range(params[PLAYERS]):
        c = _low(hands[s])
        if j == 0:
            first_suit = tab[SUIT, c]
        ws, wk, _ = _taken(c, s, first_suit, ws, wk, -1, tab)
        p += tab[POINTS, c]
        s = nxt[s]
    if params[STOP] >= 0:
        return params[STOP_VALUE] if ws == params[STOP] else 0
    if params[DIFF] == 1:
        p += params[CAPOT] if (flags | (1 if mine[ws] == 1 else 2)) != 3 else params[LAST]
        return p if mine[ws] == 1 else -p
    return p + params[BASE] if mine[ws] == 1 else 0


@njit(cache=True, nogil=True)
def _taken(c: int, seat: int, led: int, win_seat: int, win_key: int, win_card: int, tab: np.ndarray) -> tuple:
    """Who holds the trick once `seat` has played `c` (seat, key, card): a trump beats by its
    bonus, a card of the suit led by its index, anything else never."""
    b = tab[BONUS, c]
    k = c + b if b else (c if tab[SUIT, c] == led else -1)
    return (seat, k, c) if k > win_key else (win_seat, win_key, win_card)


@njit(cache=True, nogil=True)
def _worst(maximizer: int) -> int:
    """Where a seat's choice starts: below every value for the side, above every one for the other."""
    return -INF if maximizer == 1 else INF


@njit(cache=True, nogil=True)
def _chosen(best: int, v: int, maximizer: int) -> int:
    """The better of two values for the seat's side."""
    return max(best, v) if maximizer == 1 else min(best, v)


@njit(cache=True, nogil=True)
def _settled(best: int, maximizer: int, alpha: int, beta: int) -> bool:
    """Whether the seat's best so far already answers the window: no other card need be tried."""
    return best >= beta if maximizer == 1 else best <= alpha


@njit(cache=True, nogil=True)
def _two_tricks(hands: np.ndarray, seat: int, flags: int, tab: np.ndarray, sm: np.ndarray, nxt: np.ndarray,
                mine: np.ndarray, params: np.ndarray, alpha: int, beta: int, shown: int) -> int:
    """The value of the last two tricks, `seat` to lead and four seats holding two cards each,
    fail-soft within (alpha, beta): each line of the first played out in loops (a led
    no-trump Joker once for each suit it may name, those its holder has not `shown` void in),
    the last trick forced, each seat choosing for its side. A third of Belote's nodes
    lay in these two tricks, each a frame of the explicit stack; the loops cost less than the
    frames they replace (docs/doubledummy.md). `hands` is left as it was given."""
    tr = params[TRUMP]
    rule = params[RULE]
    diff = params[DIFF] == 1
    s0 = seat
    s1 = nxt[s0]
    s2 = nxt[s1]
    s3 = nxt[s2]
    h0 = hands[s0]
    h1 = hands[s1]
    h2 = hands[s2]
    h3 = hands[s3]
    best0 = _worst(mine[s0])
    joker = params[JOKER]
    x0 = h0
    c0 = -1
    names = 0
    while names or x0:
        if not names:
            c0 = _high(x0)
            x0 ^= 1 << c0
            # the suits the lead may be of: a no-trump Joker's, each its holder has not shown
            # void in (any, once he has shown void in all four)
            names = (15 if shown == 15 else 15 & ~shown) if c0 == joker else 1 << tab[SUIT, c0]
        led = _low(names)
        names &= names - 1
        k0 = _taken(c0, s0, led, -1, -1, -1, tab)[1]
        best1 = _worst(mine[s1])
        x1 = _legal(h1, led, s0, c0, (s1 + 2) % 4, tab, sm, tr, rule)
        while x1:
            c1 = _low(x1)
            x1 &= x1 - 1
            ws1, wk1, wc1 = _taken(c1, s1, led, s0, k0, c0, tab)
            best2 = _worst(mine[s2])
            x2 = _legal(h2, led, ws1, wc1, (s2 + 2) % 4, tab, sm, tr, rule)
            while x2:
                c2 = _low(x2)
                x2 &= x2 - 1
                ws2, wk2, wc2 = _taken(c2, s2, led, ws1, wk1, wc1, tab)
                best3 = _worst(mine[s3])
                x3 = _legal(h3, led, ws2, wc2, (s3 + 2) % 4, tab, sm, tr, rule)
                while x3:
                    c3 = _low(x3)
                    x3 &= x3 - 1
                    ws = _taken(c3, s3, led, ws2, wk2, wc2, tab)[0]
                    p = tab[POINTS, c0] + tab[POINTS, c1] + tab[POINTS, c2] + tab[POINTS, c3]
                    if diff:
                        gain = p if mine[ws] == 1 else -p
                        f = flags | (1 if mine[ws] == 1 else 2)
                    else:
                        gain = p + params[BASE] if mine[ws] == 1 else 0
                        f = flags
                    hands[s0] = h0 ^ (1 << c0)
                    hands[s1] = h1 ^ (1 << c1)
                    hands[s2] = h2 ^ (1 << c2)
                    hands[s3] = h3 ^ (1 << c3)
                    v = gain + _last(hands, ws, f, tab, nxt, mine, params)
                    best3 = _chosen(best3, v, mine[s3])
                    if _settled(best3, mine[s3], alpha, beta):
                        break
                best2 = _chosen(best2, best3, mine[s2])
                if _settled(best2, mine[s2], alpha, beta):
                    break
            best1 = _chosen(best1, best2, mine[s1])
            if _settled(best1, mine[s1], alpha, beta):
                break
        best0 = _chosen(best0, best1, mine[s0])
        if _settled(best0, mine[s0], alpha, beta):
            break
    hands[s0] = h0
    hands[s1] = h1
    hands[s2] = h2
    hands[s3] = h3
    return best0


@njit(cache=True, nogil=True)
def _search_of(w1: int, w2: int) -> int:
    """The number of the search that wrote an entry, from its second and third words."""
    return (w1 >> 52 & 0xFFF) | (w2 >> 52 & 0xFFF) << 12


@njit(cache=True, nogil=True)
def _keep(tt: np.ndarray, fr: np.ndarray, d: int, v: int, a0: int, b0: int, best: int) -> None:
    """Writes the value `v` of the trick start in frame `d`, searched within (a0, b0), to its
    table entry: an upper bound where it fell at or below the window, a lower one at or above
    it, else the exact value, each narrowing the bounds an earlier probe left there; `best` is
    the best card's place among the cards out (or -1), tried first the next time."""
    slot = fr[d, SLOT]
    way = fr[d, HAVE] - 1
    lo = fr[d, OLD_LO] if way >= 0 else -INF
    hi = fr[d, OLD_HI] if way >= 0 else INF
    if v <= a0:
        hi = min(hi, v)
    elif v >= b0:
        lo = max(lo, v)
    else:
        lo = v
        hi = v
    left = fr[d, LEFT]
    if way < 0:
        # a new entry: the first of the two keeps this search's entry with the most tricks
        # left (the costliest to search again), the second the newest; an older search's
        # entry in the first is simply replaced, not moved over the second
        first = tt[slot, 3]
        ours = _search_of(tt[slot, 1], tt[slot, 2]) == _search_of(fr[d, K1], fr[d, K2])
        way = 1 if ours and first >> 52 > left else 0
        if ours and way == 0:
            tt[slot, 4] = tt[slot, 0]
            tt[slot, 5] = tt[slot, 1]
            tt[slot, 6] = tt[slot, 2]
            tt[slot, 7] = first
    e = 4 * way
    tt[slot, e] = fr[d, K0]
    tt[slot, e + 1] = fr[d, K1]
    tt[slot, e + 2] = fr[d, K2]
    tt[slot, e + 3] = (lo + INF) | ((hi + INF) << 22) | ((best + 1) << 44) | (left << 52)


@njit(cache=True, nogil=True)
def run(hands: np.ndarray, voids: np.ndarray, fr: np.ndarray, tab: np.ndarray, sm: np.ndarray, runs: np.ndarray,
        nxt: np.ndarray, mine: np.ndarray, params: np.ndarray, moves: np.ndarray, prio: np.ndarray,
        tt: np.ndarray, gen: int, limit: int) -> int:
    """Alpha-beta from the position in frame 0 (`search.py`'s `node`, unrolled onto `fr`);
    `ABORTED` rather than visit a node past `limit` on the node counter (nothing unproved is
    left in the table: an entry is written only when its node is done)."""
    joker = params[JOKER]
    players = params[PLAYERS]
    stop = params[STOP]
    diff = params[DIFF] == 1
    mask = tt.shape[0] - 1
    # the frames as one row of words, indexed by unsigned offsets: numba adds no fix for a
    # negative index to those, nor a load of the rows' length
    fw = fr.reshape(fr.size)
    # each seat's side (a bit) and the seat after it (four bits), held in two words rather than read
    # from arrays: the search asks them at every node (written out where asked: small helpers
    # for the two shifts measured 1-5% slower, up to 20% in Cinch)
    side = 0
    after = 0
    for s in range(mine.shape[0]):
        side |= mine[s] << s
    for s in range(nxt.shape[0]):
        after |= nxt[s] << 4 * s
    counter = np.uint64((fr.shape[0] - 1) * FIELDS)     # the last row's first word counts the nodes visited
    d = 0
    at_d = np.uint64(0)                 # where frame d starts in `fw` (and frame e, its child's, in at_e)
    v = 0
    state = ENTER
    while True:
        if state == ENTER:
            if fw[counter] >= limit:
                return ABORTED
            fw[counter] += 1
            seat = fw[at_d + SEAT]
            nplayed = fw[at_d + NPLAYED]
            led = fw[at_d + LED]
            alpha = fw[at_d + ALPHA]
            beta = fw[at_d + BETA]
            if nplayed == 0 and fw[at_d + LEFT] == 0:
                v = 0
                state = RETURN
                continue
            if nplayed == 0 and fw[at_d + LEFT] == 1:
                v = _last(hands, seat, fw[at_d + FLAGS], tab, nxt, mine, params)
                state = RETURN
                continue
            fw[at_d + SLOT] = -1
            fw[at_d + HAVE] = 0
            best_first = -1
            if nplayed == 0:
                # what the rest can still be worth at most, either way: it settles many probes
                rem = fw[at_d + REM]
                if stop >= 0:
                    upper = max(0, params[STOP_VALUE])
                    lower = min(0, params[STOP_VALUE])
                else:
                    ta, pa, tb, pb = 0, 0, 0, 0
                    if params[BASE]:
                        # in a trick game only: in the point games the nodes they save (6-14%
                        # in Belote) cost more than they gain (+25-75% per node)
                        ta, pa, tb, pb = _sure(hands, seat, mine, tab, sm, params, fw[at_d + RESTRICT] == -1)
                    if (side >> seat & 1) == 1:
                        tm, pm, to, po = ta, pa, tb, pb
                    else:
                        tm, pm, to, po = tb, pb, ta, pa
                    if diff:
                        flags = fw[at_d + FLAGS]
                        upper = rem - 2 * po + (params[CAPOT] if flags < 2 and to == 0 else params[LAST])
                        lower = 2 * pm - rem - (params[CAPOT] if flags & 1 == 0 and tm == 0 else params[LAST])
                    else:
                        upper = rem - po + params[BASE] * (fw[at_d + LEFT] - to)
                        lower = pm + params[BASE] * tm
                if upper <= alpha:
                    v = upper
                    state = RETURN
                    continue
                if lower >= beta:
                    v = lower
                    state = RETURN
                    continue
            elif stop < 0:
                # within a trick: the trick's points so far go to the side holding it once no
                # seat of the other side still to play holds a card that could beat its card (what
                # the rules let him play is not asked, so a "no" is sure); the hands are looked at
                # only when those points would settle the window
                holder = side >> fw[at_d + WS] & 1
                rem = fw[at_d + REM]
                pts = fw[at_d + PTS]
                if diff:
                    bound = pts - rem - params[LAST] if holder == 1 else rem - pts + params[LAST]
                else:
                    bound = pts + params[BASE] if holder == 1 else rem + params[BASE] * (fw[at_d + LEFT] - 1)
                if (bound >= beta) if holder == 1 else (bound <= alpha):
                    wc_ = fw[at_d + WC]
                    over = sm[tab[SUIT, wc_]] & ~((2 << wc_) - 1)          # higher in its suit
                    if tab[BONUS, wc_] == 0 and params[TRUMP] >= 0:
                        over |= sm[params[TRUMP]]                          # a trump over a plain card
                    if joker >= 0:
                        over |= 1 << joker
                    beaten = False
                    s = seat
                    for _ in range(players - nplayed):
                        if (side >> s & 1) != holder and hands[s] & over:
                            beaten = True
                            break
                        s = after >> 4 * s & 15
                    if not beaten:
                        v = bound
                        state = RETURN
                        continue
            if nplayed == 0 and fw[at_d + RESTRICT] == -1:
                jv = 0
                if joker >= 0:
                    for s in range(4):
                        if (hands[s] >> joker) & 1:
                            jv = voids[s] + 16 * s
                # the key: each run of touching equal-point cards packed to its bottom, owners kept in
                # order, so deals differing only in which small cards are gone share their entries
                k0, k1, k2, k3 = _packed(hands[0], hands[1], hands[2], hands[3], runs)
                meta = seat | (fw[at_d + FLAGS] << 2) | (jv << 4)
                # the slot leaves out the search's number (the entry's words keep it): an older
                # search's entries are misses either way, and so a position costs the same
                # nodes whatever the process solved before, which a node budget relies on
                slot = _slot(k0, k1, k2, k3, meta, mask)
                key0 = k0 | k1 | k2 | k3 | (meta << 52)
                key1 = k1 | k3 | ((gen & 0xFFF) << 52)
                key2 = k2 | k3 | ((gen >> 12) << 52)
                fw[at_d + SLOT] = slot
                fw[at_d + K0] = key0
                fw[at_d + K1] = key1
                fw[at_d + K2] = key2
                way = -1
                if tt[slot, 0] == key0 and tt[slot, 1] == key1 and tt[slot, 2] == key2:
                    way = 0
                elif tt[slot, 4] == key0 and tt[slot, 5] == key1 and tt[slot, 6] == key2:
                    way = 1
                if way >= 0:
                    w3 = tt[slot, 4 * way + 3]
                    lo = (w3 & BOUND) - INF
                    hi = ((w3 >> 22) & BOUND) - INF
                    fw[at_d + HAVE] = 1 + way
                    fw[at_d + OLD_LO] = lo
                    fw[at_d + OLD_HI] = hi
                    best_first = ((w3 >> 44) & 0xFF) - 1
                    if lo >= beta:
                        v = lo
                        state = RETURN
                        continue
                    if hi <= alpha:
                        v = hi
                        state = RETURN
                        continue
                    if lo == hi:
                        # the exact value, inside the window (a wider window than a probe's)
                        v = lo
                        state = RETURN
                        continue
                    alpha = max(alpha, lo)
                    beta = min(beta, hi)
            if nplayed == 0 and fw[at_d + LEFT] == 2 and stop < 0 and players == 4 \
                    and fw[at_d + RESTRICT] == -1:
                # two tricks left (but in a misère): played out in loops, after the table,
                # whose entries settle many of them, and kept in it
                v = _two_tricks(hands, seat, fw[at_d + FLAGS], tab, sm, nxt, mine, params, alpha, beta, voids[seat])
                _keep(tt, fr, d, v, alpha, beta, -1)
                state = RETURN
                continue
            fw[at_d + ALPHA] = alpha
            fw[at_d + BETA] = beta
            fw[at_d + A0] = alpha
            fw[at_d + B0] = beta
            hand = hands[seat]
            fw[at_d + HAND] = hand
            win_seat = fw[at_d + WS]
            win_key = fw[at_d + WK]
            tr = params[TRUMP]
            trumps = sm[tr] if tr >= 0 else 0
            legal = _legal(hand, led, win_seat, fw[at_d + WC], (seat + 2) % 4, tab, sm, tr,
                           params[RULE]) & fw[at_d + RESTRICT]
            if legal and legal & (legal - 1) == 0:
                # one card to play (a singleton of the suit led, the last trump to over-trump):
                # nothing to order
                moves[d, 0] = _low(legal)
                n = 1
            else:
                every_out = hands[0] | hands[1] | hands[2] | hands[3]
                others = (every_out & ~hand) | fw[at_d + TMASK]
                friend = win_seat >= 0 and (side >> win_seat & 1) == (side >> seat & 1)
                if friend and nplayed + 2 == players:
                    # the partner holds the trick, one opponent still to play: rich cards go on it
                    # only when he cannot beat it
                    ho = hands[after >> 4 * seat & 15]
                    wc_ = fw[at_d + WC]
                    wtrump = tr >= 0 and tab[SUIT, wc_] == tr
                    if ho & sm[led]:
                        if tab[SUIT, wc_] == led and ho & sm[led] & ~((2 << wc_) - 1):
                            friend = False
                    elif ho & trumps & ~(((2 << wc_) - 1) if wtrump else 0):
                        friend = False
                    elif joker >= 0 and (ho >> joker) & 1:
                        friend = False
                n = 0
                prev = -1
                rest = legal
                while rest:
                    c = _low(rest)
                    rest &= rest - 1
                    if (prev >= 0 and tab[SUIT, prev] == tab[SUIT, c] and tab[POINTS, prev] == tab[POINTS, c]
                            and not others & ((1 << c) - (2 << prev))):
                        prev = c
                        continue
                    prev = c
                    b = tab[BONUS, c]
                    suit = tab[SUIT, c]
                    sc = sm[suit]
                    master = not (others & sc & ~((2 << c) - 1))
                    if nplayed == 0:
                        # masters first; then, where a seat may trump at will (Cinch), trumps: they
                        # draw the counting trumps (elsewhere trumps first cost 5-15% more nodes)
                        pr = (2000 if master and (b or tab[POINTS, c] or params[BASE]) else 0) \
                            + (b if params[RULE] == FOLLOW_OR_TRUMP else 0) + tab[RANK, c] * 8 + tab[POINTS, c]
                        if master:
                            if suit == tr:
                                pr -= 500           # the plain masters before the trump masters
                            elif players == 4 and _ruffed(hands, seat, sc, nxt, trumps):
                                pr -= 1000          # and one an opponent can ruff after both
                        elif diff:
                            # Belote: of the other leads, the cheapest first (high first elsewhere)
                            pr = -tab[RANK, c] * 8 - tab[POINTS, c]
                        if not master and players == 4 and suit != tr:
                            partner = hands[(seat + 2) % 4]
                            if (partner >> _high(every_out & sc)) & 1 and not _ruffed(hands, seat, sc, nxt, trumps):
                                # a low card to the partner's master of the suit, unless an opponent may ruff
                                pr = 1500 - tab[RANK, c] * 8 - tab[POINTS, c]
                            if tr >= 0 and params[RULE] != FOLLOW_OR_TRUMP and not partner & sc and partner & trumps:
                                # a low card of a suit the partner can ruff (where a seat may trump at
                                # will, Cinch, a void is no sign: 23% more nodes there)
                                pr = max(pr, 1200 - tab[RANK, c] * 8 - tab[POINTS, c])
                    else:
                        k = c + b if b else (c if suit == led else -1)
                        if k > win_key:
                            pr = (100 + tab[POINTS, c] - 2 * k) if friend else (1000 - k + tab[POINTS, c])
                            if not friend and nplayed + 1 < players and master and tr < 0:
                                pr += 300   # in no-trumps, with a seat still to play, the sure winner first
                        else:
                            pr = (200 + 4 * tab[POINTS, c] if friend else -4 * tab[POINTS, c]) - tab[RANK, c]
                            if suit != led:
                                if master:
                                    pr -= 100       # a discard keeps the masters of other suits
                                if hand & trumps:
                                    # and, with trumps left, shortens a suit towards a void to ruff
                                    pr -= 16 * _count(hand & sc)
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
            fw[at_d + N] = n
            fw[at_d + I] = -1
            fw[at_d + NAMED] = 1
            fw[at_d + LAST_NAMED] = 0
            fw[at_d + BEST] = -INF if (side >> seat & 1) == 1 else INF
            fw[at_d + BESTC] = -1
            state = NEXT
        elif state == NEXT:
            seat = fw[at_d + SEAT]
            nplayed = fw[at_d + NPLAYED]
            done = fw[at_d + ALPHA] >= fw[at_d + BETA]
            named = fw[at_d + NAMED] + 1
            c = fw[at_d + CARD]
            while not done:
                if named > fw[at_d + LAST_NAMED]:
                    i = fw[at_d + I] + 1
                    if i >= fw[at_d + N]:
                        done = True
                        break
                    fw[at_d + I] = i
                    c = moves[d, i]
                    if nplayed == 0:
                        named = tab[SUIT, c]
                        fw[at_d + LAST_NAMED] = named
                        if c == joker:
                            named = 0
                            fw[at_d + LAST_NAMED] = 3
                    else:
                        named = fw[at_d + LED]
                        fw[at_d + LAST_NAMED] = named
                if nplayed == 0 and c == joker and voids[seat] != 15 and (voids[seat] >> named) & 1:
                    named += 1
                    continue
                break
            if done:
                best = fw[at_d + BEST]
                if fw[at_d + SLOT] >= 0:
                    best_card = fw[at_d + BESTC]
                    every = hands[0] | hands[1] | hands[2] | hands[3]
                    _keep(tt, fr, d, best, fw[at_d + A0], fw[at_d + B0],
                          _canon_pos(best_card, every, tab) if best_card >= 0 else -1)
                v = best
                state = RETURN
                continue
            fw[at_d + NAMED] = named
            fw[at_d + CARD] = c
            ws, wk, wc = _taken(c, seat, named, fw[at_d + WS], fw[at_d + WK], fw[at_d + WC], tab)
            hands[seat] = fw[at_d + HAND] ^ (1 << c)
            shown = voids[seat]
            fw[at_d + SHOWN] = shown
            if nplayed > 0 and tab[SUIT, c] != named:
                voids[seat] = shown | (1 << named)
            p = fw[at_d + PTS] + tab[POINTS, c]
            e = d + 1
            at_e = at_d + UFIELDS
            if nplayed + 1 == players:
                if stop >= 0 and ws == stop:
                    fw[at_d + GAIN] = 0
                    v = params[STOP_VALUE]
                    state = CHILD_DONE
                    continue
                f = fw[at_d + FLAGS]
                if diff:
                    f = f | (1 if (side >> ws & 1) == 1 else 2)
                    if fw[at_d + LEFT] == 1:
                        p += params[CAPOT] if f != 3 else params[LAST]
                    gain = p if (side >> ws & 1) == 1 else -p
                else:
                    gain = p + params[BASE] if (side >> ws & 1) == 1 else 0
                fw[at_d + GAIN] = gain
                fw[at_e + SEAT] = ws
                fw[at_e + NPLAYED] = 0
                fw[at_e + LED] = -1
                fw[at_e + WS] = -1
                fw[at_e + WK] = -1
                fw[at_e + WC] = -1
                fw[at_e + PTS] = 0
                fw[at_e + TMASK] = 0
                fw[at_e + FLAGS] = f
                fw[at_e + REM] = fw[at_d + REM] - tab[POINTS, c]
                fw[at_e + LEFT] = fw[at_d + LEFT] - 1
                fw[at_e + ALPHA] = fw[at_d + ALPHA] - gain
                fw[at_e + BETA] = fw[at_d + BETA] - gain
            else:
                fw[at_d + GAIN] = 0
                fw[at_e + SEAT] = after >> 4 * seat & 15
                fw[at_e + NPLAYED] = nplayed + 1
                fw[at_e + LED] = named
                fw[at_e + WS] = ws
                fw[at_e + WK] = wk
                fw[at_e + WC] = wc
                fw[at_e + PTS] = p
                fw[at_e + TMASK] = fw[at_d + TMASK] | (1 << c)
                fw[at_e + FLAGS] = fw[at_d + FLAGS]
                fw[at_e + REM] = fw[at_d + REM] - tab[POINTS, c]
                fw[at_e + LEFT] = fw[at_d + LEFT]
                fw[at_e + ALPHA] = fw[at_d + ALPHA]
                fw[at_e + BETA] = fw[at_d + BETA]
            fw[at_e + RESTRICT] = -1
            d = e
            at_d = at_e
            state = ENTER
        elif state == RETURN:
            if d == 0:
                return v
            d -= 1
            at_d -= UFIELDS
            state = CHILD_DONE
        else:
            seat = fw[at_d + SEAT]
            v += fw[at_d + GAIN]
            hands[seat] = fw[at_d + HAND]
            voids[seat] = fw[at_d + SHOWN]
            if (side >> seat & 1) == 1:
                if v > fw[at_d + BEST]:
                    fw[at_d + BEST] = v
                    fw[at_d + BESTC] = fw[at_d + CARD]
                    fw[at_d + ALPHA] = max(fw[at_d + ALPHA], v)
            else:
                if v < fw[at_d + BEST]:
                    fw[at_d + BEST] = v
                    fw[at_d + BESTC] = fw[at_d + CARD]
                    fw[at_d + BETA] = min(fw[at_d + BETA], v)
            state = NEXT
