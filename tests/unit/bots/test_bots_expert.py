"""The expert's calls, given a view then a decision: it bids by simulation over worlds
consistent with the auction, never raises a partner into a war, and still decides from the
view alone."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from domain.bots import auction_worlds, bidding, policy_for
from domain.cards import SEATS, Seat
from domain.game import StartDeal
from domain.games import load

EXPERT = {"budget": None, "worlds": 12}


def _deal(game_name: str, raw: dict[str, Any], dealer: Seat, fixed: dict[Seat, list[str]], seed: int):
    """A deal from `dealer` in which each seat of `fixed` holds those cards (the rest of its
    hand and the other hands from a seeded shuffle)."""
    game = load(game_name)
    options = game.parse_options(raw)
    rng = random.Random(seed)
    deck: list[Any] = [None] * len(game.deck)
    for seat, cards in fixed.items():
        places, _ = auction_worlds._layout(game, options, dealer, seat)
        for place, card in zip(places, cards):
            deck[place] = card
    rest = [c for c in game.deck if c not in deck]
    rng.shuffle(rest)
    it = iter(rest)
    deck = [c if c is not None else next(it) for c in deck]
    state, _ = game.apply(game.initial(options), StartDeal(dealer=dealer, deck=tuple(deck)))
    return game, state


def _auction(game, state, script: list[dict[str, Any]], stop_at: Seat, calls: int):
    """Replay `script` (each action with its seat; seats not in it pass) until `stop_at` is
    to act after `calls` scripted calls; return the state and the seat's view."""
    done = 0
    for _ in range(60):
        turn = game.view(state, None).turn
        if turn == stop_at and done == calls:
            return state, game.view(state, turn)
        if done < len(script) and Seat(script[done]["seat"]) == turn:
            action = script[done]
            done += 1
        else:
            action = {"seat": str(turn), "action": "pass"}
        state, _ = game.apply(state, game.parse_action(action))
    raise AssertionError("the script never reached its seat")


def test_five_hundred_no_raising_war_in_hearts() -> None:
    """E 6♥, W 7♥, E 8♥: West, holding A♠ A♦ A♣ K♥ J♦, does not go on to 9♥ (and East,
    after W 9♥, would not go to 10♥: the same rule from the other side)."""
    west = ["AS", "AD", "AC", "KH", "JD", "5S", "6C", "7D", "5H", "8S"]
    game, state = _deal("five_hundred", {}, Seat.N, {Seat.W: west}, 1)   # E speaks first
    script = [{"seat": "E", "action": "bid", "tricks": 6, "suit": "H"},
              {"seat": "W", "action": "bid", "tricks": 7, "suit": "H"},
              {"seat": "E", "action": "bid", "tricks": 8, "suit": "H"}]
    _, view = _auction(game, state, script, Seat.W, 3)
    assert sorted(view.hand) == sorted(west)
    raise_ = {"seat": "W", "action": "bid", "tricks": 9, "suit": "H"}
    calls = bidding.candidates("five_hundred", view, raise_)
    assert calls == [{"action": "bid", "tricks": 9, "suit": "H"}, {"action": "pass"}]   # nothing else searched
    for seed in range(3):
        action = policy_for("five_hundred", "expert", **EXPERT)(view, random.Random(seed))
        assert action == {"seat": "W", "action": "pass"}


def test_coinche_no_raising_war() -> None:
    """N 80♥, S 100♥, N 110♥: South does not raise its partner a third time."""
    south = ["JH", "9H", "AS", "TS", "KD", "7C", "8C", "QD"]
    game, state = _deal("belote", {"variant": "coinche"}, Seat.W, {Seat.S: south}, 2)
    script = [{"seat": "N", "action": "bid", "value": 80, "suit": "H"},
              {"seat": "S", "action": "bid", "value": 100, "suit": "H"},
              {"seat": "N", "action": "bid", "value": 110, "suit": "H"}]
    _, view = _auction(game, state, script, Seat.S, 3)
    for seed in range(3):
        action = policy_for("belote", "expert", **EXPERT)(view, random.Random(seed))
        assert action is not None and action["action"] != "bid", action


def test_the_expert_bids_by_simulation() -> None:
    """A hand worth a contract: the expert searches its calls (worlds are played) and
    takes one in its suit; a middling hand (Five Hundred, where passing is the anchor):
    it passes."""
    strong = ["JH", "9H", "AH", "TH", "KH", "AS", "AC", "AD"]
    game, state = _deal("belote", {"variant": "coinche"}, Seat.E, {Seat.N: strong}, 3)   # N speaks first
    view = game.view(state, Seat.N)
    expert = policy_for("belote", "expert", **EXPERT)
    action = expert(view, random.Random(0))
    assert expert.last_worlds > 0                    # the calls were played out in worlds
    assert action is not None and action["action"] == "bid" and action["suit"] == "H"
    expert = policy_for("five_hundred", "expert", **EXPERT)
    weak = ["9S", "TS", "8C", "9C", "7D", "8D", "TD", "9H", "8H", "QC"]
    game, state = _deal("five_hundred", {}, Seat.W, {Seat.N: weak}, 3)            # N speaks first
    assert expert(game.view(state, Seat.N), random.Random(0)) == {"seat": "N", "action": "pass"}


def test_the_expert_bids_misere_with_a_misere_hand() -> None:
    low = ["5S", "6S", "5C", "6C", "7C", "5D", "6D", "5H", "6H", "7H"]
    game, state = _deal("five_hundred", {}, Seat.W, {Seat.N: low}, 3)
    view = game.view(state, Seat.N)
    action = policy_for("five_hundred", "expert", **EXPERT)(view, random.Random(0))
    assert action["action"] == "bid" and action.get("contract") in ("misere", "open_misere"), action


def test_the_candidate_calls_hold_basic_and_pass() -> None:
    game, state = _deal("five_hundred", {}, Seat.S, {}, 4)
    view = game.view(state, game.view(state, None).turn)
    calls = bidding.candidates("five_hundred", view, {"seat": str(view.seat), "action": "bid", "tricks": 6,
                                                     "suit": "S"})
    assert calls[0] == {"action": "bid", "tricks": 6, "suit": "S"} and {"action": "pass"} in calls
    assert all(c in view.legal for c in calls) and len(calls) <= bidding.LIMIT


@pytest.mark.parametrize("game_name,raw", [("belote", {"variant": "coinche"}), ("belote", {"variant": "classic"}),
                                           ("cinch", {}), ("five_hundred", {})])
def test_an_auction_world_matches_the_view(game_name, raw) -> None:
    """A sampled world is one the seat cannot tell from the real deal: its view there is
    the view it has."""
    game, state = _deal(game_name, raw, Seat.E, {}, 5)
    basic = policy_for(game_name, "basic")
    rng = random.Random(5)
    for _ in range(3):                               # a few calls first
        turn = game.view(state, None).turn
        state, _ = game.apply(state, game.parse_action({"seat": str(turn), "action": "pass"}))
    turn = game.view(state, None).turn
    view = game.view(state, turn)
    options = game.parse_options(raw)
    for k in range(4):
        world = auction_worlds.world(game, options, view, random.Random(k), explain=lambda v, s: basic(v, rng))
        assert msgspec.json.encode(game.view(world, turn)) == msgspec.json.encode(view)


@pytest.mark.parametrize("game_name,raw", [("belote", {"variant": "coinche"}), ("cinch", {"mode": "individual"}),
                                           ("five_hundred", {})])
def test_an_expert_call_depends_on_the_view_only(game_name, raw) -> None:
    """Two deals that differ only in cards the seat in turn cannot see: the same call."""
    game, state = _deal(game_name, raw, Seat.N, {}, 6)
    seat = game.view(state, None).turn
    mine = list(game.view(state, seat).hand)
    game, swapped = _deal(game_name, raw, Seat.N, {seat: mine}, 60)
    first, second = game.view(state, seat), game.view(swapped, seat)
    assert msgspec.json.encode(first) == msgspec.json.encode(second)
    assert any(game.view(state, s).hand != game.view(swapped, s).hand for s in SEATS if s != seat)
    expert = policy_for(game_name, "expert", **EXPERT)
    assert expert(first, random.Random(1)) == expert(second, random.Random(1))



def test_a_sans_atout_expert_takes_only_what_basic_would_take() -> None:
    """Sans Atout: where basic passes the expert passes without a search; where basic takes
    it weighs that take against passing only."""
    weak = ["7S", "8S", "9S", "7H", "8H", "7D", "8D", "9C"]
    game, state = _deal("belote", {"variant": "sans_atout"}, Seat.E, {Seat.N: weak}, 3)
    view = game.view(state, Seat.N)
    assert policy_for("belote", "basic")(view, random.Random(0)) == {"seat": "N", "action": "pass"}
    expert = policy_for("belote", "expert", **EXPERT)
    assert expert(view, random.Random(0)) == {"seat": "N", "action": "pass"} and expert.last_worlds == 0
    aces = ["AS", "AH", "AD", "AC", "TS", "TH", "KD", "QC"]
    game, state = _deal("belote", {"variant": "sans_atout"}, Seat.E, {Seat.N: aces}, 3)
    view = game.view(state, Seat.N)
    assert policy_for("belote", "basic")(view, random.Random(0))["action"] == "take"
    action = expert(view, random.Random(0))
    assert expert.last_worlds > 0 and action["action"] in ("take", "pass")
    assert {i for row in expert.last_rows for i in row} == {0, 1}       # the take and passing, nothing else
