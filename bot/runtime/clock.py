"""Time for the table runtime: the real event-loop clock and a fake one for tests.

The runtime never calls :func:`asyncio.sleep` or :func:`time.monotonic`
directly; it asks its :class:`Clock`. Tests pass a :class:`FakeClock` and move
time forward with :meth:`FakeClock.advance`, so a 30-second decision clock
runs out instantly and deterministically.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from typing import Any, Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds on a monotonic scale (only differences matter)."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` on this clock."""
        ...

    async def wait_for(self, answer: asyncio.Future[Any], seconds: float) -> bool:
        """Wait until ``answer`` is done or ``seconds`` pass on this clock, whichever comes
        first; True when it is done (``answer`` itself is never cancelled)."""
        ...


class LoopClock:
    """The running event loop's clock (``loop.time()``, ``asyncio.sleep``).

    Offline Discord simulators that virtualise the loop's timers move this
    clock too, so the cogs' tests can use it unchanged.
    """

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))

    async def wait_for(self, answer: asyncio.Future[Any], seconds: float) -> bool:
        try:
            await asyncio.wait_for(asyncio.shield(answer), max(0.0, seconds))
        except TimeoutError:
            return False
        return True


class FakeClock:
    """A clock that only moves when a test calls :meth:`advance`."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._seq = itertools.count()

    def now(self) -> float:
        return self._now

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self._now + seconds, next(self._seq), fut))
        await fut

    async def wait_for(self, answer: asyncio.Future[Any], seconds: float) -> bool:
        timer = asyncio.ensure_future(self.sleep(seconds))
        waiting: set[asyncio.Future[Any]] = {timer, answer}
        try:
            await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        finally:
            timer.cancel()
        return answer.done()

    def next_wake(self) -> float | None:
        """When the earliest sleeper still waiting wakes (None: nobody sleeps)."""
        return min((when for when, _, f in self._sleepers if not f.done()), default=None)

    @property
    def pending(self) -> int:
        """How many sleepers are still waiting (cancelled ones excluded)."""
        return sum(1 for _, _, f in self._sleepers if not f.done())

    async def settle(self, rounds: int = 20) -> None:
        """Let every ready task run until the loop is quiet."""
        for _ in range(rounds):
            await asyncio.sleep(0)

    async def advance(self, seconds: float) -> None:
        """Move time forward, waking sleepers in deadline order."""
        target = self._now + seconds
        await self.settle()
        while self._sleepers and self._sleepers[0][0] <= target:
            when, _, fut = heapq.heappop(self._sleepers)
            if fut.done():
                continue
            self._now = max(self._now, when)
            fut.set_result(None)
            await self.settle()
        self._now = target
        await self.settle()
