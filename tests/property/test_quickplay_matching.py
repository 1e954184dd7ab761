"""Quick play's matching (domain/quickplay.py) over random queues: nobody is seated twice or
outside the band he was shown, partners sit together, no block or ban shares a table, bots
only where the entry consented, and over many ticks every seat and every partner is drawn
about equally often."""

from __future__ import annotations

import collections

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain import quickplay as qp

PLAYERS = [f"p{i}" for i in range(40)]


@st.composite
def queues(draw, individual: bool = False):
    players = draw(st.permutations(PLAYERS))
    entries, i, n = [], 0, draw(st.integers(min_value=0, max_value=30))
    while len(entries) < n and i < len(players):
        size = 1 if individual else draw(st.sampled_from((1, 1, 2)))
        group = tuple(players[i:i + size])
        i += size
        if len(group) < size:
            break
        bots = draw(st.one_of(st.none(), st.floats(min_value=5, max_value=60)))
        entries.append(qp.Entry(entry_id=f"e{len(entries)}", players=group,
                                rating=draw(st.floats(min_value=-10, max_value=45)),
                                joined=draw(st.floats(min_value=0, max_value=200)),
                                ready=draw(st.sampled_from((0.0, 0.0, 250.0))), bots_after=bots))
    seated = [p for e in entries for p in e.players]
    blocks = draw(st.lists(st.tuples(st.sampled_from(seated or ["x"]), st.sampled_from(seated or ["x"])),
                           max_size=15))
    banned = draw(st.lists(st.sampled_from(seated or ["x"]), max_size=3))
    now = draw(st.floats(min_value=0, max_value=220))
    return entries, blocks, banned, now


def _check(entries, blocks, banned, now, individual, tables) -> None:
    by_id = {e.entry_id: e for e in entries}
    used = [eid for t in tables for eid in t.entries]
    assert len(used) == len(set(used)), "an entry seated twice"
    never = {frozenset(b) for b in blocks if b[0] != b[1]}
    for table in tables:
        assert sorted(table.seats) == sorted(qp.SEATS)
        people = [p for p in table.seats.values() if not p.startswith("bot:")]
        mine = [p for eid in table.entries for p in by_id[eid].players]
        assert sorted(people) == sorted(mine), "the table's people are its entries' players"
        assert len(people) == len(set(people))
        assert not set(people) & set(banned), "a banned player seated"
        assert not any(frozenset((a, b)) in never for a in people for b in people if a != b), "a block seated"
        for eid in table.entries:
            assert by_id[eid].ready <= now, "an entry matched before its penalty ran out"
        if table.bots:
            (eid,) = table.entries
            assert by_id[eid].bots_after is not None and now - by_id[eid].joined >= by_id[eid].bots_after
        else:
            assert len(people) == 4
            ratings = [by_id[eid].rating for eid in table.entries]
            spread = max(ratings) - min(ratings)
            assert spread <= min(qp.band(now - by_id[eid].joined) for eid in table.entries) + 1e-9, "band broken"
        for eid in table.entries:
            pair = by_id[eid].players
            if len(pair) == 2:
                side = next(s for s in qp.SIDES if table.seats[s[0]] in pair)
                assert {table.seats[side[0]], table.seats[side[1]]} == set(pair), "partners split"


@settings(max_examples=150, deadline=None)
@given(queues(), st.binary(min_size=8, max_size=8))
def test_partnership_queues_keep_every_rule(queue, seed) -> None:
    entries, blocks, banned, now = queue
    tables = qp.match(entries, now, seed, blocks=blocks, banned=banned)
    _check(entries, blocks, banned, now, False, tables)


@settings(max_examples=100, deadline=None)
@given(queues(individual=True), st.binary(min_size=8, max_size=8))
def test_individual_queues_keep_every_rule(queue, seed) -> None:
    entries, blocks, banned, now = queue
    tables = qp.match(entries, now, seed, individual=True, blocks=blocks, banned=banned)
    _check(entries, blocks, banned, now, True, tables)


@settings(max_examples=100, deadline=None)
@given(st.floats(min_value=-10, max_value=40), st.binary(min_size=8, max_size=8))
def test_four_close_players_are_seated_at_once(rating, seed) -> None:
    entries = [qp.Entry(entry_id=f"e{i}", players=(f"p{i}",), rating=rating + i * 0.5, joined=0.0) for i in range(4)]
    (table,) = qp.match(entries, 0.0, seed)
    assert not table.bots and table.spread == pytest.approx(1.5)


def test_a_band_too_narrow_waits_then_widens() -> None:
    entries = [qp.Entry(entry_id=f"e{i}", players=(f"p{i}",), rating=i * 3.0, joined=0.0) for i in range(4)]
    assert qp.match(entries, 0.0, b"s") == []                 # spread 9 > 2
    assert qp.match(entries, 30.0, b"s") == []                # band 8 at 30 s
    assert len(qp.match(entries, 35.0, b"s")) == 1            # band 9 at 35 s
    assert qp.band(qp.BAND_OPEN_AFTER) == float("inf")


def test_oldest_entry_is_served_first() -> None:
    old = qp.Entry(entry_id="old", players=("o",), rating=10.0, joined=0.0)
    new = [qp.Entry(entry_id=f"n{i}", players=(f"n{i}",), rating=10.0, joined=50.0) for i in range(4)]
    (table,) = qp.match([*new, old], 50.0, b"s")
    assert "old" in table.entries


def test_a_block_keeps_two_apart_either_way() -> None:
    entries = [qp.Entry(entry_id=f"e{i}", players=(f"p{i}",), rating=0.0, joined=0.0) for i in range(5)]
    tables = qp.match(entries, 0.0, b"s", blocks=[("p1", "p0")])
    (table,) = tables
    assert not {"p0", "p1"} <= set(table.seats.values())


def test_bots_fill_only_after_consent_and_people_first() -> None:
    lone = qp.Entry(entry_id="e", players=("a",), rating=0.0, joined=0.0, bots_after=20.0, bot_level="expert")
    assert qp.match([lone], 19.0, b"s") == []
    (table,) = qp.match([lone], 20.0, b"s")
    assert table.bots and sorted(table.seats.values()).count("bot:expert") == 3
    pair = qp.Entry(entry_id="p", players=("b", "c"), rating=0.0, joined=0.0, bots_after=5.0)
    (table,) = qp.match([pair], 6.0, b"s")
    side = next(s for s in qp.SIDES if table.seats[s[0]] == "b" or table.seats[s[1]] == "b")
    assert {table.seats[side[0]], table.seats[side[1]]} == {"b", "c"}


def test_penalty_doubles_and_stops() -> None:
    assert [qp.penalty(k) for k in range(6)] == [0, 30, 60, 120, 240, 480]
    assert qp.penalty(20) == qp.PENALTY_MAX


def test_seats_and_partners_are_drawn_fairly_over_many_ticks() -> None:
    """4,000 tables of the same four lone players: each sits at each seat about a quarter of
    the time and p0 partners each of the others about a third (a 5-sigma margin)."""
    entries = [qp.Entry(entry_id=f"e{i}", players=(f"p{i}",), rating=0.0, joined=0.0) for i in range(4)]
    seats, partners = collections.Counter(), collections.Counter()
    runs = 4000
    for tick in range(runs):
        (table,) = qp.match(entries, 0.0, tick.to_bytes(4, "big"))
        for seat, player in table.seats.items():
            seats[player, seat] += 1
        side = next(side for side in qp.SIDES if "p0" in (table.seats[side[0]], table.seats[side[1]]))
        partners[table.seats[side[0]] if table.seats[side[1]] == "p0" else table.seats[side[1]]] += 1
    for count in seats.values():
        assert abs(count - runs / 4) < 5 * (runs * 0.25 * 0.75) ** 0.5
    assert len(partners) == 3
    for count in partners.values():
        assert abs(count - runs / 3) < 5 * (runs * (1 / 3) * (2 / 3)) ** 0.5
    pair_seats = collections.Counter()
    pair = [qp.Entry(entry_id="p", players=("a", "b"), rating=0.0, joined=0.0),
            qp.Entry(entry_id="q", players=("c", "d"), rating=0.0, joined=0.0)]
    for tick in range(runs):
        (table,) = qp.match(pair, 0.0, tick.to_bytes(4, "big"))
        pair_seats[next(s for s, p in table.seats.items() if p == "a")] += 1
    for seat in qp.SEATS:
        assert abs(pair_seats[seat] - runs / 4) < 5 * (runs * 0.25 * 0.75) ** 0.5


@pytest.mark.parametrize(("sizes", "individual"), [((2, 1, 1), False), ((1, 1, 1, 1), True), ((1,), False), ((2,), False)])
def test_every_player_sits_anywhere_as_often(sizes, individual) -> None:
    """Whatever the table's make-up (a pair and two lone players, an individual table, a lone
    player or a pair with bots), each player holds each seat about a quarter of the time over
    3,000 tables, a pair's partners always facing each other."""
    entries, n = [], 0
    for k, size in enumerate(sizes):
        entries.append(qp.Entry(entry_id=f"e{k}", players=tuple(f"p{n + i}" for i in range(size)), rating=0.0,
                                joined=0.0, bots_after=0.0 if len(sizes) == 1 else None))
        n += size
    runs = 3000
    seats = collections.Counter()
    for tick in range(runs):
        (table,) = qp.match(entries, 0.0, tick.to_bytes(4, "big"), individual=individual)
        for seat, player in table.seats.items():
            if not player.startswith("bot:"):
                seats[player, seat] += 1
        for entry in entries:
            if len(entry.players) == 2:
                where = sorted(s for s, p in table.seats.items() if p in entry.players)
                assert where in (["N", "S"], ["E", "W"])
    for player in (p for e in entries for p in e.players):
        for seat in qp.SEATS:
            assert abs(seats[player, seat] - runs / 4) < 5 * (runs * 0.25 * 0.75) ** 0.5, (player, seat, seats)
