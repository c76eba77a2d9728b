"""When a table gets a new picture: the render gate and the picture modes.

Every table's picture is drawn through one :class:`RenderGate` per event loop:
at most :data:`RENDERS_AT_ONCE` renders at once over all tables (the machine's
cores), the others wait their turn. The gate also knows whether the renders
keep up: it keeps a running average of how long a render holds its slot, so
``expected_wait()`` says how long a new render would wait before it even starts.

Three modes (``TABLE_PICTURES``, :class:`PictureMode`):

* ``turn``: every turn message gets a new picture (its bets and stacks exact).
* ``street``: a new picture at each street change and at the hand's end; a
  turn message in the same street carries the street's picture again.
* ``auto`` (the default): a new picture every turn **while the renders keep
  up**; when a new one would wait longer than :data:`PICTURE_WAIT` behind
  the others (a busy evening), the turn message carries its street's picture
  again, as ``street`` does, until the queue is short again. The street
  changes and results are always drawn: the board is never stale, only the
  bets and stacks of a turn picture (the message's text always has them).

Decision: 0.25 s of expected wait. Discord shows a turn within about a second
of the click at best (the target is 1 s at p95 from the click to the next
prompt), and a render on this machine takes 10-50 ms under load: a quarter of
a second means several tables' worth of renders are queued already.
"""

from __future__ import annotations

import asyncio
import enum
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

__all__ = ["PICTURE_WAIT", "RENDERS_AT_ONCE", "PictureMode", "RenderGate", "render_gate"]

#: Table pictures rendered at once, over all tables (the machine's 2 cores).
RENDERS_AT_ONCE = 2
#: In ``auto`` mode, the longest a turn's new picture may be expected to wait for a slot.
PICTURE_WAIT = 0.25
#: Weight of the newest render in the running average of render times.
_SMOOTHING = 0.2


class PictureMode(enum.Enum):
    TURN = "turn"
    STREET = "street"
    AUTO = "auto"


class RenderGate:
    """At most ``slots`` renders at once; how long the next one would wait.

    Rendering runs in worker processes or threads; with many renders at once in
    threads the event loop waited for the GIL and acknowledgements got late
    (load benchmark at 200 tables: click ack p99 about 1.1 s with up to 6
    renders at once, 83 ms with 2; bench/README.md).
    """

    def __init__(
        self, slots: int = RENDERS_AT_ONCE, clock: Callable[[], float] = time.perf_counter
    ) -> None:
        self.slots = slots
        self.clock = clock
        self._sem = asyncio.Semaphore(slots)
        self.pending = 0  # renders holding a slot or waiting for one
        self.average = 0.0  # seconds a render holds its slot (running average)

    def expected_wait(self) -> float:
        """Seconds a render asked now would wait before it starts (0: a slot is free)."""
        ahead = self.pending - self.slots + 1
        return max(0, ahead) * self.average / self.slots

    def keeps_up(self) -> bool:
        return self.expected_wait() <= PICTURE_WAIT

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """Hold one render slot for the ``async with`` body, timing it."""
        self.pending += 1
        try:
            async with self._sem:
                start = self.clock()
                try:
                    yield
                finally:
                    took = self.clock() - start
                    self.average += _SMOOTHING * (took - self.average)
        finally:
            self.pending -= 1


_GATES: dict[asyncio.AbstractEventLoop, RenderGate] = {}


def render_gate() -> RenderGate:
    """The gate of table renders on the running loop (one loop at a time: tests run
    one per test)."""
    loop = asyncio.get_running_loop()
    gate = _GATES.get(loop)
    if gate is None:
        _GATES.clear()
        gate = _GATES[loop] = RenderGate()
    return gate


def reuse_street_picture(mode: PictureMode, same_street: bool) -> bool:
    """Whether a turn picture in the street whose picture is ``same_street`` (already
    drawn, no pot won in it) shows that picture again instead of a new one."""
    if not same_street or mode is PictureMode.TURN:
        return False
    return mode is PictureMode.STREET or not render_gate().keeps_up()
