"""The calls worth simulating: of an auction's legal actions, the few a player would
seriously weigh, so the expert's budget goes to telling them apart.

Every list holds `basic`'s choice and, when legal, passing; then per game the plausible
strains at realistic levels — the cheapest bid in each of the hand's best strains and a
step or two above it — except in Sans Atout, where the expert weighs only basic's take
against passing (`DROP_CONFIDENCE`), and passes without a search when basic passes. The
search (`expert.py`) decides between them by playing each out; nothing here says which
is best.
"""

from __future__ import annotations

from typing import Any

from domain.cards import JOKER

LIMIT = 7
DROP_CONFIDENCE = 4.0
"""Sans Atout: the expert takes only what `basic` would take, and passes instead when the
worlds show passing better by this many standard errors. A take pays only when it is made
about 80% of the time (a failure gives the defence 130, a success nets about 40), and the
worlds' defenders are `basic`: with every call searched four experts made 63% of their
contracts over 150 deals; with passing anchored they threw in 93% of the deals; dropping
basic's take at 2.5 standard errors, 65% made and 58% thrown in; at 4, over 450 deals, 66%
made and 49% thrown in (basic: 66%, 47%)."""
_BELOTE_TRUMP = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 1, "7": 1}


def _add(out: list[dict[str, Any]], action: dict[str, Any] | None, legal: list[dict[str, Any]]) -> None:
    if action is not None and action in legal and action not in out:
        out.append(action)


def _belote_strength(hand: list[str], suit: str) -> int:
    return sum(_BELOTE_TRUMP[c[0]] + 6 for c in hand if c[1] == suit)


def _coinche(hand: list[str], legal: list[dict[str, Any]], out: list[dict[str, Any]],
             basic_action: dict[str, Any] | None) -> None:
    """Coinche or surcoinche, and the strain basic would name (or the hand's best) at its
    cheapest level and a step either side of basic's: wider choices only fed the search's
    noise (measured)."""
    _add(out, {"action": "coinche"}, legal)
    _add(out, {"action": "surcoinche"}, legal)
    bids = [a for a in legal if a["action"] == "bid" and a["value"] != "capot"]
    if basic_action is not None and basic_action.get("action") == "bid" and basic_action.get("value") != "capot":
        suit, around = basic_action["suit"], basic_action["value"]
    else:
        suit = max("SHDC", key=lambda s: _belote_strength(hand, s))
        around = None
    values = sorted(a["value"] for a in bids if a["suit"] == suit)
    wanted = values[:1] + ([around - 10, around + 10] if around is not None else values[1:2])
    for value in wanted:
        _add(out, {"action": "bid", "value": value, "suit": suit}, legal)


def _cinch(legal: list[dict[str, Any]], out: list[dict[str, Any]]) -> None:
    trumps = [a for a in legal if a["action"] == "trump"]
    if trumps:
        out.extend(a for a in trumps if a not in out)
        return
    values = sorted(a["value"] for a in legal if a["action"] == "bid")
    wanted = [v for v in values if v >= 5][:3] or values[:1]
    for value in wanted:
        _add(out, {"action": "bid", "value": value}, legal)


def _five_hundred_strength(hand: list[str], denomination: str) -> float:
    if denomination == "NT":
        return sum(1.0 for c in hand if c[0] == "A") + (1.5 if JOKER in hand else 0.0)
    bowers = {"S": "C", "C": "S", "D": "H", "H": "D"}
    trumps = [c for c in hand if c == JOKER or c[1] == denomination or c == "J" + bowers[denomination]]
    return len(trumps) + sum(0.5 for c in trumps if c == JOKER or c[0] in "JAK")


def _five_hundred(hand: list[str], legal: list[dict[str, Any]], out: list[dict[str, Any]]) -> None:
    bids = [a for a in legal if a["action"] == "bid" and "tricks" in a]
    strains = sorted({a["suit"] for a in bids}, key=lambda s: -_five_hundred_strength(hand, s))
    for rank, suit in enumerate(strains[:2]):
        levels = sorted(a["tricks"] for a in bids if a["suit"] == suit)
        for tricks in levels[:2 if rank == 0 else 1]:
            _add(out, {"action": "bid", "tricks": tricks, "suit": suit}, legal)
    for a in legal:
        if a["action"] == "bid" and "tricks" not in a:
            _add(out, a, legal)                       # misère and open misère


def _raised_partner(game_name: str, table: Any) -> bool:
    """Whether the partner holds the high bid and this side has already bid over its own
    partner once: a second raise would be a war, whatever the worlds say."""
    from domain.bots.auction_worlds import calls

    if game_name == "cinch" and table.options.individual:
        return False
    seat = str(table.seat)
    partner = {"N": "S", "S": "N", "E": "W", "W": "E"}[seat]
    high, raises = None, 0
    for call in calls(game_name, table):
        if call["action"] != "bid":
            continue
        if high is not None and {high, call["seat"]} == {seat, partner}:
            raises += 1
        high = call["seat"]
    return high == partner and raises >= 1


def candidates(game_name: str, table: Any, basic_action: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The auction actions (without "seat") the expert simulates, `basic`'s first."""
    legal = list(table.legal)
    hand = list(table.hand)
    out: list[dict[str, Any]] = []
    if basic_action is not None:
        _add(out, {k: v for k, v in basic_action.items() if k != "seat"}, legal)
    _add(out, {"action": "pass"}, legal)
    if table.phase == "auction" and _raised_partner(game_name, table):
        return out                                   # basic's call or passing, nothing else
    if _sans_atout(game_name, table):
        return out if basic_action is None or basic_action.get("action") != "pass" else out[:1]
    if game_name == "belote":
        if table.options.variant == "coinche":
            _coinche(hand, legal, out, basic_action)
        else:
            out.extend(a for a in legal if a not in out)
    elif game_name == "cinch":
        _cinch(legal, out)
    else:
        _five_hundred(hand, legal, out)
    return out[:LIMIT]


def _sans_atout(game_name: str, table: Any) -> bool:
    return game_name == "belote" and table.options.variant == "sans_atout"


def confidence(game_name: str, table: Any, default: float) -> float:
    """The standard errors by which a call must beat the anchor: `DROP_CONFIDENCE` for
    passing over basic's Sans Atout take, `default` elsewhere."""
    return DROP_CONFIDENCE if _sans_atout(game_name, table) else default
