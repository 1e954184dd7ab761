"""Boards imported as a match record: what is refused (another game, a bad deck, a dealer
out of rotation within a round, too few boards) and what binds the tournament to them."""

from __future__ import annotations

import hashlib
import random

import pytest

from domain import tournaments as t
from domain.cards import Seat, next_seat
from domain.game import RuleViolation
from domain.games import load
from domain.tournaments import boards
from domain.tournaments import events as ev


def record(n: int, game: str = "belote", seed: int = 1) -> dict:
    rules, rng, dealer, deals = load(game), random.Random(seed), Seat.N, []
    for _ in range(n):
        deck = list(rules.deck)
        rng.shuffle(deck)
        deals.append({"dealer": str(dealer), "deck": deck, "actions": [{"seat": "E", "action": "pass"}]})
        dealer = next_seat(dealer, rules.direction)
    return {"game": game, "deals": deals}


def refused(game: str, rec, per_round: int = 2) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        boards.parse_record(game, rec, per_round)
    return caught.value


def test_a_good_record_gives_its_dealers_and_decks_only() -> None:
    rec = record(4)
    parsed = boards.parse_record("belote", rec, 2)
    assert parsed == [{"dealer": d["dealer"], "deck": d["deck"]} for d in rec["deals"]]
    rec["deals"][2]["dealer"] = "W"                     # the first board of round 2: any dealer
    rec["deals"][3]["dealer"] = str(next_seat(Seat.W, load("belote").direction))
    assert boards.parse_record("belote", rec, 2)[2]["dealer"] == "W"


def test_what_a_record_is_refused_for() -> None:
    assert refused("belote", record(4, game="cinch")).code == "bad_record"
    assert refused("belote", "not a record").code == "bad_record"
    assert refused("belote", {"deals": []}).code == "bad_record"
    short = record(4)
    short["deals"][1]["deck"] = short["deals"][1]["deck"][:-1]
    assert (refused("belote", short).code, refused("belote", short).details["deal"]) == ("bad_deck", 1)
    twice = record(4)
    twice["deals"][3]["deck"][0] = twice["deals"][3]["deck"][1]
    assert refused("belote", twice).code == "bad_deck"
    rotation = record(4)
    rotation["deals"][1]["dealer"] = rotation["deals"][0]["dealer"]
    assert (refused("belote", rotation).code, refused("belote", rotation).details["deal"]) == ("wrong_dealer", 1)
    assert refused("belote", record(1)).code == "not_enough_boards"
    assert refused("belote", record(2), per_round=0).code == "bad_option"


def test_the_digest_binds_a_board_to_its_chain_element() -> None:
    board = {"dealer": "N", "deck": ["7S", "8S"]}
    seed = bytes(32)
    assert boards.digest(seed, board) == hashlib.sha256(seed + b"N:7S,8S").hexdigest()
    assert boards.digest(seed, {**board, "dealer": "E"}) != boards.digest(seed, board)


def test_the_start_needs_boards_for_every_round() -> None:
    state = t.initial()
    for event in t.decide(state, ev.Create(tournament_id="t", organiser="o", name="n", game="belote",
                                           options={"deals": 2}, format="swiss", rounds=3, imported_boards=4)):
        state = t.evolve(state, event)
    for i in range(2):
        for event in t.decide(state, ev.Register(entry_id=f"e{i}", players=[f"p{i}"])):
            state = t.evolve(state, event)
    with pytest.raises(RuleViolation) as caught:
        t.decide(state, ev.Start(commitment="00" * 32, board_digests=["00"] * 6))
    assert caught.value.code == "not_enough_boards" and caught.value.details == {"needed": 6, "given": 4}
