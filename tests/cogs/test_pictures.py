"""When a turn message gets a new table picture (cogs/pictures.py).

The gate's arithmetic with a hand-driven clock, then the ``auto`` mode through the
offline Discord: a new picture every turn while the renders keep up, the street's
picture again while they are queued up, a new one as soon as the queue is short.
"""

from __future__ import annotations

import asyncio
import hashlib

from cogs.pictures import PICTURE_WAIT, PictureMode, RenderGate, render_gate
from tests.cogs.test_table import actor_of, seat_three, turn_message
from tests.conftest import Harness, buttons_of


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_the_gate_expects_a_wait_only_when_every_slot_is_taken() -> None:
    clock = Clock()
    gate = RenderGate(slots=2, clock=clock)
    async with gate.slot():
        clock.now += 0.4  # one render took 0.4 s
    assert gate.average > 0 and gate.expected_wait() == 0.0 and gate.keeps_up()
    gate.average = 0.4
    release = asyncio.Event()
    started = 0

    async def hold() -> None:
        nonlocal started
        async with gate.slot():
            started += 1
            await release.wait()

    holders = [asyncio.create_task(hold()) for _ in range(5)]
    await asyncio.sleep(0)
    assert (gate.pending, started) == (5, 2)  # two render, three wait
    # a new one waits for the three ahead and its own turn: 4 renders over 2 slots
    assert gate.expected_wait() == 4 * 0.4 / 2 > PICTURE_WAIT and not gate.keeps_up()
    release.set()
    await asyncio.gather(*holders)
    assert gate.pending == 0 and gate.keeps_up()


async def test_the_average_follows_the_renders() -> None:
    clock = Clock()
    gate = RenderGate(slots=1, clock=clock)
    for took in [1.0] * 30:
        async with gate.slot():
            clock.now += took
    assert abs(gate.average - 1.0) < 0.01
    for took in [0.01] * 30:
        async with gate.slot():
            clock.now += took
    assert gate.average < 0.02


def table_pictures(pictures: list[tuple[str, bytes]]) -> list[bytes]:
    return [hashlib.sha256(png).digest() for name, png in pictures if name.startswith("table-")]


async def call(h: Harness) -> None:
    turn = turn_message(h)
    labels = [str(b.label) for b in buttons_of(turn)]
    label = "Check" if "Check" in labels else next(x for x in labels if x.startswith("Call"))
    reply = await h.click(actor_of(h, turn), turn, label=label)
    assert reply.silent, reply


async def test_auto_draws_each_turn_unless_the_renders_queue_up(harness: Harness) -> None:
    """Preflop, three players: the first turn's picture is drawn; while every render
    slot is taken by slow renders the next turn message carries that picture again
    (and is not held up by the queue); once they are done the next turn is drawn anew."""
    h = harness
    h.bot.presenter.pictures = PictureMode.AUTO
    pictures: list[tuple[str, bytes]] = []
    h.bot.presenter.image_sink = lambda name, png: pictures.append((name, png))
    await seat_three(h)
    first = table_pictures(pictures)
    assert first, "the first turn has a picture"
    gate, release = render_gate(), asyncio.Event()

    async def slow_render() -> None:
        async with gate.slot():
            await release.wait()

    busy = [asyncio.create_task(slow_render()) for _ in range(gate.slots)]
    await asyncio.sleep(0)
    gate.average = 1.0  # renders have been taking a second each: they do not keep up
    prompt = turn_message(h)
    await call(h)
    assert turn_message(h).id != prompt.id, "the next turn was prompted without a render"
    queued = table_pictures(pictures)
    assert len(queued) == len(first) + 1 and queued[-1] == first[-1]
    release.set()
    await asyncio.gather(*busy)
    gate.average = 0.01
    await call(h)
    drawn = table_pictures(pictures)
    assert len(drawn) == len(queued) + 1 and drawn[-1] not in queued
