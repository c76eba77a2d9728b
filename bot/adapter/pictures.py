"""When a table gets a new picture: the render gate and the picture modes.

Every table picture (turns, streets, showdowns) is drawn through one
:class:`RenderGate` per event loop (hole cards are not: a player's cards never
wait behind table pictures): a few renders at once over all
tables (:func:`render_gate`), the others wait their turn. The gate also knows
whether the renders keep up: it keeps a running average of how long a render
holds its slot, so ``expected_wait()`` says how long a new render would wait
before it even starts.

Three modes (``TABLE_PICTURES``, :class:`PictureMode`):

* ``turn``: every turn message gets a new picture (its bets and stacks exact).
* ``street``: a new picture at each street change and at the hand's end; a
  turn message in the same street carries the street's picture again.
* ``auto`` (the default): a new picture every turn **while the renders keep
  up**; when a new one would wait longer than :data:`PICTURE_WAIT` behind
  the others (a busy evening), the turn message carries its street's picture
  again, as ``street`` does, until the queue is short again; at a street
  change the message goes out without a picture while the street's is drawn
  (:class:`TablePictures`). A picture never shows a stale board, only the bets
  and stacks as the street began (the message's text always has them all).
  The showdown pictures are always drawn.

Decision: 0.25 s of expected wait. Discord shows a turn within about a second
of the click at best (the target is 1 s at p95 from the click to the next
prompt), and a render on this machine takes 10-50 ms under load: a quarter of
a second means several tables' worth of renders are queued already.
"""

from __future__ import annotations

import asyncio
import enum
import time
from collections.abc import Callable
from typing import Any

from bot.render import TableView, render_processes, render_table_async

__all__ = [
    "PICTURE_WAIT", "RENDERS_AT_ONCE", "PictureMode", "RenderGate", "TablePictures", "render_gate",
]

#: Pictures rendered at once over all tables when they are drawn in threads.
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
        self.semaphore = asyncio.Semaphore(slots)  # the slots, taken and given back by _Slot
        self.pending = 0  # renders holding a slot or waiting for one
        self.average = 0.0  # seconds a render holds its slot (running average)
        self.renders = 0  # slots held to the end so far
        #: Told the seconds each render held its slot (the metrics' histogram).
        self.on_render: Callable[[float], None] | None = None

    def expected_wait(self) -> float:
        """Seconds a render asked now would wait before it starts (0: a slot is free)."""
        ahead = self.pending - self.slots + 1
        return max(0, ahead) * self.average / self.slots

    def keeps_up(self) -> bool:
        return self.expected_wait() <= PICTURE_WAIT

    def slot(self) -> _Slot:
        """``async with gate.slot():`` holds one render slot for its body, timing it."""
        return _Slot(self)


class _Slot:
    """One render slot (a class, not an ``asynccontextmanager``: a task waiting here shows
    ``Semaphore.acquire`` at the bottom of its await chain, which the offline Discord's
    settling recognizes as idle)."""

    __slots__ = ("gate", "start")

    def __init__(self, gate: RenderGate) -> None:
        self.gate = gate
        self.start = 0.0

    async def __aenter__(self) -> None:
        gate = self.gate
        gate.pending += 1
        try:
            await gate.semaphore.acquire()
        except BaseException:
            gate.pending -= 1
            raise
        self.start = gate.clock()

    async def __aexit__(self, *exc: object) -> None:
        gate = self.gate
        held = gate.clock() - self.start
        gate.average += _SMOOTHING * (held - gate.average)
        if gate.on_render is not None:
            gate.on_render(held)
        gate.renders += 1
        gate.pending -= 1
        gate.semaphore.release()


_GATES: dict[asyncio.AbstractEventLoop, RenderGate] = {}


def render_gate() -> RenderGate:
    """The gate of renders on the running loop (one loop at a time: tests run one per test).

    In threads, :data:`RENDERS_AT_ONCE`. In render processes, two per process: a slot
    is held until the event loop resumes the render's task, so under load each slot's
    time includes the loop's lag; with one render queued behind each running one the
    processes never wait for the loop (500 tables, bench/README.md: with 2 slots for
    2 processes they drew 0.49 cores' worth while most turn messages went out bare).
    """
    loop = asyncio.get_running_loop()
    gate = _GATES.get(loop)
    if gate is None:
        _GATES.clear()
        gate = _GATES[loop] = RenderGate(max(RENDERS_AT_ONCE, 2 * render_processes()))
    return gate


Street = tuple[Any, ...]  # (hand number, street, board): what a street picture shows


class TablePictures:
    """One table's live pictures: the last street's, and a street picture being drawn.

    ``auto`` when the renders do not keep up even at a street change: the turn
    message goes out at once **without a picture** (its text names the board)
    and the street's picture is drawn meanwhile, for the next turn messages of
    that street; a drawing still waiting when the table has moved on to another
    street is dropped, never drawn (the queue sheds what nobody will see).
    """

    def __init__(self, mode: Callable[[], PictureMode]) -> None:
        self.mode = mode
        self.street: tuple[Street, bytes] | None = None  # the last street picture drawn
        self.now: Street | None = None  # the street the table is in
        self._drawing: tuple[Street, asyncio.Task[bytes | None]] | None = None

    async def for_view(self, view: TableView) -> bytes | None:
        """The live message's picture for ``view``: drawn now, the street's again, or none
        yet (``auto``, renders far behind: the street's is being drawn)."""
        street = self._enter(view)
        last, mode = self.street, self.mode()
        if mode is PictureMode.TURN or any(p.winners for p in view.pots):
            return await self._draw(street, view, shed=False)
        behind = mode is PictureMode.STREET or not render_gate().keeps_up()
        if last is not None and last[0] == street and behind:
            return last[1]  # the same street: its picture again (bets as it began)
        if mode is PictureMode.AUTO and behind:
            self._draw_later(street, view)
            return None
        return await self._draw(street, view, shed=False)

    async def draw_now(self, view: TableView) -> bytes:
        """A picture that must be drawn (an all-in run-out's street), now."""
        png = await self._draw(self._enter(view), view, shed=False)
        assert png is not None
        return png

    def stop(self) -> None:
        if self._drawing is not None:
            self._drawing[1].cancel()
            self._drawing = None

    def _enter(self, view: TableView) -> Street:
        """The street ``view`` shows, now the table's."""
        self.now = (view.hand_number, view.street, view.board)
        return self.now

    def _draw_later(self, street: Street, view: TableView) -> None:
        if self._drawing is not None and self._drawing[0] == street:
            return  # already on its way
        self.stop()
        task = asyncio.get_running_loop().create_task(self._draw(street, view, shed=True))
        self._drawing = (street, task)

    async def _draw(self, street: Street, view: TableView, *, shed: bool) -> bytes | None:
        async with render_gate().slot():
            if shed and self.now != street:
                return None  # the table has moved on: nobody would see it
            png = await render_table_async(view)
        self.street = (street, png)
        return png
