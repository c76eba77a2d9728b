"""A table's DM lane (bot/adapter/lanes.py): one job after another; a failure stops none."""

from __future__ import annotations

import asyncio

from bot.adapter.lanes import Lane


async def test_jobs_run_in_order_and_a_failing_one_does_not_stop_the_next() -> None:
    done: list[int] = []
    lane = Lane("table-1-dms")

    def job(n: int):  # type: ignore[no-untyped-def]
        async def run() -> None:
            await asyncio.sleep(0)
            if n == 2:
                raise RuntimeError("refused")
            done.append(n)
        return run

    for n in (1, 2, 3):
        lane.run(job(n))
    for _ in range(20):
        await asyncio.sleep(0)
    assert done == [1, 3]


async def test_stop_drops_what_waits() -> None:
    started = asyncio.Event()
    done: list[str] = []
    lane = Lane("table-2-dms")

    async def slow() -> None:
        started.set()
        await asyncio.sleep(3600)

    async def later() -> None:
        done.append("later")

    lane.run(slow)
    lane.run(later)
    await started.wait()
    lane.stop()
    for _ in range(5):
        await asyncio.sleep(0)
    assert done == []
