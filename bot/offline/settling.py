"""Two rules added to simcord's settling; applied once, when this module is imported.

* A task blocked in an asyncio primitive (``Queue.get``, ``Event.wait``,
  ``Condition.wait``, ``Lock.acquire``, ``Semaphore.acquire``) whose wake-up
  has not been delivered is idle (the database's writer, the tables' loops).
* A task waiting for a timer at least :data:`VIRTUAL_TIMER_MIN` away is
  parked, and that timer fires only when virtual time is advanced, never by
  the wall clock.

Why: see :mod:`bot.offline`. These functions replace private functions of
``simcord._settlement``, which is why simcord is pinned to an exact version.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from simcord import _settlement

#: Timed waits at least this long fire only through ``Harness.advance`` (never by
#: the wall clock); shorter ones (retries, tiny pauses) run in real time.
VIRTUAL_TIMER_MIN = 1.0

_IDLE_WAITS = {
    asyncio.Queue.get.__code__: "asyncio.Queue.get",
    asyncio.Event.wait.__code__: "asyncio.Event.wait",
    asyncio.Condition.wait.__code__: "asyncio.Condition.wait",
    asyncio.Lock.acquire.__code__: "asyncio.Lock.acquire",
    asyncio.Semaphore.acquire.__code__: "asyncio.Semaphore.acquire",
}

# simcord._settlement is simcord's private module (no public hooks): pinned version.
_simcord_park_reason: Callable[..., str | None] = _settlement._park_reason
_simcord_recognized_wait: Callable[..., bool] = _settlement._recognized_wait


def _innermost_code(task: asyncio.Task[Any]) -> Any:
    """The code object of the coroutine at the bottom of ``task``'s await chain."""
    coro: Any = task.get_coro()
    code = None
    while coro is not None:
        code = getattr(coro, "cr_code", None) or getattr(coro, "gi_code", None)
        inner = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
        if inner is None or not (hasattr(inner, "cr_code") or hasattr(inner, "gi_code")):
            break
        coro = inner
    return code


def _long_timed_wait(state: Any, task: asyncio.Task[Any], waiter: Any) -> bool:
    """The task waits for a timer (sleep, wait_for, asyncio.timeout) >= VIRTUAL_TIMER_MIN away."""
    if waiter is None or waiter.done():
        return False
    return any(
        record.when - state.virtual_time >= VIRTUAL_TIMER_MIN
        for record in _settlement._timer_records_waking(state, task, waiter)
    )


# ``self`` (simcord's settlement state) keeps simcord's parameter names, as a replacement must.
def park_reason(
    self: Any, task: asyncio.Task[Any], deadline: float, seen: set[int] | None = None
) -> str | None:
    """simcord's rule, plus: blocked in an asyncio primitive with no wake-up pending = idle."""
    reason = _simcord_park_reason(self, task, deadline, seen)
    if reason is None and not task.done():
        waiter = getattr(task, "_fut_waiter", None)
        if waiter is not None and not waiter.done():
            name = _IDLE_WAITS.get(_innermost_code(task))
            if name is not None:
                return f"idle on {name}"
            if _long_timed_wait(self, task, waiter):
                return "timer (fires on Harness.advance)"
    return reason


def recognized_wait(self: Any, task: asyncio.Task[Any], waiter: Any) -> bool:
    """simcord's recognized waits, plus long timed waits (their real fallback is dropped)."""
    return _simcord_recognized_wait(self, task, waiter) or _long_timed_wait(self, task, waiter)


_settlement._park_reason = park_reason
_settlement._recognized_wait = recognized_wait
