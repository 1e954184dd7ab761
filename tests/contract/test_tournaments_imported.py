"""Boards imported as a match record, on the real store: a duplicate tournament plays the
record's decks as its boards, the same at every table; the decks are in no event; the
commitment published at the start is checked board by board once the round has closed."""

from __future__ import annotations

import hashlib
import random

from domain import fair
from domain import match as match_rules
from domain.tournaments import events as ev
from services.tournaments.service import TournamentService
from tests.contract.match_support import play_out
from tests.contract.test_tournaments import pool, svc  # noqa: F401  (fixtures)
from tests.unit.tournaments.test_tournament_boards import record
import pytest

pytestmark = [pytest.mark.db]


async def test_a_duplicate_plays_the_imported_boards_and_proves_it(svc: TournamentService, pool) -> None:
    rec = record(4, seed=11)
    tid = await svc.create("org", "Imported", "belote", {"deals": 2}, "duplicate", rounds=2, boards=rec)
    for i in range(4):
        await svc.execute(tid, ev.Register(entry_id=f"e{i}", players=["bot:random", "bot:random"]))
    await svc.start(tid)
    state = await svc.load(tid)
    assert state.imported_boards == 4 and len(state.board_digests) == 4 and state.commitment
    raw = b"".join(r.data or b"" for r in await svc.store.read_stream(f"tournament-{tid}"))
    assert b'"deck"' not in raw and b"QC" not in raw                 # no deck in any tournament event
    for number in (1, 2):
        state = await svc.load(tid)
        for match_id in state.current.matches.values():
            await play_out(svc.matches, match_id, random.Random(number))
        state = await svc.advance(tid)
        rnd = state.played[number - 1]
        assert rnd.closed and rnd.boards == [2 * number - 1, 2 * number]
        for match_id in rnd.matches.values():                     # every table: the record's boards
            dealt = [e for _, e, _ in await svc.matches.events(match_id) if isinstance(e, match_rules.DealFinished)]
            assert [(str(d.dealer), list(d.deck)) for d in dealt] == [
                (rec["deals"][b - 1]["dealer"], rec["deals"][b - 1]["deck"]) for b in rnd.boards]
        for b in rnd.boards:                                       # ...bound at the start
            seed = bytes.fromhex(rnd.seeds[str(b)])
            assert fair.verify_seed(seed, bytes.fromhex(state.commitment), steps=b)
            board = rec["deals"][b - 1]
            text = f"{board['dealer']}:{','.join(board['deck'])}".encode()
            assert hashlib.sha256(seed + text).hexdigest() == state.board_digests[b - 1]
    assert state.status == "closed"


async def test_too_few_boards_for_the_rounds_refuse_the_start(svc: TournamentService) -> None:
    tid = await svc.create("org", "Short", "belote", {"deals": 2}, "swiss", rounds=3, boards=record(4))
    for i in range(2):
        await svc.execute(tid, ev.Register(entry_id=f"e{i}", players=["bot:random"]))
    try:
        await svc.start(tid)
    except Exception as error:                                     # noqa: BLE001
        assert getattr(error, "code", None) == "not_enough_boards"
    else:
        raise AssertionError("started without boards enough")
    assert (await svc.load(tid)).status == "registering"
