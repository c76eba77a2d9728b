"""Discord's bad minutes, as the fake Discord plays them: 5xx answers and global 429s.

``fd.weather.storm(seconds, share_5xx=0.3, share_global=0.02, retry_after=2.0)`` starts a
storm on the fake (:class:`tests.fakediscord.FakeDiscord`) for ``seconds``; then it is calm
again. During the storm each REST request is, at random:

* **answered 5xx** (a share ``share_5xx`` of all requests, interaction routes included),
  with one of the statuses Discord's edge answers in its incidents, chosen evenly, and
  its body:

  - 500 ``{"message": "500: Internal Server Error", "code": 0}`` (JSON, as Discord's API);
  - 502 the load balancer's HTML page (``<title>502 Bad Gateway</title>``);
  - 503 ``upstream connect error or disconnect/reset before headers. reset reason:
    overflow`` (plain text, as Discord's proxy answers when a service is overloaded).

  **Which of them were carried out.** Discord can apply a request and still answer 5xx:
  the backend did the work and the answer was lost on the way back. The fake plays it
  so: a **502 is answered after the request was carried out** (a message posted by it
  exists, and stays: a *ghost* the bot was never told about, :attr:`Weather.ghosts`);
  a 500 or a 503 is answered before anything was done. A bot that sends a carried-out
  message again posts it twice, unless Discord can tell the second one is the same:
  "Create Message" takes a ``nonce`` and, with ``enforce_nonce``, answers a nonce already
  used by the same author in the channel in the past few minutes with that first
  message instead of a new one (:meth:`Weather.nonce_message`; interaction followups
  have no nonce). :meth:`Weather.duplicates` lists the ghosts that were posted again.

* **refused by a global rate limit** (a share ``share_global`` of the requests bound to
  the global limit: every route but the interaction endpoints): the fake then answers
  every such request 429 for ``retry_after`` seconds, as Discord does once a bot is over
  its global limit: ``X-RateLimit-Global: true``, ``X-RateLimit-Scope: global``,
  ``Retry-After`` (whole seconds) and the body ``{"message": "You are being rate
  limited.", "retry_after": <seconds left>, "global": true}``. A request that arrives in
  such a window more than :data:`SLACK` seconds after it opened was sent by a bot that
  did not wait as told (:attr:`Weather.unheeded`; the slack covers requests already on
  their way when the first 429 was answered).

``fd.weather.plan("POST", "/interactions/*/callback")`` answers the next request that
matches (an ``fnmatch`` pattern of the path) 502 after carrying it out, storm or not: one
chosen fault, where a test needs it (another status with ``status=``).

Every answer keeps ``Via: 1.1 google`` (discord.py reads a 429 without it as a
Cloudflare ban). A 429 or 5xx of the storm is counted like the fake's other answers
(``fd.invalid``: 401, 403 and the 429s that are not of scope ``shared``).
"""

from __future__ import annotations

import fnmatch
import json
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from .ratelimits import VIA, RateLimiter

__all__ = ["CARRIED_OUT", "NONCE_WINDOW", "SLACK", "Storm", "Weather"]

#: Seconds after a global window opened within which a request may still arrive (it was
#: on its way before the bot read the first 429).
SLACK = 0.5
#: The 5xx statuses answered after the request was carried out.
CARRIED_OUT = frozenset({502})
#: Seconds a nonce is remembered ("in the past few minutes").
NONCE_WINDOW = 300.0

_BODIES: dict[int, tuple[bytes, str]] = {
    500: (json.dumps({"message": "500: Internal Server Error", "code": 0}).encode(),
          "application/json"),
    502: (b"<html><head><title>502 Bad Gateway</title></head><body><center>"
          b"<h1>502 Bad Gateway</h1></center></body></html>", "text/html"),
    503: (b"upstream connect error or disconnect/reset before headers. reset reason: overflow",
          "text/plain"),
}


@dataclass
class Storm:
    """A storm's settings, until ``until`` (the fake's loop time)."""

    until: float
    share_5xx: float
    share_global: float
    retry_after: float
    rng: random.Random


@dataclass
class Fault:
    """What the storm does to one request: answer ``response`` instead of routing it, or,
    with ``after`` set, route it and then answer ``response`` anyway (carried out)."""

    response: web.Response
    after: bool = False


def server_error(status: int) -> web.Response:
    body, kind = _BODIES[status]
    return web.Response(status=status, body=body, headers={"Content-Type": kind, "Via": VIA})


def global_429(seconds: float) -> web.Response:
    body = {"message": "You are being rate limited.", "retry_after": round(seconds, 3),
            "global": True}
    return web.Response(status=429, body=json.dumps(body).encode(), headers={
        "Content-Type": "application/json", "Via": VIA,
        "Retry-After": str(max(1, math.ceil(seconds))), "X-RateLimit-Global": "true",
        "X-RateLimit-Scope": "global",
    })


@dataclass
class Weather:
    """The fake's faults (calm unless :meth:`storm`) and what they did."""

    clock: Callable[[], float]
    storm_: Storm | None = None
    #: The global windows opened: (opened, until).
    windows: list[tuple[float, float]] = field(default_factory=list)
    #: (status, method, path) of every 5xx answered.
    errors: list[tuple[int, str, str]] = field(default_factory=list)
    #: (seconds into the window, method, path) of requests sent into a global window
    #: after :data:`SLACK`: the bot did not wait as Discord said.
    unheeded: list[tuple[float, str, str]] = field(default_factory=list)
    #: Messages posted by a request that was answered 5xx after it was carried out.
    ghosts: list[int] = field(default_factory=list)
    #: (channel id, nonce) -> (message id, when): Create Message's ``enforce_nonce``.
    nonces: dict[tuple[int, str], tuple[int, float]] = field(default_factory=dict)
    #: (method, path pattern, status) of the faults :meth:`plan` chose, not met yet.
    planned: list[tuple[str, str, int]] = field(default_factory=list)

    def plan(self, method: str, pattern: str, *, status: int = 502) -> None:
        """Answer the next ``method`` request whose path matches ``pattern`` with
        ``status`` (a 502 after carrying it out), storm or not."""
        self.planned.append((method, pattern, status))

    def _planned(self, method: str, path: str) -> Fault | None:
        for chosen in self.planned:
            if chosen[0] == method and fnmatch.fnmatchcase(path, chosen[1]):
                self.planned.remove(chosen)
                self.errors.append((chosen[2], method, path))
                return Fault(server_error(chosen[2]), after=chosen[2] in CARRIED_OUT)
        return None

    def storm(self, seconds: float, *, share_5xx: float = 0.3, share_global: float = 0.02,
              retry_after: float = 2.0, seed: int = 1) -> None:
        """Storm for ``seconds`` from now (see the module docstring)."""
        self.storm_ = Storm(self.clock() + seconds, share_5xx, share_global, retry_after,
                            random.Random(seed))

    @property
    def stormy(self) -> bool:
        return self.storm_ is not None and self.clock() < self.storm_.until

    def fault(self, method: str, path: str) -> Fault | None:
        """What the storm (or :meth:`plan`) does to this request (None: nothing, it is
        routed as usual)."""
        planned = self._planned(method, path)
        if planned is not None:
            return planned
        storm, now = self.storm_, self.clock()
        global_bound = not RateLimiter.rule_for(method, path)[0].exempt_from_global
        opened, until = self.windows[-1] if self.windows else (-math.inf, -math.inf)
        if global_bound and now < until:
            if now - opened > SLACK:
                self.unheeded.append((now - opened, method, path))
            return Fault(global_429(until - now))
        if storm is None or now >= storm.until:
            return None
        if global_bound and storm.rng.random() < storm.share_global:
            self.windows.append((now, now + storm.retry_after))
            return Fault(global_429(storm.retry_after))
        if storm.rng.random() < storm.share_5xx:
            status = storm.rng.choice(sorted(_BODIES))
            self.errors.append((status, method, path))
            return Fault(server_error(status), after=status in CARRIED_OUT)
        return None

    def carried_out(self, body: bytes | None, method: str, path: str) -> None:
        """A request answered 5xx after it was carried out: a message it posted is a ghost."""
        if method != "POST" or body is None:
            return
        try:
            answer = json.loads(body)
        except ValueError:
            return
        if isinstance(answer, dict) and "content" in answer and "id" in answer:
            self.ghosts.append(int(answer["id"]))

    def nonce_message(self, channel_id: int, body: dict[str, Any]) -> int | None:
        """Create Message with ``enforce_nonce``: the message already posted in the channel
        with this nonce in the past few minutes (None: post a new one)."""
        nonce = body.get("nonce")
        if nonce is None or not body.get("enforce_nonce"):
            return None
        found = self.nonces.get((channel_id, str(nonce)))
        if found is None or self.clock() - found[1] > NONCE_WINDOW:
            return None
        return found[0]

    def remember_nonce(self, channel_id: int, body: dict[str, Any], message_id: int) -> None:
        if body.get("nonce") is not None and body.get("enforce_nonce"):
            self.nonces[(channel_id, str(body["nonce"]))] = (message_id, self.clock())

    def duplicates(self, messages: dict[int, Any]) -> list[tuple[int, int]]:
        """(ghost, later twin): a ghost posted again, the same content with the same files,
        in the same channel, as a new message."""
        found = []
        for ghost_id in self.ghosts:
            ghost = messages[ghost_id]
            for other in messages.values():
                if (other.id > ghost.id and other.channel_id == ghost.channel_id
                        and other.content == ghost.content
                        and [a.filename for a in other.attachments]
                        == [a.filename for a in ghost.attachments]):
                    found.append((ghost.id, other.id))
                    break
        return found
