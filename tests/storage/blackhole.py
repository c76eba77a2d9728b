"""PostgreSQL behind a network that can drop every packet (a blackhole).

:class:`Blackhole` is a proxy on a unix socket of its own, in front of a cluster of
tests/pgcluster.py, on a thread with its own event loop (so it forwards whatever the
test's loop does). :meth:`~Blackhole.drop` makes it silent: the bytes of every
connection, either way, are read and thrown away, and new connections are accepted
(as the kernel does) but never forwarded nor answered, as behind a firewall that drops
packets: nothing is refused, nothing ever comes back. :meth:`~Blackhole.restore`
forwards new connections again (one that lost bytes meanwhile stays broken, as after
a real outage).

Why not SIGSTOP the server: the whole cluster would stop for the test's own checks too,
and it needs to signal another user's processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import tempfile
import threading
from collections.abc import Coroutine
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

from tests.pgcluster import PORT, SUPERUSER, Cluster

__all__ = ["Blackhole"]

CHUNK = 1 << 16
T = TypeVar("T")


class Blackhole:
    """A proxy to ``cluster``'s socket; use it as a context manager."""

    def __init__(self, cluster: Cluster) -> None:
        self.upstream = str(cluster.root / f".s.PGSQL.{PORT}")
        # short: a unix socket's path has at most 107 bytes
        self.folder = Path(tempfile.mkdtemp(prefix="omaha-bh-"))
        self.silent = False
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="blackhole",
                                        daemon=True)
        self._server: asyncio.AbstractServer | None = None

    def url(self, database: str) -> str:
        """The URL of ``database`` through the proxy."""
        return f"postgresql://{SUPERUSER}@/{database}?host={self.folder}&port={PORT}"

    def drop(self) -> None:
        """From now on nothing gets through, either way, and nothing is refused."""
        self.silent = True

    def restore(self) -> None:
        """New connections are forwarded again."""
        self.silent = False

    def __enter__(self) -> Blackhole:
        self._thread.start()
        self._server = self._call(asyncio.start_unix_server(
            self._serve, path=str(self.folder / f".s.PGSQL.{PORT}")))
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._call(self._stop())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def _call(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(10)

    async def _stop(self) -> None:
        if self._server is not None:
            self._server.close()
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One client's connection: forwarded, or swallowed while silent."""
        try:
            if self.silent:
                while await reader.read(CHUNK):
                    pass
                return
            up_reader, up_writer = await asyncio.open_unix_connection(self.upstream)
            try:
                await asyncio.gather(self._pump(reader, up_writer), self._pump(up_reader, writer))
            finally:
                up_writer.close()
        except ConnectionError:
            pass
        finally:
            writer.close()

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Bytes from ``reader`` to ``writer`` (thrown away while silent), then its end."""
        with contextlib.suppress(ConnectionError):
            while data := await reader.read(CHUNK):
                if not self.silent:
                    writer.write(data)
                    await writer.drain()
        writer.close()
