"""A human partner's conventions, kept by the `master` in Five Hundred (`conventions.py`),
each on fixed deals: no bid of 8 without the cards, no-trumps promise the Joker (and are
read so), the unsupporting partner's first lead is a trump, a misère bidder's winning card
is never overtaken."""

from __future__ import annotations

import random

from domain.bots import FAMILIES, conventions, policy_for
from domain.bots.five_hundred import determinize
from domain.cards import JOKER, SEATS, Seat
from domain.five_hundred.ranking import SUIT_OF
from domain.game import StartDeal
from domain.games import load

GAME = load("five_hundred")
OPTIONS = GAME.parse_options({})


def _deal(hands: dict[Seat, list[str]], dealer: Seat = Seat.W):
    """The deal giving each seat `hands[seat]` (the kitty the cards left over)."""
    canonical, _ = GAME.apply(GAME.initial(OPTIONS), StartDeal(dealer=dealer, deck=tuple(GAME.deck)))
    given = {c for h in hands.values() for c in h}
    rest = iter(c for c in GAME.deck if c not in given)
    into: dict[str, str] = {}
    for i, seat in enumerate(SEATS):
        into.update(zip(canonical.deal.hands[i], hands[seat]))
    deck = tuple(into[c] if c in into else next(rest) for c in GAME.deck)
    state, _ = GAME.apply(GAME.initial(OPTIONS), StartDeal(dealer=dealer, deck=deck))
    return state


def _call(state, seat: Seat, **action):
    state, _ = GAME.apply(state, GAME.parse_action({"seat": str(seat), **action}))
    return state


def _master():
    return policy_for("five_hundred", "master", budget=None, worlds=6, options={})


WEAK = ["4H", "5H", "6H", "7D", "8D", "9D", "5C", "6C", "7C", "8C"]


def test_no_bid_of_eight_without_the_cards() -> None:
    hands = {Seat.N: ["JS", "AS", "KS", "QS", "TS", "9S", "AH", "KH", "AD", "KD"],
             Seat.E: ["JH", "JD", "QH", "TH", "9H", "8H", "AC", "KC", "QD", "TD"],
             Seat.S: WEAK, Seat.W: ["5S", "6S", "7S", "8S", "7H", "4D", "5D", "6D", "9C", "TC"]}
    state = _deal(hands, dealer=Seat.W)
    state = _call(state, Seat.N, action="bid", tricks=7, suit="S")
    state = _call(state, Seat.E, action="bid", tricks=7, suit="H")
    view = GAME.view(state, Seat.S)
    master = _master()
    assert all(a.get("tricks", 0) < 8 for a in master.calls(view, FAMILIES["five_hundred"].basic(view, random.Random(1))))
    action = master(view, random.Random(1))
    assert action is not None and action.get("tricks", 0) < 8


def test_a_no_trump_bid_promises_the_joker() -> None:
    aces = ["AS", "AH", "AD", "AC", "KS", "KH", "KD", "KC", "QS", "QH"]
    hands = {Seat.N: aces, Seat.E: WEAK,
             Seat.S: ["JS", "JC", "JH", "JD", "TS", "TH", "TD", "TC", "9S", "9H"],
             Seat.W: ["5S", "6S", "7S", "8S", "7H", "8H", "4D", "5D", "6D", "9C"]}
    state = _deal(hands, dealer=Seat.W)
    view = GAME.view(state, Seat.N)
    assert JOKER not in view.hand
    basic = FAMILIES["five_hundred"].basic(view, random.Random(2))
    master = _master()
    assert all(a.get("suit") != "NT" for a in master.calls(view, basic))
    action = master(view, random.Random(2))
    assert action is not None and action.get("suit") != "NT"
    assert conventions.no_trump_allowed(aces[:-1] + [JOKER], Seat.N, [])
    assert conventions.no_trump_allowed(aces, Seat.N, [{"seat": "S", "action": "bid", "tricks": 6, "suit": "NT"}])


def _play_to(state, until, rng: random.Random):
    """Play on with `basic` everywhere until `until(state, seat)` holds for the seat to act."""
    basic = FAMILIES["five_hundred"].basic
    for _ in range(80):
        status = GAME.status(state)
        if status.phase != "in_deal":
            return None
        seat = status.to_act[0]
        if until(state, seat):
            return state, seat
        state = _call(state, seat, **{k: v for k, v in basic(GAME.view(state, seat), rng).items() if k != "seat"})
    return None


def test_a_partner_in_no_trumps_is_read_as_holding_the_joker() -> None:
    rng = random.Random(3)
    for seed in range(200):
        deck = list(GAME.deck)
        random.Random(seed).shuffle(deck)
        state, _ = GAME.apply(GAME.initial(OPTIONS), StartDeal(dealer=Seat.W, deck=tuple(deck)))
        if JOKER not in state.deal.hands[0]:
            continue
        state = _call(state, Seat.N, action="bid", tricks=6, suit="NT")
        state = _call(state, Seat.E, action="bid", tricks=7, suit="S")      # the contract goes elsewhere
        for seat in (Seat.S, Seat.W, Seat.N):
            state = _call(state, seat, action="pass")
        found = _play_to(state, lambda s, seat: s.phase == "play" and seat == Seat.S, rng)
        if found is None or JOKER not in found[0].deal.hands[0]:
            continue
        view = GAME.view(found[0], Seat.S)
        for k in range(20):
            world = determinize(view, random.Random(k), OPTIONS, conventions_read=True)
            assert JOKER in world.deal.hands[0]
        return
    raise AssertionError("no deal found")


def test_the_unsupporting_partner_leads_a_trump_first() -> None:
    master = _master()
    for seed in range(60):
        deck = list(GAME.deck)
        random.Random(seed).shuffle(deck)
        state, _ = GAME.apply(GAME.initial(OPTIONS), StartDeal(dealer=Seat.W, deck=tuple(deck)))
        state = _call(state, Seat.N, action="bid", tricks=6, suit="H")
        for seat in (Seat.E, Seat.S, Seat.W):
            state = _call(state, seat, action="pass")

        def first_lead(s, seat) -> bool:
            if s.phase != "play" or seat != Seat.S:
                return False
            view = GAME.view(s, seat)
            leads = not (view.trick and view.trick.get("cards"))
            trumps = [c for c in view.hand if SUIT_OF["H"][c] == "H"]
            return leads and bool(trumps) and len(trumps) < len(view.hand) and not any(
                t["leader"] == "S" for t in view.tricks)

        found = _play_to(state, first_lead, random.Random(seed))
        if found is None:
            continue
        view = GAME.view(found[0], Seat.S)
        action = master(view, random.Random(seed))
        assert SUIT_OF["H"][action["card"]] == "H"
        return
    raise AssertionError("no deal found")


def test_a_misere_defender_never_overtakes_the_bidder() -> None:
    master = _master()
    checked = 0
    for seed in range(80):
        deck = list(GAME.deck)
        random.Random(seed).shuffle(deck)
        state, _ = GAME.apply(GAME.initial(OPTIONS), StartDeal(dealer=Seat.W, deck=tuple(deck)))
        state = _call(state, Seat.N, action="bid", tricks=7, suit="S")
        state = _call(state, Seat.E, action="bid", contract="misere")
        for seat in (Seat.S, Seat.W, Seat.N):
            state = _call(state, seat, action="pass")

        def choice(s, seat) -> bool:
            if s.phase != "play" or seat == Seat.E:
                return False
            view = GAME.view(s, seat)
            table, _ = FAMILIES["five_hundred"].hint_table(view, [a["card"] for a in view.legal])
            cards = [a["card"] for a in view.legal]
            under = conventions.under_misere(view, cards, table)
            return len(under) < len(cards)

        found = _play_to(state, choice, random.Random(seed))
        if found is None:
            continue
        s, seat = found
        view = GAME.view(s, seat)
        table, _ = FAMILIES["five_hundred"].hint_table(view, [a["card"] for a in view.legal])
        under = conventions.under_misere(view, [a["card"] for a in view.legal], table)
        assert master(view, random.Random(seed))["card"] in under
        checked += 1
        if checked == 3:
            return
    raise AssertionError(f"only {checked} positions found")
