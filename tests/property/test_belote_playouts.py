"""Property tests over random legal belote playouts (domain/playout.py), for every variant x
rule set x combinations switch: the 32 cards are conserved, 8 tricks of 4, card points total
162 / 252 with trump and 130 / 220 (House) or 162 / 252 (Official) without, replaying the
events gives the live state, views and redacted events never show another seat's unplayed
card (the turn-up and the stock included). That legal_actions is exactly what decide accepts
is the conformance suite's (tests/property/test_conformance.py), for every game."""

from __future__ import annotations

import itertools
import random
import re
from typing import Any, Union

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.belote import GAME
from domain.cards import DECK_32, Seat
from domain.playout import play_deal

OPTIONS = [dict(variant=v, rules=r, combinations=c)
           for v, r, c in itertools.product(("classic", "sans_atout", "coinche"), ("house", "official"),
                                            (True, False))]
OPTIONS += [dict(variant="coinche", rules=r, combinations=True, contracts="suits_ta_sa") for r in ("house", "official")]
IDS = [f"{o['variant']}-{o['rules']}-{'comb' if o['combinations'] else 'nocomb'}{'-ta_sa' if 'contracts' in o else ''}"
       for o in OPTIONS]
CARDS = frozenset(DECK_32)
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


_CARD = re.compile(rb'"([789TJQKA][SHDC])"')


def card_codes(value: Any) -> set[str]:
    """Every card code anywhere in a value, as it goes over the wire."""
    return {m.decode() for m in _CARD.findall(msgspec.json.encode(value))}


def played(state: Any) -> set[str]:
    deal = state.deal
    cards = {c for t in deal.tricks for c in t.cards}
    if deal.trick is not None:
        cards.update(deal.trick.cards)
    return cards


def public(state: Any) -> set[str]:
    """Cards the rules make public: those played, the turn-up, the combinations shown."""
    deal = state.deal
    cards = played(state)
    if deal.turn_up is not None:
        cards.add(deal.turn_up)
    for combination in deal.shown:
        cards.update(combination.cards)
    return cards


def visible_to(state: Any, seat: Seat | None) -> set[str]:
    return public(state) | (set(state.deal.hand(seat)) if seat is not None else set())


def check_conservation(state: Any) -> None:
    deal = state.deal
    cards = [c for hand in deal.hands for c in hand] + list(deal.stock)
    cards += [c for t in deal.tricks for c in t.cards] + (list(deal.trick.cards) if deal.trick else [])
    if deal.turn_up is not None and deal.turn_up not in cards:
        cards.append(deal.turn_up)
    assert len(cards) == 32 and set(cards) == CARDS


def check_totals(state: Any) -> None:
    deal, options = state.deal, state.options
    if deal.result == "thrown_in":
        assert deal.tricks == () and deal.score == {"NS": 0, "EW": 0}
        return
    assert len(deal.tricks) == 8 and all(len(t.plays) == 4 for t in deal.tricks)
    assert all(sorted(GAME.legal_actions(state, s)) == [] for s in Seat)
    capot = len({t.winner in (Seat.N, Seat.S) for t in deal.tricks}) == 1
    no_trump = options.variant == "sans_atout" or deal.contract.trump is None
    if no_trump and not options.official:
        expected = 220 if capot else 130
    else:
        expected = 252 if capot else 162
    assert sum(deal.points.values()) == expected


def check_views(state: Any, events: list[Any]) -> None:
    for seat in (*Seat, None):
        allowed = visible_to(state, seat)
        view = GAME.view(state, seat)
        assert card_codes(view) <= allowed, f"view of {seat} leaks {card_codes(view) - allowed}"
        if seat is None:
            assert view.hand is None and view.legal == []
        for event in events:
            seen = GAME.redact(event, seat)
            if seen is not None:
                leaked = card_codes(seen) - allowed
                assert not leaked, f"{type(event).__name__} shows {seat} {leaked}"


def run_deals(options: dict[str, Any], seed: int, deals: int, each_step=None) -> tuple[Any, list[Any]]:
    rng = random.Random(seed)
    state = GAME.initial(GAME.parse_options(options))
    log: list[Any] = []
    for _ in range(deals):
        if GAME.status(state).phase == "match_over":
            break
        for command, state, events in play_deal(GAME, state, rng):
            log.extend(events)
            if each_step is not None:
                each_step(state, events)
        check_totals(state)
    return state, log


@pytest.mark.parametrize("options", OPTIONS, ids=IDS)
@settings(max_examples=6, deadline=None)
@given(seed=SEEDS)
def test_cards_tricks_points_replay_and_views(options, seed):
    def each_step(state, events):
        check_conservation(state)
        check_views(state, events)

    state, log = run_deals(options, seed, 2, each_step)
    replayed = GAME.fold(GAME.parse_options(options), log)
    assert replayed == state
    # and through the wire: every event survives an encode/decode round trip
    decoder = msgspec.json.Decoder(Union[GAME.event_types])
    assert [decoder.decode(msgspec.json.encode(e)) for e in log] == log


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, variant=st.sampled_from(["classic", "sans_atout", "coinche"]))
def test_whole_matches_end_at_the_target(seed, variant):
    state, _ = run_deals({"variant": variant, "target": 300}, seed, 200)
    status = GAME.status(state)
    assert status.phase == "match_over"
    assert max(status.match_score.values()) >= 300
    assert status.winner == max(status.match_score, key=status.match_score.get)
