"""What an operator scrapes: Prometheus metrics and ``/healthz`` (issue 24).

One :class:`Metrics` per running bot holds its own ``CollectorRegistry`` (never
``prometheus_client``'s global one), so two bots in one process, or two tests,
count apart. The places that know something report it here:

========================================  =============================================
``omaha_open_tables``                     open tables (cash and tournament), read at scrape
``omaha_open_tournaments``                tournaments registering or playing
``omaha_hands_total{variant,structure}``  hands played to the end (``bot.app_metrics``,
                                          from the tables' events)
``omaha_actions_total{variant,structure}`` players' actions taken
``omaha_interaction_ack_seconds``         from an interaction reaching the bot to its
                                          acknowledgement's answer (``bot.adapter.meter``)
``omaha_prompt_seconds``                  from a player's action reaching the bot to the
                                          next turn message posted (``bot.adapter.channel``)
``omaha_discord_requests_total{route,status}``  REST requests by kind of route and status
``omaha_discord_rate_limited_total{route,scope}`` the 429s among them (scope: Discord's
                                          ``X-RateLimit-Scope``: user, global, shared)
``omaha_discord_invalid_requests_total{route,status}``  the answers Discord counts as
                                          invalid requests: 401, 403, and 429 but those of
                                          scope ``shared`` (10,000 in 10 minutes: a ban)
``omaha_pacer_queue``                     requests waiting for the global budget
``omaha_render_queue``                    table pictures drawing or waiting for a slot
``omaha_render_seconds``                  how long a picture held its render slot
``omaha_db_write_seconds``                from a write queued to its commit returned
``omaha_db_write_retries_total``          write batches run again (PostgreSQL conflicts)
``omaha_db_unavailable``                  1 while the database cannot be written (a full
                                          disk, read-only, PostgreSQL down), else 0
``omaha_db_outages_total``                how many times that began
``omaha_asyncio_tasks``                   the event loop's tasks, read at scrape (a count that
                                          grows over a long night is a leak)
``process_resident_memory_bytes`` ...     the process collector (memory, CPU, files)
========================================  =============================================

:class:`OpsServer` serves ``GET /metrics`` (text exposition) and ``GET /healthz``
(200 ``ok``, or 503 with a one-line reason) on ``METRICS_HOST:METRICS_PORT``,
loopback by default: the numbers say how busy the servers are, which is nobody's
business but the operator's. ``/healthz`` answers from the last check
(:class:`CachedCheck`): a check runs at most once every :data:`HEALTH_EVERY`
seconds, and requests that arrive while one runs wait for it, so a burst of
requests costs one check (and the check itself writes nothing:
:func:`bot.app_metrics.database_problem`). This module imports no other module
of the bot.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterator

from aiohttp import web
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily
from prometheus_client.registry import Collector

log = logging.getLogger("bot.metrics")

#: Seconds: Discord's 3 s deadline for an acknowledgement sits between the last buckets.
LATENCY_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
#: Seconds: a picture takes tens of milliseconds; a database write a few.
FAST_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
DEFAULT_HOST = "127.0.0.1"

#: Seconds an answer of ``/healthz`` is kept: at most one check a second.
HEALTH_EVERY = 1.0

#: ``health()``: None while healthy, else the one-line reason it is not.
HealthCheck = Callable[[], Awaitable[str | None]]


class CachedCheck:
    """``check`` run at most once every ``every`` seconds of ``clock`` (epoch seconds):
    a call gets the last answer while it is that fresh, else starts a new check; calls
    arriving while a check runs all wait for that one. A check that raises answers
    the reason it failed. :attr:`runs` counts the checks started."""

    def __init__(self, check: HealthCheck, *, every: float = HEALTH_EVERY,
                 clock: Callable[[], float] = time.time) -> None:
        self.check = check
        self.every = every
        self.clock = clock
        self.runs = 0
        self._started = 0.0
        self._last: asyncio.Task[str | None] | None = None

    async def __call__(self) -> str | None:
        now, last = self.clock(), self._last
        if last is None or (last.done() and not 0 <= now - self._started < self.every):
            self._started, self.runs = now, self.runs + 1
            last = self._last = asyncio.get_running_loop().create_task(self._run())
        return await asyncio.shield(last)  # a request that goes away does not stop it

    async def _run(self) -> str | None:
        try:
            return await self.check()
        except Exception as exc:  # a check that breaks is itself a reason
            return f"health check failed: {type(exc).__name__}"

    def stop(self) -> None:
        if self._last is not None:
            self._last.cancel()


def running_tasks() -> int:
    """The running event loop's tasks (0 outside one: a scrape is served on the loop)."""
    try:
        return len(asyncio.all_tasks())
    except RuntimeError:
        return 0


class _Totals(Collector):
    """Counters kept elsewhere (``db.conflicts``), read at scrape time."""

    def __init__(self) -> None:
        self.readings: list[tuple[str, str, Callable[[], float]]] = []

    def collect(self) -> Iterator[CounterMetricFamily]:
        for name, text, read in self.readings:
            yield CounterMetricFamily(name, text, value=read())

    def describe(self) -> Iterator[CounterMetricFamily]:
        for name, text, _ in self.readings:
            yield CounterMetricFamily(name, text)


class Metrics:
    """The bot's instruments, on a registry of its own (see the module docstring)."""

    def __init__(self) -> None:
        self.registry = registry = CollectorRegistry()
        self.open_tables = Gauge("omaha_open_tables", "Open tables.", registry=registry)
        self.open_tournaments = Gauge(
            "omaha_open_tournaments", "Tournaments registering or playing.", registry=registry)
        game = ("variant", "structure")
        self.hands = Counter("omaha_hands", "Hands played to the end.", game, registry=registry)
        self.actions = Counter("omaha_actions", "Players' actions.", game, registry=registry)
        self.ack_seconds = Histogram(
            "omaha_interaction_ack_seconds",
            "From an interaction reaching the bot to Discord's answer to its acknowledgement.",
            buckets=LATENCY_BUCKETS, registry=registry)
        self.prompt_seconds = Histogram(
            "omaha_prompt_seconds",
            "From a player's action reaching the bot to the next turn message posted.",
            buckets=LATENCY_BUCKETS, registry=registry)
        self.requests = Counter(
            "omaha_discord_requests", "Discord REST requests by kind of route and status.",
            ("route", "status"), registry=registry)
        self.rate_limited = Counter(
            "omaha_discord_rate_limited", "Discord's 429 answers, by kind of route and scope.",
            ("route", "scope"), registry=registry)
        self.invalid_requests = Counter(
            "omaha_discord_invalid_requests",
            "Answers Discord counts as invalid requests (401, 403, 429 not of scope shared).",
            ("route", "status"), registry=registry)
        self.pacer_queue = Gauge(
            "omaha_pacer_queue", "Requests waiting for the global request budget.",
            registry=registry)
        self.render_queue = Gauge(
            "omaha_render_queue", "Table pictures drawing or waiting for a render slot.",
            registry=registry)
        self.render_seconds = Histogram(
            "omaha_render_seconds", "Seconds a table picture held its render slot.",
            buckets=FAST_BUCKETS, registry=registry)
        self.write_seconds = Histogram(
            "omaha_db_write_seconds", "From a database write queued to its commit returned.",
            buckets=FAST_BUCKETS, registry=registry)
        self.db_unavailable = Gauge(
            "omaha_db_unavailable",
            "1 while the database cannot be written (disk full, read-only, down), else 0.",
            registry=registry)
        self.tasks = Gauge("omaha_asyncio_tasks", "Tasks of the bot's event loop.",
                           registry=registry)
        self.tasks.set_function(running_tasks)
        self._totals = _Totals()
        registry.register(self._totals)
        ProcessCollector(registry=registry)

    def total(self, name: str, text: str, read: Callable[[], float]) -> None:
        """A counter kept by someone else, read when scraped (``name`` without ``_total``)."""
        self._totals.readings.append((name, text, read))

    def exposition(self) -> bytes:
        """The text exposition of every instrument, as ``/metrics`` serves it."""
        return generate_latest(self.registry)


class OpsServer:
    """``/metrics`` and ``/healthz`` over HTTP; :meth:`start`, then :meth:`stop`."""

    def __init__(self, metrics: Metrics, health: HealthCheck, *,
                 clock: Callable[[], float] = time.time) -> None:
        self.metrics = metrics
        #: ``health`` answered at most once a second (of ``clock``)
        self.health = CachedCheck(health, clock=clock)
        self.port = 0  # the port listened on, once started
        self._runner: web.AppRunner | None = None

    async def start(self, host: str, port: int) -> None:
        """Listen on ``host:port`` (port 0: any free port, then in :attr:`port`)."""
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._healthz)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        try:
            await site.start()
        except OSError:
            await runner.cleanup()
            raise
        self._runner = runner
        self.port = runner.addresses[0][1]
        log.info("Metrics on http://%s:%d/metrics, health on /healthz", host, self.port)

    async def stop(self) -> None:
        self.health.stop()
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    async def _metrics(self, request: web.Request) -> web.Response:
        body = self.metrics.exposition()
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _healthz(self, request: web.Request) -> web.Response:
        reason = await self.health()
        if reason is None:
            return web.Response(text="ok\n")
        return web.Response(status=503, text=reason.splitlines()[0] + "\n")


__all__ = ["DEFAULT_HOST", "HEALTH_EVERY", "CachedCheck", "HealthCheck", "Metrics", "OpsServer"]
