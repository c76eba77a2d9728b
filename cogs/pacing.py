"""Stay under Discord's global rate limit instead of running into it.

Discord allows a bot 50 requests per second over all routes, except the
interaction endpoints (the callback and the interaction webhooks: followups,
editing or deleting the original answer), which "are not bound to the bot's
Global Rate Limit". discord.py only reacts to a global 429, and then holds
*every* request, acknowledgements included, until the limit resets: under
load, a busy evening of tables would make interactions late.

:func:`pace_requests` puts a :class:`Pacer` in front of the bot's HTTP client:
each request that counts against the global limit waits for a slot in a
sliding one-second window of :data:`GLOBAL_BUDGET` requests (40: Discord counts
arrivals, and requests let through over a little more than a second can arrive
within one when the event loop is busy; at 45 the load benchmark still saw a
few global 429s at 50 tables); interaction endpoints never wait. While a table's
requests wait, its channel task coalesces (only the newest state is sent), so
pacing costs a busy table some intermediate edits, never an acknowledgement.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import discord

#: Requests per second the bot allows itself (Discord's global limit is 50).
GLOBAL_BUDGET = 40
INTERACTION_ROUTES = ("/interactions/", "/webhooks/")


class Pacer:
    """At most ``limit`` acquisitions in any ``per`` seconds, first come first served."""

    def __init__(
        self, limit: int = GLOBAL_BUDGET, per: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit = limit
        self.per = per
        self.clock = clock
        self.waited = 0
        self._sent: deque[float] = deque()
        self._lock = asyncio.Lock()

    def delay(self) -> float:
        """Seconds until a request may go now (0: at once)."""
        now = self.clock()
        while self._sent and now - self._sent[0] >= self.per:
            self._sent.popleft()
        if len(self._sent) < self.limit:
            return 0.0
        return self._sent[0] + self.per - now

    async def acquire(self) -> None:
        async with self._lock:
            wait = self.delay()
            while wait > 0:
                self.waited += 1
                await asyncio.sleep(wait)
                wait = self.delay()
            self._sent.append(self.clock())


def counts_globally(route: discord.http.Route) -> bool:
    """False for the interaction endpoints, which Discord exempts from the global limit."""
    return not route.path.startswith(INTERACTION_ROUTES)


def pace_requests(http: discord.http.HTTPClient, pacer: Pacer | None = None) -> Pacer:
    """Make every global-limited request of ``http`` wait for ``pacer`` first."""
    pacer = pacer or Pacer()
    unpaced = http.request

    async def request(route: discord.http.Route, **kwargs: Any) -> Any:
        if counts_globally(route):
            await pacer.acquire()
        return await unpaced(route, **kwargs)

    http.request = request  # type: ignore[method-assign]
    return pacer


__all__ = ["GLOBAL_BUDGET", "Pacer", "counts_globally", "pace_requests"]
