"""Quick play's rules: who may be seated with whom, how long a player waits, where he sits.

Pure: the service gives the queue as it stands (its entries, the blocks among them, who is
banned), the time and a seed it drew; `match` answers the tables to open. Nothing here reads a
clock or draws a random number of its own, so a tick replays exactly from its inputs and the
property tests can run thousands of them.

Why these rules (docs/quickplay.md):

- **Bands that widen.** A player waits for a table of close ratings, but not for ever: the
  half-width of the band he accepts grows with his wait (`band`), and past `BAND_OPEN_AFTER`
  seconds any rating will do. A table is made only when its spread (highest entry rating
  minus lowest) fits the *narrowest* band among its entries, so nobody is seated outside the
  band he was shown.
- **Oldest first.** Each tick serves the longest-waiting entry first, with the entries nearest
  to it in rating; a newcomer never overtakes someone who waited longer for the same seats.
- **Partners stay together**: an entry of two players is one side of its table.
- **Blocks and bans**: two players one of whom blocks the other are never at one table, and a
  banned player is at none (`services.matches.seating` is the same door for every table).
- **Fair seats**: which side a partnership holds, who of a side sits first, and who partners
  whom among lone players are drawn from the seed, uniformly (never "always South").
- **Bots only on consent**, and only for a casual entry (a rated table is people only:
  docs/ratings.md); a bot-filled table is casual whatever queue it came from.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Collection, Mapping, Sequence
from typing import Final

import msgspec

SEATS: Final = ("N", "E", "S", "W")
SIDES: Final = (("N", "S"), ("E", "W"))
PERMUTATIONS: Final = tuple(itertools.permutations(range(4)))

BAND_START: Final = 2.0
"""Half-width of the rating band, in display-rating points, the moment an entry joins."""
BAND_GROWTH: Final = 0.2
"""Points the half-width grows by per second waited (one point every five seconds)."""
BAND_OPEN_AFTER: Final = 120.0
"""Seconds after which an entry accepts any rating."""
MAX_SCAN: Final = 256
"""Entries looked at around one anchor per tick: bounds a tick's work when blocks or sizes
keep refusing the nearest ones (the next tick looks again)."""
BOTS_AFTER_BOUNDS: Final = (5.0, 600.0)
"""A casual entry's "fill with bots after N seconds", both ends included."""

COOLDOWN: Final = 10.0
"""Seconds after leaving a queue before the same player may join one again."""
EXPIRY: Final = 600.0
"""Seconds an entry waits at most; then it expires and its players are told."""
LEAVE_WINDOW: Final = 24 * 3600.0
"""Quick-play tables left (away past the grace) within this many seconds count for `penalty`."""
PENALTY_STEP: Final = 30.0
PENALTY_MAX: Final = 480.0


class Entry(msgspec.Struct, frozen=True):
    """One queued player, or two partners. `rating`: their mean display rating in the queue's
    pool; `joined` and `ready` are the service's clock in seconds (`ready`: not matched before,
    a penalty for tables left early); `bots_after`: seconds after which bots may fill."""

    entry_id: str
    players: tuple[str, ...]
    rating: float
    joined: float
    ready: float = 0.0
    bots_after: float | None = None
    bot_level: str = "basic"


class Table(msgspec.Struct, frozen=True):
    """A table to open: `seats` maps N, E, S, W to a player id or `bot:LEVEL`."""

    entries: tuple[str, ...]
    seats: dict[str, str]
    bots: bool
    spread: float


def band(waited: float) -> float:
    """The half-width of the rating band an entry accepts after `waited` seconds."""
    if waited >= BAND_OPEN_AFTER:
        return math.inf
    return BAND_START + BAND_GROWTH * max(0.0, waited)


def penalty(leaves: int) -> float:
    """Extra seconds before a player's next entry may be matched, for the quick-play tables
    he left (away past the grace) within `LEAVE_WINDOW`: 30 s for one, doubling, 8 min at most."""
    return 0.0 if leaves <= 0 else min(PENALTY_MAX, PENALTY_STEP * 2 ** (leaves - 1))


def expired(entries: Sequence[Entry], now: float, ttl: float = EXPIRY) -> list[str]:
    return [e.entry_id for e in entries if now - e.joined >= ttl]


def blocked_pairs(blocks: Collection[tuple[str, str]]) -> dict[str, frozenset[str]]:
    """(blocker, blocked) pairs as each player's "never with" set, both ways."""
    out: dict[str, set[str]] = {}
    for a, b in blocks:
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    return {p: frozenset(s) for p, s in out.items()}


def match(entries: Sequence[Entry], now: float, seed: bytes, *, individual: bool = False,
          blocks: Collection[tuple[str, str]] = (), banned: Collection[str] = ()) -> list[Table]:
    """The tables to open from one queue at `now`: people first (bands, blocks, bans, oldest
    first), then, for the casual entries whose consent is due and who found no one, a table
    with bots. `individual`: every player for himself (no partners, seats drawn at random)."""
    rng = random.Random(seed)
    never = blocked_pairs(blocks)
    out = frozenset(banned)
    empty: frozenset[str] = frozenset()
    live = []
    for e in entries:
        size = len(e.players)
        if e.ready > now or not 1 <= size <= (1 if individual else 2):
            continue
        if out and not out.isdisjoint(e.players):
            continue
        if size == 2 and e.players[1] in never.get(e.players[0], empty):
            continue                                  # partners who block each other are no partnership
        live.append(e)
    by_rating = sorted(live, key=lambda e: (e.rating, e.entry_id))
    index = {e.entry_id: i for i, e in enumerate(by_rating)}
    prev = list(range(-1, len(by_rating) - 1))
    nxt = list(range(1, len(by_rating) + 1))
    end = len(by_rating)
    taken: set[str] = set()
    tables: list[Table] = []
    oldest_first = sorted(live, key=lambda e: (e.joined, e.entry_id))
    for anchor in oldest_first:
        if anchor.entry_id in taken:
            continue
        chosen = _gather(anchor, index[anchor.entry_id], by_rating, prev, nxt, never, now)
        if chosen is None:
            continue
        for e in chosen:
            taken.add(e.entry_id)
            i = index[e.entry_id]
            p, n = prev[i], nxt[i]
            if p >= 0:
                nxt[p] = n
            if n < end:
                prev[n] = p
        ratings = [e.rating for e in chosen]
        tables.append(Table(entries=tuple(e.entry_id for e in chosen), seats=_seats(chosen, rng, individual),
                            bots=False, spread=max(ratings) - min(ratings)))
    for entry in oldest_first:
        if entry.entry_id in taken or entry.bots_after is None or now - entry.joined < entry.bots_after:
            continue
        taken.add(entry.entry_id)
        tables.append(Table(entries=(entry.entry_id,), seats=_seats([entry], rng, individual, entry.bot_level),
                            bots=True, spread=0.0))
    return tables


def _gather(anchor: Entry, at: int, by_rating: Sequence[Entry], prev: list[int], nxt: list[int],
            never: Mapping[str, frozenset[str]], now: float) -> list[Entry] | None:
    """Four players around `anchor`, nearest in rating first, or None. (The hot loop of a
    tick: comparisons written out rather than through min/max.)"""
    chosen, people = [anchor], list(anchor.players)
    rating = anchor.rating
    narrow = band(now - anchor.joined)
    low = high = rating
    left, right = prev[at], nxt[at]
    end = len(by_rating)
    looked = 0
    while len(people) < 4 and looked < MAX_SCAN:
        dl = rating - by_rating[left].rating if left >= 0 else math.inf
        dr = by_rating[right].rating - rating if right < end else math.inf
        if dl <= dr:
            if dl > narrow or left < 0:
                return None                  # nobody (closer than the band allows) on either side
            candidate, left = by_rating[left], prev[left]
        else:
            if dr > narrow:
                return None
            candidate, right = by_rating[right], nxt[right]
        looked += 1
        if len(people) + len(candidate.players) > 4:
            continue
        if never and any(p in never and not never[p].isdisjoint(people) for p in candidate.players):
            continue
        waited = now - candidate.joined
        allowed = narrow if waited >= BAND_OPEN_AFTER else min(narrow, BAND_START + BAND_GROWTH * max(0.0, waited))
        r = candidate.rating
        top = r if r > high else high
        bottom = r if r < low else low
        if top - bottom > allowed:
            continue
        chosen.append(candidate)
        people += candidate.players
        narrow, low, high = allowed, bottom, top
    return chosen if len(people) == 4 else None


def _seats(chosen: Sequence[Entry], rng: random.Random, individual: bool, bot_level: str | None = None) -> dict[str, str]:
    """Seats drawn uniformly: a partnership's side and order, who partners whom among lone
    players, every seat of an individual table; bots fill what people leave."""
    bot = f"bot:{bot_level}"
    if individual:
        people = [p for e in chosen for p in e.players]
        people += [bot] * (4 - len(people))
        order = PERMUTATIONS[rng.randrange(24)]
        return {SEATS[i]: people[k] for i, k in enumerate(order)}
    pairs = [e.players for e in chosen if len(e.players) == 2]
    singles = [e.players[0] for e in chosen if len(e.players) == 1]
    singles += [bot] * ((4 - 2 * len(pairs)) - len(singles))
    if len(singles) == 4:                             # a uniform order of four: partners, sides and seats at once
        order = PERMUTATIONS[rng.randrange(24)]
        n, s, e, w = (singles[k] for k in order)
        return {"N": n, "E": e, "S": s, "W": w}
    if len(singles) == 2:
        pairs.append((singles[0], singles[1]))
    bits = rng.getrandbits(3)                         # which side, and who sits first on each
    first, second = pairs if bits & 1 else (pairs[1], pairs[0])
    n, s = first if bits & 2 else (first[1], first[0])
    e, w = second if bits & 4 else (second[1], second[0])
    return {"N": n, "E": e, "S": s, "W": w}
