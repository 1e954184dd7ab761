"""The ratings read model: exactly openskill's numbers, rebuild equal to live, rulings re-rate,
abandonment and repeats by the rules of docs/ratings.md.

Synthetic matches live in `rt-<id>` streams (presence in `rp-<id>`), folded by a Ratings
projection of their own names, so the session's real read models never see them.
"""

from __future__ import annotations

import random
import secrets
import uuid

import msgspec
import pytest
from openskill.models import PlackettLuce

from infra.projections import ProjectionRunner, rebuild
from infra.projections.ratings import Ratings
from infra.store import NewEvent, PostgresEventStore, create_pool

pytestmark = [pytest.mark.db]


@pytest.fixture(scope="module")
async def store(migrated_database_url: str):
    pool = await create_pool(migrated_database_url, max_size=8)
    yield PostgresEventStore(pool)
    await pool.close()


def projection() -> Ratings:
    tag = secrets.token_hex(3)
    name = f"rt_{tag}"
    cls = type(name, (Ratings,), {"name": name, "tables": (f"rtm_{tag}", f"rtr_{tag}", f"rth_{tag}"),
                                  "prefixes": (f"rt{tag}-", f"rp{tag}-", f"rr{tag}-")})
    return cls()


class Table:
    """Appends one synthetic match's events to its stream."""

    def __init__(self, store, proj: Ratings, players: dict[str, str], *, game="belote", options=None, rated=True,
                 tournament: dict | None = None, private: bool = False):
        self.store, self.id, self.version = store, str(uuid.uuid4()), 0
        self.tournament, self.private = tournament, private
        self.stream, self.presence, self.pversion = proj.prefixes[0] + self.id, proj.prefixes[1] + self.id, 0
        self.players, self.game, self.options, self.rated = players, game, options or {}, rated

    async def emit(self, *events: tuple[str, dict]) -> None:
        batch = [NewEvent(t, msgspec.json.encode(d)) for t, d in events]
        self.version = (await self.store.append(self.stream, self.version, batch, command_id=uuid.uuid4())).last_version

    async def start(self) -> Table:
        seats = {s: {"kind": "player", "player_id": p} for s, p in self.players.items()}
        await self.emit(("match_created", {"match_id": self.id, "game": self.game, "options": self.options,
                                           "seats": seats, "commitment": "00", "chain_length": 10, "rated": self.rated,
                                           "tournament": self.tournament, "private": self.private}),
                        ("match_started", {"first_dealer": "N"}))
        return self

    async def finish(self, winner: str, score: dict | None = None) -> None:
        score = score or ({"NS": 1000, "EW": 700} if winner == "NS" else {"NS": 700, "EW": 1000})
        await self.emit(("deal_finished", {"deal": 0, "summary": {"contract": {"seat": "N"}, "result": "made",
                                                                   "score": score}, "match_score": score}),
                        ("match_finished", {"winner": winner, "match_score": score}))

    async def away(self, seat: str) -> None:
        ev = NewEvent("seat_disconnected", msgspec.json.encode({"seat": seat, "at": 1.0}))
        self.pversion = (await self.store.append(self.presence, self.pversion, [ev], command_id=uuid.uuid4())).last_version


async def fetch_ratings(store, proj: Ratings, names=None) -> dict:
    table = (names or {}).get(proj.tables[1], proj.tables[1])
    rows = await store.pool.fetch(f"SELECT pool, player_id, mu, sigma, games, wins FROM {table}")
    return {(r["pool"], r["player_id"]): (r["mu"], r["sigma"], r["games"], r["wins"]) for r in rows}


async def live(store, proj: Ratings) -> ProjectionRunner:
    runner = ProjectionRunner(store)
    await runner.ensure(proj)
    await store.settle()
    await runner.catch_up(proj)
    return runner


def four() -> dict[str, str]:
    return {s: f"p-{secrets.token_hex(4)}" for s in "NESW"}


async def test_a_partnership_win_moves_both_partners_by_exactly_openskill(store) -> None:
    proj, players = projection(), four()
    await (await Table(store, proj, players, options={"variant": "coinche"}).start()).finish("EW")
    await live(store, proj)
    got = await fetch_ratings(store, proj)
    model = PlackettLuce()
    [[n, s], [e, w]] = model.rate([[model.rating(), model.rating()], [model.rating(), model.rating()]], ranks=[2, 1])
    for seat, expected in (("N", n), ("S", s), ("E", e), ("W", w)):
        mu, sigma, games, wins = got[("belote_coinche", players[seat])]
        assert (mu, sigma, games) == (expected.mu, expected.sigma, 1)
        assert wins == (1 if seat in "EW" else 0)
    assert got[("belote_coinche", players["E"])][0] > model.rating().mu > got[("belote_coinche", players["N"])][0]


async def test_cinch_individual_rates_four_players_by_place(store) -> None:
    proj, players = projection(), four()
    table = await Table(store, proj, players, game="cinch", options={"mode": "individual"}).start()
    score = {"N": 20, "E": 52, "S": 35, "W": 10}
    await table.emit(("match_finished", {"winner": "E", "match_score": score}))
    await live(store, proj)
    got = await fetch_ratings(store, proj)
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in range(4)], ranks=[1, 2, 3, 4])  # E, S, N, W
    for seat, r in zip("ESNW", expected):
        assert got[("cinch_individual", players[seat])][:2] == (r[0].mu, r[0].sigma)


async def test_unrated_matches_move_nothing(store) -> None:
    proj, players = projection(), four()
    await (await Table(store, proj, players, rated=False).start()).finish("NS")
    await live(store, proj)
    assert await fetch_ratings(store, proj) == {}


async def test_a_ruling_that_changes_the_winner_re_rates_from_that_match(store) -> None:
    proj = projection()
    a, b = four(), four()
    b["N"] = a["N"]                    # one player in both matches: the second depends on the first
    ruled = await Table(store, proj, a).start()
    await ruled.finish("NS")
    await (await Table(store, proj, b).start()).finish("EW")
    runner = await live(store, proj)
    before = await fetch_ratings(store, proj)
    await ruled.emit(("ruling_applied", {"ruling": "adjust", "deal": 0, "admin": "a", "reason": "r"}),
                     ("match_finished", {"winner": "EW", "match_score": {"NS": 700, "EW": 1000}}))
    await store.settle()
    await runner.catch_up(proj)
    after = await fetch_ratings(store, proj)
    assert after[("belote_classic", a["E"])][0] > before[("belote_classic", a["E"])][0]
    # Exactly rating the matches as the ruling left them, in finish order, from the start.
    model = PlackettLuce()
    r = {p: model.rating() for p in {*a.values(), *b.values()}}
    for players, winner in ((a, "EW"), (b, "EW")):
        teams = [[r[players["N"]], r[players["S"]]], [r[players["E"]], r[players["W"]]]]
        out = model.rate(teams, ranks=[1, 2] if winner == "NS" else [2, 1])
        for (x, y), new in zip((("N", "S"), ("E", "W")), out):
            r[players[x]], r[players[y]] = new
    assert {p: after[("belote_classic", p)][:2] for p in r} == {p: (v.mu, v.sigma) for p, v in r.items()}
    assert after[("belote_classic", a["N"])][2:] == (2, 0)   # lost both, once the ruling moved the first
    # And a rebuild from the log gives the same numbers.
    await rebuild(ProjectionRunner(store, batch_size=2), proj)
    assert await fetch_ratings(store, proj) == after


async def test_voided_and_reopened_matches_are_unrated(store) -> None:
    proj, players = projection(), four()
    table = await Table(store, proj, players).start()
    await table.finish("NS")
    runner = await live(store, proj)
    assert len(await fetch_ratings(store, proj)) == 4
    await table.emit(("match_reopened", {"match_score": {"NS": 0, "EW": 0}}))
    await store.settle()
    await runner.catch_up(proj)
    assert await fetch_ratings(store, proj) == {}
    await table.finish("EW")
    await table.emit(("match_voided", {"admin": "a", "reason": "r"}))
    await store.settle()
    await runner.catch_up(proj)
    assert await fetch_ratings(store, proj) == {}


async def test_abandoned_with_one_side_all_away_is_a_loss_for_that_side(store) -> None:
    proj = projection()
    gone, idle, half = four(), four(), four()
    t = await Table(store, proj, gone).start()
    await t.away("E")
    await t.away("W")
    await t.emit(("match_abandoned", {"idle_seconds": 600.0}))
    t = await Table(store, proj, idle).start()
    await t.emit(("match_abandoned", {"idle_seconds": 600.0}))
    t = await Table(store, proj, half).start()
    await t.away("E")
    await t.emit(("match_abandoned", {"idle_seconds": 600.0}))
    await live(store, proj)
    got = await fetch_ratings(store, proj)
    model = PlackettLuce()
    [[n, _], [e, _]] = model.rate([[model.rating(), model.rating()], [model.rating(), model.rating()]], ranks=[1, 2])
    assert got[("belote_classic", gone["N"])][:2] == (n.mu, n.sigma)
    assert got[("belote_classic", gone["W"])][:2] == (e.mu, e.sigma)
    assert not any(p in {k[1] for k in got} for p in (*idle.values(), *half.values()))


async def test_repeated_matches_of_the_same_four_count_less(store) -> None:
    proj, players = projection(), four()
    for _ in range(3):
        await (await Table(store, proj, players).start()).finish("NS")
    await live(store, proj)
    rows = await store.pool.fetch(f"SELECT weight FROM {proj.tables[2]} WHERE player_id = $1 ORDER BY seq",
                                  players["N"])
    assert [r["weight"] for r in rows] == [1.0, 0.5, 1 / 3]


async def test_rebuild_equals_live_over_many_interleaved_matches(store) -> None:
    proj = projection()
    rng = random.Random(7)
    people = [f"q-{secrets.token_hex(3)}" for _ in range(10)]
    tables = []
    for i in range(30):
        chosen = rng.sample(people, 4)
        game, options = rng.choice([("belote", {}), ("belote", {"variant": "coinche"}), ("five_hundred", {})])
        tables.append(await Table(store, proj, dict(zip("NESW", chosen)), game=game, options=options).start())
    for t in rng.sample(tables, len(tables)):
        await t.finish(rng.choice(["NS", "EW"]))
    ruled = tables[3]
    await ruled.emit(("match_finished", {"winner": "EW", "match_score": {"NS": 0, "EW": 1}}))
    runner = ProjectionRunner(store, batch_size=7)
    await runner.ensure(proj)
    await store.settle()
    await runner.catch_up(proj)
    live_numbers = await fetch_ratings(store, proj)
    live_history = await store.pool.fetch(f"SELECT * FROM {proj.tables[2]} ORDER BY pool, player_id, seq")
    await rebuild(ProjectionRunner(store, batch_size=500), proj)
    assert await fetch_ratings(store, proj) == live_numbers
    assert [dict(r) for r in await store.pool.fetch(f"SELECT * FROM {proj.tables[2]} ORDER BY pool, player_id, seq")] \
        == [dict(r) for r in live_history]
    assert len(live_numbers) > 10


@pytest.mark.parametrize("rated, bots, expected", [(True, False, True), (False, False, False), (True, True, False)])
async def test_tournament_tables_are_rated_unless_turned_off_or_a_seat_is_a_bot(store, rated, bots, expected) -> None:
    from domain.tournaments import events as ev
    from infra.vault import Vault
    from services.matches.service import MatchService
    from services.tournaments.service import TournamentService

    svc = TournamentService(store, MatchService(store, Vault(store.pool)))
    tid = await svc.create("organiser-r", "Ranked cup", "belote", {"deals": 1}, "swiss", rounds=1, rated=rated)
    for i in range(2):
        players = [f"tp-{secrets.token_hex(3)}", "bot:random" if bots and i else f"tp-{secrets.token_hex(3)}"]
        await svc.execute(tid, ev.Register(entry_id=f"e{i}", players=players))
    await svc.start(tid)
    [match_id] = (await svc.load(tid)).current.matches.values()
    assert (await svc.matches.load(match_id)).rated is expected
    from services.matches.clocks import RATED_DEFAULT, Clocks

    clock = await Clocks(store, 1).of(match_id)   # a rated table, as every rated match, has a clock
    assert clock == (RATED_DEFAULT if expected else None), clock


@pytest.mark.parametrize("seeding, expected", [("rating", [{"e0", "e2"}, {"e1", "e3"}]),
                                               ("registration", [{"e0", "e3"}, {"e1", "e2"}])])
async def test_an_elimination_may_seed_by_rating(store, seeding, expected) -> None:
    from domain.tournaments import events as ev
    from infra.vault import Vault
    from services.matches.service import MatchService
    from services.tournaments.service import TournamentService

    await ProjectionRunner(store).ensure(Ratings())
    svc = TournamentService(store, MatchService(store, Vault(store.pool)))
    tid = await svc.create("organiser-s", "Seeded cup", "belote", {"deals": 1}, "elimination", seeding=seeding)
    strength = {"e0": 30.0, "e1": 20.0, "e2": -5.0, "e3": 10.0}     # by rating: e0, e1, e3, e2
    for entry, rating in strength.items():
        players = [f"sp-{secrets.token_hex(3)}", f"sp-{secrets.token_hex(3)}"]
        await svc.execute(tid, ev.Register(entry_id=entry, players=players))
        for p in players:
            await store.pool.execute("INSERT INTO ratings (pool, player_id, mu, sigma, rating, games, wins, seq)"
                                     " VALUES ('belote_classic', $1, 0, 1, $2, 10, 5, 0)", p, rating)
    await svc.start(tid)
    tables = (await svc.load(tid)).current.tables
    assert sorted(({t.home, t.away} for t in tables), key=sorted) == expected


def test_only_a_swiss_or_an_elimination_seeds_by_rating() -> None:
    from domain.game import RuleViolation
    from domain.tournaments import aggregate
    from domain.tournaments import events as ev

    with pytest.raises(RuleViolation) as refused:
        aggregate.decide(aggregate.State(), ev.Create(tournament_id="t", organiser="o", name="n", game="belote",
                                                      options={}, format="round_robin", seeding="rating"))
    assert refused.value.code == "bad_seeding"


async def rated_in(store, match_id: str) -> dict[str, tuple[float, float, float]]:
    """What the live `ratings` read model rated `match_id` for: player -> (mu, sigma, weight)."""
    await live(store, Ratings())
    return {r["player_id"]: (r["mu"], r["sigma"], r["weight"]) for r in await store.pool.fetch(
        "SELECT player_id, mu, sigma, weight FROM rating_history WHERE match_id = $1", match_id)}


def openskill_of(players: dict[str, str], winner: str) -> dict[str, tuple[float, float]]:
    """Newcomers' ratings after one partnership match, by the library itself."""
    model = PlackettLuce()
    ranks = [1, 2] if winner == "NS" else [2, 1] if winner == "EW" else [1, 1]
    [[n, s], [e, w]] = model.rate([[model.rating(), model.rating()], [model.rating(), model.rating()]], ranks=ranks)
    return {players["N"]: (n.mu, n.sigma), players["S"]: (s.mu, s.sigma), players["E"]: (e.mu, e.sigma),
            players["W"]: (w.mu, w.sigma)}


async def winner_of(matches, match_id: str) -> str:
    """The side its `match_finished` names (none: a tie at a `deals` match's end)."""
    from domain import match as match_rules

    [finished] = [e for _, e, _ in await matches.events(match_id) if isinstance(e, match_rules.MatchFinished)]
    return finished.winner or "tie"


async def test_duplicate_tables_rate_as_matches_between_their_two_entries(store) -> None:
    """Every table of a duplicate round plays the same boards; each is a rated match between
    the two entries sitting at it, rated by exactly what openskill gives for that result."""
    from domain.tournaments import events as ev
    from infra.vault import Vault
    from services.matches.service import MatchService
    from services.tournaments.service import TournamentService
    from tests.contract.match_support import play_out

    svc = TournamentService(store, MatchService(store, Vault(store.pool)))
    tid = await svc.create("organiser-d", "Ranked duplicate", "belote", {"deals": 1}, "duplicate", rounds=1)
    for i in range(4):
        await svc.execute(tid, ev.Register(entry_id=f"e{i}", players=[f"dp-{secrets.token_hex(3)}",
                                                                        f"dp-{secrets.token_hex(3)}"]))
    await svc.start(tid)
    rnd = (await svc.load(tid)).current
    assert len(rnd.tables) == 2
    for table in rnd.tables:
        state = await play_out(svc.matches, rnd.matches[table.table], random.Random(table.table))
        assert state.rated and state.status == "finished" and state.sealed
        # Over, but its round is not closed until the other table is: rated by nobody yet.
        assert await rated_in(store, rnd.matches[table.table]) == {}
    assert (await svc.advance(tid)).played[0].closed
    for table in rnd.tables:
        match_id = rnd.matches[table.table]
        state = await svc.matches.load(match_id)
        seats = {s: h.player_id for s, h in state.seats.items()}
        sides = {side: {seats[s] for s in side} for side in ("NS", "EW")}
        entries = {e: set((await svc.load(tid)).entries[e]) for e in (table.home, table.away)}
        assert sorted(map(sorted, sides.values())) == sorted(map(sorted, entries.values()))   # entry v entry
        got = await rated_in(store, match_id)
        assert {p: v[:2] for p, v in got.items()} == openskill_of(seats, await winner_of(svc.matches, match_id))
        assert {v[2] for v in got.values()} == {1.0}


async def test_takeover_and_clock_plays_leave_a_rated_match_rated(store) -> None:
    """A bot that plays an away player's turns, and the clock's bot, play for the seat: the
    match stays rated and rates the four players as any finished match."""
    from domain.cards import Seat
    from infra import presence
    from infra.vault import Vault
    from services.matches.service import MatchService
    from services.bots import turns
    from tests.contract.match_support import play_out

    svc = MatchService(store, Vault(store.pool))
    players = four()
    created = await svc.create_match("cinch", {"deals": 1}, {"N": "me", "E": "open", "S": "open", "W": "open"},
                                     player_id=players["N"], rated=True)
    match_id = created.match_id
    for seat in "ESW":
        await svc.take_seat(match_id, Seat(seat), player_id=players[seat])
    await svc.start(match_id)
    state = await svc.load(match_id)
    [away] = [str(s) for s in state.game.status(state.game_state).to_act]
    await presence.record(store, match_id, away, presence.SEAT_DISCONNECTED, at=0.0)
    assert await turns.play_turn(svc, match_id, away, state.version, takeover=True, grace=0.0) == "played"
    state = await svc.load(match_id)
    [late] = [str(s) for s in state.game.status(state.game_state).to_act]
    assert (await turns.expire(svc, match_id, state.version))[0] == "played"
    state = await play_out(svc, match_id, random.Random(5))
    marks = [e.by for _, e, _ in await svc.events(match_id) if getattr(e, "by", None) in ("takeover", "clock")]
    assert marks == ["takeover", "clock"] and late
    assert state.rated and state.status == "finished"
    got = await rated_in(store, match_id)
    assert {p: v[:2] for p, v in got.items()} == openskill_of(players, await winner_of(svc, match_id))


async def test_a_swiss_may_seed_by_rating(store) -> None:
    """A Swiss seeded by rating pairs its first round as one whose entries registered in the
    order of their ratings; the order is kept in `tournament_started.seeds`."""
    from domain.tournaments import events as ev
    from infra.vault import Vault
    from services.matches.service import MatchService
    from services.tournaments.service import TournamentService

    await ProjectionRunner(store).ensure(Ratings())
    svc = TournamentService(store, MatchService(store, Vault(store.pool)))
    strength = {"e0": 5.0, "e1": 30.0, "e2": -2.0, "e3": 12.0, "e4": 0.0, "e5": 20.0}   # e1 e5 e3 e0 e4 e2
    people = {}
    seeded = await svc.create("organiser-s", "Seeded swiss", "belote", {"deals": 1}, "swiss", rounds=1,
                              seeding="rating")
    for entry, rating in strength.items():
        people[entry] = [f"sw-{secrets.token_hex(3)}", f"sw-{secrets.token_hex(3)}"]
        await svc.execute(seeded, ev.Register(entry_id=entry, players=people[entry]))
        for p in people[entry]:
            await store.pool.execute("INSERT INTO ratings (pool, player_id, mu, sigma, rating, games, wins, seq)"
                                     " VALUES ('belote_classic', $1, 0, 1, $2, 10, 5, 0)", p, rating)
    by_rating = sorted(strength, key=lambda e: -strength[e])
    plain = await svc.create("organiser-s", "Registered swiss", "belote", {"deals": 1}, "swiss", rounds=1)
    for entry in by_rating:
        await svc.execute(plain, ev.Register(entry_id=entry, players=[f"sx-{secrets.token_hex(3)}",
                                                                      f"sx-{secrets.token_hex(3)}"]))
    await svc.start(seeded)
    await svc.start(plain)
    [started] = [msgspec.json.decode(e.data) for e in await store.read_stream(f"tournament-{seeded}")
                 if e.type == "tournament_started"]
    assert started["seeds"] == by_rating
    pairs = [{(t.home, t.away) for t in (await svc.load(tid)).current.tables} for tid in (seeded, plain)]
    assert pairs[0] == pairs[1] and len(pairs[0]) == 3


async def test_repeats_count_less_only_within_a_day(store) -> None:
    """Two matches of the same four two days ago count 1 and 1/2; today's first counts fully
    again, its second half: only the 24 hours before a match count."""
    proj, players = projection(), four()
    old = []
    for _ in range(2):
        table = await Table(store, proj, players).start()
        await table.finish("NS")
        old.append(table.stream)
    await store.pool.execute("UPDATE events SET recorded_at = recorded_at - interval '2 days' "
                             "WHERE stream_id = ANY($1::text[])", old)
    for _ in range(2):
        await (await Table(store, proj, players).start()).finish("EW")
    await live(store, proj)
    rows = await store.pool.fetch(f"SELECT weight FROM {proj.tables[2]} WHERE player_id = $1 ORDER BY seq",
                                  players["N"])
    assert [r["weight"] for r in rows] == [1.0, 0.5, 1.0, 0.5]


class Tournament:
    """A synthetic tournament's stream: only what the ratings read of it (its rounds closing)."""

    def __init__(self, store, proj: Ratings) -> None:
        self.store, self.id, self.version = store, str(uuid.uuid4()), 0
        self.stream = proj.prefixes[2] + self.id

    def round(self, number: int) -> dict:
        return {"tournament_id": self.id, "round": number}

    async def close(self, number: int) -> None:
        ev = NewEvent("round_closed", msgspec.json.encode({"round": number, "seeds": {}}))
        self.version = (await self.store.append(self.stream, self.version, [ev], command_id=uuid.uuid4())).last_version


async def stats_rows(store, proj: Ratings, player: str) -> list:
    """What the stats route counts for `player` (its query, on the projection's own table)."""
    return await store.pool.fetch(f"SELECT match_id FROM {proj.tables[0]} WHERE status = 'finished' AND held IS NULL"
                                  " AND NOT private AND EXISTS (SELECT 1 FROM jsonb_each_text(seats) s"
                                  " WHERE s.value = $1)", player)


async def test_a_tournament_table_is_rated_when_its_round_closes_not_when_it_ends(store) -> None:
    proj = projection()
    tour = Tournament(store, proj)
    first, second = four(), four()
    runner = await live(store, proj)
    await (await Table(store, proj, first, tournament=tour.round(1)).start()).finish("NS")
    await store.settle()
    await runner.catch_up(proj)
    # The table is over, the round is not: no rating, no history, no stats, for anyone.
    assert await fetch_ratings(store, proj) == {}
    assert await store.pool.fetchval(f"SELECT count(*) FROM {proj.tables[2]}") == 0
    assert await stats_rows(store, proj, first["N"]) == []
    await (await Table(store, proj, second, tournament=tour.round(1)).start()).finish("EW")
    await tour.close(1)
    await store.settle()
    await runner.catch_up(proj)
    rated = await fetch_ratings(store, proj)
    assert {p for _, p in rated} == set(first.values()) | set(second.values())
    assert rated[("belote_classic", first["N"])][3] == 1 and rated[("belote_classic", second["N"])][3] == 0
    assert len(await stats_rows(store, proj, first["N"])) == 1
    # Both tables are rated at the round's close: one position, after every result of the round.
    seqs = {r["seq"] for r in await store.pool.fetch(f"SELECT seq FROM {proj.tables[2]}")}
    assert len(seqs) == 1


async def test_held_results_rebuild_equal_to_the_live_fold(store) -> None:
    proj = projection()
    tour = Tournament(store, proj)
    players = [four() for _ in range(3)]
    runner = await live(store, proj)
    casual = await Table(store, proj, players[0]).start()
    held = await Table(store, proj, players[1], tournament=tour.round(1)).start()
    await held.finish("NS")                         # ends first, rated last: its round closes after
    await casual.finish("EW")
    later = await Table(store, proj, {**players[0], "N": players[1]["N"], "S": players[1]["S"]}).start()
    await later.finish("NS")
    await tour.close(1)
    await store.settle()
    await runner.catch_up(proj)
    live_numbers = await fetch_ratings(store, proj)
    assert len(live_numbers) == 8
    await rebuild(ProjectionRunner(store, batch_size=1), proj)
    assert await fetch_ratings(store, proj) == live_numbers


async def test_a_private_table_never_enters_the_stats(store) -> None:
    proj = projection()
    players = four()
    runner = await live(store, proj)
    await (await Table(store, proj, players, rated=False, private=True).start()).finish("NS")
    await (await Table(store, proj, players, rated=False).start()).finish("NS")
    await store.settle()
    await runner.catch_up(proj)
    assert len(await stats_rows(store, proj, players["N"])) == 1


async def test_new_accounts_move_an_established_player_a_fraction_of_openskill(store) -> None:
    """Four players past their ten provisional matches; then two of them beat two fresh
    accounts: the veterans move 1/11 of openskill's way (the alts' first match), the fresh
    accounts fully; a rebuild gives the same numbers."""
    proj, veterans = projection(), four()
    for i in range(10):
        await (await Table(store, proj, veterans).start()).finish("NS" if i % 2 else "EW")
    runner = await live(store, proj)
    before = await fetch_ratings(store, proj)
    players = {"N": veterans["N"], "S": veterans["S"], "E": f"alt-{secrets.token_hex(4)}",
               "W": f"alt-{secrets.token_hex(4)}"}
    await (await Table(store, proj, players).start()).finish("NS")
    await store.settle()
    await runner.catch_up(proj)
    got = await fetch_ratings(store, proj)
    model = PlackettLuce()
    ratings_of = {s: model.rating(*before[("belote_classic", p)][:2]) if ("belote_classic", p) in before
                  else model.rating() for s, p in players.items()}
    [[n, s], [e, w]] = model.rate([[ratings_of["N"], ratings_of["S"]], [ratings_of["E"], ratings_of["W"]]], ranks=[1, 2])
    for seat, new in (("N", n), ("S", s)):
        mu0, sigma0 = before[("belote_classic", players[seat])][:2]
        assert got[("belote_classic", players[seat])][:2] == (mu0 + (new.mu - mu0) / 11,
                                                              sigma0 + (new.sigma - sigma0) / 11)
    for seat, new in (("E", e), ("W", w)):
        assert got[("belote_classic", players[seat])][:2] == (new.mu, new.sigma)
    history = f"SELECT player_id, weight FROM {proj.tables[2]} WHERE seq = (SELECT max(seq) FROM {proj.tables[2]})"
    assert {r["player_id"]: r["weight"] for r in await store.pool.fetch(history)} == {
        players["N"]: 1 / 11, players["S"]: 1 / 11, players["E"]: 1.0, players["W"]: 1.0}
    await rebuild(ProjectionRunner(store, batch_size=500), proj)
    assert await fetch_ratings(store, proj) == got
