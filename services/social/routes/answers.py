"""What the social routes answer, as Structs the OpenAPI document shows field by field.

The handlers build these answers as dicts from the read models (ratings, social ties, the
lobby and the match summaries); the Structs here only describe them, so that a generated
client gets a type for every field: required where the handler always sends it, nullable
where it may be null, left out of `required` where a row may not carry it at all.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

SeatName = Literal["N", "E", "S", "W"]
# A match option as the creator gave it (each game's parser accepts scalars only: a variant,
# a target, a switch; `deals` may be null).
OptionValue = str | int | bool | None


# --- ratings ------------------------------------------------------------------------------

class LeaderboardEntryOut(msgspec.Struct):
    """One player's place in a pool; `name` is null once the player is erased (his rating
    stays under his id)."""

    rank: Annotated[int, msgspec.Meta(ge=1)]
    player_id: str
    name: str | None
    rating: float                       # the display rating, mu - 3 sigma
    mu: float
    sigma: float
    games: int
    wins: int
    provisional: bool


class LeaderboardOut(msgspec.Struct):
    """One page of a pool's leaderboard; `total` counts the pool's players."""

    pool: str
    offset: int
    limit: int
    total: int
    entries: list[LeaderboardEntryOut]


class RatingStepOut(msgspec.Struct):
    """The rating after one rated match; `at` is null where the match's finish time is unknown."""

    match_id: str
    at: str | None
    rating: float
    mu: float
    sigma: float
    weight: float                       # below 1: a repeated match, or a new account met


class PoolRatingOut(msgspec.Struct):
    """A player's rating in one pool, with its history in match-finish order."""

    pool: str
    rating: float
    mu: float
    sigma: float
    games: int
    wins: int
    provisional: bool
    history: list[RatingStepOut]


class PlayerRatingsOut(msgspec.Struct):
    """A player's ratings in every pool he played rated; `name` is null once erased."""

    player_id: str
    name: str | None
    pools: list[PoolRatingOut]


class PoolStatsOut(msgspec.Struct):
    """A player's record in one pool; the two ratios are null where there is nothing to divide
    (no contract taken, no deal played)."""

    pool: str
    matches: int
    rated: int
    wins: int
    deals: int
    contracts_taken: int
    contracts_made: int
    made_percent: float | None
    average_points: float | None


class PlayerStatsOut(msgspec.Struct):
    player_id: str
    pools: list[PoolStatsOut]


# --- follows and blocks -------------------------------------------------------------------

class TiedPlayerOut(msgspec.Struct):
    """A player I follow or block, since when; `name` is null once he is erased."""

    player_id: str
    name: str | None
    since: str


class TableHolderOut(msgspec.Struct):
    """Who holds a seat: a player (his id), or a bot (its level)."""

    kind: Literal["player", "bot"]
    player_id: str | None
    level: str | None


class FollowedTableOut(msgspec.Struct):
    """A table where a player I follow sits. An open table (`status=open`) carries its
    `free_seats`; a table being played (`status=playing`) its `status`, `score` and
    `version`, both null when I may not watch it (`sealed`: another table of my tournament's
    round), and `sealed` is there only then."""

    match_id: str
    game: str
    options: dict[str, OptionValue]
    seats: dict[str, TableHolderOut | None]
    at: str                             # created (open) or last moved (playing)
    free_seats: int | msgspec.UnsetType = msgspec.UNSET
    status: Literal["playing"] | msgspec.UnsetType = msgspec.UNSET
    score: dict[str, int] | None | msgspec.UnsetType = msgspec.UNSET
    version: int | None | msgspec.UnsetType = msgspec.UNSET
    sealed: bool | msgspec.UnsetType = msgspec.UNSET      # true, when there at all
