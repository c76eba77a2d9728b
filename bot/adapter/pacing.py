"""Stay under Discord's global rate limit instead of running into it.

Discord allows a bot 50 requests per second over all routes, except the
interaction endpoints (the callback and the interaction webhooks: followups,
editing or deleting the original answer), which "are not bound to the bot's
Global Rate Limit". discord.py only reacts to a global 429, and then holds
*every* request, acknowledgements included, until the limit resets: under
load, a busy evening of tables would make interactions late.

:func:`pace_requests` puts a :class:`Pacer` in front of the bot's HTTP client:
each request that counts against the global limit waits, as it is sent, for a
slot in a sliding one-second window of :data:`GLOBAL_BUDGET` requests (40,
leaving room for arrivals bunched by a busy event loop); interaction endpoints
never wait. While a table's
requests wait, its channel task coalesces (only the newest state is sent), so
pacing costs a busy table some intermediate edits, never an acknowledgement.

A request sent while :func:`urgent` is on (a deck commitment, or the thread it goes
to: its table deals nothing until Discord has it) goes before every other waiting
request: it waits only for a free slot in the window, never behind the queue. With
hundreds of tables opening at once (issue 33), the first hands are then dealt while
the sit-down notices and the like wait their turn.

**A global 429** (``X-RateLimit-Global: true``: Discord is refusing every request of
the bot bound to the global limit for a while, in an incident or past the limit)
holds the pacer for as long as its ``Retry-After`` header says (:meth:`Pacer.hold`):
no such request leaves meanwhile, including those discord.py has already let
through its own global lock (it checks it once, before a route's bucket, not before
each retry) and those of other tasks. Every refused request is an invalid request,
and Discord bans a bot for a day past 10,000 in 10 minutes
(:mod:`bot.adapter.meter` counts them).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import math
import re
import time
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

import aiohttp
import discord
import yarl

#: Requests per second the bot allows itself (Discord's global limit is 50).
GLOBAL_BUDGET = 40
INTERACTION_ROUTES = ("/interactions/", "/webhooks/")
API_PATH = re.compile(r"/api(?:/v\d+)?(/.*)")
#: Seconds a request in turn waits when a slot is free but one waits to go first.
YIELD = 0.01
#: Set while a task sends requests that go before any other (:func:`urgent`).
_URGENT = contextvars.ContextVar("omaha_urgent_request", default=False)


@contextlib.contextmanager
def urgent() -> Iterator[None]:
    """The requests sent meanwhile (in this task) go before every other waiting one."""
    mark = _URGENT.set(True)
    try:
        yield
    finally:
        _URGENT.reset(mark)


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
        self.queued = 0  # requests waiting for their turn now (the metrics read it)
        self.held_until = -math.inf  # a global 429's window: nothing leaves before
        self._sent: deque[float] = deque()
        self._lock = asyncio.Lock()
        self._first = 0  # requests waiting to go first

    def hold(self, seconds: float) -> None:
        """Discord refuses every global-limited request for ``seconds`` from now."""
        self.held_until = max(self.held_until, self.clock() + seconds)

    def delay(self) -> float:
        """Seconds until a request may go now (0: at once)."""
        now = self.clock()
        while self._sent and now - self._sent[0] >= self.per:
            self._sent.popleft()
        held = max(0.0, self.held_until - now)
        if len(self._sent) < self.limit:
            return held
        return max(held, self._sent[0] + self.per - now)

    async def acquire(self, first: bool = False) -> None:
        """Wait for a slot, in turn; ``first``: before every request waiting in turn."""
        self.queued += 1
        try:
            if first:
                self._first += 1
                try:
                    await self._slot(first=True)
                finally:
                    self._first -= 1
                return
            async with self._lock:
                await self._slot(first=False)
        finally:
            self.queued -= 1

    async def _slot(self, *, first: bool) -> None:
        while True:
            wait = self.delay()
            if wait <= 0 and (first or not self._first):
                self._sent.append(self.clock())  # no await since delay(): the window holds
                return
            if wait > 0:
                self.waited += 1
            # a free slot but a request waits to go first: it takes it (it wakes now too)
            await asyncio.sleep(max(wait, YIELD))


def counts_globally(route: discord.http.Route) -> bool:
    """False for the interaction endpoints, which Discord exempts from the global limit."""
    return not route.path.startswith(INTERACTION_ROUTES)


def counts_globally_url(url: yarl.URL) -> bool:
    """Whether a request to ``url`` counts against the global limit: an API route
    (``/api/v10/...``) other than the interaction endpoints (not the CDN, not the gateway)."""
    found = API_PATH.match(url.path)
    return found is not None and not found[1].startswith(INTERACTION_ROUTES)


def pace_requests(http: discord.http.HTTPClient, pacer: Pacer | None = None) -> Pacer:
    """Make every global-limited request of ``http`` wait for ``pacer`` as it is sent.

    The pacer runs in aiohttp's ``on_request_start`` signal (discord.py's
    ``http_trace``), that is after discord.py's own wait for the route's
    bucket and again for each of its retries, so the budget counts requests
    when they leave, as Discord counts them when they arrive. (Pacing before
    :meth:`discord.http.HTTPClient.request` let requests that then waited for
    a per-route bucket, such as opening DM channels, 10 per 10 s, leave together
    when the bucket reset, on top of the paced ones: the global 429s the load
    benchmark saw.) Call it before the client logs in (the session is built then).
    """
    pacer = pacer or Pacer()

    async def on_request_start(
        session: aiohttp.ClientSession, context: Any, params: aiohttp.TraceRequestStartParams
    ) -> None:
        if counts_globally_url(params.url):
            await pacer.acquire(first=_URGENT.get())

    async def on_request_end(
        session: aiohttp.ClientSession, context: Any, params: aiohttp.TraceRequestEndParams
    ) -> None:
        wait = global_wait(params.response)
        if wait is not None:
            pacer.hold(wait)

    trace = http.http_trace or aiohttp.TraceConfig()
    trace.on_request_start.append(on_request_start)
    trace.on_request_end.append(on_request_end)
    http.http_trace = trace
    return pacer


def global_wait(response: aiohttp.ClientResponse) -> float | None:
    """The seconds a global 429 says to wait (its ``Retry-After`` header, else the
    ``X-RateLimit-Reset-After``; at least a second), or None for any other answer."""
    if response.status != 429 or response.headers.get("X-RateLimit-Global", "").lower() != "true":
        return None
    for header in ("Retry-After", "X-RateLimit-Reset-After"):
        try:
            return max(1.0, float(response.headers[header]))
        except (KeyError, ValueError):
            continue
    return 1.0


__all__ = [
    "GLOBAL_BUDGET", "Pacer", "counts_globally", "counts_globally_url", "global_wait",
    "pace_requests", "urgent",
]
