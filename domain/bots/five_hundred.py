"""Five Hundred bots: `basic` bidding, kitty use and play from a seat's view, and the
determinization the `expert` searches over.

Bidding is `five_hundred_auction`'s. The contractor uses the kitty to keep its trumps and
aces and to void a short side suit. A misère contractor sheds what leaves it least exposed
and plays its highest card that loses; its defenders play low under it and keep their low
cards, so that it has to take a trick.
"""

from __future__ import annotations

import random
from typing import Any

from domain.bots import cardplay, conventions, five_hundred_auction
from domain.bots.sampling import deal_hidden
from domain.cards import DECK_43, JOKER, PARTNER, SEATS, Seat
from domain.five_hundred.bids import find
from domain.five_hundred.commands import Play
from domain.five_hundred.events import DealScored
from domain.five_hundred.options import Options
from domain.five_hundred.play import legal_cards
from domain.five_hundred.ranking import NO_TRUMP, STRENGTH, SUIT_OF, plain_order
from domain.five_hundred.state import NOBODY, PLAY, SEAT_INDEX, SIDE_OF, Deal, State, make_contract, next_in_play
from domain.tricks import Trick

def _discard(view: Any, spec: dict[str, Any]) -> list[str]:
    cards, denom = list(spec["from"]), view.contract and _denomination(view.contract)
    suit_of = SUIT_OF[denom]
    if view.contract.get("contract"):
        return five_hundred_auction.misere_discard(cards)
    count: dict[Any, int] = {}
    for c in cards:
        count[suit_of[c]] = count.get(suit_of[c], 0) + 1
    spare = [c for c in cards if suit_of[c] != denom and c != JOKER and c[0] != "A"]
    spare.sort(key=lambda c: (count[suit_of[c]], plain_order(c)))
    if len(spare) < 3:
        rest = sorted((c for c in cards if c not in spare), key=lambda c: STRENGTH[denom]["S"][c])
        spare += rest[:3 - len(spare)]
    return spare[:3]


def _denomination(contract: dict[str, Any]) -> str:
    return contract["trump"] or NO_TRUMP


def basic(view: Any, rng: random.Random) -> dict[str, Any] | None:
    seat, legal = view.seat, list(view.legal)
    if not legal:
        return None
    if view.phase == "auction":
        return {"seat": str(seat), **five_hundred_auction.bid(view, seat, legal)}
    if view.phase == "discard":
        return {"seat": str(seat), "action": "discard", "cards": _discard(view, legal[0]["cards"])}
    contract = _contract(view.contract)
    trick = _trick(view.trick, contract, view.tricks)
    tricks = tuple(_trick(t, contract, ()) for t in view.tricks)
    voids = {Seat(s): v for s, v in view.shown_void.items()}
    known = {c for cs in view.exposed.values() for c in cs} if view.contract["seat"] != str(seat) else set()
    card = choose(seat, list(view.hand), legal, trick, tricks, contract, set(view.discarded) | known, voids)
    action = next(a for a in legal if a["card"] == card)
    return {"seat": str(seat), **action}


def choose(seat: Seat, hand: list[str], legal: list[dict[str, Any]], trick: Trick, tricks: tuple[Trick, ...],
           contract: Any, gone: set[str], voids: dict[Seat, str]) -> str:
    cards = list(dict.fromkeys(a["card"] for a in legal))
    if len(cards) == 1:
        return cards[0]
    t = table(seat, hand, cards, trick, tricks, contract, gone, voids)
    if contract.sitting_out != NOBODY and seat == contract.seat:
        _, best = cardplay.winner(t)
        losing = [c for c in cards if t.power(c, t.led or t.suit_of(c)) < best] if t.plays else []
        following = [c for c in losing if t.suit_of(c) == t.led]
        if following:
            return max(following, key=lambda c: t.power(c, t.led))      # the highest card that still loses
        if losing:
            return max(losing, key=plain_order)                         # void: shed the most dangerous card
        return cardplay.cheapest(t, cards)
    if contract.sitting_out != NOBODY:
        return against_misere(t, contract.seat, cards)
    return cardplay.choose(t)


def against_misere(t: cardplay.Table, contractor: Seat, cards: list[str]) -> str:
    """A defender of a misère wants the contractor to take a trick: lead low in a suit he
    still holds, stay under his card when he holds the trick, play low before him, and
    throw high cards away whenever the trick is lost to him anyway (low ones are the
    defence's weapons)."""
    def low(c: str) -> int:
        return t.power(c, t.led or t.suit_of(c) or "S")
    if not t.plays:
        void = t.voids.get(contractor, "")
        held = [c for c in cards if t.suit_of(c) is not None and t.suit_of(c) not in void] or cards
        return min(held, key=low)
    played = dict(t.plays)
    winner, best = cardplay.winner(t)
    if contractor in played:
        if winner == contractor:
            under = [c for c in cards if t.power(c, t.led) < best]
            if under:
                return max(under, key=low)
        return max(cards, key=plain_order)
    following = [c for c in cards if t.suit_of(c) == t.led]
    return min(following, key=low) if following else max(cards, key=plain_order)


def _contract(raw: dict[str, Any]) -> Any:
    kind = raw.get("contract")
    index = find(None, None, kind) if kind else find(raw["tricks"], raw["trump"] or NO_TRUMP, None)
    return make_contract(Seat(raw["seat"]), index)


def _trick(raw: dict[str, Any] | None, contract: Any, tricks: Any) -> Trick:
    if raw is None:
        leader = Seat(tricks[-1]["winner"]) if tricks else contract.seat
        return Trick(leader=leader)
    suit_of = SUIT_OF[contract.denomination]
    seats, s = [], Seat(raw["leader"])
    for _ in raw["cards"]:
        seats.append(s)
        s = SEATS[next_in_play(SEAT_INDEX[s], contract.sitting_out)]
    plays = tuple(zip(seats, raw["cards"]))
    led = raw.get("led") or (suit_of[raw["cards"][0]] if raw["cards"] else None)
    winner = Seat(raw["winner"]) if raw.get("winner") else None
    return Trick(leader=Seat(raw["leader"]), plays=plays, led=led if plays else None, winner=winner)


def _after(trick: Trick, seat: Seat, contract: Any) -> tuple[Seat, ...]:
    size = 3 if contract.sitting_out != NOBODY else 4
    out, i = [], SEAT_INDEX[seat]
    for _ in range(size - 1 - len(trick.plays)):
        i = next_in_play(i, contract.sitting_out)
        out.append(SEATS[i])
    return tuple(out)


def table(seat: Seat, hand: Any, legal: list[str], trick: Trick, tricks: Any, contract: Any,
          gone: set[str], voids: dict[Seat, str]) -> cardplay.Table:
    denom = contract.denomination
    suit_of = SUIT_OF[denom]
    strength = STRENGTH[denom]
    played = {c for t in tricks for _, c in t.plays} | {c for _, c in trick.plays}
    after = _after(trick, seat, contract)
    partner = None if contract.sitting_out != NOBODY and seat == contract.seat else PARTNER[seat]
    return cardplay.Table(
        seat=seat, partner=partner, hand=hand, legal=legal, plays=trick.plays,
        led=trick.led if trick.plays else None, trump=None if denom == NO_TRUMP else denom,
        suit_of=suit_of.__getitem__, power=lambda c, led: strength[led or suit_of[c] or "S"][c],
        points=lambda c: 0, unseen=frozenset(DECK_43) - played - set(hand) - gone, still_to_play=len(after),
        declaring=SIDE_OF[SEAT_INDEX[seat]] == contract.side, voids=voids, after=after)


# --- the expert's side -----------------------------------------------------------------------

def searchable(view: Any) -> bool:
    return view.phase == "play" and view.turn == view.seat


def play_candidates(view: Any) -> list[dict[str, Any]]:
    """The cards the expert weighs: every legal one (a Joker lead once per suit it may name)."""
    return [a for a in view.legal if a.get("action") == "play"]


def determinize(view: Any, rng: random.Random, options: Options | None = None, conventions_read: bool = False
                ) -> State:
    """A full state of the deal consistent with the view; `conventions_read`: the master's
    reading of the auction, a no-trump bidder dealt the Joker (`conventions.py`)."""
    me = view.seat
    contract = _contract(view.contract)
    trick = _trick(view.trick, contract, view.tricks)
    tricks = tuple(_trick(t, contract, ()) for t in view.tricks)
    played = {c for t in (*tricks, trick) for _, c in t.plays}
    known = {c: contract.seat for cs in view.exposed.values() for c in cs if c not in played}
    if contract.seat == me:
        known = {}
    voids = {Seat(s): v for s, v in view.shown_void.items()}
    suit_of = SUIT_OF[contract.denomination]
    promised = conventions.joker_holder(list(view.auction), me) if conventions_read else None
    if (promised is not None and JOKER not in played and JOKER not in view.hand and JOKER not in view.discarded
            and view.hand_sizes[str(promised)] > 0 and (suit_of[JOKER] or "") not in voids.get(promised, "")
            and SEAT_INDEX[promised] != contract.sitting_out):
        known.setdefault(JOKER, promised)          # a no-trump bid promised it
    hidden = [c for c in DECK_43 if c not in played and c not in view.hand and c not in view.discarded]
    room: dict[Any, int] = {s: view.hand_sizes[str(s)] for s in SEATS if s != me}
    if contract.seat != me:
        room["discards"] = 3
    dealt = deal_hidden(hidden, room, rng,
                        lambda h, c: h == "discards" or suit_of[c] is None or suit_of[c] not in voids.get(h, ""),
                        known, weight=_affinity(view, contract))
    hands = tuple(tuple(view.hand) if s == me else tuple(dealt[s]) for s in SEATS)
    discards = tuple(view.discarded) if contract.seat == me else tuple(dealt["discards"])
    won = (view.tricks_won["NS"], view.tricks_won["EW"])
    deal = Deal(number=view.deal - 1, dealer=view.dealer, hands=hands, discards=discards, high=contract.bid,
                turn=view.turn, contract=contract, trick=trick, tricks=tricks, won=won,
                void=tuple(view.shown_void.get(str(s), "") for s in SEATS), exposed=bool(view.exposed))
    return State(options=options or Options(), phase=PLAY, deals_played=view.deal, deal=deal)


def _affinity(view: Any, contract: Any) -> Any:
    """What the auction says: a seat that bid a suit holds its trumps (the Joker and the
    bowers among them), one that bid no-trumps its aces; the contractor kept its trumps
    from the kitty."""
    liked: dict[Seat, set[str]] = {}
    for call in view.auction:
        suit = call.get("suit")
        if call.get("action") != "bid" or suit is None:
            continue
        seat = Seat(call["seat"])
        if suit == NO_TRUMP:
            liked.setdefault(seat, set()).update({"A" + s for s in "SCDH"} | {JOKER})
        else:
            liked.setdefault(seat, set()).update(c for c in DECK_43 if SUIT_OF[suit][c] == suit)

    def weight(holder: Any, card: str) -> float:
        if holder in liked and card in liked[holder]:
            return 4.0 if holder == contract.seat else 2.5
        return 1.0

    return weight


def to_act(state: State) -> Seat | None:
    return state.deal.turn if state.phase == PLAY else None


def rollout_command(state: State, seat: Seat, rng: random.Random) -> Any:
    i = SEAT_INDEX[seat]
    cards = legal_cards(state, i)
    trick = state.deal.trick
    if len(cards) > 1:
        voids = {s: state.deal.void[j] for j, s in enumerate(SEATS) if state.deal.void[j]}
        legal = [{"card": c} for c in cards]
        deal = state.deal
        card = choose(seat, list(deal.hands[i]), legal, trick, deal.tricks, deal.contract, set(), voids)
    else:
        card = cards[0]
    suit = None
    if card == JOKER and not trick.plays and state.deal.contract.denomination == NO_TRUMP:
        from domain.five_hundred.play import joker_suits
        suit = rng.choice(joker_suits(state, i))
    return Play(seat, card, suit)


def command(action: dict[str, Any]) -> Any:
    return Play(Seat(action["seat"]), action["card"], action.get("suit"))


def deal_value(event: Any, seat: Seat) -> float | None:
    if isinstance(event, DealScored):
        mine = "NS" if seat in (Seat.N, Seat.S) else "EW"
        return float(event.score[mine] - event.score["EW" if mine == "NS" else "NS"])
    return None


# --- What a hint's reason reads of the view (domain/bots/hints.py) ---------------------------

def hint_table(view: Any, cards: list[str]) -> tuple[cardplay.Table | None, bool]:
    """The seat's trick as `cardplay` reads it (as `basic` builds it), and whether the seat
    plays a misère: to lose every trick."""
    if view.contract is None:
        return None, False
    seat = view.seat
    contract = _contract(view.contract)
    trick = _trick(view.trick, contract, view.tricks)
    tricks = tuple(_trick(t, contract, ()) for t in view.tricks)
    voids = {Seat(s): v for s, v in view.shown_void.items()}
    mine = view.contract["seat"] == str(seat)
    known = set() if mine else {c for cs in view.exposed.values() for c in cs}
    found = table(seat, list(view.hand), cards, trick, tricks, contract, set(view.discarded) | known, voids)
    return found, mine and view.contract.get("contract") is not None


def high_bidder(view: Any) -> Seat | None:
    calls = [c for c in view.auction if c.get("action") != "pass"]
    return Seat(calls[-1]["seat"]) if calls else None


def contract_tricks(view: Any) -> tuple[str | None, int | None]:
    """A trick contract being played: the tricks the seat's side still needs."""
    contract = view.contract
    if contract.get("contract") is not None or contract.get("tricks") is None:
        return None, None
    team = contract["team"]
    side = next(name for name in view.tricks_won if str(view.seat) in name)
    won = view.tricks_won
    if side == team:
        needed = contract["tricks"] - won[team]
        return ("contract_needs", needed) if needed > 0 else (None, None)
    needed = 11 - contract["tricks"] - won[side]
    return ("defence_needs", needed) if needed > 0 else (None, None)
