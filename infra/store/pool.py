"""A lean connection pool for the store.

asyncpg's `Pool` spends about as much client CPU per acquire/release (a shielded task per
release, proxies, timers, a reset query unless told otherwise) as a short INSERT costs
the client. For appends, which are one statement each, that overhead is what separates
the store from the server's raw commit rate when the API and the database share a few
cores. This pool keeps only what the store needs: idle connections in a LIFO list,
bounded growth, FIFO waiters, and discarding any connection whose state is unknown.

A connection goes back as its user left it. Code using this pool never leaves session
state behind: a session advisory lock is released in a `finally`, transactions are
closed by their context manager, and a connection released mid-transaction or after a
cancellation or connection error is closed rather than reused.
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

Init = Callable[[asyncpg.Connection], Awaitable[None]]
# After these, a connection may be mid-protocol: never hand it to someone else.
_UNSAFE = (asyncio.CancelledError, asyncio.TimeoutError, asyncpg.InterfaceError, OSError)


class Pool:
    def __init__(self, url: str, *, min_size: int = 1, max_size: int = 10, init: Init | None = None,
                 **connect_kwargs: Any) -> None:
        if max_size < 1 or min_size > max_size:
            raise ValueError("need 0 <= min_size <= max_size and max_size >= 1")
        self._url, self._init, self._connect_kwargs = url, init, connect_kwargs
        self._min, self._max = min_size, max_size
        self._idle: list[asyncpg.Connection] = []
        self._waiters: collections.deque[asyncio.Future] = collections.deque()
        self._size = 0
        self._closed = False

    async def start(self) -> Pool:
        conns = await asyncio.gather(*(self._connect() for _ in range(self._min)))
        self._idle.extend(conns)
        return self

    async def _connect(self) -> asyncpg.Connection:
        self._size += 1
        try:
            conn = await asyncpg.connect(self._url, **self._connect_kwargs)
            if self._init is not None:
                await self._init(conn)
            return conn
        except BaseException:
            self._size -= 1
            self._wake(None)  # a waiter may try to connect in our place
            raise

    async def _get(self) -> asyncpg.Connection:
        while True:
            if self._closed:
                raise asyncpg.InterfaceError("the pool is closed")
            while self._idle:
                conn = self._idle.pop()
                if not conn.is_closed():
                    return conn
                self._size -= 1
            if self._size < self._max:
                return await self._connect()
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            try:
                conn = await waiter
            except asyncio.CancelledError:
                if waiter.done() and not waiter.cancelled() and waiter.result() is not None:
                    self._put(waiter.result(), broken=False)
                else:
                    self._remove_waiter(waiter)
                raise
            if conn is not None:
                return conn
            # None: capacity was freed; loop and connect

    def _remove_waiter(self, waiter: asyncio.Future) -> None:
        try:
            self._waiters.remove(waiter)
        except ValueError:
            pass

    def _wake(self, conn: asyncpg.Connection | None) -> bool:
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(conn)
                return True
        return False

    def _put(self, conn: asyncpg.Connection, *, broken: bool) -> None:
        if broken or self._closed or conn.is_closed() or conn.is_in_transaction():
            conn.terminate()
            self._size -= 1
            if not self._closed:
                self._wake(None)
        elif not self._wake(conn):
            self._idle.append(conn)

    @asynccontextmanager
    async def acquire(self) -> AsyncIterator[asyncpg.Connection]:
        conn = await self._get()
        try:
            yield conn
        except BaseException as error:
            self._put(conn, broken=isinstance(error, _UNSAFE))
            raise
        self._put(conn, broken=False)

    # The one-statement helpers skip `acquire`'s generator-based context manager: they
    # are the append path, where its few microseconds are a visible share of the cost.
    async def _run(self, method: Callable[..., Awaitable[Any]], query: str, args: tuple) -> Any:
        conn = await self._get()
        try:
            result = await method(conn, query, *args)
        except BaseException as error:
            self._put(conn, broken=isinstance(error, _UNSAFE))
            raise
        self._put(conn, broken=False)
        return result

    async def fetch(self, query: str, *args: Any) -> list[asyncpg.Record]:
        return await self._run(asyncpg.Connection.fetch, query, args)

    async def fetchrow(self, query: str, *args: Any) -> asyncpg.Record | None:
        return await self._run(asyncpg.Connection.fetchrow, query, args)

    async def fetchval(self, query: str, *args: Any) -> Any:
        return await self._run(asyncpg.Connection.fetchval, query, args)

    async def execute(self, query: str, *args: Any) -> str:
        return await self._run(asyncpg.Connection.execute, query, args)

    async def close(self) -> None:
        """Close idle connections now; those in use are closed when they come back."""
        self._closed = True
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_exception(asyncpg.InterfaceError("the pool is closed"))
        idle, self._idle = self._idle, []
        await asyncio.gather(*(conn.close() for conn in idle), return_exceptions=True)
        self._size -= len(idle)
