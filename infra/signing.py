"""Ed25519 signatures on the match records the server exports (docs/fair-deal.md, "Signed
records").

A verified fair chain shows that a record's decks follow from its seeds and entropy, but not
that the entropy is what the seats gave: anyone may swap a seat's words, recompute the decks
and replay other actions. The server's signature over the whole record is what binds the
record to what the server dealt. The key is I/O (a setting, or a file of the data folder), so
it lives here; the canonical bytes sit beside it so that the export, the API and the CLI sign
and check one way, and a verifier in another language has one place to read.
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import logging
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

log = logging.getLogger("atout.signing")

ALG = "ed25519"
DOMAIN = b"atout/match-record/v1\x00"   # what the signed bytes start with: never a valid other message
KEY_FILE = "record-key"                  # under the data folder, when no key is set
SIGNATURE = "signature"
# The key id of the private key 00 01 .. 1f: the docs' test vector and the deploys' placeholder.
EXAMPLE_KEY_ID = "56475aa75463474c0285df5dbf2bcab7"

Verdict = Literal["valid", "invalid", "unknown_key", "absent"]


class SigningKeyError(ValueError):
    """A key (setting, key file, `--key`) that is not what it must be; the message names it."""


def canonical(record: Mapping[str, Any]) -> bytes:
    """The record without its `signature` member as canonical JSON: keys sorted, no
    whitespace, non-ASCII written as UTF-8 (docs/fair-deal.md gives the rules byte for byte)."""
    body = {k: v for k, v in record.items() if k != SIGNATURE}
    # msgspec writes exactly the rules of the doc (the same bytes as Python's
    # json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False), several times faster)
    return msgspec.json.encode(body, order="sorted")


def message(record: Mapping[str, Any]) -> bytes:
    """The bytes the signature is over: the domain tag, then the canonical record."""
    return DOMAIN + canonical(record)


def key_id(public: bytes) -> str:
    """The key's fingerprint: the first 16 bytes of SHA-256 of the raw public key, in hex."""
    return hashlib.sha256(public).hexdigest()[:32]


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def unb64(text: Any, size: int, what: str) -> bytes:
    if not isinstance(text, str):
        raise SigningKeyError(f"{what} must be a base64 string")
    try:
        raw = base64.b64decode(text.strip(), validate=True)
    except (binascii.Error, ValueError):
        raise SigningKeyError(f"{what} is not base64: {text[:80]!r}") from None
    if len(raw) != size:
        raise SigningKeyError(f"{what} must be {size} bytes, got {len(raw)}")
    return raw


def private_from_hex(text: str, what: str) -> bytes:
    try:
        raw = bytes.fromhex(text.strip())
    except ValueError:
        raise SigningKeyError(f"{what} must be 64 hex digits (openssl rand -hex 32)") from None
    if len(raw) != 32:
        raise SigningKeyError(f"{what} must be 32 bytes (64 hex digits), got {len(raw)}")
    return raw


class PublicKey:
    """One public key as `GET /v1/records/key` serves it."""

    def __init__(self, raw: bytes) -> None:
        self.raw, self.key_id = raw, key_id(raw)
        try:
            self._key = Ed25519PublicKey.from_public_bytes(raw)
        except ValueError as exc:
            raise SigningKeyError(f"not an Ed25519 public key: {exc}") from None

    @classmethod
    def from_b64(cls, text: str, what: str = "a public key") -> PublicKey:
        return cls(unb64(text, 32, what))

    def as_json(self) -> dict[str, str]:
        return {"alg": ALG, "key_id": self.key_id, "public_key": b64(self.raw)}

    def verifies(self, signature: bytes, data: bytes) -> bool:
        try:
            self._key.verify(signature, data)
            return True
        except InvalidSignature:
            return False


class RecordSigner:
    """The server's signing key, and the retired public keys it still vouches for."""

    def __init__(self, private: bytes, retired: Sequence[PublicKey] = ()) -> None:
        self._key = Ed25519PrivateKey.from_private_bytes(private)
        self.public = PublicKey(self._key.public_key().public_bytes_raw())
        self.retired = tuple(k for k in retired if k.key_id != self.public.key_id)

    @property
    def keys(self) -> tuple[PublicKey, ...]:
        return (self.public, *self.retired)

    def sign(self, record: Mapping[str, Any]) -> dict[str, Any]:
        """A copy of `record` with its `signature` (any signature it had is replaced). The
        bytes are msgspec's encoding of the record as it stands (tuples, enums and structs as
        the response's JSON writes them), so they are the bytes a verifier rebuilds from it."""
        value = self._key.sign(message(record))
        return {**{k: v for k, v in record.items() if k != SIGNATURE},
                SIGNATURE: {"alg": ALG, "key_id": self.public.key_id, "value": b64(value)}}


def verify(record: Any, keys: Sequence[PublicKey]) -> Verdict:
    """`absent` without a `signature` member; `unknown_key` when its key_id is none of `keys`;
    `valid` when it holds over `message(record)`; `invalid` otherwise (a malformed signature
    too: a record that claims a signature it does not carry proves nothing)."""
    if not isinstance(record, Mapping) or SIGNATURE not in record:
        return "absent"
    signature = record[SIGNATURE]
    if not isinstance(signature, Mapping) or signature.get("alg") != ALG:
        return "invalid"
    key = next((k for k in keys if k.key_id == signature.get("key_id")), None)
    if key is None:
        return "unknown_key"
    try:
        value = unb64(signature.get("value"), 64, "signature.value")
        data = message(record)
    except (SigningKeyError, TypeError, ValueError):  # TypeError/ValueError: not JSON-encodable
        return "invalid"
    return "valid" if key.verifies(value, data) else "invalid"


def _kept_key(folder: Path) -> bytes:
    """The data folder's key, made once: the first process to create the file wins and every
    later one (a restart, a racing start) reads it."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / KEY_FILE
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return private_from_hex(path.read_text(encoding="ascii", errors="replace"), str(path))
    raw = os.urandom(32)
    with os.fdopen(fd, "w", encoding="ascii") as file:
        file.write(raw.hex() + "\n")
    return raw


@functools.lru_cache(maxsize=8)
def signer_for(record_key: str | None, retired: tuple[str, ...], data_path: Path) -> RecordSigner:
    """The signer of these settings (`ATOUT_RECORD_KEY`, `ATOUT_RECORD_KEYS_RETIRED`, the data
    folder), built once per process."""
    old = [PublicKey.from_b64(text, "ATOUT_RECORD_KEYS_RETIRED") for text in retired]
    if record_key:
        signer = RecordSigner(private_from_hex(record_key, "ATOUT_RECORD_KEY"), old)
        if signer.public.key_id == EXAMPLE_KEY_ID:
            log.warning("ATOUT_RECORD_KEY is the example key of docs/fair-deal.md (the placeholder of "
                        "docker-compose.yml and k8s/): anyone can sign records with it; set your own")
        return signer
    signer = RecordSigner(_kept_key(data_path), old)
    log.info("signing match records with key %s kept in %s (several replicas: set ATOUT_RECORD_KEY, "
             "docs/settings.md)", signer.public.key_id, data_path / KEY_FILE)
    return signer


def signer(settings: Any) -> RecordSigner:
    return signer_for(settings.record_key, tuple(settings.record_keys_retired), settings.data_path)
