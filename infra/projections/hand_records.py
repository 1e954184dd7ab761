"""`hand_records`: one row per finished deal, enough to export it as a match record.

It folds only `deal_finished`, the match layer's public hand record (dealer, deck,
actions in the shared vocabulary, the verifiable shuffle's inputs with the revealed seed,
the game's deal summary). The game and options of a deal are its match's, read from
`match_summaries` when exporting, so this projection needs no other event.
"""

from __future__ import annotations

from typing import Any

from infra.projections.base import RowProjection
from infra.projections.match_summaries import match_id_of
from infra.store.model import RecordedEvent


class HandRecords(RowProjection):
    name = "hand_records"
    table = "hand_records"
    version = 1
    event_types = frozenset({"deal_finished"})
    columns = {
        "record_id": "text",          # "<match id>/<deal index>"
        "match_id": "text",
        "deal": "integer",            # 0-based, as in the match record's `deals`
        "dealer": "text",
        "deck": "jsonb",
        "actions": "jsonb",
        "fair": "jsonb",
        "summary": "jsonb",
        "match_score": "jsonb",
        "finished_at": "timestamptz",
        "version": "bigint",
    }
    indexes = ("match_id, deal",)

    def key_of(self, event: RecordedEvent, data: dict[str, Any]) -> str:
        return f"{match_id_of(event)}/{data.get('deal')}"

    def fold(self, row: dict[str, Any] | None, event: RecordedEvent, data: dict[str, Any]) -> dict[str, Any] | None:
        if "dealer" not in data or "deck" not in data:
            return row  # a summary-only deal_finished (not written by domain.match): no hand to record
        return {
            "record_id": self.key_of(event, data),
            "match_id": match_id_of(event),
            "deal": data["deal"],
            "dealer": data["dealer"],
            "deck": data["deck"],
            "actions": data.get("actions") or [],
            "fair": data.get("fair"),
            "summary": data.get("summary") or {},
            "match_score": data.get("match_score") or {},
            "finished_at": event.recorded_at,
            "version": event.stream_version,
        }
