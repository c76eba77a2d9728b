"""The table's news for its observer, delivered in order by one task, outside the lock.

The table queues each :mod:`~bot.runtime.table.events` event (``send``) while
it holds its lock; one drain task per table hands them to the observer's
``observe`` in order and ends when the queue is empty.
Rendering and Discord requests therefore never delay play or an
acknowledgement, and one table's slow observer never holds up another table.
An observer that fails is logged and skipped: the game goes on. A
:class:`~bot.runtime.table.events.DeckCommitted` that is dropped (discarded, or its
observer failed) fails its receipt, so the table never waits for it in vain.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import TYPE_CHECKING

from bot.runtime.table.events import DeckCommitted

if TYPE_CHECKING:
    from bot.runtime.ports import TableObserver
    from bot.runtime.table.events import TableEvent

log = logging.getLogger(__name__)

__all__ = ["Outbox"]


class Outbox:
    def __init__(self, name: str, observer: TableObserver) -> None:
        self.name = name
        self.observer = observer
        self._queue: deque[TableEvent] = deque()
        self._worker: asyncio.Task[None] | None = None
        self._discarded = False

    def send(self, event: TableEvent) -> None:
        """Queue one event; a drain task delivers the queue in order."""
        if self._discarded:
            _dropped(event)
            return
        self._queue.append(event)
        if self._worker is None or self._worker.done():
            self._worker = asyncio.get_running_loop().create_task(
                self._drain(), name=f"{self.name}-presenter"
            )

    async def _drain(self) -> None:
        while self._queue:
            event = self._queue.popleft()
            try:
                await self.observer.observe(event)
            except Exception:
                log.exception("%s: the observer failed on %s", self.name, type(event).__name__)
                _dropped(event)

    async def idle(self) -> None:
        """Wait until everything queued so far has been delivered."""
        while self._worker is not None and not self._worker.done():
            await asyncio.shield(self._worker)

    @property
    def discarded(self) -> bool:
        """Everything is dropped from now on (:meth:`discard`: the table was abandoned)."""
        return self._discarded

    def discard(self) -> None:
        """Drop every pending event and every later one (the table is abandoned: its
        channel is lost, so nothing more goes toward it). The event being delivered
        right now finishes; its observer decides what it still sends."""
        self._discarded = True
        for event in self._queue:
            _dropped(event)
        self._queue.clear()

    async def stop(self) -> None:
        """Drop the worker (the bot is stopping)."""
        worker = self._worker
        if worker is not None and not worker.done():
            worker.cancel()
            try:
                await worker
            except (asyncio.CancelledError, Exception):
                pass


def _dropped(event: TableEvent) -> None:
    """``event`` will never be delivered (or its delivery failed)."""
    if isinstance(event, DeckCommitted):
        event.receipt.failed()
