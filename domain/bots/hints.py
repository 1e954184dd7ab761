"""Hints for a human seat: the master's choice, and a reason a player can read.

`suggest(game, view)` asks the `master` for the seat's decision and `reason(game, view,
action)` says why in a few words. Both read the seat's view only (the same object the
seat's client gets), so a hint can never tell more than the seat already knows. The
expert's random numbers are seeded from the view itself and its time budget is off
(`EXPERT_SETTINGS`): the same view always gives the same hint, whatever the cards the
seat cannot see and however loaded the machine is. Its play solves at most 16 worlds, in
at most `HINT_NODES` nodes of the solver between them: a count, not a time, so it cuts a
long search the same way on any machine.

A reason is a stable `code` (a client may translate it), `params` for the numbers and
suits it names, and `words`, its English text. The codes and their params are listed in
`REASONS` and in docs/bots.md; a code is never renamed, only added.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import msgspec

from domain.bots import cardplay, policy_for, unwrap
from domain.bots.hint_tables import card_table, contract_tricks, high_bidder
from domain.cards import PARTNER

HINT_NODES = 3_000_000
"""About 0.2 s of one core: what the worst of a deal's first tricks may cost a hint."""
EXPERT_SETTINGS: dict[str, Any] = {"budget": None, "play_worlds": 16, "nodes": HINT_NODES}
"""Worlds and nodes only, so the view alone decides; the play's solved worlds capped, since
hints run in the API process (docs/bots.md, "Hints")."""

# code -> English template over its params; a code is never renamed, only added.
REASONS: dict[str, str] = {
    "only_choice": "This is the only legal choice.",
    "nothing_now": "Nothing to do now: let the others speak.",
    "take_trumps": "Take: you hold {trumps} {suit_name} as trumps{honours}.",
    "take_no_trumps": "Take: {aces} aces make a strong hand without trumps.",
    "bid_suit": "Bid {level} in {suit_name}: you hold {trumps} of them{honours}.",
    "bid_points": "Bid {level}: your best suit is {suit_name} ({trumps} cards).",
    "bid_all_trumps": "Bid {level} in all trumps: jacks and nines, the masters of every suit, in your hand: {masters}.",
    "bid_no_trumps": "Bid {level} without trumps: aces and tens, the masters of every suit, in your hand: {masters}.",
    "bid_misere": "Misère: the hand has no card sure to take a trick.",
    "raise_partner": "Partner bid {suit_name}, and your hand supports it.",
    "pass_partner": "Partner holds the contract: leave it to him.",
    "pass_weak": "Pass: the hand is not strong enough for a higher bid.",
    "double": "Coinche: your hand should defeat their contract.",
    "redouble": "Surcoinche: your side should make its contract.",
    "choose_trump": "Name {suit_name}: your strongest suit ({trumps} cards).",
    "keep_best": "Keep trumps and high cards; shed the cards that cannot win.",
    "draw_trumps": "Lead trumps to draw the opponents' trumps.",
    "cash_master": "This card is the highest one left in its suit.",
    "lead_low": "Lead low and keep your high cards for later.",
    "ruff": "You have none of the suit led: trump to take the trick.",
    "win_trick": "This card wins the trick.",
    "take_lead": "This card takes the lead in the trick.",
    "feed_partner": "Partner is winning the trick: give him points.",
    "partner_winning": "Partner is winning the trick: keep your good cards.",
    "trick_lost": "The trick is lost: throw the card that costs least.",
    "duck": "Let this trick go and keep your stronger cards.",
    "lose_trick": "Misère: you must lose every trick, so play under the winning card.",
    "best_outcome": "Over the deals consistent with what you have seen, this scored best.",
}
# Appended to a card's reason when the contract counts tricks (Five Hundred).
NEEDS: dict[str, str] = {
    "contract_needs": "The contract needs {tricks_word} more trick{plural}.",
    "defence_needs": "Your side needs {tricks_word} more trick{plural} to defeat the contract.",
}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", "NT": "no trumps", None: "no trumps"}
NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


class Reason(msgspec.Struct, frozen=True):
    code: str
    words: str
    params: dict[str, Any] = {}


class Hint(msgspec.Struct, frozen=True):
    action: dict[str, Any] | None       # the expert's action with its seat; None: nothing to do now
    reason: Reason


def _reason(code: str, needs: str | None = None, **params: Any) -> Reason:
    shown = {k: v for k, v in params.items() if v is not None}
    fill = {**shown, "suit_name": SUIT_NAMES.get(shown.get("suit"), shown.get("suit")),
            "honours": _honours(shown.get("honours", ()))}
    words = REASONS[code].format(**fill)
    if needs is not None:
        tricks = shown["tricks_needed"]
        words += " " + NEEDS[needs].format(tricks_word=NUMBER_WORDS[min(tricks, 10)],
                                           plural="" if tricks == 1 else "s")
        shown["needs"] = needs
    if "honours" in shown:
        shown["honours"] = list(shown["honours"])
    return Reason(code=code, words=words, params=shown)


def _honours(names: Any) -> str:
    names = list(names)
    if not names:
        return ""
    return ", with the " + " and the ".join(names)


def seed_of(view: Any) -> int:
    """The expert's seed for this view: a function of what the seat sees, nothing else."""
    table, options = unwrap(view)
    digest = hashlib.sha256(msgspec.json.encode(table) + msgspec.json.encode(options))
    return int.from_bytes(digest.digest()[:8], "big")


def suggest(game_name: str, view: Any, **settings: Any) -> Hint:
    """The master's decision for the seat whose view this is (solved worlds in the play, in
    Belote's and Cinch's auctions and Cinch's robbing, the expert's search in Five Hundred's
    auction), with its reason."""
    policy = policy_for(game_name, "master", **{**EXPERT_SETTINGS, **settings})
    action = policy(view, random.Random(seed_of(view)))
    return Hint(action=action, reason=reason(game_name, view, action))


def reason(game_name: str, view: Any, action: dict[str, Any] | None) -> Reason:
    """Why `action` is the seat's choice in `view`, in a few words (a stable code first)."""
    table, _ = unwrap(view)
    if action is None or table is None:
        return _reason("nothing_now")
    if _forced(table.legal) and table.turn == table.seat:
        return _reason("only_choice")
    kind = action.get("action")
    if kind == "play":
        return _card(game_name, table, action["card"])
    if kind == "pass":
        bidder = high_bidder(game_name, table)
        partner = PARTNER.get(table.seat) if not _individual(table) else None
        return _reason("pass_partner" if bidder is not None and bidder == partner else "pass_weak")
    if kind in ("take", "name", "bid"):
        return _bid(game_name, table, action)
    if kind == "coinche":
        return _reason("double")
    if kind == "surcoinche":
        return _reason("redouble")
    if kind == "trump":
        return _reason("choose_trump", suit=action["suit"], trumps=_count(table.hand, action["suit"], game_name))
    if kind in ("discard", "rob"):
        return _reason("keep_best")
    return _reason("best_outcome")


def _forced(legal: Any) -> bool:
    """Whether the seat has one choice only (a choose-k action counts its combinations)."""
    if len({msgspec.json.encode(a) for a in legal}) != 1:
        return False
    spec = next((v for v in legal[0].values() if isinstance(v, dict) and "choose" in v), None)
    return spec is None or spec["choose"] in (0, len(spec["from"]))


def _individual(table: Any) -> bool:
    options = getattr(table, "options", None)
    return bool(getattr(options, "individual", False))


def _count(hand: Any, suit: str, game_name: str) -> int:
    """The hand's cards that are trumps if `suit` is (Cinch's off-five, Five Hundred's left
    bower and Joker included)."""
    return sum(1 for c in hand or () if _trump_suit(game_name, suit, c) == suit)


def _trump_suit(game_name: str, trump: str, card: str) -> str | None:
    if game_name == "cinch":
        from domain.cinch.ranking import TABLES

        return TABLES[trump].suit_of[card]
    if game_name == "five_hundred":
        from domain.five_hundred.ranking import SUIT_OF

        return SUIT_OF[trump][card]
    return card[1]


HONOUR_NAMES = {"J": "jack", "9": "nine", "A": "ace"}
# Five Hundred's honours in a suit, in order: the Joker, right bower, left bower, ace.
FIVE_HUNDRED_HONOURS = ("Joker", "right bower", "left bower", "ace")
LEFT_BOWER = {"S": "JC", "C": "JS", "H": "JD", "D": "JH"}


def _honours_of(game_name: str, hand: list[str], suit: str) -> tuple[str, ...]:
    """The trumps that make a bid, named: Belote's jack and nine, Five Hundred's Joker,
    bowers and ace."""
    held = set(hand)
    if game_name == "belote":
        return tuple(HONOUR_NAMES[r] for r in "J9" if f"{r}{suit}" in held)
    if game_name == "five_hundred":
        cards = ("JK", f"J{suit}", LEFT_BOWER[suit], f"A{suit}")
        return tuple(name for card, name in zip(cards, FIVE_HUNDRED_HONOURS) if card in held)
    return ()


def _bid(game_name: str, table: Any, action: dict[str, Any]) -> Reason:
    hand = list(table.hand or ())
    if action.get("contract") in ("misere", "open_misere"):
        return _reason("bid_misere")
    if game_name == "belote" and table.options.variant == "sans_atout":
        return _reason("take_no_trumps", aces=sum(1 for c in hand if c[0] == "A"))
    suit = action.get("suit")
    if game_name == "cinch":
        best = max("SHDC", key=lambda s: (_count(hand, s, game_name), s))
        return _reason("bid_points", level=action.get("value"), suit=best, trumps=_count(hand, best, game_name))
    if game_name == "belote" and suit in ("TA", "SA"):
        masters = sum(1 for c in hand if c[0] in ("J9" if suit == "TA" else "AT"))
        return _reason("bid_all_trumps" if suit == "TA" else "bid_no_trumps", level=action.get("value"),
                       masters=masters)
    if suit is None and game_name == "belote" and table.turn_up:
        suit = table.turn_up[1]
        hand = hand + [table.turn_up]
    if suit is None or suit == "NT":
        return _reason("best_outcome") if suit is None else _reason("take_no_trumps",
                                                                   aces=sum(1 for c in hand if c[0] == "A"))
    bidder = high_bidder(game_name, table)
    if bidder is not None and not _individual(table) and bidder == PARTNER.get(table.seat) \
            and _high_suit(game_name, table) == suit:
        return _reason("raise_partner", suit=suit)
    honours = _honours_of(game_name, hand, suit)
    trumps = _count(hand, suit, game_name)
    if kind_is_take(action):
        return _reason("take_trumps", suit=suit, trumps=trumps, honours=tuple(honours))
    level = action.get("value", action.get("tricks"))
    return _reason("bid_suit", suit=suit, level=level, trumps=trumps, honours=tuple(honours))


def kind_is_take(action: dict[str, Any]) -> bool:
    return action.get("action") in ("take", "name")


def _high_suit(game_name: str, table: Any) -> str | None:
    """The suit of the auction's highest bid so far (Belote, Five Hundred), None without one."""
    if game_name == "belote":
        call = next((c for c in reversed(table.calls) if c.action == "bid"), None)
        return None if call is None else call.suit
    if game_name == "five_hundred":
        call = next((c for c in reversed(table.auction) if c.get("action") == "bid"), None)
        return None if call is None else call.get("suit")
    return None


def _card(game_name: str, table: Any, card: str) -> Reason:
    t, misere = card_table(game_name, table)
    needs, tricks = contract_tricks(game_name, table)
    extra: dict[str, Any] = {"needs": needs, "tricks_needed": tricks} if needs is not None else {}
    if t is None:
        return _reason("best_outcome", **extra)
    suit = t.suit_of(card)
    if not t.plays:
        if misere:
            return _reason("lose_trick", **extra)
        if t.trump is not None and suit == t.trump and t.declaring:
            return _reason("draw_trumps", **extra)
        if cardplay.beats_unseen(t, card, suit):
            return _reason("cash_master", **extra)
        same = [c for c in t.hand if t.suit_of(c) == suit]
        if card == min(same, key=lambda c: t.power(c, suit)):
            return _reason("lead_low", **extra)
        return _reason("best_outcome", **extra)
    leader, best = cardplay.winner(t)
    power = t.power(card, t.led)
    if misere:
        return _reason("lose_trick", **extra)
    if power > best:
        if t.trump is not None and suit == t.trump and t.led != t.trump:
            return _reason("ruff", **extra)
        if t.still_to_play == 0 or cardplay.beats_unseen(t, card, t.led):
            return _reason("win_trick", **extra)
        return _reason("take_lead", **extra)
    if leader is not None and leader == t.partner:
        fed = t.points(card) > 0 and t.points(card) == max(t.points(c) for c in t.legal)
        return _reason("feed_partner" if fed else "partner_winning", **extra)
    if not any(t.power(c, t.led) > best for c in t.legal):
        return _reason("trick_lost", **extra)
    return _reason("duck", **extra)


__all__ = ["EXPERT_SETTINGS", "FIVE_HUNDRED_HONOURS", "HINT_NODES", "HONOUR_NAMES", "Hint", "NEEDS", "REASONS", "Reason", "reason", "seed_of", "suggest"]
