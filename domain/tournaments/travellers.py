"""Travellers, pure: for one board, every table's contract, declarer, result and score, with
what each side earned on it by the event's method — the slip that travelled with the board
from table to table in a bridge club, kept once the board is public.

Built from the round's recorded results (the scores) and each table's hand record of the
board (`deal_finished`'s summary: contract, declarer, result), which the service reads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.tournaments import robot, scoring


def rows(board: int, results: Sequence[scoring.TableResult], summaries: Mapping[int, Mapping[str, Any] | None],
         scored: Mapping[tuple[int, str], Mapping[str, float]], matches: Mapping[int, str] | None = None,
         deal: int | None = None) -> list[dict[str, Any]]:
    """One row a table that has a result on `board`: `summaries` maps table -> the board's
    deal summary (None when the table did not play it); `scored` is
    `scoring.scored_fields(...)`. The robot event's house table is `bots: true` and earns
    nothing (it is in no field). `matches` (table -> match) and `deal` (the board's deal in
    its round's matches) say where each table's play of it is: its replay and its
    double-dummy analysis."""
    out = []
    for r in results:
        score = r.boards.get(board)
        if score is None and not r.forfeit:
            continue
        summary = summaries.get(r.table) or {}
        contract = summary.get("contract")
        ns_points = scored.get((board, "NS"), {}).get(r.home) if r.home else None
        ew_points = scored.get((board, "EW"), {}).get(r.away) if r.away else None
        out.append({"table": r.table, "ns": r.home or None, "ew": r.away or None,
                    "bots": r.home == robot.HOUSE, "forfeit": r.forfeit,
                    "contract": contract, "declarer": contract.get("seat") if isinstance(contract, dict) else None,
                    "result": summary.get("result"),
                    "score": dict(score) if score is not None else None,
                    "ns_points": ns_points, "ew_points": ew_points,
                    "match_id": (matches or {}).get(r.table), "deal": deal if summaries.get(r.table) else None})
    out.sort(key=lambda row: (-(row["ns_points"] if row["ns_points"] is not None else float("-inf")),
                              row["table"]))
    return out
