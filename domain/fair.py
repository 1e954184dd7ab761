"""The verifiable deal: a hash-chain commitment and a specified, unbiased shuffle.

Why a hash chain: at match creation the server publishes one value, `c_0 = H^N(s_N)`, and is
thereby bound to every deal of the match (deal k can only use the `c_k` with `H^k(c_k) = c_0`)
before any seat has joined. Revealing `c_k` after deal k says nothing about `c_{k+1}`: that
would need a SHA-256 preimage. The seats' entropy strings, unknown to the server when it
committed, go into every deal, so the server cannot have picked a seed for a deck it wanted.

Everything here is pure (hashlib only) and byte-for-byte specified in `docs/fair-deal.md`;
the service draws the secret and stores it, the domain only computes. Change nothing here
without bumping the version tags and the document: published deals must stay checkable.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from typing import Final, Iterator, Mapping, Sequence

from domain.cards import DECKS, SEATS, Card, Seat
from domain.games import GAMES

SEED_BYTES: Final = 32
DEFAULT_CHAIN_LENGTH: Final = 1000
MAX_CHAIN_LENGTH: Final = 1_000_000
MAX_CONTEXT_BYTES: Final = 1024
MAX_ENTROPY_BYTES: Final = 1024

KEY_TAG: Final = b"atout/fair-deal/v1/key"
STREAM_TAG: Final = b"atout/fair-deal/v1/stream"

GAME_DECK_SIZE: Final = {name: len(game.deck) for name, game in GAMES.items()}
"""The size of the deck each game shuffles (its `GameRules.deck`; shared/rules/README.md)."""

_ID: Final = r"[A-Za-z0-9._-]{1,128}"
_NUMBER: Final = r"[1-9][0-9]{0,8}"
_MATCH_CONTEXT: Final = re.compile(rf"match:({_ID}):deal:({_NUMBER})")
_TOURNAMENT_CONTEXT: Final = re.compile(rf"tournament:({_ID}):board:({_NUMBER})")


class FairDealError(ValueError):
    """Inputs that cannot name a verifiable deal; the message says which and why."""


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


# --- The commitment: a SHA-256 hash chain -----------------------------------------------

def _check_seed(value: bytes, what: str) -> bytes:
    if not isinstance(value, (bytes, bytearray)) or len(value) != SEED_BYTES:
        raise FairDealError(f"{what} must be exactly {SEED_BYTES} bytes")
    return bytes(value)


def _iterate(value: bytes, times: int) -> bytes:
    for _ in range(times):
        value = sha256(value)
    return value


def _check_length(n: int) -> int:
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_CHAIN_LENGTH:
        raise FairDealError(f"chain length must be an integer in 1..{MAX_CHAIN_LENGTH}, got {n!r}")
    return n


def make_chain_tip(secret: bytes, n: int = DEFAULT_CHAIN_LENGTH) -> bytes:
    """`c_0 = H^n(secret)`: the one value published at match creation, binding all n deals."""
    return _iterate(_check_seed(secret, "secret"), _check_length(n))


def chain_element(secret: bytes, n: int, k: int) -> bytes:
    """`c_k = H^(n-k)(secret)`: the seed of deal k (1..n); `c_0` is the tip, `c_n` the secret.

    Deals walk the chain towards the secret, so each revealed seed is a preimage of the one
    before it and nobody can go forward from it.
    """
    _check_length(n)
    if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= n:
        raise FairDealError(f"chain index must be in 0..{n}, got {k!r}")
    return _iterate(_check_seed(secret, "secret"), n - k)


def verify_seed(seed: bytes, commitment: bytes, steps: int = 1) -> bool:
    """Whether `H^steps(seed) == commitment`.

    With `steps=1` the commitment is the previous chain element `c_{k-1}` (the tip `c_0`
    for deal 1); with `steps=k` it is the tip itself, checking deal k straight against what
    was published before anyone sat down. Malformed input is simply not a match.
    """
    if not isinstance(seed, (bytes, bytearray)) or not isinstance(commitment, (bytes, bytearray)):
        return False
    if len(seed) != SEED_BYTES or len(commitment) != SEED_BYTES:
        return False
    if not isinstance(steps, int) or isinstance(steps, bool) or not 1 <= steps <= MAX_CHAIN_LENGTH:
        return False
    return hmac.compare_digest(_iterate(bytes(seed), steps), bytes(commitment))


# --- The deal context --------------------------------------------------------------------

def _check_id(value: str, what: str) -> str:
    if not isinstance(value, str) or not re.fullmatch(_ID, value):
        raise FairDealError(f"{what} {value!r} must be 1-128 characters from A-Z a-z 0-9 . _ -")
    return value


def _check_number(value: int, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 999_999_999:
        raise FairDealError(f"{what} must be an integer from 1, got {value!r}")
    return value


def match_context(match_id: str, deal: int) -> str:
    """`match:<id>:deal:<k>`, k counted from 1 in decimal without leading zeros."""
    return f"match:{_check_id(match_id, 'match id')}:deal:{_check_number(deal, 'deal number')}"


def tournament_context(tournament_id: str, board: int) -> str:
    """`tournament:<id>:board:<b>`: a board is the same deck at every table, so no entropy."""
    tid = _check_id(tournament_id, "tournament id")
    return f"tournament:{tid}:board:{_check_number(board, 'board number')}"


def parse_context(context: str) -> tuple[str, str, int]:
    """`("match", id, k)` or `("tournament", id, b)`; raises for any other text."""
    for kind, pattern in (("match", _MATCH_CONTEXT), ("tournament", _TOURNAMENT_CONTEXT)):
        found = pattern.fullmatch(context) if isinstance(context, str) else None
        if found:
            return kind, found.group(1), int(found.group(2))
    raise FairDealError(
        f"bad deal context {context!r}: expected match:<id>:deal:<k> or tournament:<id>:board:<b>"
    )


# --- Key derivation ---------------------------------------------------------------------

def _utf8(text: str, what: str, limit: int) -> bytes:
    if not isinstance(text, str):
        raise FairDealError(f"{what} must be a string, got {type(text).__name__}")
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise FairDealError(f"{what} is not encodable as UTF-8: {exc.reason}") from None
    if len(data) > limit:
        raise FairDealError(f"{what} is {len(data)} bytes in UTF-8; at most {limit}")
    return data


def _field(data: bytes) -> bytes:
    """A u32 big-endian length then the bytes, so no two inputs concatenate alike."""
    return len(data).to_bytes(4, "big") + data


def check_entropy(text: object, what: str = "entropy") -> str:
    """A seat's entropy as the server takes it: a string of at most MAX_ENTROPY_BYTES bytes in
    UTF-8, without U+0000 (which no database text column stores). The empty string is a
    value, different from no entropy."""
    if not isinstance(text, str):
        raise FairDealError(f"{what} must be a string, got {type(text).__name__}")
    _utf8(text, what, MAX_ENTROPY_BYTES)
    if "\x00" in text:
        raise FairDealError(f"{what} must not contain U+0000")
    return text


def normalize_entropy(entropy: Mapping[str, str] | None) -> dict[Seat, str]:
    """Check seat names and strings; an absent seat and an empty string are different inputs."""
    result: dict[Seat, str] = {}
    for seat, text in (entropy or {}).items():
        if seat not in SEATS:
            raise FairDealError(f"unknown seat {seat!r} in entropy (expected N, E, S or W)")
        _utf8(text, f"entropy of seat {seat}", MAX_ENTROPY_BYTES)
        result[Seat(seat)] = text
    return result


def encode_entropy(entropy: Mapping[str, str] | None) -> bytes:
    """Seats N, E, S, W in that order: 0x00 if absent, else 0x01 and a length-prefixed string."""
    given = normalize_entropy(entropy)
    out = bytearray()
    for seat in SEATS:
        if seat in given:
            out += b"\x01" + _field(given[seat].encode("utf-8"))
        else:
            out += b"\x00"
    return bytes(out)


def key_message(seed: bytes, context: str, entropy: Mapping[str, str] | None = None) -> bytes:
    """What `derive_key` hashes: every input length-prefixed or flagged, so none bleeds into the next."""
    context_bytes = _utf8(context, "context", MAX_CONTEXT_BYTES)
    if context.startswith("tournament:") and normalize_entropy(entropy):
        raise FairDealError("a tournament board takes no seat entropy: every table plays the same deck")
    return (
        _field(KEY_TAG)
        + _field(_check_seed(seed, "seed"))
        + _field(context_bytes)
        + encode_entropy(entropy)
    )


def derive_key(seed: bytes, context: str, entropy: Mapping[str, str] | None = None) -> bytes:
    """The 32-byte shuffle key: one hash over all of the deal's inputs."""
    return sha256(key_message(seed, context, entropy))


# --- The shuffle ------------------------------------------------------------------------

def byte_stream(key: bytes) -> Iterator[int]:
    """SHA-256 in counter mode: blocks `H(tag || key || u64be(i))`, i = 0, 1, ..., bytes in order."""
    _check_seed(key, "key")
    counter = 0
    while True:
        yield from sha256(STREAM_TAG + key + counter.to_bytes(8, "big"))
        counter += 1


def uniform_below(m: int, stream: Iterator[int]) -> int:
    """An unbiased integer in [0, m), 2 <= m <= 256, one stream byte per try.

    Bytes at or above the largest multiple of m that fits in 256 are rejected (and consumed),
    so every residue is equally likely; a plain `byte % m` would favour the small ones.
    """
    if not 2 <= m <= 256:
        raise FairDealError(f"uniform_below needs 2 <= m <= 256, got {m}")
    limit = 256 - (256 % m)
    while True:
        b = next(stream)
        if b < limit:
            return b % m


def deck_for(game_or_size: str | int) -> tuple[Card, ...]:
    """The canonical deck of a game (its name in `domain.games`) or of a size (32, 43, 52)."""
    if isinstance(game_or_size, str):
        if game_or_size in GAMES:
            return GAMES[game_or_size].deck
        size = None
    else:
        size = game_or_size if isinstance(game_or_size, int) and not isinstance(game_or_size, bool) else None
    if size not in DECKS:
        raise FairDealError(
            f"unknown game or deck size {game_or_size!r}: expected one of "
            f"{', '.join(GAME_DECK_SIZE)} or {', '.join(map(str, DECKS))}"
        )
    return DECKS[size]


def swap_indices(n: int, key: bytes) -> list[int]:
    """The j drawn for i = n-1 down to 1, in that order: published with the vectors for debugging."""
    stream = byte_stream(key)
    return [uniform_below(i + 1, stream) for i in range(n - 1, 0, -1)]


def permute(cards: Sequence[Card], key: bytes) -> list[Card]:
    """Fisher–Yates from the last position down: swap position i with uniform_below(i + 1)."""
    deck = list(cards)
    for i, j in zip(range(len(deck) - 1, 0, -1), swap_indices(len(deck), key)):
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def shuffle_deck(
    game_or_size: str | int,
    seed: bytes,
    context: str,
    entropy: Mapping[str, str] | None = None,
) -> list[Card]:
    """The deal's deck, top card first, in card-code notation; the same inputs, the same deck."""
    return permute(deck_for(game_or_size), derive_key(seed, context, entropy))

