"""Quick play's notices on the account stream: `quickplay_seated` (the match and the seat,
whether it is rated, whether bots fill it) and `quickplay_expired` (why the entry ended).

Each notice goes only to the entry's own players, and says only their own seats: who else
sits at the table is the match's view, not the queue's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from infra import streams
from infra.projections.account_events import AccountProducer, Notice
from infra.projections.base import Change
from infra.store.postgres import Connection

SEATED, EXPIRED = "quickplay_seated", "quickplay_expired"


class QuickplayNotices(AccountProducer):
    name = "quickplay"
    event_types = frozenset({SEATED, EXPIRED})

    async def notices(self, conn: Connection, changes: Sequence[Change], names: Mapping[str, str]) -> list[Notice]:
        out: list[Notice] = []
        for recorded, data in changes:
            if streams.id_of(streams.QUICKPLAY, recorded.stream_id) is None:
                continue
            if recorded.type == SEATED:
                for player, seat in data["seats"].items():
                    out.append(Notice(player, SEATED, {"entry_id": data["entry_id"], "match_id": data["match_id"],
                                                       "game": data["game"], "pool": data["pool"], "seat": seat,
                                                       "rated": data["rated"], "bots": data["bots"]}, recorded))
            else:
                out += [Notice(player, EXPIRED, {"entry_id": data["entry_id"], "reason": reason}, recorded)
                        for player, reason in data["reasons"].items()]
        return out
