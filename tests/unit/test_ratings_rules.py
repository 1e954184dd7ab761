"""Ranked play's own rules (domain.ratings): pools, eligibility, places, abandonment, repeats."""

from __future__ import annotations

import pytest

from domain import match as rules
from domain import ratings
from domain.cards import Seat
from domain.game import RuleViolation


def test_every_way_of_playing_has_its_pool() -> None:
    assert ratings.pool_of("belote", {}) == "belote_classic"
    assert ratings.pool_of("belote", {"variant": "sans_atout", "target": 2000}) == "belote_sans_atout"
    assert ratings.pool_of("belote", {"variant": "coinche", "deals": 4}) == "belote_coinche"
    assert ratings.pool_of("cinch", {"min_bid": 3}) == "cinch_partnership"
    assert ratings.pool_of("cinch", {"mode": "individual"}) == "cinch_individual"
    assert ratings.pool_of("five_hundred", {"misere": True}) == "five_hundred"
    assert {ratings.pool_of(g, o) for g, o in [("belote", {"variant": v}) for v in ("classic", "sans_atout", "coinche")]
            + [("cinch", {"mode": m}) for m in ("partnership", "individual")] + [("five_hundred", {})]} \
        == set(ratings.POOLS)


def seats(**kinds: str) -> dict:
    return {s: rules.SeatHolder(kind=kinds.get(s, "player"), player_id=None if kinds.get(s) else f"p{s}",
                                level="basic" if kinds.get(s) else None) for s in "NESW"}


def test_a_rated_match_is_created_only_with_four_humans_and_fair_deals() -> None:
    with pytest.raises(RuleViolation) as refused:
        rules.create("m", "belote", {}, seats(W="bot"), "00", 10, rated=True)
    assert refused.value.code == "not_rateable" and refused.value.details["reason"] == "bot_seat"
    with pytest.raises(RuleViolation) as refused:
        rules.create("m", "belote", {}, seats(), None, 10, predefined_deals=2, rated=True)
    assert refused.value.details["reason"] == "record"
    [created] = rules.create("m", "belote", {}, seats(), "00", 10, predefined_deals=2, sealed=True, rated=True)
    assert created.rated                   # a tournament's sealed boards are its own fair deals
    assert not rules.create("m", "belote", {}, seats(W="bot"), "00", 10)[0].rated


def test_a_bot_seat_later_is_refused_in_a_rated_match() -> None:
    open_seats = {s: None for s in "NESW"}
    state = rules.initial()
    for event in rules.create("m", "cinch", {}, open_seats, "00", 10, rated=True):
        state = rules.evolve(state, event)
    with pytest.raises(RuleViolation) as refused:
        rules.decide(state, rules.TakeSeat(seat=Seat("E"), holder=rules.SeatHolder(kind="bot", level="basic")))
    assert refused.value.code == "not_rateable"
    assert rules.decide(state, rules.TakeSeat(seat=Seat("E"), holder=rules.SeatHolder(kind="player", player_id="x")))


def test_places() -> None:
    assert ratings.places("belote_classic", "EW", {}) == [(("E", "W"), 1), (("N", "S"), 2)]
    assert ratings.places("cinch_individual", "S", {"N": 30, "E": 30, "S": 52, "W": 10}) == [
        (("S",), 1), (("N",), 2), (("E",), 2), (("W",), 4)]


def test_abandonment() -> None:
    assert ratings.abandoned_places("five_hundred", ["E", "W"]) == [(("N", "S"), 1), (("E", "W"), 2)]
    assert ratings.abandoned_places("five_hundred", ["E"]) is None
    assert ratings.abandoned_places("five_hundred", []) is None
    assert ratings.abandoned_places("five_hundred", list("NESW")) is None
    assert ratings.abandoned_places("cinch_individual", ["W"]) == [(("N",), 1), (("E",), 1), (("S",), 1), (("W",), 2)]


def test_repeats_count_less() -> None:
    assert [ratings.repeat_weight(n) for n in range(6)] == [1.0, 0.5, 1 / 3, 0.25, 0.0, 0.0]


def test_a_new_account_weighs_less_for_the_established_players_it_meets() -> None:
    assert [ratings.newcomer_weight(g) for g in (0, 4, 9, 10, 50)] == [1 / 11, 5 / 11, 10 / 11, 1.0, 1.0]
    got = ratings.weights({"main": 30, "partner": 12, "alt1": 0, "alt2": 3})
    assert got == {"main": 1 / 11, "partner": 1 / 11, "alt1": 1.0, "alt2": 1.0}
    assert ratings.weights({"a": 10, "b": 10, "c": 10, "d": 10}, 0.5) == dict.fromkeys("abcd", 0.5)
    assert ratings.weights({"a": 20, "b": 10, "c": 10, "d": 9}, 0.5) == {"a": 0.5 * 10 / 11, "b": 0.5 * 10 / 11,
                                                                          "c": 0.5 * 10 / 11, "d": 0.5}
    assert ratings.weights({"a": 0, "b": 1, "c": 2, "d": 3}) == dict.fromkeys("abcd", 1.0)
