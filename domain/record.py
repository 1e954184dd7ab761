"""Playing a match record (shared/rules/README.md, "Match records") through the real rules.

Written once for every game: the game supplies option parsing, action parsing, the decider
and a per-deal summary through its `GameRules`. The output and error objects are the ones
the README fixes, so `atout record play` and `POST /v1/records/play` answer alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain import fair_chain
from domain.cards import CardCodeError, Seat, parse_cards
from domain.game import AdjustScore, GameRules, RuleViolation, StartDeal, VoidDeal
from domain.games import load


class RecordError(Exception):
    """The first thing wrong with a record, positioned as the README's conventions ask."""

    def __init__(self, deal: int | None, index: int | None, code: str, message: str,
                 details: Mapping[str, Any] | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.deal, self.index, self.code, self.message = deal, index, code, message
        self.details = dict(details or {})

    def as_json(self) -> dict[str, Any]:
        out = {"ok": False, "deal": self.deal, "index": self.index, "code": self.code, "message": self.message}
        if self.details:  # the README's object, extended: `details.check` names a failed fair-chain check
            out["details"] = self.details
        return out


def play_record(record: Any, legal: bool = False) -> dict[str, Any]:
    """The README's result object; `{"ok": false, ...}` at the first problem (never raises)."""
    try:
        return _play(record, legal)
    except RecordError as error:
        return error.as_json()


def _play(record: Any, legal: bool) -> dict[str, Any]:
    if not isinstance(record, Mapping):
        raise RecordError(None, None, "bad_record", "a match record is a JSON object")
    try:
        game = load(record.get("game"))  # type: ignore[arg-type]
        options = game.parse_options(record.get("options") or {})
    except RuleViolation as violation:
        raise RecordError(None, None, violation.code, violation.message) from None
    deals = record.get("deals")
    if not isinstance(deals, list):
        raise RecordError(None, None, "bad_record", "'deals' must be a list of deals")
    _check_chains(record)
    rulings = _rulings(record.get("rulings"), len(deals))
    verdicts = fair_chain.verify_record(record, game.deck)

    state = game.initial(options)
    summaries: list[dict[str, Any]] = []
    for d, deal in enumerate(deals):
        state = _start(game, state, d, deal, verdicts[d])
        actions = deal.get("actions", [])
        if not isinstance(actions, list):
            raise RecordError(d, None, "bad_record", "'actions' must be a list")
        for i, action in enumerate(actions):
            try:
                command = game.parse_action(action)
                state, _ = game.apply(state, command)
            except RuleViolation as violation:
                raise RecordError(d, i, violation.code, violation.message) from None
        if d + 1 < len(deals) and game.status(state).phase == "in_deal":
            raise RecordError(d, len(actions), "deal_incomplete",
                              f"deal {d} stops before its end but another deal follows it")
        summaries.append(game.deal_summary(state))
        for ruling in rulings.get(d, []):
            try:
                state, _ = game.apply(state, ruling)
            except RuleViolation as violation:
                raise RecordError(d, None, violation.code, violation.message) from None

    status = game.status(state)
    result: dict[str, Any] = {"ok": True, "deals": summaries, "match_score": status.match_score,
                              "winner": status.winner}
    if legal:
        result["legal"] = legal_now(game, state)
    return result


def legal_now(game: GameRules, state: Any) -> dict[str, list[dict[str, Any]]]:
    """Every seat that may act now and its legal actions; {} between deals (no deck yet)."""
    if game.status(state).phase != "in_deal":
        return {}
    out: dict[str, list[dict[str, Any]]] = {}
    for seat in Seat:
        actions = game.legal_actions(state, seat)
        if actions:
            out[str(seat)] = actions
    return out


def _start(game: GameRules, state: Any, d: int, deal: Any, verdict: Mapping[str, Any]) -> Any:
    if not isinstance(deal, Mapping):
        raise RecordError(d, None, "bad_record", "each deal is a JSON object with 'dealer' and 'deck'")
    try:
        dealer = Seat(deal.get("dealer"))
    except ValueError:
        raise RecordError(d, None, "bad_record", f"bad dealer {deal.get('dealer')!r}; seats are N, E, S, W") from None
    raw_deck = deal.get("deck")
    if not isinstance(raw_deck, list):
        raise RecordError(d, None, "bad_deck", "'deck' must be a list of card codes")
    try:
        deck = tuple(parse_cards(raw_deck))
    except CardCodeError as error:
        raise RecordError(d, None, "bad_deck", str(error)) from None
    fair = deal.get("fair")
    if verdict["failed"]:
        raise RecordError(d, None, "bad_deck", verdict["message"], {"check": verdict["failed"]})
    try:
        state, _ = game.apply(state, StartDeal(dealer=dealer, deck=deck, fair=fair))
    except RuleViolation as violation:
        raise RecordError(d, None, violation.code, violation.message) from None
    return state


def _count(value: Any, low: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= low


def _hash(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdefABCDEF" for c in value)


def _check_chains(record: Mapping[str, Any]) -> None:
    """An exported record's chains (docs/fair-deal.md, "In match records"), when it has them:
    `tip` and `chain_length` of the first, `renewals` in order. Only their shape is checked
    here; records without them play as before."""
    if "tip" in record and not _hash(record["tip"]):
        raise RecordError(None, None, "bad_record", "'tip' must be 64 hex digits")
    if "chain_length" in record and not _count(record["chain_length"], 1):
        raise RecordError(None, None, "bad_record", "'chain_length' must be a positive integer")
    renewals = record.get("renewals", [])
    if not isinstance(renewals, list):
        raise RecordError(None, None, "bad_record", "'renewals' must be a list")
    previous = (1, 0)
    for renewal in renewals:
        ok = isinstance(renewal, Mapping) and _hash(renewal.get("tip")) and _count(renewal.get("chain_length"), 1) \
            and _count(renewal.get("chain"), 2) and _count(renewal.get("first_deal"), 1)
        if not ok or renewal["chain"] != previous[0] + 1 or renewal["first_deal"] <= previous[1]:
            raise RecordError(None, None, "bad_record", f"bad renewal {renewal!r}: chain (from 2), tip (64 hex), "
                              "chain_length and first_deal, numbered on from the one before and starting later")
        previous = (renewal["chain"], renewal["first_deal"])


def _rulings(raw: Any, n_deals: int) -> dict[int, list[Any]]:
    if raw is None:
        return {}
    if not isinstance(raw, list):
        raise RecordError(None, None, "bad_record", "'rulings' must be a list")
    out: dict[int, list[Any]] = {}
    for ruling in raw:
        if not isinstance(ruling, Mapping) or not isinstance(ruling.get("deal"), int) \
                or not 0 <= ruling["deal"] < n_deals:
            raise RecordError(None, None, "bad_record", f"bad ruling {ruling!r}")
        kind = ruling.get("ruling")
        if kind == "void":
            command: Any = VoidDeal(deal=ruling["deal"], reason=str(ruling.get("reason", "")))
        elif kind == "adjust" and isinstance(ruling.get("score"), Mapping):
            command = AdjustScore(deal=ruling["deal"], score={str(k): int(v) for k, v in ruling["score"].items()},
                                  reason=str(ruling.get("reason", "")))
        else:
            raise RecordError(None, None, "bad_record", f"unknown ruling {kind!r}; use 'void' or 'adjust'")
        out.setdefault(ruling["deal"], []).append(command)
    return out
