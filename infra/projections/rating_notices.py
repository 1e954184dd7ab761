"""The account stream's `rating_changed` notices: my display rating in a pool moved.

The ratings read model belongs to the `ratings` projection, which keeps a checkpoint of its
own: the account stream's projection cannot wait for it, nor read its tables as they happen
to be (a notice's number must be a function of the log). So this producer runs the same
fold (`infra.projections.ratings`) over tables of its own (`account_rating_*`), in the
account stream's transaction, and tells each rated player what moved: the pool, the match,
the display rating before and after (docs/ratings.md: mu − 3·sigma), the games counted and
whether the rating is still provisional. A ruling that re-rates a pool tells each player
whose rating ends up elsewhere once, for the ruled match (`rerated: true`). A match that
moves nobody's display rating (a fifth repeat of the day counts nothing) says nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from domain import ratings as rules
from infra.projections.account_events import AccountProducer, Notice
from infra.projections.base import Change
from infra.projections.rating_fold import RatingBatch
from infra.projections.ratings import EVENTS, PREFIXES, Ratings
from infra.store.postgres import Connection

TABLES = ("account_rating_matches", "account_ratings", "account_rating_history")


class RatingNotices(AccountProducer):
    name = "ratings"
    event_types = EVENTS
    tables = TABLES

    def create(self, names: Mapping[str, str]) -> list[str]:
        return Ratings().create({live: names[mine] for live, mine in zip(Ratings.tables, TABLES)})

    async def notices(self, conn: Connection, changes: Sequence[Change], names: Mapping[str, str]) -> list[Notice]:
        batch = RatingBatch(conn, [names[t] for t in TABLES], PREFIXES)
        await batch.run(changes)
        return [Notice(m.player_id, "rating_changed",
                       {"pool": m.pool, "match_id": m.match_id, "old_rating": m.old, "new_rating": m.new,
                        "games": m.games, "provisional": m.games < rules.PROVISIONAL_GAMES, "rerated": m.rerated},
                       m.cause) for m in batch.changed]
