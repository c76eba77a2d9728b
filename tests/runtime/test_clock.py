"""The fake clock used by the runtime tests."""

from __future__ import annotations

import asyncio

from bot.runtime.clock import FakeClock, LoopClock


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


async def test_wait_for_an_answer_or_the_time_on_either_clock() -> None:
    """``wait_for`` ends with the answer (True) or when the time has passed (False), and
    never cancels the answer it waited on."""
    fake = FakeClock()
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[int] = loop.create_future()
    waiting = asyncio.ensure_future(fake.wait_for(answer, 15))
    await fake.advance(14)
    assert not waiting.done()
    answer.set_result(1)
    await fake.settle()
    assert waiting.result() is True
    silent: asyncio.Future[int] = loop.create_future()
    waiting = asyncio.ensure_future(fake.wait_for(silent, 15))
    await fake.advance(15)
    assert waiting.result() is False and not silent.cancelled()
    assert await LoopClock().wait_for(silent, 0.01) is False and not silent.cancelled()
    silent.set_result(2)
    assert await LoopClock().wait_for(silent, 1) is True
