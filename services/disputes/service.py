"""The disputes service: file, review and rule on disputes; the admin's evidence, its reads
written to the audit (`services.audit`).

Why the writes are split this way: a dispute and its status live in `dispute-<id>`; a
ruling's effect on the score goes to the match stream as rule events (`domain.match.Rule`),
folded by the game like any other; and every admin read of hidden information, and every
ruling, is written to the day's audit stream `audit-<YYYY-MM-DD>` *before* the answer is
given. Nothing but a ruling ever appends to a match stream, so reading evidence never moves
a match's version under its players.

A ruling writes two streams without a transaction across them. Both appends use one
command id derived from the dispute, so a retry after a crash between them finishes the
job instead of ruling twice (the match append answers its first answer again).
"""

from __future__ import annotations

import asyncio
import hashlib
import uuid
from collections.abc import Callable
from datetime import date
from typing import Any

import msgspec

from domain import chains
from domain import disputes as cases
from domain import match as rules
from domain.game import RuleViolation
from infra import streams
from infra.players import PlayerStore, Principal
from infra.projections.chat_publisher import chat_event
from infra.serialization import EventRegistry
from infra.store import CommandConflictError, ConcurrencyError, PostgresEventStore
from services import audit
from services.matches.service import MatchService, UnknownMatch, registry_for, stream_of
from services.visibility import Visibility, _seated, may_review


class UnknownDispute(LookupError):
    def __init__(self, dispute_id: str) -> None:
        super().__init__(f"no dispute {dispute_id!r}")
        self.dispute_id = dispute_id


REGISTRY = EventRegistry()
REGISTRY.register_all(cases.DISPUTE_EVENTS)
DISPUTE_PREFIX = streams.DISPUTE

def dispute_stream(dispute_id: str) -> str:
    return f"{DISPUTE_PREFIX}{dispute_id}"


def _fingerprint(*parts: Any) -> bytes:
    return hashlib.sha256(msgspec.json.encode(parts)).digest()


def filing_role(principal: Principal, state: rules.MatchState, organisers: set[str]) -> str | None:
    """Why `principal` may file on this match (None: may not)."""
    if _seated(state, principal.player_id):
        return "player"
    if may_review(principal, organisers):
        return "admin" if principal.has_role("admin") else "organiser"
    return None


class DisputeService:
    def __init__(self, store: PostgresEventStore, matches: MatchService,
                 visibility: Visibility | None = None) -> None:
        """`visibility`: the runtime's policy (default: closed, no organiser, nothing public)."""
        self.store, self.matches = store, matches
        self.visibility = visibility or Visibility()

    # --- who may do what ------------------------------------------------------------------

    async def organisers(self, match_id: str) -> set[str]:
        return await self.visibility.organisers(match_id)

    # --- the dispute aggregate ------------------------------------------------------------

    async def load(self, dispute_id: str) -> cases.Dispute:
        recorded = await self.store.read_stream(dispute_stream(dispute_id))
        if not recorded:
            raise UnknownDispute(dispute_id)
        return cases.fold([REGISTRY.decode_recorded(r) for r in recorded])

    async def file(self, match_id: str, principal: Principal, deal: int, reason: str,
                   position: cases.Position | None, command_id: uuid.UUID | None = None) -> cases.Dispute:
        state = await self.matches.load(match_id)
        if await self.visibility.check(principal, state, "view") is not None:
            raise UnknownMatch(match_id)   # a table he may not watch: no deal count, no existence to learn
        role = filing_role(principal, state, await self.organisers(match_id))
        if role is None:
            raise PermissionError("only a player of the match, its tournament's organiser or an admin may file")
        command_id = command_id or uuid.uuid4()
        dispute_id = str(uuid.uuid5(command_id, f"dispute:{match_id}"))
        events = cases.file(dispute_id, match_id, deal, principal.player_id, role, reason, position,
                            state.deal_index + 1)
        await self.store.append(dispute_stream(dispute_id), 0, [REGISTRY.encode(e) for e in events],
                                command_id=command_id,
                                request_hash=_fingerprint("file", match_id, deal, reason, position, principal.player_id))
        return await self.load(dispute_id)

    async def _append_dispute(self, dispute_id: str, decide: Callable[[cases.Dispute], list[Any]],
                              command_id: uuid.UUID, fingerprint: bytes) -> cases.Dispute:
        for attempt in range(5):
            dispute = await self.load(dispute_id)
            events = decide(dispute)
            if not events:
                return dispute
            try:
                await self.store.append(dispute_stream(dispute_id), dispute.version,
                                        [REGISTRY.encode(e) for e in events], command_id=command_id,
                                        request_hash=fingerprint)
                return await self.load(dispute_id)
            except ConcurrencyError:
                await asyncio.sleep(0.005 * (attempt + 1))
        raise ConcurrencyError(dispute_stream(dispute_id), -1, -1)

    async def rule(self, dispute_id: str, admin: Principal, ruling: str, reason: str,
                   score: dict[str, int] | None = None, command_id: uuid.UUID | None = None) -> cases.Dispute:
        """Reject, adjust, void or replay: the match first (if the ruling touches it), then the
        dispute, then the audit. One ruling per dispute; a retry gets the same answer."""
        dispute = await self.load(dispute_id)
        command_id = command_id or uuid.uuid5(uuid.NAMESPACE_URL, f"atout:dispute:{dispute_id}:ruling")
        fingerprint = _fingerprint("rule", dispute_id, ruling, reason, score, admin.player_id)
        try:
            if await self.store.command_result(dispute_stream(dispute_id), command_id, fingerprint) is not None:
                return dispute  # the same ruling, retried: already done
        except CommandConflictError:
            if not dispute.closed:
                raise
        cases.rule(dispute, ruling, admin.player_id, reason, score)  # refuse early: closed, bad ruling
        version = None
        if ruling != "reject":
            version = await self._rule_match(dispute, ruling, admin.player_id, reason, score, command_id)
        done = await self._append_dispute(
            dispute_id, lambda d: cases.rule(d, ruling, admin.player_id, reason, score, version),
            command_id, fingerprint)
        await self.audit(admin, "ruling", match_id=dispute.match_id, deal=dispute.deal, dispute_id=dispute_id,
                         detail={"ruling": ruling, "reason": reason, "score": score, "match_version": version})
        return done

    async def _rule_match(self, dispute: cases.Dispute, ruling: str, admin: str, reason: str,
                          score: dict[str, int] | None, command_id: uuid.UUID) -> int:
        """Append the ruling to the match, deciding again when a play got there first (a
        ruling may be made while a later deal is being played). A ruling that reopens a
        finished match deals its next deal in the same append."""
        match_id, stream = dispute.match_id, stream_of(dispute.match_id)
        fingerprint = _fingerprint("rule-match", dispute.dispute_id, ruling, reason, score, admin)
        board = await self._board(match_id, dispute.deal) if ruling == "replay" else None
        command = rules.Rule(ruling=ruling, deal=dispute.deal, admin=admin, reason=reason,
                             dispute_id=dispute.dispute_id, score=score, board=board)
        for attempt in range(5):
            state = await self.matches.load(match_id)
            try:
                events = rules.decide(state, command)
            except RuleViolation:
                first = await self.store.command_result(stream, command_id, fingerprint)
                if first is not None:
                    return first.last_version
                raise
            after = state
            for event in events:
                after = rules.evolve(after, event)
            status = after.game.status(after.game_state)
            if after.status == "playing" and status.phase == "awaiting_deal":
                # MatchService owns dealing (the vault's chain); reuse it rather than copy it.
                events += rules.decide(after, await self.matches.dealing.next_deal(after, status.next_dealer))
            registry = registry_for(state.game_name)
            try:
                result = await self.store.append(stream, state.version, [registry.encode(e) for e in events],
                                                 command_id=command_id, request_hash=fingerprint)
                return result.last_version
            except ConcurrencyError:
                await asyncio.sleep(0.005 * (attempt + 1))
        raise ConcurrencyError(stream, -1, -1)

    async def _board(self, match_id: str, deal: int) -> dict[str, Any]:
        for _, event, _ in await self.matches.events(match_id):
            if isinstance(event, rules.DealFinished) and event.deal == deal:
                return {"deal": deal, "deck": list(event.deck), "fair": event.fair}
        raise RuleViolation("wrong_phase", f"deal {deal} is not finished: there is no board to replay yet")

    # --- evidence -------------------------------------------------------------------------

    async def recorded(self, match_id: str) -> list[tuple[int, Any, Any]]:
        return [(v, e, r.recorded_at) for v, e, r in await self.matches.events(match_id)]

    async def replay(self, match_id: str, deal: int, reader: Principal, seat: Any = None,
                     dispute_id: str | None = None) -> dict[str, Any]:
        """The admin replay; the read is audited first (no record, no cards), and an open
        dispute it names moves to in_review."""
        events = await self.recorded(match_id)
        replay = await asyncio.to_thread(cases.deal_replay, events, deal, seat)
        versions = [step["version"] for step in replay.get("steps") or ()]
        replay["chat"] = await self.chat_during(match_id, versions[0] - 1, versions[-1]) if versions else []
        await self.audit(reader, "replay", match_id=match_id, deal=deal, seat=None if seat is None else str(seat),
                         dispute_id=dispute_id)
        if dispute_id is not None:
            dispute = await self.load(dispute_id)
            if dispute.match_id == match_id:
                await self._append_dispute(dispute_id, lambda d: cases.review(d, reader.player_id), uuid.uuid4(),
                                           _fingerprint("review", dispute_id, reader.player_id))
        return replay

    async def chat_during(self, match_id: str, first: int, last: int) -> list[dict[str, Any]]:
        """Every chat message, both channels, sent while the match stood at a version from
        `first` to `last` (a deal: from its deck to its end), oldest first, with the names
        the players have now (none once erased): what a reviewer reads beside the cards."""
        recorded = await self.store.read_stream(streams.chat_stream(match_id))
        datas = [(r, msgspec.json.decode(r.data)) for r in recorded]
        inside = [(r, d) for r, d in datas if first <= d.get("match_version", -1) <= last]
        names = await PlayerStore(self.store.pool).names(sorted({d["player_id"] for _, d in inside}))
        return [{"version": r.stream_version, **chat_event(d, r.recorded_at, names.get(d["player_id"]))}
                for r, d in inside]

    async def verify(self, match_id: str, deal: int) -> dict[str, Any]:
        replay = cases.deal_replay(await self.recorded(match_id), deal, views=False)
        return replay["verification"]

    async def export(self, match_id: str, deal: int | None = None) -> dict[str, Any]:
        state = await self.matches.load(match_id)
        return match_record(state, await self.recorded(match_id), deal)

    # --- audit ----------------------------------------------------------------------------

    async def audit(self, principal: Principal, action: str, **what: Any) -> None:
        await audit.append_audit(self.store, principal, action, **what)

    async def audit_log(self, since: date, until: date, match_id: str | None = None,
                        actor: str | None = None) -> list[dict[str, Any]]:
        return await audit.read(self.store, since, until, match_id, actor)


def match_record(state: rules.MatchState, events: list[tuple[int, Any, Any]], deal: int | None = None) -> dict[str, Any]:
    """The match (or one deal of it) as a match record (shared/rules/README.md): each
    finished deal's dealer, deck, actions and shuffle inputs with the revealed seed, and the
    rulings (a replay ruling is, in a record, the void of its deal: the board follows as a
    later deal). `result` is what the match says; `atout record play` gives it back."""
    deals: list[dict[str, Any]] = []
    summaries: list[dict[str, Any]] = []
    rulings: list[dict[str, Any]] = []
    for _, event, _ in events:
        if isinstance(event, rules.DealFinished):
            entry: dict[str, Any] = {"dealer": str(event.dealer), "deck": list(event.deck),
                                     "actions": [dict(a) for a in event.actions]}
            if event.fair is not None:
                entry["fair"] = {k: event.fair.get(k) for k in ("seed", "commitment", "context", "entropy")}
            deals.append(entry)
            summaries.append(msgspec.to_builtins(event.summary))
        elif isinstance(event, rules.RulingApplied):
            ruling: dict[str, Any] = {"deal": event.deal, "ruling": "adjust" if event.ruling == "adjust" else "void",
                                      "reason": event.reason, "admin": event.admin}
            if event.score:
                ruling["score"] = dict(event.score)
            rulings.append(ruling)
    record: dict[str, Any] = {"match_id": state.match_id, "game": state.game_name,
                              "options": {k: v for k, v in state.raw_options.items() if deal is None or k != "deals"},
                              "deals": deals, "rulings": rulings, **chains.as_record(state.chains)}
    if deal is not None:
        if not 0 <= deal < len(deals):
            raise RuleViolation("unknown_deal", f"deal {deal} is not a finished deal of this match", {"deal": deal})
        record.update(deals=[deals[deal]], rulings=[{**r, "deal": 0} for r in rulings if r["deal"] == deal],
                      result={"deal": summaries[deal]}, first_deal=deal)
        return record
    status = state.game.status(state.game_state)
    record["result"] = {"match_score": status.match_score, "winner": status.winner, "finished": state.status == "finished"}
    return record
