"""The game service's private table: match secrets, predefined deals and seat entropy.

Nothing here is ever written to an event; the service reveals each deal's seed itself,
in the match stream, once the deal is over.
"""

from __future__ import annotations

from typing import Any, Protocol

import asyncpg
import msgspec

_json = msgspec.json.Encoder()
_decode_deals = msgspec.json.Decoder(list[dict[str, Any]] | None)


class MatchSecret(msgspec.Struct, frozen=True):
    secret: bytes
    chain_length: int
    predefined: list[dict[str, Any]] | None


class MatchVault(Protocol):
    """What the game service asks of its vault (`Vault` on Postgres; the tests keep an
    in-memory one for logic tests): a secret kept once per match and chain, the first kept
    winning; a seat's entropy by the chain it was given under."""

    async def keep(self, match_id: str, secret: bytes, chain_length: int,
                   predefined: list[dict[str, Any]] | None) -> MatchSecret: ...

    async def secret(self, match_id: str) -> MatchSecret: ...

    async def keep_chain(self, match_id: str, chain: int, secret: bytes, chain_length: int) -> MatchSecret: ...

    async def chain_secret(self, match_id: str, chain: int) -> MatchSecret: ...

    async def give_entropy(self, match_id: str, seat: str, entropy: str, chain: int = 1) -> None: ...

    async def forget_entropy(self, match_id: str, seat: str) -> None: ...

    async def entropy(self, match_id: str, chain: int = 1) -> dict[str, str]: ...


class Vault:
    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    async def keep(self, match_id: str, secret: bytes, chain_length: int,
                   predefined: list[dict[str, Any]] | None) -> MatchSecret:
        """Keep a match's secret, once: the first one kept wins and is returned to every
        caller, so racing creations of one match all commit to the same chain."""
        await self.pool.execute(
            "INSERT INTO match_secrets (match_id, secret, chain_length, predefined) VALUES ($1, $2, $3, $4)"
            " ON CONFLICT (match_id) DO NOTHING",
            match_id, secret, chain_length, _json.encode(predefined) if predefined is not None else None)
        return await self.secret(match_id)

    async def secret(self, match_id: str) -> MatchSecret:
        row = await self.pool.fetchrow(
            "SELECT secret, chain_length, predefined FROM match_secrets WHERE match_id = $1", match_id)
        if row is None:
            raise LookupError(f"no secret kept for match {match_id}")
        predefined = _decode_deals.decode(row["predefined"]) if row["predefined"] is not None else None
        return MatchSecret(bytes(row["secret"]), row["chain_length"], predefined)

    async def keep_chain(self, match_id: str, chain: int, secret: bytes, chain_length: int) -> MatchSecret:
        """Keep the secret of a match's chain 2, 3, ... once: the first kept wins, as `keep`."""
        await self.pool.execute(
            "INSERT INTO match_chains (match_id, chain, secret, chain_length) VALUES ($1, $2, $3, $4)"
            " ON CONFLICT (match_id, chain) DO NOTHING", match_id, chain, secret, chain_length)
        return await self.chain_secret(match_id, chain)

    async def chain_secret(self, match_id: str, chain: int) -> MatchSecret:
        """The secret of chain `chain` (1: the one behind the match's commitment)."""
        if chain == 1:
            return await self.secret(match_id)
        row = await self.pool.fetchrow(
            "SELECT secret, chain_length FROM match_chains WHERE match_id = $1 AND chain = $2", match_id, chain)
        if row is None:
            raise LookupError(f"no secret kept for chain {chain} of match {match_id}")
        return MatchSecret(bytes(row["secret"]), row["chain_length"], None)

    async def give_entropy(self, match_id: str, seat: str, entropy: str, chain: int = 1) -> None:
        """A seat's entropy, replacing any it gave before, given under `chain` (the newest chain
        whose tip was published when it was given)."""
        await self.pool.execute(
            "INSERT INTO seat_entropy (match_id, seat, entropy, chain) VALUES ($1, $2, $3, $4)"
            " ON CONFLICT (match_id, seat) DO UPDATE SET entropy = excluded.entropy, chain = excluded.chain,"
            " given_at = now()", match_id, seat, entropy, chain)

    async def forget_entropy(self, match_id: str, seat: str) -> None:
        await self.pool.execute("DELETE FROM seat_entropy WHERE match_id = $1 AND seat = $2", match_id, seat)

    async def entropy(self, match_id: str, chain: int = 1) -> dict[str, str]:
        """The entropy that may go into a deal of chain `chain`: only what was given once its
        tip was published."""
        rows = await self.pool.fetch("SELECT seat, entropy FROM seat_entropy WHERE match_id = $1 AND chain >= $2",
                                     match_id, chain)
        return {row["seat"]: row["entropy"] for row in rows}
