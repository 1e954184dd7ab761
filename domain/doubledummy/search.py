"""The alpha-beta kernel: one closure per (table, side), its locals bound once because
attribute and global lookups are what a pure-Python search spends its time on.

`node` returns the value, for the side, of the rest of the deal from a position, the
current trick included, fail-soft within (alpha, beta). Positions at a trick's start are
kept in the transposition table as bounds on that rest (it does not depend on the tricks
already played, beyond the capot tracker and the Joker holder's shown voids, both in the key).
"""

from __future__ import annotations

from collections.abc import Callable

from domain.doubledummy.budget import LIMIT, OutOfNodes
from domain.doubledummy.table import Position, Table, classes, legal_mask

INF = 1 << 20
PARTNER = (2, 3, 0, 1)

Search = Callable[[Position, int, int, int], int]
NODES = [0]
"""The nodes every pure-Python search of the process has visited."""


def visited() -> int:
    return NODES[0]


def make_search(t: Table, mine: tuple[bool, ...]) -> tuple[Search, dict]:
    suit, bonus, points, nxt, players = t.suit, t.bonus, t.points, t.nxt, t.players
    diff = t.mode == "diff"
    base, last_bonus, capot_bonus = t.trick_base, t.last_bonus, t.capot_bonus
    stop, joker = t.stop_seat, t.joker
    stop_value = 0 if stop < 0 else (-1 if mine[stop] else 1)
    partner = PARTNER
    tt: dict = {}
    rank = [0] * len(suit)
    for c in range(1, len(suit)):
        rank[c] = rank[c - 1] + 1 if suit[c] == suit[c - 1] else 0

    def ordered(moves: list[int], seat: int, nplayed: int, win_seat: int, win_key: int, led: int) -> list[int]:
        """Likely-best first: to a lead, high cards; following, the cheapest winner when the
        opponents hold the trick, the richest loser when the partner does, else the cheapest."""
        if len(moves) < 2:
            return moves
        if nplayed == 0:
            return sorted(moves, key=lambda c: -(bonus[c] + rank[c] * 8 + points[c]))
        friend = mine[win_seat] == mine[seat]
        ranked = []
        for c in moves:
            b = bonus[c]
            k = c + b if b else (c if suit[c] == led else -1)
            if k > win_key:
                pr = (100 + points[c] - 2 * k) if friend else (1000 - k + points[c])
            else:
                pr = (200 + 4 * points[c]) if friend else (- 4 * points[c] - rank[c])
            ranked.append((pr, c))
        ranked.sort(reverse=True)
        return [c for _, c in ranked]

    def node(hands: list[int], seat: int, nplayed: int, led: int, win_seat: int, win_key: int,
             win_card: int, pts: int, tmask: int, flags: int, left: int, voids: list[int],
             alpha: int, beta: int, restrict: int = -1) -> int:
        if NODES[0] >= LIMIT[0]:
            raise OutOfNodes
        NODES[0] += 1
        key = None
        best_first = -1
        if nplayed == 0 and restrict == -1:
            if left == 0:
                return 0
            jv = 0
            if joker >= 0:
                for s in range(4):
                    if hands[s] >> joker & 1:
                        jv = voids[s] + 16 * s
            key = (hands[0], hands[1], hands[2], hands[3], seat, flags, jv)
            e = tt.get(key)
            if e is not None:
                lo, hi, best_first = e
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
                alpha = max(alpha, lo)
                beta = min(beta, hi)
        a0, b0 = alpha, beta
        hand = hands[seat]
        legal = legal_mask(t, hand, led, win_seat, win_card, partner[seat]) & restrict
        others = ((hands[0] | hands[1] | hands[2] | hands[3]) & ~hand) | tmask
        moves = ordered(classes(t, legal, others), seat, nplayed, win_seat, win_key, led)
        if best_first >= 0 and best_first in moves and moves[0] != best_first:
            moves.remove(best_first)
            moves.insert(0, best_first)
        maximize = mine[seat]
        best = -INF if maximize else INF
        best_card = -1
        for c in moves:
            if nplayed == 0 and c == joker:
                shown = voids[seat]
                named = [s for s in range(4) if not shown >> s & 1] or [0, 1, 2, 3]
            else:
                named = [led if nplayed else suit[c]]
            for now_led in named:
                b = bonus[c]
                k = c + b if b else (c if suit[c] == now_led else -1)
                if nplayed == 0 or k > win_key:
                    ws, wk, wc = seat, k, c
                else:
                    ws, wk, wc = win_seat, win_key, win_card
                hands[seat] = hand ^ (1 << c)
                shown = voids[seat]
                if nplayed and suit[c] != now_led:
                    voids[seat] = shown | 1 << now_led
                p = pts + points[c]
                if nplayed + 1 == players:
                    if stop >= 0 and ws == stop:
                        v = stop_value
                    else:
                        if diff:
                            f = flags | (1 if mine[ws] else 2)
                            if left == 1:
                                p += capot_bonus if f != 3 else last_bonus
                            gain = p if mine[ws] else -p
                            v = gain + node(hands, ws, 0, -1, -1, -1, -1, 0, 0, f, left - 1, voids,
                                            alpha - gain if alpha > -INF else -INF,
                                            beta - gain if beta < INF else INF)
                        else:
                            gain = p + base if mine[ws] else 0
                            v = gain + node(hands, ws, 0, -1, -1, -1, -1, 0, 0, flags, left - 1, voids,
                                            alpha - gain if alpha > -INF else -INF,
                                            beta - gain if beta < INF else INF)
                else:
                    v = node(hands, nxt[seat], nplayed + 1, now_led, ws, wk, wc, p, tmask | 1 << c, flags, left,
                             voids, alpha, beta)
                hands[seat] = hand
                voids[seat] = shown
                if maximize:
                    if v > best:
                        best, best_card = v, c
                        if v > alpha:
                            alpha = v
                            if alpha >= beta:
                                break
                else:
                    if v < best:
                        best, best_card = v, c
                        if v < beta:
                            beta = v
                            if alpha >= beta:
                                break
            if alpha >= beta:
                break
        if key is not None:
            lo, hi = (e[0], e[1]) if e is not None else (-INF, INF)
            if best <= a0:
                hi = min(hi, best)
            elif best >= b0:
                lo = max(lo, best)
            else:
                lo = hi = best
            tt[key] = (lo, hi, best_card)
        return best

    def search(pos: Position, alpha: int, beta: int, restrict: int = -1) -> int:
        hands = list(pos.hands)
        win_seat, win_key, win_card, pts, tmask = -1, -1, -1, 0, 0
        for s, c in pos.plays:
            b = bonus[c]
            k = c + b if b else (c if suit[c] == pos.led else -1)
            if k > win_key:
                win_seat, win_key, win_card = s, k, c
            pts += points[c]
            tmask |= 1 << c
        seat = nxt[pos.plays[-1][0]] if pos.plays else pos.leader
        return node(hands, seat, len(pos.plays), pos.led, win_seat, win_key, win_card, pts, tmask,
                    pos.flags, pos.tricks_left, list(pos.voids), alpha, beta, restrict)

    return search, tt
