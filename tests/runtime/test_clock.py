"""The fake clock used by the runtime tests."""

from __future__ import annotations

import asyncio

from bot.runtime.clock import FakeClock


async def test_fake_clock_wakes_sleepers_in_deadline_order() -> None:
    """Sleepers wake when time passes their deadline, earliest first, and not before."""
    clock = FakeClock()
    woke: list[tuple[str, float]] = []

    async def sleeper(name: str, seconds: float) -> None:
        await clock.sleep(seconds)
        woke.append((name, clock.now()))

    tasks = [asyncio.create_task(sleeper("late", 10)), asyncio.create_task(sleeper("early", 3))]
    await clock.advance(2)
    assert woke == []
    await clock.advance(8)
    assert woke == [("early", 3), ("late", 10)]
    await asyncio.gather(*tasks)


async def test_cancelled_sleepers_are_skipped() -> None:
    """A cancelled sleep does not block the clock or wake anything."""
    clock = FakeClock()
    task = asyncio.create_task(clock.sleep(5))
    await clock.settle()
    task.cancel()
    await clock.advance(6)
    assert task.cancelled() and clock.pending == 0 and clock.now() == 6
