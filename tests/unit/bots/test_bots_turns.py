"""The pure parts of the workers: which turn is due in a match, the single legal action a
clock plays at once, clock settings, command ids, and the expert's time budget."""

from __future__ import annotations

import datetime as dt
import random
import time

import pytest

from domain import match as rules
from domain.bots import policy_for
from domain.bots.arena import play_deal
from domain.cards import SEATS, Seat
from domain.game import RuleViolation, StartDeal
from domain.games import load
from infra.projections.bot_turns import turn_of
from services.matches.clocks import parse_clock
from services.bots.turns import command_id, single_action

NOW = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)


def started(game_name: str, raw: dict, seats: dict[str, rules.SeatHolder], deck_seed: int = 0) -> rules.MatchState:
    state = rules.initial()
    for event in rules.create("m1", game_name, raw, seats, None, 0):
        state = rules.evolve(state, event)
    game = load(game_name)
    deck = list(game.deck)
    random.Random(deck_seed).shuffle(deck)
    deal = StartDeal(dealer=Seat.N, deck=tuple(deck))
    for event in rules.decide(state, rules.StartMatch(first_dealer=Seat.N, first_deal=deal)):
        state = rules.evolve(state, event)
    return state


BOT = rules.SeatHolder(kind="bot", level="basic")
HUMAN = rules.SeatHolder(kind="player", player_id="p1")


def human(seat: str) -> rules.SeatHolder:
    """A player of his own at `seat` (a player holds one seat of a match)."""
    return rules.SeatHolder(kind="player", player_id=f"p-{seat}")


def test_the_turn_names_bots_and_under_a_clock_humans_with_a_deadline() -> None:
    state = started("cinch", {}, {"N": human("N"), "E": BOT, "S": human("S"), "W": BOT})
    turn, deadline = turn_of(state, None, NOW, NOW)          # eldest E (clockwise from N) is a bot
    assert turn is not None and turn.bots == ("E",) and turn.humans == () and deadline is None
    state = started("cinch", {}, {"N": BOT, "E": HUMAN, "S": BOT, "W": BOT})
    assert turn_of(state, None, NOW, NOW)[0] is None         # a human without a clock: nothing due
    turn, deadline = turn_of(state, {"bid": 30.0, "play": 10.0}, NOW, NOW + dt.timedelta(seconds=5))
    assert turn.humans == ("E",) and deadline == NOW + dt.timedelta(seconds=30) and turn.due_in == 25.0


def test_a_finished_match_has_no_turn() -> None:
    state = started("cinch", {}, {s: BOT for s in "NESW"})
    assert turn_of(rules.MatchState(status="finished"), None, NOW, NOW) == (None, None)
    assert turn_of(state, None, NOW, NOW)[0] is not None


def test_single_action_only_for_the_seat_in_turn_with_no_choice() -> None:
    state = started("belote", {"variant": "classic"}, {s: human(s) for s in "NESW"})
    turn = load("belote").status(state.game_state).to_act[0]
    assert single_action(rules.view(state, turn), turn) is None   # take or pass: a choice
    other = next(s for s in SEATS if s != turn)
    assert single_action(rules.view(state, other), other) is None


def test_clock_settings() -> None:
    assert parse_clock({"bid": 30, "play": 15}) == {"bid": 30.0, "play": 15.0}
    assert parse_clock({"play": 20}) == {"bid": 20.0, "play": 20.0}
    for bad in ({}, {"bid": 0}, {"bid": -1, "play": 3}, {"bid": True}, {"think": 3}, "30"):
        with pytest.raises(RuleViolation):
            parse_clock(bad)


def test_a_timeout_run_counts_the_clock_plays_since_the_seat_last_acted() -> None:
    from services.matches.clocks import timeouts_in_a_row

    def taken(seat: str, by: str) -> rules.ActionTaken:
        return rules.ActionTaken(seat=Seat(seat), action={"action": "pass"}, by=by)

    log = [taken("E", "clock"), taken("E", "player"), taken("E", "clock"), taken("N", "clock"),
           taken("E", "automatic"), taken("E", "clock"), taken("E", "takeover"), taken("W", "player")]
    assert timeouts_in_a_row(log, "E") == 2 and timeouts_in_a_row(log, "N") == 1
    assert timeouts_in_a_row(log + [taken("E", "clock")], "E") == 3
    assert timeouts_in_a_row(log + [taken("E", "player")], "E") == 0 and timeouts_in_a_row([], "S") == 0


def test_command_ids_name_the_turn() -> None:
    assert command_id("m", 7, "N") == command_id("m", 7, "N")
    assert len({command_id("m", 7, "N"), command_id("m", 8, "N"), command_id("m", 7, "E")}) == 3


def test_the_expert_stops_at_its_time_budget() -> None:
    """Past the deadline it searches no further than its minimum of worlds (the timing
    itself is measured by bench/bots.py, not asserted on a shared machine)."""
    game = load("five_hundred")
    expert = policy_for("five_hundred", "expert", budget=0.0, min_worlds=3)
    searched: list[int] = []

    def record(seat, seconds) -> None:
        if expert.last_worlds:
            searched.append(expert.last_worlds)
        expert.last_worlds = 0

    deck = list(game.deck)
    random.Random(5).shuffle(deck)
    play_deal(game, game.parse_options({}), Seat.N, deck, {s: expert for s in SEATS}, random.Random(5),
              on_decision=record)
    assert searched and set(searched) == {3}


def test_a_long_clock_waits_in_hops_shorter_than_the_visibility_timeout() -> None:
    from services.workers.app import VISIBILITY_TIMEOUT
    from services.bots.reactor import expire_at

    sent: list[tuple] = []

    class Broker:
        def send_task(self, name, args, kwargs, countdown):
            sent.append((name, args, kwargs, countdown))

    due = time.time() + 100
    expire_at(Broker(), "m", 3, due)
    expire_at(Broker(), "m", 3, time.time() + 2)
    (name, args, kwargs, first), (_, _, _, second) = sent
    assert name == "clock.expire" and args == ["m", 3] and kwargs == {"due": due}
    assert first < VISIBILITY_TIMEOUT and 1.5 < second <= 2
