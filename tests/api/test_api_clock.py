"""Turn clocks through the API: `clock` at creation, validated with its field path, and the
seat in turn's `deadline` in the view (from the bot_turns read model the clocks keep)."""

from __future__ import annotations

import datetime as dt

from infra.projections import ProjectionRunner
from infra.projections.bot_turns import BotTurns
from infra.store import PostgresEventStore, create_pool
from tests.api.conftest import register


async def test_a_bad_clock_is_a_400_naming_the_field(client) -> None:
    player = await register(client)
    response = await client.post("/v1/matches", headers=player.headers,
                                 json={"game": "cinch", "seats": {"N": "me", "E": "open", "S": "open", "W": "open"},
                                       "clock": {"bid": 30, "play": -1}})
    assert response.status_code == 400, response.text
    assert response.json()["code"] == "bad_clock" and response.json()["details"]["field"] == "$.clock.play"


async def test_the_view_shows_the_deadline_of_the_seat_in_turn(client, database_url) -> None:
    players = [await register(client) for _ in range(4)]
    created = await client.post("/v1/matches", headers=players[0].headers,
                                json={"game": "cinch", "options": {"deals": 1}, "clock": {"bid": 30, "play": 15},
                                      "seats": {"N": "me", "E": "open", "S": "open", "W": "open"}})
    assert created.status_code == 201, created.text
    match_id = created.json()["match_id"]
    for seat, player in zip("ESW", players[1:]):
        taken = await client.post(f"/v1/matches/{match_id}/seats/{seat}", headers=player.headers, json={})
        assert taken.status_code == 200, taken.text
    before = dt.datetime.now(dt.timezone.utc)

    pool = await create_pool(database_url, max_size=2)
    try:
        store = PostgresEventStore(pool)
        await store.settle()
        runner = ProjectionRunner(store, batch_size=500)
        projection = BotTurns()
        await runner.ensure(projection)
        await runner.catch_up(projection)
    finally:
        await pool.close()

    view = (await client.get(f"/v1/matches/{match_id}", headers=players[0].headers)).json()
    assert view["to_act"], view
    deadline = dt.datetime.fromisoformat(view["deadline"].replace("Z", "+00:00"))
    assert before < deadline <= before + dt.timedelta(seconds=31)   # the bidding budget, from the turn's start
