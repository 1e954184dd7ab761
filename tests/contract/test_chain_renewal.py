"""A match never runs out of deals: across chain renewals on a real Postgres, with a chain of
three seeds. Each renewal's tip is an event published before any deal or entropy uses it;
deals of a chain take only entropy given after its tip; every revealed seed hashes to its
chain's tip; the record carries the chains and still plays. A match wedged at the end of
its chain the old way moves again."""

from __future__ import annotations

import random
import uuid

import pytest

from domain import fair
from domain import match as rules
from domain.cards import Seat
from domain.record import play_record
from infra.store import PostgresEventStore, create_pool
from infra.vault import Vault
from services.disputes.service import match_record
from services.matches.dealing import Dealing
from services.matches.service import MatchService
from tests.contract.match_support import play_out

pytestmark = [pytest.mark.db]


@pytest.fixture(scope="module")
async def pool(migrated_database_url: str):
    pool = await create_pool(migrated_database_url, max_size=4)
    yield pool
    await pool.close()


def service(pool, chain_length: int = 3) -> MatchService:
    return MatchService(PostgresEventStore(pool), Vault(pool), chain_length=chain_length, rng=random.Random(3))


async def seated(svc: MatchService, options: dict) -> tuple[str, dict[str, str]]:
    players = {s: f"player-{s}-{uuid.uuid4().hex[:6]}" for s in "NESW"}
    created = await svc.create_match("cinch", options, {"N": "me", "E": "open", "S": "open", "W": "open"},
                                     player_id=players["N"], entropy="north")
    for seat in "ESW":
        await svc.take_seat(created.match_id, Seat(seat), player_id=players[seat], entropy=f"{seat} at its seat")
    return created.match_id, players


async def test_a_match_plays_across_renewals_and_each_chain_is_bound_first(pool) -> None:
    svc = service(pool)
    match_id, players = await seated(svc, {"deals": 8})
    started = await svc.start(match_id)
    kinds = [type(e) for _, e in started.events]
    # Fewer than RENEW_AHEAD deals of chain 1 follow deal 0: chain 2 is published before it is dealt.
    assert kinds.index(rules.ChainRenewed) < kinds.index(rules.DealDealt)
    # East gives fresh entropy after chain 2's tip was published: it goes into chain 2's deals.
    assert await svc.give_entropy(match_id, Seat.E, player_id=players["E"], entropy="east, fresh") == 2
    state = await play_out(svc, match_id, random.Random(5))
    assert state.status == "finished"

    events = [(v, e) for v, e, _ in await svc.events(match_id)]
    chains = {1: (0, state.commitment, 3)}
    published_at = {1: 1}
    for version, event in events:
        if isinstance(event, rules.ChainRenewed):
            chains[event.chain] = (event.first_deal, event.tip, event.chain_length)
            published_at[event.chain] = version
    assert {c: first for c, (first, _, _) in chains.items()} == {1: 0, 2: 3, 3: 6}
    dealt = {e.deal: v for v, e in events if isinstance(e, rules.DealDealt)}
    seeds = {e.deal: e for _, e in events if isinstance(e, rules.SeedRevealed)}
    assert sorted(seeds) == list(range(8))
    for deal, revealed in seeds.items():
        chain = max(c for c, (first, _, _) in chains.items() if first <= deal)
        first, tip, _ = chains[chain]
        assert published_at[chain] < dealt[deal]                       # bound before the deal exists
        assert fair.verify_seed(bytes.fromhex(revealed.seed), bytes.fromhex(tip), deal - first + 1)
        assert revealed.context == fair.match_context(match_id, deal + 1)
        east = "E at its seat" if deal == 0 else "east, fresh"     # deal 0 was dealt with the start
        expected = {1: {"N": "north", "E": east, "S": "S at its seat", "W": "W at its seat"},
                    2: {"E": "east, fresh"}, 3: {}}[chain]
        assert revealed.entropy == expected, deal

    record = match_record(state, await svc.events(match_id))
    assert record["tip"] == state.commitment and record["chain_length"] == 3
    assert record["renewals"] == [{"chain": 2, "tip": chains[2][1], "chain_length": 3, "first_deal": 3},
                                  {"chain": 3, "tip": chains[3][1], "chain_length": 3, "first_deal": 6}]
    played = play_record(record)
    assert played["ok"], played
    assert played["match_score"] == state.game.status(state.game_state).match_score


class OldDealing(Dealing):
    """The dealing as it was before renewals: one chain, and nothing after its end."""

    async def renew(self, state, deal):
        return [], state


async def test_a_match_wedged_at_the_end_of_its_chain_moves_again(pool) -> None:
    old = service(pool, chain_length=2)
    old.dealing = OldDealing(old.vault, old.chain_length)
    match_id, _ = await seated(old, {"deals": 4})
    await old.start(match_id)
    with pytest.raises(fair.FairDealError):
        await play_out(old, match_id, random.Random(5))               # deal 3 has no seed: wedged
    wedged = await service(pool).load(match_id)
    assert wedged.status == "playing" and wedged.deal_index == 1 and len(wedged.chains) == 1

    state = await play_out(service(pool), match_id, random.Random(5))  # today's service
    assert state.status == "finished"
    renewed = [e for _, e, _ in await service(pool).events(match_id) if isinstance(e, rules.ChainRenewed)]
    assert renewed[0].first_deal == 2 and renewed[0].chain == 2
    # Its first deal had no entropy the server could have known: none given under chain 2.
    revealed = [e for _, e, _ in await service(pool).events(match_id) if isinstance(e, rules.SeedRevealed)]
    assert [e.entropy for e in revealed[2:]] == [{}, {}]


async def test_a_match_wedged_by_too_long_entropy_is_repaired_by_the_migration(pool) -> None:
    import hashlib
    from pathlib import Path

    svc = service(pool, chain_length=50)
    text = "é" * 600                                             # 1200 bytes, once accepted at creation
    created = await svc.create_match("cinch", {"deals": 1}, {"N": "me", "E": "open", "S": "open", "W": "open"},
                                     player_id="p-long")
    match_id = created.match_id
    await svc.vault.give_entropy(match_id, "N", text)           # what the creation kept before the limit
    for seat in "ESW":
        await svc.take_seat(match_id, Seat(seat), player_id=f"p-{seat}-{match_id[:6]}")
    with pytest.raises(fair.FairDealError):
        await svc.start(match_id)                              # the 500 of every start, for ever
    sql = (Path(__file__).resolve().parents[2] / "infra/migrations/0057_chain_renewals.sql").read_text()
    repair = sql[sql.index("UPDATE seat_entropy"):]
    await pool.execute(repair)
    started = await svc.start(match_id)
    [dealt] = [e for _, e in started.events if isinstance(e, rules.DealDealt)]
    assert dealt.fair["entropy"]["N"] == hashlib.sha256(text.encode()).hexdigest()
    assert (await svc.load(match_id)).status == "playing"


@pytest.mark.parametrize("extra,ok", [
    ({}, True),
    ({"tip": "ab" * 32, "chain_length": 1000, "renewals": []}, True),
    ({"renewals": [{"chain": 2, "tip": "cd" * 32, "chain_length": 3, "first_deal": 3}]}, True),
    ({"tip": "xyz"}, False),
    ({"chain_length": 0}, False),
    ({"renewals": {"chain": 2}}, False),
    ({"renewals": [{"chain": 1, "tip": "cd" * 32, "chain_length": 3, "first_deal": 3}]}, False),
    ({"renewals": [{"chain": 2, "tip": "cd" * 32, "chain_length": 3, "first_deal": 3},
                   {"chain": 3, "tip": "ef" * 32, "chain_length": 3, "first_deal": 3}]}, False),
])
def test_record_play_takes_the_chains_of_a_record_and_checks_their_shape(extra, ok) -> None:
    record = {"game": "cinch", "options": {"deals": 1}, "deals": [], **extra}
    played = play_record(record)
    assert played["ok"] is ok, played
    if not ok:
        assert played["code"] == "bad_record" and played["deal"] is None
