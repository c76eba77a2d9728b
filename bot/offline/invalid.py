"""Discord's count of invalid requests, kept by the offline Discord (applied on import).

Discord counts every answer 401, 403 and 429 as an invalid request, and bans the
bot's IP for a while past 10,000 of them in 10 minutes (Discord's "Rate Limits"
page, "Invalid Request Limit"; a 429 of a shared bucket does not count, and
simcord has no rate limits). simcord refuses with those statuses (closed DMs,
missing permissions, expired tokens) but keeps no count: this wraps its router's
``dispatch`` so that every refusal of the kind is recorded per backend, and
:func:`invalid_requests` (``Harness.invalid_requests``) lets a test bound them.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from simcord.backend.errors import BackendError
from simcord.http import router as _router

__all__ = ["INVALID_STATUSES", "Invalid", "invalid_requests"]

#: The statuses Discord counts as invalid requests.
INVALID_STATUSES = frozenset({401, 403, 429})


@dataclass(frozen=True)
class Invalid:
    """One invalid request: its answer's status and code, and what was asked."""

    status: int
    code: int
    method: str
    path: str


_counts: weakref.WeakKeyDictionary[Any, list[Invalid]] = weakref.WeakKeyDictionary()
_simcord_dispatch: Callable[..., Any] = _router.dispatch


def invalid_requests(backend: Any) -> list[Invalid]:
    """Every invalid request the bot made to ``backend`` (a simcord backend), in order."""
    return _counts.setdefault(backend, [])


def dispatch(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
    """simcord's router, counting the refusals Discord counts as invalid requests."""
    try:
        return _simcord_dispatch(backend, method, path, **kwargs)
    except BackendError as exc:
        if exc.status in INVALID_STATUSES:
            invalid_requests(backend).append(Invalid(exc.status, exc.code, method, path))
        raise


_router.dispatch = dispatch
