"""When a turn message gets a new table picture (bot/adapter/pictures.py).

The gate's arithmetic with a hand-driven clock, then the ``auto`` mode through the
offline Discord: a new picture every turn while the renders keep up, the street's
picture again while they are queued up, a new one as soon as the queue is short.
"""

from __future__ import annotations

import asyncio
import hashlib
import io

from PIL import Image

from bot.adapter.pictures import PICTURE_WAIT, PictureMode, RenderGate, TablePictures, render_gate
from bot.engine.cards import Card
from bot.render import PotView, SeatView, TableView
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


def street_view(street: str, board: str, bet: int = 0) -> TableView:
    seats = (SeatView(1, "Ann", 980 - bet, bet=bet, cards=4), SeatView(2, "Bob", 1_000, cards=4))
    return TableView(table_name="#poker", hand_number=3, max_seats=6, seats=seats,
                     board=tuple(Card.parse(c) for c in board.split()), pots=(PotView(40),),
                     button=1, to_act=2, street=street)


class Busy:
    """Every render slot taken by slow renders, until ``done()``."""

    def __init__(self, gate: RenderGate) -> None:
        self.release = asyncio.Event()
        self.tasks = [asyncio.create_task(self._hold(gate)) for _ in range(gate.slots)]

    async def _hold(self, gate: RenderGate) -> None:
        async with gate.slot():
            await self.release.wait()

    async def done(self) -> None:
        self.release.set()
        await asyncio.gather(*self.tasks)


async def settle(gate: RenderGate) -> None:
    for _ in range(1000):
        if gate.pending == 0:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the renders did not finish")


async def test_far_behind_a_street_goes_out_bare_and_its_picture_follows() -> None:
    """``auto`` with every slot taken: the flop's first message has no picture and does not
    wait; the flop is drawn once meanwhile and the next flop message carries it. A street
    still waiting to be drawn when the table has moved on is never drawn."""
    gate, pictures = render_gate(), TablePictures(lambda: PictureMode.AUTO)
    busy = Busy(gate)
    await asyncio.sleep(0)
    gate.average = 1.0
    flop = "Ah Kd 7c"
    assert await pictures.for_view(street_view("Flop", flop)) is None
    assert await pictures.for_view(street_view("Flop", flop, bet=20)) is None
    await asyncio.sleep(0)
    assert gate.pending == gate.slots + 1  # one drawing of the flop queued, not two
    await busy.done()
    await settle(gate)
    assert gate.renders == gate.slots + 1 and pictures.street is not None
    drawn = pictures.street[1]
    busy = Busy(gate)
    await asyncio.sleep(0)
    gate.average = 1.0
    assert await pictures.for_view(street_view("Flop", flop, bet=40)) == drawn
    assert await pictures.for_view(street_view("Turn", flop + " 2s")) is None
    assert await pictures.for_view(street_view("River", flop + " 2s 9h")) is None
    before = gate.renders
    await busy.done()
    await settle(gate)
    assert gate.renders == before + gate.slots + 1, "the turn was drawn after the river came"
    assert pictures.street is not None and pictures.street[0][1] == "River"
    with Image.open(io.BytesIO(pictures.street[1])) as image:
        assert image.format == "PNG"


async def test_turn_draws_every_view_and_street_once_a_street() -> None:
    gate = render_gate()
    for mode, drawn in ((PictureMode.TURN, 2), (PictureMode.STREET, 1)):
        pictures, before = TablePictures(lambda mode=mode: mode), gate.renders  # type: ignore[misc]
        first = await pictures.for_view(street_view("Flop", "Ah Kd 7c"))
        again = await pictures.for_view(street_view("Flop", "Ah Kd 7c", bet=20))
        assert first is not None and again is not None
        assert gate.renders - before == drawn and (first == again) is (drawn == 1)


async def test_through_discord_the_flop_goes_out_bare_when_renders_are_far_behind(
    harness: Harness,
) -> None:
    """Every render slot taken during the preflop: its turn messages carry the preflop's
    picture again, and the flop's first one goes out at once without a picture (its text
    names the flop); the flop's picture, drawn once the slots free up, is on the flop's
    next turn message."""
    h = harness
    h.bot.presenter.pictures = PictureMode.AUTO
    await seat_three(h)
    gate = render_gate()
    preflop = await h.png(turn_message(h))
    while True:
        busy = Busy(gate)
        await asyncio.sleep(0)
        gate.average = 1.0
        await call(h)
        prompt = turn_message(h)
        if "· Flop ·" in prompt.content:
            break
        assert await h.png(prompt) == preflop
        await busy.done()
        await settle(gate)
    assert not prompt.attachments
    await busy.done()
    await settle(gate)
    busy = Busy(gate)
    await asyncio.sleep(0)
    gate.average = 1.0
    await call(h)
    carried = turn_message(h)
    assert carried.id != prompt.id and "· Flop ·" in carried.content
    assert await h.png(carried) != preflop
    await busy.done()
