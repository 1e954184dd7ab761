"""Bots cannot see hidden cards: a policy takes a seat's view, and two states that differ
only in cards that seat cannot see give the same decision for a fixed seed — for every game
and every level. Also: every level plays legal actions to the end of deals."""

from __future__ import annotations

import random

import msgspec
import pytest

from domain import match as rules
from domain.bots import LEVELS, policy_for
from domain.bots.arena import play_deal
from domain.cards import SEATS, Seat
from domain.game import StartDeal
from domain.games import load
from domain.playout import choose_action

CONFIGS = [
    ("belote", {"variant": "classic"}),
    ("belote", {"variant": "coinche"}),
    ("belote", {"variant": "coinche", "rules": "official"}),
    ("belote", {"variant": "sans_atout"}),
    ("cinch", {}),
    ("cinch", {"mode": "individual"}),
    ("five_hundred", {}),
]
IDS = [f"{g}-{'-'.join(str(v) for v in o.values())}" for g, o in CONFIGS]


def _hands(game_name: str, state):
    return {s: state.deal.hands[i] for i, s in enumerate(SEATS)}


def _with_hands(game_name: str, state, hands):
    return msgspec.structs.replace(state, deal=msgspec.structs.replace(state.deal, hands=tuple(hands[s] for s in SEATS)))


def _midplay(game_name: str, raw: dict, seed: int, tricks_done: int):
    """A state in the card play where the seat in turn has a choice, after `tricks_done`
    tricks, reached by random legal play from a seeded deal."""
    game = load(game_name)
    rng = random.Random(seed)
    for _ in range(200):
        deck = list(game.deck)
        rng.shuffle(deck)
        state, _ = game.apply(game.initial(game.parse_options(raw)), StartDeal(dealer=Seat.N, deck=tuple(deck)))
        for _ in range(300):
            status = game.status(state)
            if status.phase != "in_deal":
                break
            view = game.view(state, status.to_act[0])
            done = len(view.tricks)
            if view.phase == "play" and done >= tricks_done and view.turn == status.to_act[0] \
                    and len({a.get("card") for a in view.legal}) > 1:
                return game, state, status.to_act[0]
            state, _ = game.apply(state, game.parse_action(choose_action(game, state, rng, public_turns=True)))
    raise AssertionError("no such state found")


def _swap_hidden(game_name: str, state, me: Seat, rng: random.Random):
    """Swap one card between the hands of two other seats (same sizes): nothing `me` sees."""
    hands = _hands(game_name, state)
    others = [s for s in SEATS if s != me and hands[s]]
    a, b = rng.sample(others, 2)
    ha, hb = list(hands[a]), list(hands[b])
    i, j = rng.randrange(len(ha)), rng.randrange(len(hb))
    ha[i], hb[j] = hb[j], ha[i]
    return _with_hands(game_name, state, {**hands, a: tuple(ha), b: tuple(hb)})


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("game_name,raw", CONFIGS, ids=IDS)
def test_a_decision_depends_on_the_view_only(game_name, raw, level) -> None:
    settings = {"budget": None, "worlds": 4} if level in ("expert", "master") else {}
    policy = policy_for(game_name, level, **settings)
    for seed, done in ((1, 1), (2, 3)):
        game, state, me = _midplay(game_name, raw, seed, done)
        other = _swap_hidden(game_name, state, me, random.Random(seed))
        assert _hands(game_name, other) != _hands(game_name, state)
        first, second = game.view(state, me), game.view(other, me)
        assert msgspec.json.encode(first) == msgspec.json.encode(second)
        assert policy(first, random.Random(seed)) == policy(second, random.Random(seed))


def _auction(game_name: str, raw: dict, seed: int, calls: int):
    """A state after `calls` random legal calls, most of them passes (a Coinche seat out of
    turn may act too)."""
    game = load(game_name)
    rng = random.Random(seed)
    deck = list(game.deck)
    rng.shuffle(deck)
    state, _ = game.apply(game.initial(game.parse_options(raw)), StartDeal(dealer=Seat.N, deck=tuple(deck)))
    for _ in range(calls):
        seat = game.status(state).to_act[0]
        view = game.view(state, seat)
        if view.phase != "auction":
            break
        if {"action": "pass"} in view.legal and view.turn == seat and rng.random() < 0.7:
            action = {"seat": str(seat), "action": "pass"}           # passes keep the auction open
        else:
            action = choose_action(game, state, rng, public_turns=True)
        state, _ = game.apply(state, game.parse_action(action))
    return game, state


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("game_name,raw", CONFIGS, ids=IDS)
def test_a_bid_depends_on_the_view_only(game_name, raw, level) -> None:
    """The bidding too: every seat that may act in the auction, with the other hands (and
    any kitty or stock, which nobody sees) shuffled among themselves, decides the same."""
    settings = {"budget": None, "worlds": 4} if level in ("expert", "master") else {}
    policy = policy_for(game_name, level, **settings)
    asked = 0
    for seed in range(1, 9):
        game, state = _auction(game_name, raw, seed, seed % 4)
        for me in game.status(state).to_act:
            if game.view(state, me).phase != "auction":
                continue
            other = _swap_hidden(game_name, state, me, random.Random(seed))
            first, second = game.view(state, me), game.view(other, me)
            assert msgspec.json.encode(first) == msgspec.json.encode(second)
            assert policy(first, random.Random(seed)) == policy(second, random.Random(seed))
            asked += 1
    assert asked >= 4


def test_the_policy_takes_a_match_view_too() -> None:
    game, state, me = _midplay("cinch", {}, 3, 1)
    match = rules.MatchState(match_id="m", game_name="cinch", raw_options={}, status="playing", game_state=state)
    action = policy_for("cinch", "basic")(rules.view(match, me), random.Random(0))
    assert action is not None and action["seat"] == str(me)
    assert {k: v for k, v in action.items() if k != "seat"} in game.view(state, me).legal


@pytest.mark.parametrize("level", ["random", "basic"])
@pytest.mark.parametrize("game_name,raw", CONFIGS, ids=IDS)
def test_every_level_plays_whole_deals(game_name, raw, level) -> None:
    game = load(game_name)
    policy = policy_for(game_name, level)
    for k in range(4):
        rng = random.Random(k)
        deck = list(game.deck)
        rng.shuffle(deck)
        score = play_deal(game, game.parse_options(raw), SEATS[k], deck, {s: policy for s in SEATS}, rng)
        assert set(score) >= ({"N", "E", "S", "W"} if raw.get("mode") == "individual" else {"NS", "EW"})
