"""Belote bots (classic, sans atout, Coinche): `basic` play from a seat's view, and the
determinization the `expert` searches over.

Bidding is `belote_auction`'s (the hand's worth as trumps, the partner's bid counted once).
Play goes through `cardplay` with belote's card facts.
Everything reads the seat's `View` only; `determinize` deals the cards the seat cannot see
consistently with it (voids shown, the turn-up in the taker's hand, a belote announced, the
combinations shown) and builds a state the real rules can play on.
"""

from __future__ import annotations

import random
from typing import Any

from domain.belote.combinations import choose as choose_combos, find as find_combos
from domain.belote.commands import Play
from domain.belote.events import Combination, DealScored
from domain.belote.play import card_points, legal_for
from domain.belote.ranking import ALL_TRUMPS, SUIT, TRICK_RULES
from domain.belote.state import NEXT, PARTNER, TEAM, Deal, State
from domain.bots import belote_auction, cardplay
from domain.bots.sampling import deal_hidden
from domain.cards import DECK_32, SEATS, Seat
from domain.tricks import Trick, current_winner

# --- play -----------------------------------------------------------------------------------

def _voids(tricks: tuple[Trick, ...], trick: Trick | None, trump: str | None) -> dict[Seat, str]:
    """Suits each seat has shown void in: it did not follow; and in a trump contract, it
    neither followed nor trumped while an opponent held the trick (R4 would have made it
    trump), so it has no trump either (tout atout has no trump apart from the suit led)."""
    voids: dict[Seat, str] = {}
    rules = TRICK_RULES[trump]
    for t in (*tricks, *((trick,) if trick is not None and trick.plays else ())):
        led = SUIT[t.plays[0][1]]
        for i, (seat, card) in enumerate(t.plays[1:], start=1):
            suit = SUIT[card]
            if suit == led:
                continue
            voids[seat] = voids.get(seat, "") + led
            if trump is not None and trump != ALL_TRUMPS and suit != trump and led != trump:
                so_far = Trick(t.leader, t.plays[:i], led)
                if current_winner(so_far, rules) != PARTNER[seat]:
                    voids[seat] += trump
    return voids


def _after(trick: Trick, seat: Seat) -> tuple[Seat, ...]:
    out, s = [], seat
    for _ in range(3 - len(trick.plays)):
        s = NEXT[s]
        out.append(s)
    return tuple(out)


def table(seat: Seat, hand: tuple[str, ...], legal: list[str], trick: Trick, tricks: tuple[Trick, ...],
          contract: Any, official: bool, voids: dict[Seat, str] | None = None) -> cardplay.Table:
    trump = contract.trump
    values = card_points(contract, official)
    played = {c for t in tricks for _, c in t.plays} | {c for _, c in trick.plays}
    return cardplay.Table(
        seat=seat, partner=PARTNER[seat], hand=hand, legal=legal, plays=trick.plays,
        led=trick.led if trick.plays else None, trump=trump, suit_of=SUIT.__getitem__,
        power=TRICK_RULES[trump].strength, points=values.__getitem__,
        unseen=frozenset(DECK_32) - played - set(hand), still_to_play=3 - len(trick.plays),
        declaring=TEAM[seat] == contract.team, voids=voids or {}, after=_after(trick, seat))


def basic(view: Any, rng: random.Random) -> dict[str, Any] | None:
    seat, legal = view.seat, list(view.legal)
    if not legal:
        return None
    if view.phase == "auction":
        if view.options.variant == "coinche":
            action = belote_auction.bid_coinche(view, seat, legal)
        else:
            action = belote_auction.bid_classic(view, legal)
        return None if action is None else {"seat": str(seat), **action}
    cards = [a["card"] for a in legal if a["action"] == "play" and "belote" not in a]
    if not cards:
        return None                                  # only declining combinations, out of turn
    t = table(seat, view.hand, cards, view.trick, view.tricks, view.contract, view.options.official,
              _voids(view.tricks, view.trick, view.contract.trump))
    return {"seat": str(seat), "action": "play", "card": cardplay.choose(t)}


# --- the expert's side: determinize, play out, score -----------------------------------------

def searchable(view: Any) -> bool:
    return view.phase == "play" and view.turn == view.seat and view.trick is not None


def _affinity(view: Any) -> Any:
    """What a Coinche auction says: a seat that bid a suit holds its trumps, the jack and the
    nine above all; the contract's bidder most. A weight on the dealing, never a constraint
    (a stretched bid stays possible). The classic taker is left out: leaning his trumps the
    same way measured no better (300 boards: +20.5 a deal against basic, +21.0 without)."""
    liked: dict[Seat, set[str]] = {}
    taker = view.contract.seat
    for call in view.calls:
        if call.action == "bid" and call.suit is not None:
            liked.setdefault(call.seat, set()).add(call.suit)

    def weight(holder: Any, card: str) -> float:
        if card[1] not in liked.get(holder, ()):
            return 1.0
        high = 2.0 if card[0] in "J9" else 1.0
        return high * (2.5 if holder == taker else 1.75)

    return weight


def play_candidates(view: Any) -> list[dict[str, Any]]:
    """The cards the expert weighs: each legal card once, the king or queen of trumps with
    the belote said (saying it costs nothing and is worth 20)."""
    return [a for a in view.legal if a.get("action") == "play" and a.get("belote") is not False]


def determinize(view: Any, rng: random.Random, options: Any = None) -> State:
    """A full state of the deal in which this seat's view is exactly what it sees (the
    view carries the options: `options` is for the families whose view does not)."""
    me, contract = view.seat, view.contract
    trump = contract.trump
    played_by: dict[Seat, list[str]] = {s: [] for s in SEATS}
    for t in (*view.tricks, view.trick):
        for s, c in t.plays:
            played_by[s].append(c)
    played = {c for cs in played_by.values() for c in cs}
    known: dict[str, Seat] = {}
    if view.turn_up is not None and contract.seat != me and view.turn_up not in played:
        known[view.turn_up] = contract.seat
    for s, said in view.announces:
        if said == "belote" and s != me and not any(x == s and y == "rebelote" for x, y in view.announces):
            for c in ("K" + trump, "Q" + trump):
                if c not in played:
                    known[c] = s
    for combo in view.combinations_shown:
        if combo.seat != me:
            known.update({c: combo.seat for c in combo.cards if c not in played})
    voids = _voids(view.tricks, view.trick, trump)
    hidden = [c for c in DECK_32 if c not in played and c not in view.hand]
    room = {s: view.hand_sizes[s] for s in SEATS if s != me}
    dealt = deal_hidden(hidden, room, rng, lambda s, c: SUIT[c] not in voids.get(s, ""), known,
                        weight=_affinity(view))
    hands = tuple(tuple(view.hand) if s == me else tuple(dealt[s]) for s in SEATS)
    full = {s: set(hand) | set(played_by[s]) for s, hand in zip(SEATS, hands)}
    holder = next((s for s in SEATS if trump and {"K" + trump, "Q" + trump} <= full[s]), None)
    said = {x for _, x in view.announces}
    belote = "done" if "rebelote" in said else "announced" if "belote" in said else ""
    if not belote and holder is not None and {"K" + trump, "Q" + trump} & set(played_by[holder]):
        belote = "declined"
    combos: dict[Seat, tuple[Combination, ...]] = {}
    declined: tuple[Seat, ...] = ()
    if view.options.combinations and (not view.tricks or (len(view.tricks) == 1 and not view.trick.plays)):
        nt_table = trump is None and view.options.official
        for s in SEATS:
            found = choose_combos(find_combos(s, full[s], nt_table), view.options.official, trump)
            if s in view.declared and not found:
                found = (Combination(s, view.declared[s], 20, None, "9", ()),)
            if found:
                combos[s] = found
        declined = tuple(s for s in combos if s not in view.declared and played_by[s])
    deal = Deal(number=view.deal - 1, dealer=view.dealer, eldest=NEXT[view.dealer], phase="play", turn=view.turn,
                hands=hands, turn_up=view.turn_up, calls=view.calls, contract=contract, trick=view.trick,
                tricks=view.tricks, points=dict(view.points), belote_holder=holder, belote=belote,
                announces=view.announces, combinations=combos, declared=dict(view.declared), declined=declined,
                combination_team=view.combinations_team, shown=view.combinations_shown,
                combination_points=sum(c.value for c in view.combinations_shown))
    return State(options=view.options, deal=deal, deals_played=view.deal, next_dealer=NEXT[view.dealer],
                 pool=view.pool, match_score=dict(view.match_score))


def to_act(state: State) -> Seat | None:
    deal = state.deal
    return deal.turn if deal is not None and deal.phase == "play" else None


def rollout_command(state: State, seat: Seat, rng: random.Random) -> Any:
    deal = state.deal
    cards = list(legal_for(state.options, deal, seat))
    if len(cards) == 1:
        return Play(seat, cards[0])
    t = table(seat, deal.hand(seat), cards, deal.trick, deal.tricks, deal.contract, state.options.official)
    return Play(seat, cardplay.choose(t))


def command(action: dict[str, Any]) -> Any:
    return Play(Seat(action["seat"]), action["card"], action.get("belote", True))


def deal_value(event: Any, seat: Seat) -> float | None:
    """The deal's margin for `seat`'s side, once the events say the deal is scored."""
    if isinstance(event, DealScored):
        mine = TEAM[seat]
        other = "EW" if mine == "NS" else "NS"
        return float(event.score[mine] - event.score[other])
    return None


# --- What a hint's reason reads of the view (domain/bots/hints.py) ---------------------------

def hint_table(view: Any, cards: list[str]) -> tuple[cardplay.Table | None, bool]:
    """The seat's trick as `cardplay` reads it (as `basic` builds it), and no misère."""
    if view.trick is None or view.contract is None:
        return None, False
    voids = _voids(view.tricks, view.trick, view.contract.trump)
    return table(view.seat, view.hand, cards, view.trick, view.tricks, view.contract, view.options.official,
                 voids), False


def high_bidder(view: Any) -> Seat | None:
    call = next((c for c in reversed(view.calls) if c.action == "bid"), None)
    return None if call is None else call.seat


def contract_tricks(view: Any) -> tuple[str | None, int | None]:
    """A Coinche capot: its takers need every trick, so one trick defeats it."""
    contract = view.contract
    if contract.value != "capot":
        return None, None
    team = contract.team
    mine = TEAM[view.seat] == team
    taken = [t for t in view.tricks if t.winner is not None and TEAM[t.winner] == team]
    if len(taken) < len(view.tricks):
        return None, None                   # already lost
    if mine:
        return "contract_needs", 8 - len(view.tricks)
    return "defence_needs", 1
