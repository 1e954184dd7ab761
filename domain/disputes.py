"""Disputed hands: the dispute aggregate, and the evidence an admin rules on.

Why it is pure: a ruling changes a match's result, so the evidence behind it must be
reproducible from the event log alone, by anyone holding the log and this code. Nothing
here reads a clock or a database: the service hands in the match's events with the time
each was recorded, and gets back the replay, the re-check and the deal verification.

A dispute lives in its own stream (`dispute-<id>`), never in the match's: filing one must
not move the match's version under the players. Only the ruling's effect on the score
(`domain.match.RulingApplied` and the game's own events) goes to the match stream.
"""

from __future__ import annotations

from typing import Any, Sequence

import msgspec

from domain import fair as fairness
from domain import match as rules
from domain.cards import SEATS, CardCodeError, Seat, parse_card
from domain.game import RuleViolation, StartDeal, verify

STATUSES = ("open", "in_review", "resolved", "rejected")
RULINGS = ("reject", "adjust", "void", "replay")
MAX_REASON = 2000


class Position(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Where in the deal the complaint points: a trick (0-based) and a card, both optional."""

    deal: int
    trick: int | None = None
    card: str | None = None


class DisputeFiled(msgspec.Struct, frozen=True, tag="dispute_filed"):
    dispute_id: str
    match_id: str
    deal: int
    by: str                        # player id; events carry ids only (personal data stays erasable)
    role: str                      # seat player, organiser or admin: why they could file
    reason: str
    position: Position | None = None


class DisputeStatusChanged(msgspec.Struct, frozen=True, tag="dispute_status_changed"):
    dispute_id: str
    status: str
    by: str
    note: str = ""


class DisputeRuled(msgspec.Struct, frozen=True, tag="dispute_ruled"):
    """The ruling that closes a dispute; `match_version` is the match's version after it
    (None for a rejection, which changes nothing in the match)."""

    dispute_id: str
    ruling: str
    admin: str
    reason: str
    score: dict[str, int] | None = None
    match_version: int | None = None


DISPUTE_EVENTS = (DisputeFiled, DisputeStatusChanged, DisputeRuled)


class Dispute(msgspec.Struct, frozen=True):
    dispute_id: str = ""
    match_id: str = ""
    deal: int = 0
    by: str = ""
    role: str = ""
    reason: str = ""
    position: Position | None = None
    status: str = "new"
    ruling: DisputeRuled | None = None
    version: int = 0

    @property
    def closed(self) -> bool:
        return self.status in ("resolved", "rejected")


def _reason(text: str) -> str:
    text = (text or "").strip()
    verify(0 < len(text) <= MAX_REASON, "bad_reason", f"a reason is 1 to {MAX_REASON} characters")
    return text


def file(dispute_id: str, match_id: str, deal: int, by: str, role: str, reason: str,
         position: Position | None, deals_dealt: int) -> list[Any]:
    """A new dispute on deal `deal` (0-based) of a match that has dealt `deals_dealt` deals."""
    verify(0 <= deal < deals_dealt, "unknown_deal", f"this match has no deal {deal}", deal=deal)
    if position is not None:
        verify(position.deal == deal, "bad_position", "the position names another deal than the dispute")
        verify(position.trick is None or 0 <= position.trick < 20, "bad_position", "trick is a 0-based index")
        if position.card is not None:
            try:
                position = msgspec.structs.replace(position, card=parse_card(position.card))
            except CardCodeError as error:
                raise RuleViolation("bad_position", str(error)) from None
    return [DisputeFiled(dispute_id=dispute_id, match_id=match_id, deal=deal, by=by, role=role,
                         reason=_reason(reason), position=position)]


def review(dispute: Dispute, by: str, note: str = "") -> list[Any]:
    """An admin starts looking: open -> in_review (nothing otherwise, so reads stay idempotent)."""
    if dispute.status != "open":
        return []
    return [DisputeStatusChanged(dispute_id=dispute.dispute_id, status="in_review", by=by, note=note)]


def rule(dispute: Dispute, ruling: str, admin: str, reason: str, score: dict[str, int] | None = None,
         match_version: int | None = None) -> list[Any]:
    verify(dispute.status != "new", "unknown_dispute", "no such dispute")
    verify(not dispute.closed, "dispute_closed", f"this dispute is already {dispute.status}")
    verify(ruling in RULINGS, "bad_ruling", f"a ruling is one of {', '.join(RULINGS)}")
    verify(ruling != "adjust" or bool(score), "bad_ruling", "an adjustment needs a score")
    return [DisputeRuled(dispute_id=dispute.dispute_id, ruling=ruling, admin=admin, reason=_reason(reason),
                         score=score if ruling == "adjust" else None, match_version=match_version)]


def evolve(dispute: Dispute, event: Any) -> Dispute:
    dispute = msgspec.structs.replace(dispute, version=dispute.version + 1)
    if isinstance(event, DisputeFiled):
        return msgspec.structs.replace(dispute, dispute_id=event.dispute_id, match_id=event.match_id,
                                       deal=event.deal, by=event.by, role=event.role, reason=event.reason,
                                       position=event.position, status="open")
    if isinstance(event, DisputeStatusChanged):
        return msgspec.structs.replace(dispute, status=event.status)
    if isinstance(event, DisputeRuled):
        return msgspec.structs.replace(dispute, status="rejected" if event.ruling == "reject" else "resolved",
                                       ruling=event)
    return dispute


def fold(events: Sequence[Any]) -> Dispute:
    dispute = Dispute()
    for event in events:
        dispute = evolve(dispute, event)
    return dispute


# --- The replay of one deal, for admins --------------------------------------------------

# How an action came to be taken (ActionTaken.by), as an admin reads it; the bots and
# clocks write `by`. Any other non-player value is shown as it is.
MARKS = {"bot": "bot", "clock": "clock_expiry", "auto": "automatic", "automatic": "automatic",
         "takeover": "bot_takeover", "replaced": "bot_takeover"}
# Events that are themselves marks (disconnects, takeovers...), by words in their tag.
MARKER_WORDS = ("disconnect", "reconnect", "takeover", "replaced", "reclaim", "abandon", "timeout", "expired")


def mark_of(event: Any) -> str | None:
    if isinstance(event, rules.ActionTaken):
        return None if event.by == "player" else MARKS.get(event.by, event.by)
    tag = getattr(type(event), "__struct_config__", None)
    tag = tag.tag if tag is not None else None
    return tag if isinstance(tag, str) and any(word in tag for word in MARKER_WORDS) else None


def _plain(value: Any) -> Any:
    return msgspec.to_builtins(value)


def _hands(game: Any, game_state: Any) -> dict[str, list[str]]:
    """Every seat's cards, through the game's own view of each seat (the one path out)."""
    return {str(s): list(game.view(game_state, s).hand or ()) for s in SEATS}


def deal_replay(events: Sequence[tuple[int, Any, Any]], deal: int, seat: Seat | None = None,
                views: bool = True) -> dict[str, Any]:
    """Deal `deal` of the match whose (version, event, recorded_at) are `events`, from its
    deck to its end, each step with the time it was recorded and the state after it: as
    the table saw it (`seat` None: spectator view, plus every seat's cards and the full
    event, for the admin) or as `seat` saw it (its view and its copy of the event only).

    Every recorded action is re-checked by replaying the deal from its deck through the
    game's current decider; an action the rules now refuse is flagged and the re-check
    goes on from the recorded state. `views=False` skips the steps (verification only)."""
    state = rules.initial()
    steps: list[dict[str, Any]] = []
    illegal: list[dict[str, Any]] = []
    rulings: list[dict[str, Any]] = []
    dealt: rules.DealDealt | None = None
    finished: rules.DealFinished | None = None
    before = dealt_state = shadow = None
    pending, resync, index, inside = 0, False, -1, False
    for version, event, at in events:
        previous, state = state, rules.evolve(state, event)
        if isinstance(event, rules.RulingApplied) and event.deal == deal:
            rulings.append({"version": version, "at": _at(at), **_plain(event)})
        if isinstance(event, rules.DealDealt):
            inside = event.deal == deal
            if inside:
                dealt, before = event, previous.game_state
                shadow, shadow_events = state.game.apply(before, StartDeal(event.dealer, event.deck, event.fair))
                pending = len(shadow_events) + 1
        if inside and finished is not None and not isinstance(event, rules.MatchFinished):
            inside = False  # the deal's window: its deck to its record (and the match's end)
        if not inside:
            continue
        game = state.game
        pending -= 1
        if pending == 0:
            dealt_state = state.game_state
        flag = None
        if isinstance(event, rules.ActionTaken):
            index += 1
            base = previous.game_state if resync or shadow is None else shadow
            try:
                shadow, _ = game.apply(base, game.parse_action(event.action))
                resync = False
            except RuleViolation as violation:
                flag = {"code": violation.code, "message": violation.message}
                illegal.append({"version": version, "index": index, "seat": str(event.seat),
                                "action": event.action, **flag})
                shadow, resync = None, True
        elif isinstance(event, rules.RulingApplied):
            resync = True  # the recorded state now holds what no action did
        if views:
            steps.append(_step(state, version, event, at, seat, flag))
        if isinstance(event, rules.DealFinished):
            finished = event
    if dealt is None:
        raise RuleViolation("unknown_deal", f"deal {deal} has not been dealt", {"deal": deal})
    game = state.game
    out: dict[str, Any] = {"match_id": state.match_id, "game": state.game_name, "options": state.raw_options,
                           "deal": deal, "dealer": str(dealt.dealer), "finished": finished is not None,
                           "replay_of": dealt.replay_of, "seats": _plain(state.seats), "rulings": rulings}
    if finished is not None or seat is None:
        commitment = state.commitment
        out["verification"] = verify_deal(game, state.match_id, commitment, dealt, finished, before, dealt_state)
    if seat is None:
        recorded = _plain(finished.summary) if finished is not None else None
        rescored = _plain(game.deal_summary(shadow)) if shadow is not None and finished is not None else None
        out.update(deck=list(dealt.deck), illegal=illegal, recorded_result=recorded,
                   rescored_result=rescored if rescored != recorded else None)
    if views:
        out["steps"] = steps
    return out


def _at(at: Any) -> Any:
    return at.isoformat() if hasattr(at, "isoformat") else at


def _step(state: rules.MatchState, version: int, event: Any, at: Any, seat: Seat | None,
          flag: dict[str, Any] | None) -> dict[str, Any]:
    seen = rules.redact(state, event, seat)
    step: dict[str, Any] = {"version": version, "at": _at(at), "type": type(event).__struct_config__.tag,
                            "mark": mark_of(event), "seen": None if seen is None else _plain(seen),
                            "view": _plain(rules.view(state, seat).table)}
    if seat is None:
        step.update(event=_plain(event), flag=flag, hands=_hands(state.game, state.game_state))
    return step


# --- Deal verification ------------------------------------------------------------------

def verify_deal(game: Any, match_id: str, tip: str | None, dealt: rules.DealDealt,
                finished: rules.DealFinished | None, before: Any, dealt_state: Any) -> dict[str, Any]:
    """The revealed seed against the commitment chain, and the deck it gives against the
    deck and the hands actually dealt. `status`: verified, failed, pending (the seed is
    revealed when the deal ends) or predefined (an imported deck: nothing was shuffled)."""
    fair = dict((finished.fair if finished is not None else None) or dealt.fair or {})
    out: dict[str, Any] = {"deal": dealt.deal, "replay_of": dealt.replay_of, "tip": tip,
                           **{k: fair.get(k) for k in ("seed", "commitment", "context", "entropy")}}
    if dealt.fair is None:
        return {**out, "status": "predefined", "checks": {}, "problems": []}
    if not fair.get("seed"):  # nothing but the commitment before the deal ends (entropy stays unsaid)
        return {"deal": dealt.deal, "replay_of": dealt.replay_of, "tip": tip, "commitment": fair.get("commitment"),
                "status": "pending", "checks": {}, "problems": []}
    k = (dealt.deal if dealt.replay_of is None else dealt.replay_of) + 1
    checks: dict[str, bool] = {}
    try:
        seed, commitment = bytes.fromhex(fair["seed"]), bytes.fromhex(fair["commitment"])
        checks["context"] = fair["context"] == fairness.match_context(match_id, k) and all(
            fair.get(key) == dealt.fair.get(key) for key in ("context", "commitment", "entropy"))
        checks["seed_matches_commitment"] = fairness.verify_seed(seed, commitment, 1)
        checks["seed_in_published_chain"] = tip is not None and fairness.verify_seed(seed, bytes.fromhex(tip), k)
        deck = fairness.permute(game.deck, fairness.derive_key(seed, fair["context"], fair.get("entropy") or None))
        checks["deck"] = list(deck) == list(dealt.deck)
        redealt, _ = game.apply(before, StartDeal(dealt.dealer, tuple(deck), dealt.fair))
        checks["hands"] = dealt_state is not None and _hands(game, redealt) == _hands(game, dealt_state)
    except (KeyError, TypeError, ValueError, RuleViolation) as error:
        checks["inputs"] = False
        out["error"] = str(error)
    problems = [name for name, ok in checks.items() if not ok]
    return {**out, "chain_index": k, "status": "failed" if problems else "verified", "checks": checks,
            "problems": problems}
