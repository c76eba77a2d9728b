"""What the Discord side tells the metrics (:mod:`bot.metrics`), and whether it is healthy.

:class:`DiscordMeter` is built by the client with the app's :class:`~bot.metrics.Metrics`:

* :meth:`~DiscordMeter.arrived` notes when each interaction reached the bot (the client
  calls it as the gateway event is dispatched, before any handler runs);
* :meth:`~DiscordMeter.install` puts an aiohttp trace on the bot's HTTP session: every REST
  request is counted by kind of route (:func:`route_kind`: never a token or an id in a
  label) and status, a 429 also by Discord's ``X-RateLimit-Scope``, and the answer to an
  interaction's callback observes its acknowledgement latency; the answers Discord counts
  as invalid requests (:func:`invalid`: past 10,000 in 10 minutes it bans the bot for a
  day) are counted apart;
* :meth:`~DiscordMeter.prompted`: the table's channel posted the turn message that a
  player's action passed the turn to (action-to-next-prompt latency);
* :meth:`~DiscordMeter.watch` reads the pacer's queue and the render gate's at scrape,
  and times each render.

:class:`Gateway` follows the gateway's connection from discord.py's events (per shard
when sharded); the health check is down while any of them is disconnected.
"""

from __future__ import annotations

import re
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import aiohttp
import discord
from discord.ext import commands

from bot.adapter.pacing import API_PATH, Pacer
from bot.adapter.pictures import RenderGate
from bot.metrics import Metrics

__all__ = ["DiscordMeter", "Gateway", "invalid", "route_kind"]

#: Interactions remembered for their latencies (the oldest forgotten first).
REMEMBERED = 10_000
CALLBACK = re.compile(r"^/interactions/(\d+)/[^/]+/callback$")
_KINDS = (
    (re.compile(r"^/interactions/"), "interaction_callback"),
    (re.compile(r"^/webhooks/"), "interaction_webhook"),
    (re.compile(r"^/channels/\d+/messages"), "channel_messages"),
    (re.compile(r"^/channels/"), "channel"),
    (re.compile(r"^/users/@me/channels"), "dm_open"),
    (re.compile(r"^/applications/\d+/(guilds/\d+/)?commands"), "commands"),
    (re.compile(r"^/guilds/"), "guild"),
    (re.compile(r"^/users/"), "user"),
)


def _api_path(url: Any) -> str:
    found = API_PATH.match(str(getattr(url, "path", url)))
    return found[1] if found else ""


def invalid(status: int, scope: str | None) -> bool:
    """Whether Discord counts an answer as an invalid request: "HTTP 401, 403 and 429
    responses", except a 429 of ``X-RateLimit-Scope: shared`` ("429s with the shared
    scope don't count"; Discord's Rate Limits topic)."""
    return status in (401, 403) or (status == 429 and scope != "shared")


def route_kind(path: str) -> str:
    """The kind of an API route (``/channels/1/messages/2`` -> ``channel_messages``)."""
    return next((kind for pattern, kind in _KINDS if pattern.match(path)), "other")


class DiscordMeter:
    """The Discord side's numbers (see the module docstring)."""

    def __init__(self, metrics: Metrics, clock: Callable[[], float] = time.monotonic) -> None:
        self.metrics = metrics
        self.clock = clock
        self._arrivals: OrderedDict[int, float] = OrderedDict()

    def arrived(self, interaction_id: int) -> None:
        self._arrivals[interaction_id] = self.clock()
        if len(self._arrivals) > REMEMBERED:
            self._arrivals.popitem(last=False)

    def _since(self, interaction_id: int) -> float | None:
        start = self._arrivals.get(interaction_id)
        return None if start is None else self.clock() - start

    def prompted(self, interaction_id: int) -> None:
        """The turn message after the action ``interaction_id`` is posted."""
        seconds = self._since(interaction_id)
        if seconds is not None:
            self.metrics.prompt_seconds.observe(seconds)

    def answered(self, path: str, status: int, scope: str | None) -> None:
        """Discord answered a request to the API route ``path`` with ``status``."""
        kind = route_kind(path)
        self.metrics.requests.labels(kind, str(status)).inc()
        if status == 429:
            self.metrics.rate_limited.labels(kind, scope or "unknown").inc()
        if invalid(status, scope):
            self.metrics.invalid_requests.labels(kind, str(status)).inc()
        callback = CALLBACK.match(path)
        if callback is not None and status < 400:
            seconds = self._since(int(callback[1]))
            if seconds is not None:
                self.metrics.ack_seconds.observe(seconds)

    def install(self, http: discord.http.HTTPClient) -> None:
        """Count every request of ``http`` (call before it logs in: the session is built
        then, and interaction followups use that session too)."""

        async def on_request_end(
            session: aiohttp.ClientSession, context: Any, params: aiohttp.TraceRequestEndParams
        ) -> None:
            path = _api_path(params.url)
            if path:
                response = params.response
                self.answered(path, response.status, response.headers.get("X-RateLimit-Scope"))

        trace = http.http_trace or aiohttp.TraceConfig()
        trace.on_request_end.append(on_request_end)
        http.http_trace = trace

    def watch(self, *, pacer: Pacer | None = None, gate: RenderGate | None = None) -> None:
        """Read the pacer's and the render gate's queues at scrape; time each render."""
        if pacer is not None:
            self.metrics.pacer_queue.set_function(lambda: pacer.queued)
        if gate is not None:
            self.metrics.render_queue.set_function(lambda: gate.pending)
            gate.on_render = self.metrics.render_seconds.observe


class Gateway:
    """Whether the gateway is connected: discord.py's connect, ready, resumed and
    disconnect events, per shard when sharded (-1: the whole client's)."""

    WHOLE = -1

    def __init__(self) -> None:
        self.down: set[int] = {self.WHOLE}  # not connected before the first connect

    def connected(self, shard_id: int = WHOLE) -> None:
        self.down.discard(shard_id)

    def disconnected(self, shard_id: int = WHOLE) -> None:
        self.down.add(shard_id)

    def problem(self) -> str | None:
        """None while connected, else why not (one line)."""
        if not self.down:
            return None
        shards = sorted(s for s in self.down if s != self.WHOLE)
        return ("gateway disconnected" if not shards
                else f"gateway disconnected (shards {', '.join(map(str, shards))})")

    def listen(self, bot: commands.Bot) -> None:
        """Follow ``bot``'s gateway events."""

        async def up() -> None:
            self.connected()

        async def down() -> None:
            self.disconnected()

        async def shard_up(shard_id: int) -> None:
            self.connected(shard_id)

        async def shard_down(shard_id: int) -> None:
            self.disconnected(shard_id)

        for name in ("on_connect", "on_ready", "on_resumed"):
            bot.add_listener(up, name)
        bot.add_listener(down, "on_disconnect")
        for name in ("on_shard_connect", "on_shard_ready", "on_shard_resumed"):
            bot.add_listener(shard_up, name)
        bot.add_listener(shard_down, "on_shard_disconnect")
