"""What the game service answers and the names it keys commands by: a command's outcome,
the unknown match, the stream of a match, a command body's fingerprint."""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

from infra.streams import match_stream


class UnknownMatch(LookupError):
    def __init__(self, match_id: str) -> None:
        super().__init__(f"no match {match_id!r}")
        self.match_id = match_id


class Unsure(Exception):
    """A step failed on a cached state: the answer is the fresh state's to give."""


class Outcome(msgspec.Struct, frozen=True):
    """What a command produced: the stream version after it and its events with versions.
    `replayed` marks the first answer given again to a retried command."""

    match_id: str
    version: int
    events: list[tuple[int, Any]]
    replayed: bool = False


def stream_of(match_id: str) -> str:
    return match_stream(match_id)


def command_fingerprint(kind: str, body: Any) -> bytes:
    return hashlib.sha256(kind.encode() + b"\0" + msgspec.json.encode(body)).digest()
