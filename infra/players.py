"""Players, roles and bearer tokens on Postgres (tables in `migrations/0020_players.sql`).

A token is 32 random bytes shown once, at registration; only its sha256 is stored, so
the table is useless to whoever reads it. Looking a token up is one primary-key read.
The display name is the only personal datum and sits in its own table, so erasing a
person removes it without touching the event log (events carry player ids only).
"""

from __future__ import annotations

import base64
import hashlib
import secrets
import time
import uuid

import asyncpg
import msgspec

ROLES = ("player", "organiser", "admin")
LOCALES = ("en", "fr", "ru", "pl")     # the web client's catalogs (services/web/locales/)
TOKEN_PREFIX = "atk_"


class Principal(msgspec.Struct, frozen=True):
    """Who is calling: a player id, its role, and which token (by hash prefix) was used.
    `token_id` names the token in rate-limit keys and logs without revealing it."""

    player_id: str
    role: str
    token_id: str

    def has_role(self, role: str) -> bool:
        """Roles are ordered: an admin may do what an organiser may, who may do what a player may."""
        return ROLES.index(self.role) >= ROLES.index(role)


class PlayerInfo(msgspec.Struct, frozen=True):
    player_id: str
    name: str | None            # None once erased
    role: str
    locale: str | None = None   # None: not chosen, the client follows the browser


def new_token() -> str:
    return TOKEN_PREFIX + base64.urlsafe_b64encode(secrets.token_bytes(32)).rstrip(b"=").decode()


def token_hash(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


PRINCIPAL = """
SELECT p.player_id, p.role FROM player_tokens t JOIN players p USING (player_id)
WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND p.erased_at IS NULL
"""

PRINCIPALS = """
SELECT t.token_hash, p.player_id, p.role FROM player_tokens t JOIN players p USING (player_id)
WHERE t.token_hash = ANY($1::bytea[]) AND t.revoked_at IS NULL AND p.erased_at IS NULL
"""


class PlayerStore:
    """`principal_ttl`: how long this process trusts a token it has looked up. Every request
    needs its caller, and one read per request was a tenth of an action's cost; a revocation,
    role change or erasure made here takes effect at once, one made by another process within
    the TTL (2 s by default; 0 turns the cache off)."""

    def __init__(self, pool: asyncpg.Pool, principal_ttl: float = 2.0) -> None:
        self.pool = pool
        self.principal_ttl = principal_ttl
        self._principals: dict[bytes, tuple[float, Principal]] = {}

    def _forget(self, digest: bytes | None = None, player_id: str | None = None) -> None:
        if digest is not None:
            self._principals.pop(digest, None)
        if player_id is not None:
            for key in [k for k, (_, p) in self._principals.items() if p.player_id == player_id]:
                self._principals.pop(key, None)

    async def register(self, name: str, role: str = "player") -> tuple[str, str]:
        """A new player with its first token: (player_id, token)."""
        if role not in ROLES:
            raise ValueError(f"unknown role {role!r}")
        player_id, token = str(uuid.uuid4()), new_token()
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute("INSERT INTO players (player_id, role) VALUES ($1, $2)", player_id, role)
            await conn.execute("INSERT INTO player_names (player_id, display_name) VALUES ($1, $2)", player_id, name)
            await conn.execute("INSERT INTO player_tokens (token_hash, player_id) VALUES ($1, $2)",
                               token_hash(token), player_id)
        return player_id, token

    async def issue_token(self, player_id: str) -> str:
        token = new_token()
        await self.pool.execute("INSERT INTO player_tokens (token_hash, player_id) VALUES ($1, $2)",
                                token_hash(token), player_id)
        return token

    async def principal(self, token: str) -> Principal | None:
        """The player a live token belongs to, or None (unknown, revoked, or erased)."""
        digest = token_hash(token)
        now = time.monotonic()
        cached = self._principals.get(digest)
        if cached is not None and cached[0] > now:
            return cached[1]
        row = await self.pool.fetchrow(PRINCIPAL, digest)
        if row is None:
            self._principals.pop(digest, None)
            return None
        principal = Principal(player_id=row["player_id"], role=row["role"], token_id=digest.hex()[:16])
        if self.principal_ttl > 0:
            if len(self._principals) > 100_000:
                self._principals.clear()
            self._principals[digest] = (now + self.principal_ttl, principal)
        return principal

    async def principals(self, tokens: list[str]) -> dict[str, Principal | None]:
        """Each token's principal as the database has it now (None: unknown, revoked or
        erased), in one read past the cache, which it refreshes: for re-checking every open
        stream of a process at once rather than one read per stream."""
        digests = {token_hash(token): token for token in tokens}
        rows = await self.pool.fetch(PRINCIPALS, list(digests))
        found = {bytes(r["token_hash"]): Principal(player_id=r["player_id"], role=r["role"],
                                                   token_id=bytes(r["token_hash"]).hex()[:16]) for r in rows}
        expires = time.monotonic() + self.principal_ttl
        for digest in digests:
            if digest in found and self.principal_ttl > 0:
                self._principals[digest] = (expires, found[digest])
            else:
                self._principals.pop(digest, None)
        return {token: found.get(digest) for digest, token in digests.items()}

    async def revoke(self, token: str) -> bool:
        self._forget(digest=token_hash(token))
        status = await self.pool.execute(
            "UPDATE player_tokens SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL",
            token_hash(token))
        return status.endswith(" 1")

    async def set_role(self, player_id: str, role: str) -> bool:
        if role not in ROLES:
            raise ValueError(f"unknown role {role!r}")
        status = await self.pool.execute("UPDATE players SET role = $2 WHERE player_id = $1", player_id, role)
        self._forget(player_id=player_id)
        return status.endswith(" 1")

    async def get(self, player_id: str) -> PlayerInfo | None:
        row = await self.pool.fetchrow(
            "SELECT p.player_id, n.display_name, p.role, p.locale FROM players p"
            " LEFT JOIN player_names n USING (player_id) WHERE p.player_id = $1", player_id)
        return None if row is None else PlayerInfo(row[0], row[1], row[2], row[3])

    async def set_locale(self, player_id: str, locale: str | None) -> bool:
        """Keep the language a player chose (None: back to the browser's)."""
        if locale is not None and locale not in LOCALES:
            raise ValueError(f"unknown locale {locale!r}")
        status = await self.pool.execute("UPDATE players SET locale = $2 WHERE player_id = $1", player_id, locale)
        return status.endswith(" 1")

    async def named(self, id_or_name: str) -> list[str]:
        """The players `id_or_name` may mean: the one with that id, else every one with that
        display name (an operator names people as he knows them; several may share a name)."""
        if await self.pool.fetchval("SELECT 1 FROM players WHERE player_id = $1", id_or_name):
            return [id_or_name]
        rows = await self.pool.fetch("SELECT player_id FROM player_names WHERE display_name = $1"
                                     " ORDER BY player_id", id_or_name)
        return [r["player_id"] for r in rows]

    async def found(self, id_or_name: str, limit: int) -> list[PlayerInfo]:
        """What `named` means, as the players themselves, in one query: the one with that id,
        else those with that display name, at most `limit`. An erased person has no name, so
        nobody finds him."""
        rows = await self.pool.fetch(
            "SELECT p.player_id, n.display_name, p.role, p.locale FROM players p"
            " JOIN player_names n USING (player_id)"
            " WHERE CASE WHEN EXISTS (SELECT 1 FROM players WHERE player_id = $1)"
            "  THEN p.player_id = $1 ELSE n.display_name = $1 END"
            " ORDER BY p.player_id LIMIT $2", id_or_name, limit)
        return [PlayerInfo(r[0], r[1], r[2], r[3]) for r in rows]

    async def names(self, player_ids: list[str]) -> dict[str, str]:
        rows = await self.pool.fetch(
            "SELECT player_id, display_name FROM player_names WHERE player_id = ANY($1::text[])", player_ids)
        return {r[0]: r[1] for r in rows}

    async def erase(self, player_id: str) -> bool:
        """Forget the person: drop the name, revoke every token, keep the id for replays."""
        async with self.pool.acquire() as conn, conn.transaction():
            status = await conn.execute(
                "UPDATE players SET erased_at = now() WHERE player_id = $1 AND erased_at IS NULL", player_id)
            await conn.execute("DELETE FROM player_names WHERE player_id = $1", player_id)
            await conn.execute("UPDATE player_tokens SET revoked_at = now() WHERE player_id = $1"
                               " AND revoked_at IS NULL", player_id)
        self._forget(player_id=player_id)
        return status.endswith(" 1")
