"""What each seat and a spectator may see: views and redacted events never show another
seat's unplayed card, the stock (except to the dealer robbing it) or the buried cards."""

from __future__ import annotations

from typing import Union

import msgspec

from cinch_support import options, run
from domain.cinch import GAME
from domain.cinch.events import CardsDrawn, DealStarted, PackRobbed
from domain.game import StartDeal
from test_cinch_examples import cs1_deal


def codes(obj):
    out = set()

    def walk(x):
        if isinstance(x, str):
            if len(x) == 2 and x[0] in "23456789TJQKA" and x[1] in "SHDC":
                out.add(x)
        elif isinstance(x, dict):
            for k, v in x.items():
                walk(k)
                walk(v)
        elif isinstance(x, (list, tuple)):
            for v in x:
                walk(v)
    walk(msgspec.to_builtins(obj))
    return out


def at(n):
    dealer, deck, actions = cs1_deal()
    state, events = run(options(), [(dealer, deck, actions[:n])])
    return state, events


def test_a_seat_sees_its_hand_and_legal_actions_never_another_hand():
    for n in (0, 3, 4, 5, 6, 10):
        state, _ = at(n)
        for seat in "NESW":
            v = GAME.view(state, seat)
            assert v.hand == state.deal.hand(seat)
            assert v.legal == GAME.legal_actions(state, seat)
            others = {c for s in "NESW" if s != seat for c in state.deal.hand(s)}
            assert not codes(v) & others, (n, seat)
            if not (seat == state.deal.dealer and state.phase == "rob"):
                assert not codes(v) & set(state.deal.stock)
        spectator = GAME.view(state, None)
        assert spectator.hand is None and spectator.legal == []
        assert not codes(spectator) & {c for s in "NESW" for c in state.deal.hand(s)}
        assert not codes(spectator) & set(state.deal.stock)


def test_the_dealer_sees_the_stock_while_robbing_and_his_buried_cards_after():
    state, _ = at(5)
    assert state.phase == "rob"
    assert GAME.view(state, "N").stock == state.deal.stock
    assert GAME.view(state, "E").stock is None
    state, _ = at(6)
    assert GAME.view(state, "N").buried_cards == state.deal.buried and len(state.deal.buried) == 11
    assert GAME.view(state, "E").buried_cards is None and GAME.view(state, "E").buried == 11
    assert GAME.view(state, "E").took == 0   # N kept his own six
    assert not codes(GAME.view(state, "S")) & set(state.deal.buried)


def test_public_facts_in_every_view():
    state, _ = at(8)
    v = GAME.view(state, "S")
    assert v.bids == (("E", 8), ("S", None), ("W", None), ("N", None))
    assert v.contract.seat == "E" and v.contract.trump == "D" and v.contract.value == 8
    assert [s for s, _ in v.drawn] == ["E", "S", "W"] and v.turn == "W"
    assert v.trick.plays == (("E", "AD"), ("S", "3D"))
    assert {s for s, _ in v.discards} == {"E", "S", "W"}
    assert msgspec.json.decode(msgspec.json.encode(v))["phase"] == "play"


def test_redacted_deal_draws_and_rob():
    state, events = at(6)
    started = next(e for e in events if isinstance(e, DealStarted))
    for seat in "NESW":
        mine = GAME.redact(started, seat)
        assert list(mine.hands) == [seat] and mine.stock == () and mine.stock_size == 16
    assert GAME.redact(started, None).hands == {}
    for e in events:
        if isinstance(e, CardsDrawn):
            assert GAME.redact(e, e.seat) == e
            other = GAME.redact(e, "N" if e.seat != "N" else "E")
            assert other.cards == () and other.count == e.count
        if isinstance(e, PackRobbed):
            assert GAME.redact(e, "N") == e
            for seat in ("E", "S", "W", None):
                other = GAME.redact(e, seat)
                assert other.kept == () and other.buried == () and other.took == e.took
                assert other.shown == e.shown and other.buried_count == e.buried_count


def test_the_fair_seed_never_travels_in_a_seats_copy():
    fair = {"seed": "ab" * 32, "commitment": "cd" * 32, "context": "match:x:deal:1"}
    dealer, deck, _ = cs1_deal()
    [started] = GAME.decide(GAME.initial(options()), StartDeal(dealer=dealer, deck=tuple(deck), fair=fair))
    assert GAME.redact(started, "E").fair == {"commitment": "cd" * 32, "context": "match:x:deal:1"}


def test_views_and_events_encode():
    state, events = at(30)
    for event in events:
        assert msgspec.json.decode(msgspec.json.encode(event), type=type(event)) == event
    any_event = Union[GAME.event_types]  # noqa: UP007 - tagged union of every event
    assert msgspec.json.decode(msgspec.json.encode(events), type=list[any_event]) == events
    v = GAME.view(state, "E")
    assert msgspec.to_builtins(v)["deals"][0]["result"] == "failed"
