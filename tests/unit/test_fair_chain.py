"""The fair chain of a record, deal kind by deal kind: predefined deals take their chain
position, a replay ruling's re-deal is its earlier board, a tournament board has its own
commitment, a renewal starts at its tip; and `deal verify` of one deal checks each input."""

from __future__ import annotations

import json

from domain import fair
from domain.fair_chain import verify_record
from services.cli import main

SECRET = bytes(range(32))
N = 6
TIP = fair.make_chain_tip(SECRET, N)


def shuffled(position: int, entropy: dict | None = None, match_id: str = "m-1", k: int | None = None) -> dict:
    seed = fair.chain_element(SECRET, N, (k or position + 1))
    context = fair.match_context(match_id, k or position + 1)
    return {"dealer": "N", "deck": fair.shuffle_deck("belote", seed, context, entropy),
            "fair": {"seed": seed.hex(), "commitment": fair.sha256(seed).hex(), "context": context,
                     "entropy": entropy or {}}}


def record(*deals: dict, **extra) -> dict:
    return {"match_id": "m-1", "game": "belote", "deals": list(deals), "tip": TIP.hex(), "chain_length": N, **extra}


def kinds_and_failures(rec: dict) -> list[tuple[str, str | None]]:
    return [(r["kind"], r["failed"]) for r in verify_record(rec, fair.deck_for("belote"))]


def test_predefined_deals_take_chain_positions() -> None:
    imported = {"dealer": "N", "deck": list(fair.deck_for("belote"))}
    # After one imported deal, deal 2 is shuffled with c_2: its commitment c_1 is never revealed.
    results = verify_record(record(imported, shuffled(1), shuffled(2)), fair.deck_for("belote"))
    assert [(r["kind"], r["failed"]) for r in results] == [("predefined", None), ("shuffled", None), ("shuffled", None)]
    assert results[1]["checks"]["tip"] is True and results[2]["checks"]["chain_link"] is True
    # Shuffled with c_1 in position 2 instead: it claims deal 1, which was no shuffled deal.
    assert kinds_and_failures(record(imported, shuffled(1, k=1)))[1] == ("replay", "context")


def test_a_replay_is_its_earlier_board_and_its_position_is_skipped() -> None:
    first, second = shuffled(0), shuffled(1)
    # Deal 2 voided and replayed as deal 3 (the same board), then deal 4 is shuffled with c_4.
    rec = record(first, second, second, shuffled(3))
    assert kinds_and_failures(rec) == [("shuffled", None), ("shuffled", None), ("replay", None), ("shuffled", None)]
    other = shuffled(0, entropy={"N": "x"})
    other["fair"]["context"] = second["fair"]["context"]
    assert kinds_and_failures(record(first, second, other))[2] == ("replay", "context")


def test_a_tournament_board_has_its_own_commitment() -> None:
    seed = fair.chain_element(SECRET, N, 2)
    context = fair.tournament_context("cup", 2)
    board = {"dealer": "N", "deck": fair.shuffle_deck("belote", seed, context),
             "fair": {"seed": seed.hex(), "commitment": fair.sha256(seed).hex(), "context": context, "entropy": {}}}
    assert kinds_and_failures({"game": "belote", "deals": [board]}) == [("board", None)]
    board["fair"]["entropy"] = {"N": "no"}
    assert kinds_and_failures({"game": "belote", "deals": [board]}) == [("board", "entropy")]


def test_a_renewal_starts_at_its_tip_and_a_deal_past_every_chain_is_refused() -> None:
    secret2 = bytes(range(1, 33))
    tip2 = fair.make_chain_tip(secret2, 2)
    deals = [shuffled(p) for p in range(N)]
    for p in (N, N + 1):
        seed = fair.chain_element(secret2, 2, p - N + 1)
        context = fair.match_context("m-1", p + 1)
        deals.append({"dealer": "N", "deck": fair.shuffle_deck("belote", seed, context),
                      "fair": {"seed": seed.hex(), "commitment": fair.sha256(seed).hex(), "context": context,
                               "entropy": {}}})
    renewals = [{"chain": 2, "tip": tip2.hex(), "chain_length": 2, "first_deal": N}]
    assert all(f is None for _, f in kinds_and_failures(record(*deals, renewals=renewals)))
    assert kinds_and_failures(record(*deals))[N] == ("shuffled", "tip")


def _single(deal: dict, *extra: str) -> list[str]:
    args = ["deal", "verify", "--game", "belote", "--seed", deal["fair"]["seed"], "--context",
            deal["fair"]["context"], "--commitment", deal["fair"]["commitment"], "--deck", ",".join(deal["deck"])]
    for seat, text in deal["fair"]["entropy"].items():
        args += ["--entropy", f"{seat}={text}"]
    return args + list(extra)


def test_deal_verify_of_one_deal_checks_deck_and_tip(capsys) -> None:
    deal = shuffled(2, entropy={"E": "east"})
    assert main(_single(deal, "--tip", TIP.hex())) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] and out["tip_checked"] and all(out["checks"].values()), out
    swapped = {**deal, "deck": [deal["deck"][1], deal["deck"][0], *deal["deck"][2:]]}
    assert main(_single(swapped)) == 1
    assert json.loads(capsys.readouterr().out)["checks"]["deck"] is False
    altered = {**deal, "fair": {**deal["fair"], "entropy": {"E": "west"}}}
    assert main(_single(altered)) == 1
    assert json.loads(capsys.readouterr().out)["checks"]["deck"] is False
    assert main(_single(deal, "--tip", fair.sha256(TIP).hex())) == 1
    assert json.loads(capsys.readouterr().out)["checks"]["tip"] is False
    bad_context = {**deal, "fair": {**deal["fair"], "context": "match:m-1:deal:03"}}
    assert main(_single(bad_context)) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["checks"]["context"] is False and "bad deal context" in out["problems"]["context"]
