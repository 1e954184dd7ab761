"""The table chat through a real server (`atout serve`), real Postgres and Redis, and its live
streams: a seat's free text during play is refused while a preset reaches the other seats'
streams; a spectator's words never reach a seat during play (its stream gets a placeholder,
its history leaves them out — an admin who holds a seat included) but reach the other
spectators; free text after the end, and the rail's history opens to the seats then; limits
of length, control characters and rate; a retried command is answered, not sent twice."""

from __future__ import annotations

import uuid

import httpx
import pytest

from domain import chat
from tests.api.chat_support import (  # noqa: F401
    chat_publisher,
    follow_http,
    follow_ws,
    history,
    player,
    say,
    sit,
    table,
)
from tests.api.test_live_streams import pool, server  # noqa: F401  (fixtures: a real server process)
from tests.eventually import eventually

pytestmark = [pytest.mark.db, pytest.mark.redis]


@pytest.fixture
async def http(server):  # noqa: F811
    async with httpx.AsyncClient(base_url=server, timeout=30) as client:
        yield client


async def test_presets_at_the_table_and_the_rail_kept_from_the_seats_during_play(server, pool, http,  # noqa: F811
                                                                                 chat_publisher) -> None:
    seats = {s: await player(http, f"chat {s}") for s in "NES"}
    seats["W"] = await player(http, "chat W (admin)", pool, "admin")       # a privileged role holding a seat
    rail, rail2 = await player(http, "Zoé"), await player(http, "Łukasz")
    admin = await player(http, "chat admin", pool, "admin")
    match_id = await table(http, seats, start=False)

    waiting = await say(http, match_id, seats["N"], text="Bonjour à tous !")
    assert waiting.status_code == 201, waiting.text
    before = await say(http, match_id, rail, text="Hello from the rail")
    assert before.status_code == 201 and before.json()["message"]["channel"] == "spectators"
    await sit(http, match_id, seats)

    east = await follow_http(server, match_id, seats["E"])
    west = await follow_ws(server, match_id, seats["W"])
    watcher = await follow_http(server, match_id, rail2, sse=True)
    snapshot = east.messages[0]
    assert snapshot["type"] == "snapshot" and snapshot["version"] == 2
    assert snapshot["view"]["channel"] == "table" and snapshot["view"]["free_text"] is False
    assert snapshot["view"]["presets"] == list(chat.PRESETS)
    assert watcher.messages[0]["view"]["channel"] == "spectators" and watcher.messages[0]["view"]["free_text"]

    refused = await say(http, match_id, seats["N"], text="lead a spade")
    assert refused.status_code == 422 and refused.json()["code"] == "chat_free_text_during_play"
    preset = await say(http, match_id, seats["N"], preset="well_played")
    assert preset.status_code == 201, preset.text
    version = preset.json()["version"]
    for follower in (east, west, watcher):
        got = (await follower.until(version))["event"]
        assert got["preset"] == "well_played" and got["seat"] == "N" and got["name"] == "chat N"
        assert got["text"] is None and got["channel"] == "table"

    words = "N holds the ace of spades — у него туз, ma asa pik, il a l'as"
    spoken = await say(http, match_id, rail, text=words)
    assert spoken.status_code == 201, spoken.text
    version = spoken.json()["version"]
    assert (await watcher.until(version))["event"]["text"] == words
    assert (await east.until(version))["event"] is None        # its version kept, its words not
    assert (await west.until(version))["event"] is None
    for seat in "NEW":
        assert words not in str(await history(http, match_id, seats[seat]))
    assert not any(words in str(m) for m in east.messages + west.messages)
    assert [m["text"] for m in await history(http, match_id, rail2) if m["channel"] == "spectators"] == [
        words, "Hello from the rail"]
    for follower in (east, west, watcher):
        events = follower.events
        assert [m["version"] for m in events] == list(range(3, 3 + len(events)))     # gap-free, from the snapshot

    ended = await http.post(f"/v1/admin/matches/{match_id}/abandon", headers=admin.headers,
                            json={"reason": "the chat test is over"})
    assert ended.status_code == 200 and ended.json()["status"] == "abandoned", ended.text
    after = await say(http, match_id, seats["N"], text="Merci pour la partie, à bientôt ! Dziękuję 🙂")
    assert after.status_code == 201, after.text
    assert (await east.until(after.json()["version"]))["event"]["text"].startswith("Merci")
    assert words in [m["text"] for m in await history(http, match_id, seats["E"])]   # the rail's, now it is over

    for follower in (east, west, watcher):
        await follower.stop()


async def test_limits_of_a_message_and_a_retried_command(server, pool, http, chat_publisher) -> None:  # noqa: F811
    seats = {s: await player(http, f"limits {s}") for s in "NESW"}
    match_id = await table(http, seats, start=False)
    longest = "é" * chat.MAX_TEXT
    assert (await say(http, match_id, seats["N"], text=longest)).status_code == 201
    too_long = await say(http, match_id, seats["N"], text=longest + "!")
    assert too_long.status_code == 400 and too_long.json()["code"] == "chat_too_long"
    assert too_long.json()["details"]["max"] == chat.MAX_TEXT
    control = await say(http, match_id, seats["N"], text="line one\nline two")
    assert control.status_code == 400 and control.json()["code"] == "chat_control_character"
    unknown = await say(http, match_id, seats["N"], preset="ace_of_spades")
    assert unknown.status_code == 400 and unknown.json()["code"] == "chat_unknown_preset"
    both = await say(http, match_id, seats["N"], preset="hello", text="hello")
    assert both.status_code == 400

    command_id = str(uuid.uuid4())
    first = await say(http, match_id, seats["E"], command_id, text="Привет, Cześć, Salut")
    again = await say(http, match_id, seats["E"], command_id, text="Привет, Cześć, Salut")
    assert first.status_code == again.status_code == 201 and first.json() == again.json()
    other = await say(http, match_id, seats["E"], command_id, text="something else")
    assert other.status_code == 409 and other.json()["code"] == "command_conflict"
    assert [m["text"] for m in await history(http, match_id, seats["S"])].count("Привет, Cześć, Salut") == 1

    answers = [await say(http, match_id, seats["S"], preset="hello") for _ in range(11)]
    codes = [a.status_code for a in answers]
    assert codes[:5] == [201] * 5 and 429 in codes           # 5 a window; a window may turn over once meanwhile
    limited = answers[codes.index(429)].json()
    assert limited["code"] == "chat_rate_limited" and limited["details"]["retry_after"] >= 1

    stranger = await http.get(f"/v1/matches/{uuid.uuid4()}/chat", headers=seats["N"].headers)
    assert stranger.status_code == 404 and stranger.json()["code"] == "unknown_match"
    page = await http.get(f"/v1/matches/{match_id}/chat", headers=seats["N"].headers, params={"limit": 2})
    assert len(page.json()) == 2 and 'rel="next"' in page.headers["link"]
    following = page.headers["link"].split(";")[0].strip("<>")
    rest = (await http.get(following, headers=seats["N"].headers)).json()
    assert rest and rest[0]["version"] == page.json()[-1]["version"] - 1


async def test_the_words_of_a_player_i_block_never_reach_me(server, pool, http, chat_publisher) -> None:  # noqa: F811
    seats = {s: await player(http, f"block {s}") for s in "NESW"}
    me, pest, other = await player(http, "block me"), await player(http, "block pest"), await player(http, "other")
    match_id = await table(http, seats, start=False)
    blocked = await http.post("/v1/players/me/blocks", headers=me.headers, json={"player_id": pest.player_id})
    assert blocked.status_code == 200 and blocked.json()["blocked"] is True, blocked.text

    async def listed() -> bool:
        rows = (await http.get("/v1/players/me/blocks", headers=me.headers)).json()
        return any(r["player_id"] == pest.player_id for r in rows)

    assert await eventually(listed)
    mine, theirs = await follow_http(server, match_id, me), await follow_ws(server, match_id, other)
    spoken = await say(http, match_id, pest, text="you cannot hear me")
    assert spoken.status_code == 201, spoken.text       # he still talks; others still read him
    version = spoken.json()["version"]
    assert (await theirs.until(version))["event"]["text"] == "you cannot hear me"
    assert (await mine.until(version))["event"] is None
    assert "you cannot hear me" not in str(await history(http, match_id, me))
    assert "you cannot hear me" in str(await history(http, match_id, other))
    for follower in (mine, theirs):
        await follower.stop()


async def test_a_spectator_who_sits_down_stops_reading_the_rail(server, pool, http, chat_publisher) -> None:  # noqa: F811
    seats = {s: await player(http, f"sit {s}") for s in "NESW"}
    rail = await player(http, "sit rail")
    match_id = await table(http, seats, start=False)
    await sit(http, match_id, seats, "ES")
    early = await follow_ws(server, match_id, seats["W"])          # W watches the waiting room, seatless
    assert early.messages[0]["view"]["channel"] == "spectators"
    await sit(http, match_id, seats, "W")                           # and takes the last seat: play starts
    spoken = await say(http, match_id, rail, text="W, your partner holds the trumps")
    assert spoken.status_code == 201, spoken.text

    async def ended() -> bool:
        return early.task is not None and early.task.done()

    assert await eventually(ended)
    last = early.messages[-1]
    assert last["type"] == "error" and last["code"] == "resync" and last["details"]["reason"] == "seated"
    assert early.close_code == 4008
    assert not any("trumps" in str(m) for m in early.messages)
    again = await follow_ws(server, match_id, seats["W"], after=last["version"])
    assert again.messages[0]["view"]["channel"] == "table"
    assert (await again.until(spoken.json()["version"]))["event"] is None
    await again.stop()
