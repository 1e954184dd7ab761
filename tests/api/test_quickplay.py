"""Quick play through the real app: joining and leaving (retries answered, one entry a player,
the cooldown, bad input named), partners joining each other, the matching tick seating four
players (a rated table with its clock), a block and a ban kept apart, bots on consent only
after the time given (a casual table), and every answer valid by the served document.

The tick is run in-process (`services.quickplay.matcher.tick` on the app's runtime); the
workers' beat runs the same function (tests/e2e/test_quickplay_e2e.py). Each test uses a
queue of its own (its own options), since the session's queues are shared."""

from __future__ import annotations

import asyncio
import uuid
from datetime import datetime

import msgspec
import pytest

from domain import moderation
from domain.cards import Seat
from infra import streams
from infra.projections import ProjectionRunner
from infra.projections.social import SocialTies
from infra.store import NewEvent, PostgresEventStore
from services.bootstrap import open_runtime
from services.matches import seating
from services.matches.clocks import Clocks
from services.quickplay import matcher
from tests.api.conftest import register
from tests.api.typed_answers import check, check_examples, served

pytestmark = [pytest.mark.db, pytest.mark.redis]
ROUTES = [("post", "/v1/quickplay", 201), ("get", "/v1/quickplay", 200), ("delete", "/v1/quickplay", 200),
          ("get", "/v1/quickplay/stats", 200)]


@pytest.fixture(scope="module")
async def doc(client):
    return await served(client)


@pytest.fixture(scope="module")
async def runtime(client, api_settings):
    """A runtime of the test's own (the app's lives on the test client's loop), as a worker opens one."""
    async with open_runtime(api_settings, pool_size=2) as opened:
        yield opened


async def _join(client, doc, player, body, status=201):
    answer = await client.post("/v1/quickplay", headers=player.headers, json=body)
    if status == 201:
        return check(doc, "post", "/v1/quickplay", answer, 201)
    assert answer.status_code == status, answer.text
    return answer.json()


async def _mine(client, doc, player):
    return check(doc, "get", "/v1/quickplay", await client.get("/v1/quickplay", headers=player.headers), 200)


async def test_the_documents_examples_are_valid(doc) -> None:
    assert check_examples(doc, ROUTES) >= len(ROUTES)


async def test_join_retry_one_entry_leave_and_cooldown(client, doc) -> None:
    ann = await register(client)
    body = {"game": "belote", "options": {"deals": 7}, "command_id": str(uuid.uuid4())}
    first = await _join(client, doc, ann, body)
    assert first["status"] == "waiting" and first["players"] == [ann.player_id] and 2.0 <= first["band"] < 2.5
    assert (await _join(client, doc, ann, body))["entry_id"] == first["entry_id"]       # answered, not applied twice
    conflict = await _join(client, doc, ann, {**body, "rated": True}, 409)
    assert conflict["code"] == "command_conflict"
    again = await _join(client, doc, ann, {"game": "cinch"}, 409)
    assert again["code"] == "already_queued" and again["details"]["entry_id"] == first["entry_id"]
    assert (await _mine(client, doc, ann))["entry_id"] == first["entry_id"]
    left = check(doc, "delete", "/v1/quickplay", await client.delete("/v1/quickplay", headers=ann.headers), 200)
    assert left["status"] == "left"
    assert (await client.delete("/v1/quickplay", headers=ann.headers)).json()["code"] == "not_queued"
    cooled = await _join(client, doc, ann, {"game": "belote"}, 429)
    assert cooled["code"] == "quickplay_cooldown" and cooled["details"]["retry_after"] >= 1


@pytest.mark.parametrize(("body", "status", "code", "field"), [
    ({"game": "bridge"}, 400, "unknown_game", "$.game"),
    ({"game": "belote", "options": {"variant": "nope"}}, 400, "bad_option", "$.options.variant"),
    ({"game": "belote", "rated": True, "bots_after": 30}, 400, "bots_not_rated", "$.bots_after"),
    ({"game": "belote", "bots_after": 1}, 400, "bad_bots_after", "$.bots_after"),
    ({"game": "belote", "bots_after": 30, "bot_level": "godlike"}, 400, "bad_bot_level", "$.bot_level"),
    ({"game": "cinch", "options": {"mode": "individual"}, "partner": "someone"}, 400, "no_partners", "$.partner"),
    ({"game": "belote", "rated": True, "clock": {"bid": 1, "play": 1}}, 400, "bad_clock", "$.clock.play"),
    ({"game": "belote", "partner": "nobody-at-all"}, 404, "unknown_player", None),
])
async def test_bad_input_is_named(client, doc, body, status, code, field) -> None:
    bob = await register(client)
    refused = await _join(client, doc, bob, body, status)
    assert refused["code"] == code, refused
    if field:
        assert refused["details"]["field"] == field, refused
    assert (await client.get("/v1/quickplay", headers=bob.headers)).status_code == 404


async def test_four_players_are_seated_at_a_rated_table_with_its_clock(client, doc, runtime) -> None:
    players = [await register(client) for _ in range(4)]
    body = {"game": "belote", "options": {"variant": "coinche", "target": 1001}, "rated": True}
    for player in players:
        await _join(client, doc, player, body)
    counts = await matcher.tick(runtime)
    assert counts["tables"] >= 1
    entries = [await _mine(client, doc, p) for p in players]
    assert {e["status"] for e in entries} == {"seated"} and len({e["match_id"] for e in entries}) == 1
    assert sorted(e["seat"] for e in entries) == ["E", "N", "S", "W"]
    match_id = entries[0]["match_id"]
    state = await runtime.matches.load(match_id)
    assert state.rated and state.status == "playing"
    assert {s: h.player_id for s, h in state.seats.items()} == {e["seat"]: p.player_id for e, p in zip(entries, players)}
    assert await Clocks(runtime.store).of(match_id) == {"bid": 60.0, "play": 30.0}
    told = await runtime.store.read_stream(streams.quickplay_stream(entries[0]["entry_id"]))
    assert [e.type for e in told] == ["quickplay_seated"]
    # A second tick changes nothing: the entries are closed.
    assert (await matcher.tick(runtime))["finished"] == 0


async def test_partners_join_each_other_and_sit_together(client, doc, runtime) -> None:
    ann, bob, cat, dan = [await register(client) for _ in range(4)]
    body = {"game": "belote", "options": {"deals": 3}}
    first = await _join(client, doc, ann, {**body, "partner": bob.player_id})
    assert first["status"] == "partner"
    pair = await _join(client, doc, bob, {**body, "partner": ann.player_id})
    assert pair["entry_id"] == first["entry_id"] and sorted(pair["players"]) == sorted([ann.player_id, bob.player_id])
    await _join(client, doc, cat, body)
    await _join(client, doc, dan, body)
    await matcher.tick(runtime)
    seats = {p.player_id: (await _mine(client, doc, p))["seat"] for p in (ann, bob, cat, dan)}
    assert {seats[ann.player_id], seats[bob.player_id]} in ({"N", "S"}, {"E", "W"})
    assert {seats[cat.player_id], seats[dan.player_id]} in ({"N", "S"}, {"E", "W"})


async def test_a_block_and_a_ban_are_kept_from_the_table(client, doc, pool, runtime) -> None:
    players = [await register(client) for _ in range(5)]
    a, b = players[0], players[1]
    assert (await client.post("/v1/players/me/blocks", headers=a.headers,
                              json={"player_id": b.player_id})).status_code == 200
    store = PostgresEventStore(pool)
    runner = ProjectionRunner(store)
    await runner.ensure(SocialTies())
    await store.settle()
    await runner.catch_up(SocialTies())
    for player in players:
        await _join(client, doc, player, {"game": "five_hundred", "options": {"target": 250}})
    await matcher.tick(runtime)
    entries = {p.player_id: await _mine(client, doc, p) for p in players}
    seated = [p for p, e in entries.items() if e["status"] == "seated"]
    assert len(seated) == 4 and not {a.player_id, b.player_id} <= set(seated)
    # Four players, one of them banned since he joined: his entry ends, the others wait again.
    four = [await register(client) for _ in range(4)]
    for player in four:
        await _join(client, doc, player, {"game": "five_hundred", "options": {"target": 300}})
    banned = four[0]
    await store.append(streams.moderation_stream(banned.player_id), 0, [seating.REGISTRY.encode(moderation.ban(
        moderation.Sanctions(), player_id=banned.player_id, admin=a.player_id, reason="test"))],
        command_id=uuid.uuid4())
    await matcher.tick(runtime)
    assert [(await _mine(client, doc, p))["status"] for p in four] == ["expired", "waiting", "waiting", "waiting"]
    told = await store.read_stream(streams.quickplay_stream((await _mine(client, doc, banned))["entry_id"]))
    assert [(e.type, msgspec.json.decode(e.data)["reasons"]) for e in told] == [
        ("quickplay_expired", {banned.player_id: "banned"})]


async def test_bots_fill_a_casual_table_only_after_the_time_given(client, doc, pool, runtime) -> None:
    eve = await register(client)
    entry = await _join(client, doc, eve, {"game": "cinch", "options": {"target": 21}, "bots_after": 5,
                                           "bot_level": "random"})
    assert entry["casual_with_bots"] is True
    await matcher.tick(runtime)
    assert (await _mine(client, doc, eve))["status"] == "waiting"
    await pool.execute("UPDATE quickplay_entries SET joined_at = joined_at - interval '6 seconds' "
                       "WHERE entry_id = $1", entry["entry_id"])
    await matcher.tick(runtime)
    seated = await _mine(client, doc, eve)
    assert seated["status"] == "seated"
    state = await runtime.matches.load(seated["match_id"])
    assert not state.rated and state.status == "playing"
    assert sorted(h.kind for h in state.seats.values()) == ["bot", "bot", "bot", "player"]


async def test_stats_count_without_names(client, doc) -> None:
    fay = await register(client)
    await _join(client, doc, fay, {"game": "belote", "options": {"deals": 9}})
    answer = check(doc, "get", "/v1/quickplay/stats", await client.get("/v1/quickplay/stats", headers=fay.headers), 200)
    assert fay.player_id not in str(answer)
    assert {t["pool"] for t in answer["tables"]} >= {"belote_classic", "belote_coinche", "five_hundred"}


async def test_an_entry_expires_and_its_player_is_told(client, doc, pool, runtime) -> None:
    gus = await register(client)
    entry = await _join(client, doc, gus, {"game": "belote", "options": {"deals": 11}})
    await pool.execute("UPDATE quickplay_entries SET joined_at = joined_at - interval '601 seconds' "
                       "WHERE entry_id = $1", entry["entry_id"])
    assert (await matcher.tick(runtime))["expired"] >= 1
    assert (await _mine(client, doc, gus))["status"] == "expired"
    told = await runtime.store.read_stream(streams.quickplay_stream(entry["entry_id"]))
    assert [(e.type, msgspec.json.decode(e.data)["reasons"]) for e in told] == [
        ("quickplay_expired", {gus.player_id: "timeout"})]
    assert (await _join(client, doc, gus, {"game": "belote", "options": {"deals": 11}}))["status"] == "waiting"


async def test_a_table_left_early_delays_the_next_entry(client, doc, pool, runtime) -> None:
    """A seat a bot took over (away past the grace) at a quick-play table of the last day: the
    next entry is matched only after the penalty (30 s for one)."""
    hal = await register(client)
    left_match = str(uuid.uuid4())
    await runtime.store.append(streams.match_stream(left_match), 0, [NewEvent(
        type="action_taken", data=msgspec.json.encode({"seat": "W", "action": {"action": "pass"}, "by": "takeover"}))],
        command_id=uuid.uuid4())
    await pool.execute("INSERT INTO quickplay_seats (player_id, match_id, seat) VALUES ($1, $2, 'W')",
                       hal.player_id, left_match)
    entry = await _join(client, doc, hal, {"game": "belote", "options": {"deals": 13}, "bots_after": 5})
    joined, ready = (datetime.fromisoformat(entry[k]) for k in ("joined_at", "ready_at"))
    assert 29 <= (ready - joined).total_seconds() <= 31
    await pool.execute("UPDATE quickplay_entries SET joined_at = joined_at - interval '10 seconds' "
                       "WHERE entry_id = $1", entry["entry_id"])
    await matcher.tick(runtime)
    assert (await _mine(client, doc, hal))["status"] == "waiting"      # bots were due, the penalty was not over


async def test_a_seat_taken_from_the_lobby_first_puts_the_table_back(client, doc, runtime, monkeypatch) -> None:
    players = [await register(client) for _ in range(4)]
    stranger = await register(client)
    for player in players:
        await _join(client, doc, player, {"game": "belote", "options": {"deals": 17}})
    seat_them = matcher._seat

    async def first_a_stranger(rt, match_id, seat, player, command_id):
        monkeypatch.setattr(matcher, "_seat", seat_them)
        await rt.matches.take_seat(match_id, Seat(seat), player_id=stranger.player_id, command_id=uuid.uuid4())
        await seat_them(rt, match_id, seat, player, command_id)

    monkeypatch.setattr(matcher, "_seat", first_a_stranger)
    await matcher.tick(runtime)
    assert {(await _mine(client, doc, p))["status"] for p in players} == {"waiting"}
    await matcher.tick(runtime)
    entries = [await _mine(client, doc, p) for p in players]
    assert {e["status"] for e in entries} == {"seated"} and len({e["match_id"] for e in entries}) == 1


async def test_racing_joins_make_one_entry(client, doc, runtime) -> None:
    """The same join sent twice at once, and two different joins at once: one live entry."""
    ivy = await register(client)
    body = {"game": "belote", "options": {"deals": 19}, "command_id": str(uuid.uuid4())}
    same = await asyncio.gather(*(client.post("/v1/quickplay", headers=ivy.headers, json=body) for _ in range(3)))
    assert {a.status_code for a in same} == {201} and len({a.json()["entry_id"] for a in same}) == 1
    assert (await client.delete("/v1/quickplay", headers=ivy.headers)).status_code == 200
    jon = await register(client)
    bodies = [{"game": "belote", "options": {"deals": 19 + k}} for k in range(3)]
    answers = await asyncio.gather(*(client.post("/v1/quickplay", headers=jon.headers, json=b) for b in bodies))
    assert sorted(a.status_code for a in answers) == [201, 409, 409]
    live = await runtime.pool.fetchval("SELECT count(*) FROM quickplay_members WHERE player_id = $1 AND live",
                                       jon.player_id)
    assert live == 1


async def test_a_table_half_opened_is_finished_by_the_next_tick_once(client, doc, runtime) -> None:
    """A tick that died after claiming a table (its entries `seating`) leaves it to the next
    tick, which opens it; opening it again changes nothing: one match, each player told once."""
    players = [await register(client) for _ in range(4)]
    for player in players:
        await _join(client, doc, player, {"game": "cinch", "options": {"target": 31}})
    planned, _ = await matcher.plan(runtime.pool, b"crash")
    (key, pool_name, table), = [p for p in planned if set(p[2].entries) >= {
        (await _mine(client, doc, players[0]))["entry_id"]}]
    row = await matcher._claim(runtime, key, pool_name, table)
    assert {(await _mine(client, doc, p))["status"] for p in players} == {"seating"}
    assert (await client.delete("/v1/quickplay", headers=players[0].headers)).json()["code"] == "quickplay_seating"
    assert (await matcher.tick(runtime))["finished"] == 1
    assert await matcher.open_table(runtime, row) == 4
    entries = [await _mine(client, doc, p) for p in players]
    assert {e["status"] for e in entries} == {"seated"} and len({e["match_id"] for e in entries}) == 1
    for e in entries:
        told = await runtime.store.read_stream(streams.quickplay_stream(e["entry_id"]))
        assert [x.type for x in told] == ["quickplay_seated"]
    assert (await runtime.matches.load(entries[0]["match_id"])).status == "playing"
