"""Discord's REST rate limits, as the fake Discord enforces them.

Following Discord's "Rate Limits" topic (developers/topics/rate-limits):

* **Per-route buckets.** Each limited route belongs to a bucket (its hash is
  sent as ``X-RateLimit-Bucket``), counted separately per top-level resource
  of the path: the channel id, the guild id, or the webhook id and token
  (an interaction's token for followups). Every answer on such a route
  carries ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset`` (epoch seconds),
  ``-Reset-After`` (seconds) and ``-Bucket``. Past the limit: 429 with
  ``X-RateLimit-Scope: user`` and the body ``{"message", "retry_after",
  "global": false}``.
* **The global limit**: 50 requests per second per bot over every route
  except the interaction endpoints (the callback and the interaction
  webhooks: "Interaction endpoints are not bound to the bot's Global Rate
  Limit"). Past it: 429 with ``X-RateLimit-Global: true``,
  ``X-RateLimit-Scope: global`` and ``"global": true``.
* Every answer carries ``Via: 1.1 google``: discord.py treats a 429 without a
  ``Via`` header (or with a body that is not JSON) as a Cloudflare ban and
  raises instead of waiting, so the fake sends it as Discord's load balancer does.

Discord does not publish its per-route figures (they are sent in the headers
and may change); the ones here are those commonly observed, picked as:

==============================================  ==========  ====================
route                                           limit       counted per
==============================================  ==========  ====================
POST   /channels/{id}/messages                  5 per 5 s   channel
PATCH  /channels/{id}/messages/{id}             5 per 5 s   channel
DELETE /channels/{id}/messages/{id}             5 per 1 s   channel
POST   /interactions/{id}/{token}/callback      5 per 1 s   interaction (answered once)
/webhooks/{app}/{token}/...                     5 per 2 s   interaction token
POST   /users/@me/channels (open a DM)          10 per 10 s bot
any other route                                 10 per 1 s  route and resource
==============================================  ==========  ====================

Windows are fixed: a bucket's window opens with its first request and resets
``per`` seconds later, as Discord's ``Reset`` header describes. A refused
request does not use a slot.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

GLOBAL_LIMIT = 50
GLOBAL_PER = 1.0
VIA = "1.1 google"


@dataclass(frozen=True)
class Rule:
    """One bucket: ``limit`` requests per ``per`` seconds, per resource of the path."""

    bucket: str
    limit: int
    per: float
    exempt_from_global: bool = False


#: (method, path pattern, rule); the pattern's first group is the resource the bucket counts.
RULES: list[tuple[str, str, Rule]] = [
    ("POST", r"/channels/(\d+)/messages", Rule("f1a2-message-create", 5, 5.0)),
    ("PATCH", r"/channels/(\d+)/messages/\d+", Rule("f1a2-message-edit", 5, 5.0)),
    ("DELETE", r"/channels/(\d+)/messages/\d+", Rule("f1a2-message-delete", 5, 1.0)),
    ("POST", r"/interactions/(\d+)/[^/]+/callback",
     Rule("f1a2-interaction-callback", 5, 1.0, exempt_from_global=True)),
    ("*", r"/webhooks/\d+/([^/]+)(?:/.*)?", Rule("f1a2-webhook", 5, 2.0, exempt_from_global=True)),
    ("POST", r"/users/@me/(channels)", Rule("f1a2-dm-open", 10, 10.0)),
]
DEFAULT = Rule("f1a2-default", 10, 1.0)


@dataclass
class _Window:
    limit: int
    per: float
    opened: float = -math.inf
    used: int = 0

    def roll(self, now: float) -> None:
        if now >= self.opened + self.per:
            self.opened, self.used = now, 0

    def reset_after(self, now: float) -> float:
        return max(0.0, self.opened + self.per - now)


@dataclass
class Verdict:
    """What the limiter says of one request: the headers to send, and a 429 body if refused."""

    headers: dict[str, str]
    refused: dict[str, object] | None = None
    scope: str | None = None


@dataclass
class RateLimiter:
    """Counts requests per bucket and globally; :meth:`check` decides each one."""

    clock: Callable[[], float] = time.monotonic
    global_limit: int = GLOBAL_LIMIT
    _buckets: dict[tuple[str, str], _Window] = field(default_factory=dict)
    _global: _Window = field(default_factory=lambda: _Window(GLOBAL_LIMIT, GLOBAL_PER))

    def __post_init__(self) -> None:
        self._global = _Window(self.global_limit, GLOBAL_PER)

    @staticmethod
    def rule_for(method: str, path: str) -> tuple[Rule, str]:
        """The bucket rule of a request and the resource it is counted for."""
        for rule_method, pattern, rule in RULES:
            if rule_method in (method, "*"):
                match = re.fullmatch(pattern, path)
                if match:
                    return rule, match.group(1)
        template = re.sub(r"\d{5,}", "{id}", path)
        resource = next(iter(re.findall(r"\d{5,}", path)), "")
        return Rule(f"{DEFAULT.bucket}:{method}:{template}", DEFAULT.limit, DEFAULT.per), resource

    def check(self, method: str, path: str) -> Verdict:
        now = self.clock()
        rule, resource = self.rule_for(method, path)
        window = self._buckets.setdefault(
            (rule.bucket, resource), _Window(rule.limit, rule.per)
        )
        window.roll(now)
        headers = {"Via": VIA}
        if not rule.exempt_from_global:
            self._global.roll(now)
            if self._global.used >= self._global.limit:
                retry = round(self._global.reset_after(now), 3)
                headers.update({
                    "Retry-After": str(math.ceil(retry)), "X-RateLimit-Global": "true",
                    "X-RateLimit-Scope": "global",
                })
                body = {"message": "You are being rate limited.", "retry_after": retry,
                        "global": True}
                return Verdict(headers, body, "global")
        refused = window.used >= window.limit
        if not refused:
            window.used += 1
            if not rule.exempt_from_global:
                self._global.used += 1
        reset_after = round(window.reset_after(now), 3)
        headers.update({
            "X-RateLimit-Limit": str(window.limit),
            "X-RateLimit-Remaining": str(window.limit - window.used),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": rule.bucket,
        })
        if not refused:
            return Verdict(headers)
        headers.update({"Retry-After": str(math.ceil(reset_after)), "X-RateLimit-Scope": "user"})
        body = {"message": "You are being rate limited.", "retry_after": reset_after,
                "global": False}
        return Verdict(headers, body, "user")


__all__ = ["GLOBAL_LIMIT", "RULES", "VIA", "RateLimiter", "Rule", "Verdict"]
