"""Ranked play's own rules: which pool a match rates in, which matches may be rated, who
placed where, and how much a match counts: less when repeated, less for an established player
when a new account sits at it (docs/ratings.md).

Pure: the rating arithmetic itself is the kept library's (`openskill`, Plackett-Luce), applied
by the ratings projection (`infra.projections.ratings`); this module says only what Atout
decides around it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from domain.game import RuleViolation
from domain.games import GAMES

POOLS: Final = tuple(pool for game in GAMES.values() for pool in game.pools)
"""One rating pool per way of playing (each game's `pools`). Options that only tune the rules
(target, deals, combinations, official rules, misère, Cinch's minimum bid, low point, failure
scoring) share their way's pool."""
INDIVIDUAL_POOLS: Final = frozenset(pool for game in GAMES.values() for pool in game.individual_pools)

SIDES: Final = {"NS": ("N", "S"), "EW": ("E", "W")}
SEATS: Final = ("N", "E", "S", "W")
DISPLAY_SIGMAS: Final = 3.0
"""Display rating = mu - 3·sigma (openskill's `ordinal()` default): a rating the player's
true skill is above with about 99.7% certainty, so a newcomer starts at 0 and climbs."""
PROVISIONAL_GAMES: Final = 10
"""A rating is marked provisional until the player has this many rated matches in the pool."""
REPEAT_WINDOW_SECONDS: Final = 24 * 3600


def pool_of(game: str, options: Mapping[str, Any]) -> str:
    """The pool of a match of `game` with `options` (already accepted by the game)."""
    rules = GAMES.get(game)
    if rules is not None:
        return rules.rating_pool(options)
    raise RuleViolation("unknown_game", f"no rating pool for game {game!r}", {"game": game})


def individual(pool: str) -> bool:
    return pool in INDIVIDUAL_POOLS


def verify_rateable(seats: Mapping[str, str], *, predefined: bool = False) -> None:
    """Raise `not_rateable` (422, `details.reason`) unless a match created with these seat
    specs ("open", "me", "bot:LEVEL") may be rated: four human seats, and deals dealt by the
    server's fair shuffle (a match replaying a record's deals is not: its cards are known).
    A rated match is public (in the lobby: `domain.match.create` refuses a private one, reason
    `private`) and is played to its target or
    to the `deals` agreed at creation, so those conditions always hold there."""
    bots = sorted(seat for seat, spec in seats.items() if str(spec).startswith("bot"))
    if bots:
        raise RuleViolation("not_rateable", "a rated match has four human seats; these seats are bots: "
                            + ", ".join(bots), {"reason": "bot_seat", "seats": bots})
    if predefined:
        raise RuleViolation("not_rateable", "a match that replays a record's deals cannot be rated",
                            {"reason": "record"})


def can_rate(seats: Mapping[str, str], *, predefined: bool = False) -> bool:
    try:
        verify_rateable(seats, predefined=predefined)
    except RuleViolation:
        return False
    return True


def places(pool: str, winner: str | None, match_score: Mapping[str, int]) -> list[tuple[tuple[str, ...], int]]:
    """[(seats of a team, rank)] for a finished match, rank 1 best, equal scores sharing a rank.
    A partnership is one team of its two seats; Cinch individual is four teams of one,
    ranked by place: the winner first, then by match score."""
    if individual(pool):
        order = sorted(SEATS, key=lambda s: (s != winner, -int(match_score.get(s, 0))))
        ranked: list[tuple[tuple[str, ...], int]] = []
        for i, seat in enumerate(order):
            same = i > 0 and seat != winner and order[i - 1] != winner and \
                match_score.get(seat, 0) == match_score.get(order[i - 1], 0)
            ranked.append(((seat,), ranked[-1][1] if same else i + 1))
        return ranked
    if winner in SIDES:
        loser = "EW" if winner == "NS" else "NS"
        return [(SIDES[winner], 1), (SIDES[loser], 2)]
    ns, ew = int(match_score.get("NS", 0)), int(match_score.get("EW", 0))
    return [(SIDES["NS"], 1 if ns >= ew else 2), (SIDES["EW"], 1 if ew >= ns else 2)]


def gone_sides(pool: str, away: Sequence[str]) -> list[tuple[str, ...]]:
    """The sides (in Cinch individual, the seats) whose players are all away."""
    teams = [(s,) for s in SEATS] if individual(pool) else list(SIDES.values())
    return [team for team in teams if all(seat in away for seat in team)]


def abandoned_places(pool: str, away: Sequence[str]) -> list[tuple[tuple[str, ...], int]] | None:
    """An abandoned match: a loss for the side whose players were all away (the rest share
    first place), or None (unrated) when no side, or every side, was all away."""
    teams = [(s,) for s in SEATS] if individual(pool) else list(SIDES.values())
    gone = gone_sides(pool, away)
    if not gone or len(gone) == len(teams):
        return None
    return [(team, 2 if team in gone else 1) for team in teams]


def repeat_weight(earlier_today: int) -> float:
    """How much a rated match counts when the same four players already finished
    `earlier_today` rated matches together in its pool within the 24 hours before it:
    1, 1/2, 1/3, 1/4, then nothing from the fifth such match on."""
    return 0.0 if earlier_today >= 4 else 1.0 / (1 + earlier_today)


def newcomer_weight(games: int) -> float:
    """How much a player's result counts for the established players he meets, after
    `games` rated matches in the pool: his first match 1/11, the k-th k/11, from his
    eleventh (no longer provisional) on fully. A fresh account (an alt) therefore gives
    little rating to whoever beats it, and making it count costs ten rated matches."""
    return min(1.0, (games + 1) / (PROVISIONAL_GAMES + 1))


def weights(games: Mapping[str, int], repeat: float = 1.0) -> dict[str, float]:
    """Each player's weight in one rated match, from every player's rated matches in the pool
    before it: the repeat discount, times, for an established player (PROVISIONAL_GAMES or
    more), the smallest `newcomer_weight` among the others at the table. A provisional
    player's own movement is never scaled so: his rating is still being found."""
    out = {}
    for player, played in games.items():
        others = [newcomer_weight(n) for other, n in games.items() if other != player]
        factor = min(others, default=1.0) if played >= PROVISIONAL_GAMES else 1.0
        out[player] = repeat * factor
    return out


def display(mu: float, sigma: float) -> float:
    return round(mu - DISPLAY_SIGMAS * sigma, 2)
