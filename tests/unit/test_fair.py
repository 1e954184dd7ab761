"""The verifiable deal: the published vectors, the chain's direction, and `atout deal verify`.

The vectors are read from docs/fair-deal.md itself, and the reference snippet printed there is
run against the implementation, so the document cannot drift from the code.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.cards import DECK_32, DECK_43, DECK_52, DECKS
from domain.fair import (
    FairDealError,
    chain_element,
    derive_key,
    deck_for,
    key_message,
    make_chain_tip,
    match_context,
    parse_context,
    sha256,
    shuffle_deck,
    swap_indices,
    tournament_context,
    uniform_below,
    verify_seed,
)
from services.cli import main

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "fair-deal.md").read_text(encoding="utf-8")


def _fenced_after(marker: str, lang: str) -> str:
    found = re.search(re.escape(marker) + r"\s*```" + lang + r"\n(.*?)\n```", DOC, re.S)
    assert found, f"docs/fair-deal.md lost its {marker} block"
    return found.group(1)


VECTORS = json.loads(_fenced_after("<!-- test-vectors -->", "json"))
CHAIN = VECTORS["chain"]
DEALS = VECTORS["deals"]
SECRET = bytes.fromhex(CHAIN["secret"])


def _reference_shuffle():
    namespace: dict = {}
    exec(_fenced_after("<!-- reference-python -->", "python"), namespace)
    return namespace


# --- The document's vectors --------------------------------------------------------------

def test_the_vectors_cover_what_they_must():
    assert len(DEALS) >= 4
    assert {v["deck_size"] for v in DEALS} == {32, 43, 52}
    assert any(v["entropy"] for v in DEALS)
    assert any(v["context"].startswith("tournament:") for v in DEALS)


@pytest.mark.parametrize("vector", DEALS, ids=[v["name"] for v in DEALS])
def test_doc_vector(vector):
    seed = bytes.fromhex(vector["seed"])
    key = derive_key(seed, vector["context"], vector["entropy"])
    assert key.hex() == vector["key"]
    assert sha256(b"atout/fair-deal/v1/stream" + key + bytes(8)).hex() == vector["block_0"]
    assert swap_indices(vector["deck_size"], key) == vector["swaps"]
    deck = shuffle_deck(vector["game"], seed, vector["context"], vector["entropy"])
    assert deck == vector["deck"]
    assert shuffle_deck(vector["deck_size"], seed, vector["context"], vector["entropy"]) == deck
    assert sorted(deck) == sorted(deck_for(vector["game"]))
    assert hashlib.sha256(seed).hexdigest() == vector["commitment"]
    assert verify_seed(seed, bytes.fromhex(vector["commitment"]))


def test_doc_chain_vector():
    assert make_chain_tip(SECRET, CHAIN["n"]).hex() == CHAIN["c_0"]
    for k in (1, 2, 999):
        assert chain_element(SECRET, CHAIN["n"], k).hex() == CHAIN[f"c_{k}"]
    assert CHAIN["c_999"] == hashlib.sha256(SECRET).hexdigest()
    assert DEALS[0]["seed"] == CHAIN["c_1"] and DEALS[0]["commitment"] == CHAIN["c_0"]
    assert DEALS[1]["seed"] == CHAIN["c_2"] and DEALS[1]["commitment"] == CHAIN["c_1"]


def test_doc_key_message_dump():
    vector = next(v for v in DEALS if v["game"] == "five_hundred")
    block = DOC[DOC.index("The whole key message"):]
    block = block[block.index("```") + 3: block.index("```", block.index("```") + 3)]
    dumped = "".join(t for t in block.split() if re.fullmatch(r"[0-9a-f]+", t))
    message = key_message(bytes.fromhex(vector["seed"]), vector["context"], vector["entropy"])
    assert dumped == message.hex()
    assert f"({len(message)} bytes)" in DOC


def test_doc_lists_the_canonical_decks():
    for size, deck in DECKS.items():
        assert f"| {size} | {' '.join(deck)} |" in DOC


def test_reference_snippet_matches_the_vectors():
    ref = _reference_shuffle()
    assert ref["chain_tip"](SECRET).hex() == CHAIN["c_0"]
    for v in DEALS:
        deck = ref["shuffle"](deck_for(v["game"]), bytes.fromhex(v["seed"]), v["context"], v["entropy"])
        assert deck == v["deck"]


_entropy = st.dictionaries(st.sampled_from("NESW"), st.text(max_size=20))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([32, 43, 52]), st.binary(min_size=32, max_size=32), st.text(max_size=40), _entropy)
def test_reference_snippet_agrees_everywhere(size, seed, context, entropy):
    if context.startswith("tournament:"):
        entropy = {}
    try:
        expected = shuffle_deck(size, seed, context, entropy)
    except FairDealError:  # e.g. lone surrogates, which UTF-8 cannot encode
        return
    assert _reference_shuffle()["shuffle"](DECKS[size], seed, context, entropy) == expected


# --- Determinism and sensitivity ---------------------------------------------------------

SEED = bytes.fromhex(DEALS[0]["seed"])


@pytest.mark.parametrize("game,deck", [("belote", DECK_32), ("five_hundred", DECK_43), ("cinch", DECK_52)])
def test_deterministic_permutation_of_the_canonical_deck(game, deck):
    ctx = match_context("m1", 1)
    first = shuffle_deck(game, SEED, ctx, {"N": "x"})
    assert first == shuffle_deck(game, SEED, ctx, {"N": "x"})
    assert sorted(first) == sorted(deck) and first != list(deck)


def test_every_input_changes_the_deck():
    base = ("belote", SEED, match_context("m1", 1), {})
    variants = [
        base,
        ("belote", sha256(SEED), base[2], {}),
        ("belote", SEED, match_context("m1", 2), {}),
        ("belote", SEED, match_context("m2", 1), {}),
        ("belote", SEED, tournament_context("m1", 1), {}),
        ("belote", SEED, base[2], {"N": ""}),
        ("belote", SEED, base[2], {"E": ""}),
        ("belote", SEED, base[2], {"N": "x"}),
        ("belote", SEED, base[2], {"E": "x"}),
        ("belote", SEED, base[2], {"N": "ab"}),
        ("belote", SEED, base[2], {"N": "a", "E": "b"}),
        ("belote", SEED, base[2], {"N": "a", "S": "b"}),
    ]
    decks = {tuple(shuffle_deck(*v)) for v in variants}
    assert len(decks) == len(variants)


def test_absent_and_empty_entropy_are_different_messages():
    ctx = match_context("m1", 1)
    messages = {key_message(SEED, ctx, e) for e in ({}, {"N": ""}, {"N": "", "E": ""}, {"E": ""})}
    assert len(messages) == 4
    assert key_message(SEED, ctx, {}).endswith(b"\x00\x00\x00\x00")


# --- The commitment and the chain --------------------------------------------------------

def test_commitment_success_and_failure():
    seed = chain_element(SECRET, 1000, 5)
    previous = chain_element(SECRET, 1000, 4)
    assert verify_seed(seed, previous)
    assert not verify_seed(previous, seed)
    assert not verify_seed(seed, bytes([previous[0] ^ 1]) + previous[1:])
    assert not verify_seed(bytes([seed[0] ^ 0x80]) + seed[1:], previous)
    assert not verify_seed(seed[:31], previous)
    assert not verify_seed(seed, previous.hex())  # type: ignore[arg-type]
    assert not verify_seed(seed, previous, steps=0)


def test_chain_verifies_over_several_steps():
    n = 50
    tip = make_chain_tip(SECRET, n)
    chain = [chain_element(SECRET, n, k) for k in range(n + 1)]
    assert chain[0] == tip and chain[n] == SECRET
    for k in range(1, n + 1):
        assert verify_seed(chain[k], chain[k - 1])
        assert verify_seed(chain[k], tip, steps=k)
        assert not verify_seed(chain[k], tip, steps=k + 1)
        assert k == 1 or not verify_seed(chain[k], tip, steps=k - 1)


def test_revealing_deal_k_does_not_give_deal_k_plus_1():
    """The chain runs towards the secret: c_{k+1} is a preimage of c_k, not its hash."""
    n = 200
    for k in (1, 17, 150):
        revealed = chain_element(SECRET, n, k)
        following = chain_element(SECRET, n, k + 1)
        assert sha256(following) == revealed
        forward, reachable = revealed, set()
        for _ in range(n + 1):  # everything computable from the revealed seed by hashing
            reachable.add(forward)
            forward = sha256(forward)
        assert following not in reachable
        assert chain_element(SECRET, n, k - 1) in reachable


@pytest.mark.parametrize("args", [(b"short", 10), (SECRET, 0), (SECRET, True), (SECRET, 10**7)])
def test_chain_rejects_bad_input(args):
    with pytest.raises(FairDealError):
        make_chain_tip(*args)


def test_chain_index_bounds():
    with pytest.raises(FairDealError):
        chain_element(SECRET, 10, 11)
    with pytest.raises(FairDealError):
        chain_element(SECRET, 10, -1)


# --- Contexts, entropy and sampling ------------------------------------------------------

def test_contexts():
    assert match_context("7f3a-b.c_d", 12) == "match:7f3a-b.c_d:deal:12"
    assert tournament_context("cup", 7) == "tournament:cup:board:7"
    assert parse_context("match:7f3a:deal:12") == ("match", "7f3a", 12)
    assert parse_context("tournament:cup:board:7") == ("tournament", "cup", 7)
    for bad in ("match:a:deal:0", "match:a:deal:01", "match:a:b:deal:1", "Match:a:deal:1", "board:1", ""):
        with pytest.raises(FairDealError):
            parse_context(bad)
    for bad_id, bad_k in (("a:b", 1), ("", 1), ("x" * 129, 1), ("a", 0), ("a", True), ("é", 1)):
        with pytest.raises(FairDealError):
            match_context(bad_id, bad_k)


def test_tournament_boards_take_no_entropy():
    ctx = tournament_context("cup", 1)
    with pytest.raises(FairDealError, match="no seat entropy"):
        shuffle_deck("cinch", SEED, ctx, {"N": "x"})
    assert shuffle_deck("cinch", SEED, ctx, {}) == shuffle_deck("cinch", SEED, ctx, None)


@pytest.mark.parametrize("entropy", [{"X": "a"}, {"N": 5}, {"N": "x" * 1025}, {"N": "\ud800"}])
def test_bad_entropy(entropy):
    with pytest.raises(FairDealError):
        shuffle_deck("belote", SEED, match_context("m", 1), entropy)


@pytest.mark.parametrize("game", ["bridge", 36, True, None, [52]])
def test_unknown_game(game):
    with pytest.raises(FairDealError, match="unknown game"):
        shuffle_deck(game, SEED, match_context("m", 1))


def test_rejection_sampling_discards_high_bytes():
    assert uniform_below(52, iter([255, 208, 207])) == 207 % 52
    assert uniform_below(3, iter([255, 254])) == 254 % 3  # 256 - 256 % 3 = 255 is rejected
    assert uniform_below(32, iter([255])) == 31  # 32 divides 256: never rejects
    assert uniform_below(256, iter([255])) == 255
    with pytest.raises(FairDealError):
        uniform_below(1, iter([0]))


def test_the_52_card_vectors_exercise_rejection():
    """So an implementation that skips rejection cannot pass the published vectors."""
    v = next(v for v in DEALS if v["deck_size"] == 52)
    key = bytes.fromhex(v["key"])
    stream = sha256(b"atout/fair-deal/v1/stream" + key + bytes(8))
    naive = [b % m for b, m in zip(stream, range(52, 1, -1))]
    assert naive != v["swaps"][: len(naive)]


# --- atout deal verify -------------------------------------------------------------------

def _cli_args(v: dict, commitment: str | None = None) -> list[str]:
    args = ["deal", "verify", "--game", v["game"], "--seed", v["seed"], "--context", v["context"],
            "--commitment", commitment or v["commitment"]]
    for seat, text in v["entropy"].items():
        args += ["--entropy", f"{seat}={text}"]
    return args


@pytest.mark.parametrize("vector", DEALS, ids=[v["name"] for v in DEALS])
def test_cli_verifies_the_vectors(vector, capsys):
    assert main(_cli_args(vector)) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"ok": True, "deck": vector["deck"], "commitment_ok": True, "tip_checked": False,
                   "checks": {"context": True, "entropy": True, "commitment": True, "deck": None, "tip": None}}


def test_cli_wrong_commitment_exits_1(capsys):
    v = DEALS[0]
    assert main(_cli_args(v, commitment=DEALS[1]["commitment"])) == 1
    out = json.loads(capsys.readouterr().out)
    assert (out["ok"], out["deck"], out["commitment_ok"], out["checks"]["commitment"]) == (False, v["deck"], False, False)


def test_cli_accepts_upper_case_hex_and_entropy_with_equals(capsys):
    v = next(v for v in DEALS if "=" in "".join(v["entropy"].values()))
    args = _cli_args(v)
    args[args.index("--seed") + 1] = v["seed"].upper()
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out)["deck"] == v["deck"]


@pytest.mark.parametrize(
    "change,message",
    [
        ({"--game": "bridge"}, "unknown game 'bridge'"),
        ({"--seed": "zz"}, "--seed is not hex"),
        ({"--seed": "abcd"}, "--seed must be 32 bytes"),
        ({"--commitment": "00" * 33}, "--commitment must be 32 bytes"),
        ({"--entropy": "X=1"}, "unknown seat 'X'"),
        ({"--entropy": "N"}, "SEAT=TEXT"),
    ],
)
def test_cli_bad_input_exits_2(change, message, capsys):
    args = _cli_args(DEALS[0])
    for flag, value in change.items():
        if flag in args:
            args[args.index(flag) + 1] = value
        else:
            args += [flag, value]
    assert main(args) == 2
    captured = capsys.readouterr()
    assert message in captured.err and "Traceback" not in captured.err
    assert captured.out == ""


def test_cli_same_seat_twice_exits_2(capsys):
    assert main(_cli_args(DEALS[0]) + ["--entropy", "N=a", "--entropy", "n=b"]) == 2
    assert "twice" in capsys.readouterr().err


def test_cli_as_a_process():
    atout = Path(sys.executable).with_name("atout")
    v = next(v for v in DEALS if v["entropy"])
    done = subprocess.run([str(atout), *_cli_args(v)], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert (out["ok"], out["deck"], out["commitment_ok"]) == (True, v["deck"], True)
    bad = subprocess.run([str(atout), *_cli_args(v, commitment="00" * 32)], capture_output=True, text=True,
                         timeout=60, cwd=ROOT)
    assert bad.returncode == 1 and json.loads(bad.stdout)["commitment_ok"] is False
    worse = subprocess.run([str(atout), "deal", "verify", "--game", "chess", "--seed", "00", "--context", "x",
                            "--commitment", "00"], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert worse.returncode == 2 and "unknown game" in worse.stderr and "Traceback" not in worse.stderr
