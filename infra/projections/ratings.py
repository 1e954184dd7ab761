"""`ratings`: each player's rating per pool, its history, and the match facts behind them.

Ratings are a fold of the log in the order results become public: a rated match's result is
rated at the log position of its first `match_finished` (or of the `match_abandoned` that
counts as a loss for a side all away) — a tournament table's at the position of its round's
`round_closed`, when the round has closed at every table (`MatchCreated.tournament` names the
round; the tables of one round, which share no player, in match-id order) — with openskill's
Plackett-Luce model on the ratings as they were just before. Until then a tournament table's
result is held in its row (`held`), in no rating, history, leaderboard or stats: another table
may still be playing the same boards. A private table's row is kept out of the stats. A ruling that changes, reopens or voids a rated match that was already rated re-rates
its pool from that match's position: the ratings before it are the history's, and every rated
result from there on is rated again in order. So a rebuild from the log and the live fold give
the same numbers, batch boundaries or not.

The rules around the arithmetic (pools, who placed where, abandonment, repeats) are
`domain.ratings`; names are never stored here (erasure removes a name, ratings stay under the
player's id).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from infra.projections.base import Change, Projection
from infra.projections.rating_fold import MODEL, RatingBatch, rate
from infra.store.postgres import Connection

__all__ = ["EVENTS", "MATCH", "MODEL", "PREFIXES", "PRESENCE", "TOURNAMENT", "RatingBatch", "Ratings", "rate"]

MATCH = "match-"
PRESENCE = "presence-"
TOURNAMENT = "tournament-"
PREFIXES = (MATCH, PRESENCE, TOURNAMENT)
EVENTS = frozenset({"match_created", "seat_taken", "seat_left", "deal_finished", "match_finished",
                    "match_reopened", "match_abandoned", "match_voided", "seat_connected", "seat_disconnected",
                    "round_closed"})


class Ratings(Projection):
    name = "ratings"
    version = 3                    # 2: indexes by foursome and by player; 3: held until public, private
    tables: tuple[str, ...] = ("rating_matches", "ratings", "rating_history")
    event_types = EVENTS
    catch_up_delay = 0.05
    prefixes = PREFIXES            # matches, their seats' presence, and tournaments (rounds closing)

    def create(self, names: Mapping[str, str]) -> list[str]:
        m, r, h = (names[t] for t in self.tables)
        return [
            f"CREATE TABLE IF NOT EXISTS {m} (match_id text PRIMARY KEY, pool text NOT NULL, rated boolean NOT NULL,"
            " seats jsonb NOT NULL, away jsonb NOT NULL, status text NOT NULL, seq bigint, finished_at timestamptz,"
            " result jsonb, weight double precision, foursome text, tally jsonb NOT NULL, held text,"
            " private boolean NOT NULL DEFAULT false)",
            f"CREATE INDEX IF NOT EXISTS {m}_held_idx ON {m} (held) WHERE held IS NOT NULL",
            f"CREATE INDEX IF NOT EXISTS {m}_foursome_idx ON {m} (foursome) WHERE result IS NOT NULL",
            f"CREATE INDEX IF NOT EXISTS {m}_seq_idx ON {m} (pool, seq)",
            f"CREATE TABLE IF NOT EXISTS {r} (pool text, player_id text, mu double precision NOT NULL,"
            " sigma double precision NOT NULL, rating double precision NOT NULL, games integer NOT NULL,"
            " wins integer NOT NULL, seq bigint NOT NULL, PRIMARY KEY (pool, player_id))",
            f"CREATE INDEX IF NOT EXISTS {r}_board_idx ON {r} (pool, rating DESC, player_id)",
            f"CREATE INDEX IF NOT EXISTS {r}_player_idx ON {r} (player_id)",
            f"CREATE TABLE IF NOT EXISTS {h} (pool text, player_id text, seq bigint, match_id text NOT NULL,"
            " at timestamptz, mu double precision NOT NULL, sigma double precision NOT NULL,"
            " rating double precision NOT NULL, games integer NOT NULL, wins integer NOT NULL,"
            " weight double precision NOT NULL, PRIMARY KEY (pool, player_id, seq))",
            f"CREATE INDEX IF NOT EXISTS {h}_seq_idx ON {h} (pool, seq)",
        ]

    async def apply(self, conn: Connection, changes: Sequence[Change], names: Mapping[str, str]) -> None:
        await RatingBatch(conn, [names[t] for t in self.tables], self.prefixes).run(changes)
