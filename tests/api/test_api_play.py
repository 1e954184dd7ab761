"""Four clients play whole matches of every game over HTTP, each from its own view.

Every response a seat receives (its view each step, its action answers, its events and
the record at the end) is checked against the true hands, read from the store through a
separate game service: no response ever shows a card another seat still holds, beyond
what a fifth client holding no seat has been shown (the turn-up, combinations shown at
trick 2, an open misère hand).
"""

from __future__ import annotations

import random
import re
import uuid
from typing import Any

import msgspec
import pytest

from domain import match as rules
from domain.cards import Seat
from domain.playout import concrete
from infra.store import PostgresEventStore, create_pool
from infra.vault import Vault
from services.matches.service import MatchService
from tests.api.conftest import Player, register, seated_match

pytestmark = [pytest.mark.db, pytest.mark.redis]

# Every game, and Coinche for its out-of-turn calls; one deal keeps each match short.
GAMES = [("belote", {"deals": 1}), ("belote", {"variant": "coinche", "deals": 1}), ("cinch", {"deals": 1}),
         ("five_hundred", {"deals": 1})]
CARD = re.compile(r"^(?:[2-9TJQKA][SHDC]|JK)$")
PUBLIC_RECORDS = {"deal_finished"}  # a finished deal's hand record is public by design


@pytest.fixture(scope="module")
async def truth(client, database_url: str):
    """A game service of its own (no shared cache) to read the true state from the store."""
    pool = await create_pool(database_url, max_size=2)
    yield MatchService(PostgresEventStore(pool), Vault(pool))
    await pool.close()


def cards_in(value: Any) -> set[str]:
    """Every card code in a JSON value, except inside public hand records."""
    if isinstance(value, str):
        return {value} if CARD.match(value) else set()
    if isinstance(value, dict):
        if value.get("type") in PUBLIC_RECORDS:
            return set()
        return set().union(*(cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    return set()


class Table:
    """One match under watch: the players, a spectator, and what the spectator was shown."""

    def __init__(self, client, truth: MatchService, match_id: str, players: dict[str, Player],
                 watcher: Player) -> None:
        self.client, self.truth, self.match_id, self.players, self.watcher = client, truth, match_id, players, watcher
        self.public: set[str] = set()
        self.watched = 0
        self.hands: dict[str, set[str]] = {}

    async def refresh(self) -> None:
        """After each change: the true hands, and what a spectator may see so far
        (cumulative: a card once shown stays known; these matches are one deal)."""
        state = await self.truth.load(self.match_id)
        self.hands = {s.value: set(msgspec.to_builtins(rules.view(state, s).table).get("hand") or ()) for s in Seat}
        url = f"/v1/matches/{self.match_id}"
        events = (await self.client.get(f"{url}/events", params={"after": self.watched},
                                        headers=self.watcher.headers)).json()
        self.watched = events["version"]
        view = (await self.client.get(url, headers=self.watcher.headers)).json()
        assert view["seat"] is None and not view["table"]["legal"]
        self.public |= cards_in(events) | cards_in(view)

    async def assert_no_leak(self, seat: str, body: Any) -> None:
        hidden = set().union(*(cards for other, cards in self.hands.items() if other != seat))
        leaked = cards_in(body) & (hidden - self.public)
        assert not leaked, f"{seat} was shown {sorted(leaked)} held by another seat: {body}"


async def play_over_http(table: Table, rng: random.Random, limit: int = 1500) -> dict[str, Any]:
    client, match_id, players = table.client, table.match_id, table.players
    await table.refresh()
    for _ in range(limit):
        views = {}
        for seat, player in players.items():
            response = await client.get(f"/v1/matches/{match_id}", headers=player.headers)
            assert response.status_code == 200, response.text
            views[seat] = response.json()
            assert views[seat]["seat"] == seat
        for seat, view in views.items():
            await table.assert_no_leak(seat, view)
        if views["N"]["status"] == "finished":
            return views["N"]
        choices = [(seat, action) for seat, view in views.items() for action in view["table"]["legal"]]
        assert choices, f"nobody may act: {views['N']}"
        seat, action = rng.choice(choices)
        body = {"command_id": str(uuid.uuid4()), "expected_version": views[seat]["version"],
                **{k: v for k, v in concrete(action, rng).items() if k != "seat"}}
        answer = await client.post(f"/v1/matches/{match_id}/actions", json=body, headers=players[seat].headers)
        assert answer.status_code == 200, (body, answer.text)
        result = answer.json()
        assert [e["version"] for e in result["events"]] == list(range(views[seat]["version"] + 1,
                                                                      result["version"] + 1))
        await table.refresh()
        await table.assert_no_leak(seat, result)
    raise AssertionError("the match did not finish")


@pytest.mark.parametrize("game,options", GAMES, ids=[f"{g}-{o.get('variant') or o.get('mode', '')}" for g, o in GAMES])
async def test_four_clients_play_a_whole_match_and_see_nothing_hidden(client, truth, game, options) -> None:
    match_id, players = await seated_match(client, game, options)
    table = Table(client, truth, match_id, players, await register(client, "watcher"))
    final = await play_over_http(table, random.Random(f"{game}{sorted(options.items())}"))
    assert final["status"] == "finished" and final["to_act"] == []

    for seat, player in players.items():  # every event, gap-free, redacted for the seat
        response = await client.get(f"/v1/matches/{match_id}/events", params={"after": 0}, headers=player.headers)
        assert response.status_code == 200
        events = response.json()
        assert [e["version"] for e in events["events"]] == list(range(1, final["version"] + 1))
        assert events["version"] == final["version"]
        await table.assert_no_leak(seat, events)
        hidden = [e for e in events["events"] if e["event"] is None]
        assert hidden, "the deck of a deal is hidden from every seat"
    later = await client.get(f"/v1/matches/{match_id}/events", params={"after": final["version"] - 2},
                             headers=players["E"].headers)
    assert [e["version"] for e in later.json()["events"]] == [final["version"] - 1, final["version"]]

    # The record of the finished deal replays through the real rules to the same score.
    record = (await client.get(f"/v1/matches/{match_id}/record", headers=players["S"].headers)).json()
    assert record["game"] == game and len(record["deals"]) == 1 and record["deals"][0]["fair"]["seed"]
    played = await client.post("/v1/records/play", json=record, headers=players["S"].headers)
    assert played.status_code == 200, played.text
    assert played.json()["ok"] is True
    assert played.json()["match_score"] == final["table"].get("match_score", played.json()["match_score"])


async def test_no_log_line_names_a_card_that_stayed_hidden(client, truth) -> None:
    """The logs are a reader like any other: every record any logger emits while a whole
    Five Hundred match is played over HTTP (DEBUG, every logger, the JSON formatter the
    server uses) is checked for the cards that were never shown to the table — the
    contractor's discards and anything left unplayed. A request body, an SQL parameter or an
    event payload in a log line would show up here."""
    import io
    import logging

    from services.http.logs import JsonFormatter

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.DEBUG)  # setLevel, not `.level =`: loggers cache what they may emit
    root.addHandler(handler)
    try:
        match_id, players = await seated_match(client, "five_hundred", {"deals": 1})
        table = Table(client, truth, match_id, players, await register(client, "watcher"))
        await play_over_http(table, random.Random("logs"))
    finally:
        root.removeHandler(handler)
        root.setLevel(level)
    record = (await client.get(f"/v1/matches/{match_id}/record", headers=players["N"].headers)).json()
    deck = set(record["deals"][0]["deck"])
    never_shown = deck - table.public
    assert len(never_shown) >= 3, never_shown          # at least the contractor's three discards
    lines = stream.getvalue().splitlines()
    assert len(lines) > 50                             # the capture saw the match's traffic
    leaked = {card for card in never_shown for line in lines if re.search(rf"(?<![A-Za-z0-9]){card}(?![A-Za-z0-9])", line)}
    assert not leaked, f"log lines name hidden cards {sorted(leaked)}"
