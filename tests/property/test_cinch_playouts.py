"""Property tests for Cinch over random legal playouts (domain/playout.py), under every
combination of options: 52 cards accounted for at every step, six tricks of four, points
taken plus dead points = 14, partnership scores never decrease, replay == live state, views
and redacted events never leak, one seat acts at a time. That every offered action is
accepted and others refused is the conformance suite's (tests/property/test_conformance.py)."""

from __future__ import annotations

import itertools
import random
import re

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.cards import DECK_52, SEATS
from domain.cinch import GAME
from domain.cinch.events import DealScored
from domain.game import StartDeal
from domain.playout import choose_action, play_deal

COMBOS = [dict(mode=m, failure_scoring=f, low_point=lp)
          for m, f, lp in itertools.product(("partnership", "individual"), ("shortfall", "points_plus_bid"),
                                            ("trick_winner", "holder"))]
IDS = ["-".join(c.values()) for c in COMBOS]
SETTINGS = settings(max_examples=10, deadline=None)


CARD_CODE = re.compile(rb'"([2-9TJQKA][SHDC])"')


def codes(obj) -> set[str]:
    """Every card code anywhere in `obj` as it would travel (JSON)."""
    return {m.decode() for m in CARD_CODE.findall(msgspec.json.encode(obj))}


def where_cards_are(state) -> list[str]:
    """Every card of the deal, from each place it can be; must be the 52, each once."""
    reused = {c for _, c in state.deal.reused}
    cards = [c for hand in state.deal.hands for c in hand]
    cards += list(state.deal.stock)
    cards += [c for _, c in state.deal.face_up if c not in reused]
    cards += [c for _, c in state.deal.shed]
    cards += list(state.deal.buried)
    cards += [c for t in state.deal.tricks for c in t.cards]
    if state.deal.trick is not None:
        cards += list(state.deal.trick.cards)
    return cards


def hidden_from(state, seat) -> set[str]:
    """What `seat` (None: a spectator) must not see now."""
    public = {c for _, c in state.deal.reused}
    hidden = {c for s in SEATS if s != seat for c in state.deal.hand(s)} - public
    if not (seat is not None and seat == state.deal.dealer and state.phase == "rob"):
        hidden |= set(state.deal.stock)
    if seat is None or seat != state.deal.dealer:
        hidden |= set(state.deal.buried)
    return hidden


def make_deck(kind: str, rng: random.Random) -> tuple[str, list[str]]:
    """(dealer, deck). `uniform` shuffles; `long_suit` deals one non-dealer seven to nine
    cards of a suit (the `discard` decision when it is named); `starved` leaves the
    non-dealers almost no card of a suit (the stock runs out when it is named, A.4.8)."""
    dealer = rng.choice("NESW")
    deck = list(DECK_52)
    rng.shuffle(deck)
    if kind == "uniform":
        return dealer, deck
    suit = rng.choice("SHDC")
    left = "5" + {"S": "C", "C": "S", "H": "D", "D": "H"}[suit]
    trumps = [c for c in deck if c[1] == suit or c == left]
    others = [c for c in deck if c not in trumps]
    order = "NESW"
    eldest = order[(order.index(dealer) + 1) % 4]
    seats = [order[(order.index(eldest) + k) % 4] for k in range(4)]
    hands: dict[str, list[str]] = {}
    if kind == "long_suit":
        lucky = rng.choice(seats[:3])
        n = rng.randint(7, 9)
        hands[lucky] = trumps[:n] + others[:9 - n]
        rest = trumps[n:] + others[9 - n:]
        rng.shuffle(rest)
    else:  # starved: the dealer holds nine trumps, the stock the other five
        hands[dealer] = trumps[:9]
        rest = others + trumps[9:]
        nondealer, stock = others[:27], others[27:] + trumps[9:]
        rng.shuffle(stock)
        rest = nondealer + stock
    for seat in seats:
        if seat not in hands:
            hands[seat], rest = rest[:9], rest[9:]
    out = [c for packet in range(3) for seat in seats for c in hands[seat][packet * 3:packet * 3 + 3]]
    return dealer, out + rest


def check_deal(options, seed: int, min_bid: int, kind: str = "uniform") -> None:
    opts = GAME.parse_options({**options, "min_bid": min_bid})
    rng = random.Random(seed)
    state = GAME.initial(opts)
    dealer, deck = make_deck(kind, rng)
    assert sorted(deck) == sorted(DECK_52)
    command = StartDeal(dealer=dealer, deck=tuple(deck))
    events: list = []
    while True:
        state, evs = GAME.apply(state, command)
        events.extend(evs)
        check_step(state, evs, rng)
        if not state.in_deal:
            break
        command = GAME.parse_action(choose_action(GAME, state, rng))
    assert GAME.fold(opts, events) == state
    assert len(state.deal.tricks) == 6 and all(len(t.plays) == 4 and t.winner is not None for t in state.deal.tricks)
    scored = events[-1]
    assert isinstance(scored, DealScored)
    dead = sum({"A": 1, "2": 1, "J": 1, "T": 1, "5": 5}[card[0]] for card, side in scored.credits if side is None)
    assert sum(scored.points.values()) + dead == 14
    summary = GAME.deal_summary(state)
    assert summary["points"] == scored.points and summary["score"] == scored.score
    assert summary["result"] in ("made", "failed")


def check_step(state, evs, rng) -> None:
    cards = where_cards_are(state)
    assert len(cards) == 52 and set(cards) == set(DECK_52)
    for seat in (*SEATS, None):
        hidden = hidden_from(state, seat)
        assert not codes(GAME.view(state, seat)) & hidden, seat
        for event in evs:
            assert not codes(GAME.redact(event, seat)) & hidden, (seat, event)
    if state.phase == "play" and not state.deal.tricks and state.deal.trick is not None and not state.deal.trick.plays:
        assert all(len(h) == 6 for h in state.deal.hands)
    if state.in_deal:
        legal = {str(s): GAME.legal_actions(state, s) for s in SEATS}
        assert [s for s in legal if legal[s]] == [str(state.deal.turn)]


@pytest.mark.parametrize("options", COMBOS, ids=IDS)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), min_bid=st.sampled_from((1, 6, 14)),
       kind=st.sampled_from(("uniform", "long_suit", "starved")))
def test_random_deals(options, seed, min_bid, kind):
    check_deal(options, seed, min_bid, kind)


ACTION_OF = {"Bid": "bid", "Pass": "pass", "NameTrump": "trump", "Discard": "discard", "Rob": "rob", "Play": "play"}


def as_action(command) -> dict:
    fields = {k: v for k, v in msgspec.to_builtins(command).items() if k != "type"}  # "type": the tag
    return {"action": ACTION_OF[type(command).__name__], **fields}


@pytest.mark.parametrize("options", COMBOS, ids=IDS)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_whole_matches(options, seed):
    """A match to the target: partnership scores never decrease and at most one side scores
    in a deal; the winner is at the target; replaying the events, or the match record through
    `record play`, gives the live result. (Random individual play sinks scores below zero, so
    individual matches are played to 21 and stopped after 60 deals.)"""
    from domain.record import play_record

    raw = dict(options, target=51 if options["mode"] == "partnership" else 21)
    opts = GAME.parse_options(raw)
    rng = random.Random(seed)
    state = GAME.initial(opts)
    events: list = []
    deals: list[dict] = []
    for _ in range(60):
        if GAME.status(state).phase == "match_over":
            break
        before = dict(state.match_score)
        for command, state, evs in play_deal(GAME, state, rng):
            events.extend(evs)
            if type(command).__name__ == "StartDeal":
                deals.append({"dealer": str(command.dealer), "deck": list(command.deck), "actions": []})
            else:
                deals[-1]["actions"].append(as_action(command))
        after = state.match_score
        if not opts.individual:
            assert all(after[s] >= before[s] for s in after)
            assert sum(1 for s in after if after[s] > before[s]) <= 1
    status = GAME.status(state)
    if opts.individual:
        assert status.phase in ("match_over", "awaiting_deal")
    else:
        assert status.phase == "match_over"
    if status.phase == "match_over":
        assert status.winner is not None and status.match_score[status.winner] >= opts.target
    assert GAME.fold(opts, events) == state
    result = play_record({"game": "cinch", "options": raw, "deals": deals})
    assert result["ok"], result
    assert result["match_score"] == status.match_score and result["winner"] == status.winner
    assert len(result["deals"]) == status.deals_played
