"""The async wrappers run the rendering in a worker thread or process; a replay only ever
in a process of its own."""

from __future__ import annotations

import asyncio
import threading

import pytest

import bot.render.replay
from bot import render
from bot.render import samples
from bot.runtime.replay_frames import replay_view
from tests.runtime.replay_hands import busy, play


async def test_async_wrappers_return_the_same_png_as_the_sync_functions() -> None:
    """Each *_async function gives exactly the bytes of its sync twin."""
    assert await render.render_table_async(samples.full_table()) == render.render_table(
        samples.full_table())
    assert await render.render_hole_cards_async(samples.hole_cards(), "light") == (
        render.render_hole_cards(samples.hole_cards(), "light"))
    assert await render.render_showdown_async(samples.showdown()) == render.render_showdown(
        samples.showdown())
    assert await render.render_leaderboard_async(samples.leaderboard()) == (
        render.render_leaderboard(samples.leaderboard()))


async def test_rendering_runs_off_the_event_loop_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """The render function runs in another thread while the loop keeps ticking."""
    seen: list[int] = []
    real = render.render_table

    def spy(*args: object) -> bytes:
        seen.append(threading.get_ident())
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(render, "render_table", spy)
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    task = asyncio.create_task(ticker())
    png = await render.render_table_async(samples.full_table())
    task.cancel()
    assert png.startswith(b"\x89PNG")
    assert seen and seen[0] != threading.get_ident()
    assert ticks > 1


async def test_pictures_drawn_in_render_processes_and_a_killed_one_is_replaced() -> None:
    """With :func:`render.use_processes` the pictures come from another process, byte for
    byte the sync ones; a worker killed (as the kernel may when memory runs out) costs no
    picture: that one is drawn in a thread and the pool is started again."""
    import os
    import signal

    render.use_processes(1)
    try:
        pool = render._pool
        assert pool is not None
        view = samples.full_table()
        assert await render.render_table_async(view) == render.render_table(view)
        workers = list(pool._processes)  # type: ignore[attr-defined]
        assert len(workers) == 1 and workers[0] != os.getpid()
        assert render.render_processes() == 1
        # a lower priority than the bot's: the event loop answers Discord first
        expected = min(19, os.nice(0) + render.RENDER_NICENESS)
        assert pool.submit(os.nice, 0).result() == expected
        os.kill(workers[0], signal.SIGKILL)
        await asyncio.sleep(0.2)
        assert await render.render_hole_cards_async(samples.hole_cards()) == (
            render.render_hole_cards(samples.hole_cards()))
        assert render._pool is not None and render._pool is not pool
        assert await render.render_table_async(view) == render.render_table(view)
    finally:
        render.stop_processes()
    assert render._pool is None and render.render_processes() == 0


async def test_render_processes_exit_when_the_bot_is_killed() -> None:
    """A bot killed with SIGKILL leaves no render process behind (they would keep its
    memory and its stdout forever): each one watches the bot and exits after it."""
    import os
    import signal
    import sys

    code = (
        "import os, sys, time\n"
        "from bot import render\n"
        "from bot.render import samples\n"
        "render.use_processes(2)\n"
        "render._pool.submit(render.render_table, samples.full_table()).result()\n"
        "print(*render._pool._processes, flush=True)\n"
        "time.sleep(600)\n"
    )
    bot = await asyncio.create_subprocess_exec(
        sys.executable, "-c", code, stdout=asyncio.subprocess.PIPE
    )
    assert bot.stdout is not None
    workers = [int(pid) for pid in (await bot.stdout.readline()).split()]
    assert len(workers) == 2 and all(render._alive(pid) for pid in workers)
    bot.kill()
    await bot.wait()
    for _ in range(200):  # they check every WATCH_EVERY seconds
        if not any(render._alive(pid) for pid in workers):
            break
        await asyncio.sleep(0.05)
    leftover = [pid for pid in workers if render._alive(pid)]
    for pid in leftover:  # fail, but leave no process behind holding the pipe
        os.kill(pid, signal.SIGKILL)
    assert not leftover, leftover
    assert await bot.stdout.read() == b""  # nobody holds the bot's stdout any more


def _replay() -> render.ReplayView:
    past = play(4, policy=busy, seed=2)
    return replay_view(past, {s: f"p{s}" for s in range(1, 5)}, 1)


async def test_a_replay_is_drawn_in_a_process_of_its_own_never_in_the_bots(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With or without render processes: this process's drawing of a frame is broken
    here, and the replay still comes, byte for byte the one drawn in process."""
    view = _replay()
    expected = render.render_replay(view)

    def broken(*args: object) -> None:
        raise AssertionError("a replay frame drawn in the bot's process")

    monkeypatch.setattr(bot.render.replay, "draw_frame", broken)
    assert render.render_processes() == 0
    assert await render.render_replay_async(view) == expected
    render.use_processes(1)
    try:
        assert await render.render_replay_async(view) == expected
    finally:
        render.stop_processes()
    assert render.drawing_alone() == ()  # each process gone after its replay


async def test_a_replay_whose_process_dies_fails_and_is_not_drawn_here(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import os
    import signal

    past = play(10, variant="omaha_hilo", policy=busy, twice=True, seed=3)
    view = replay_view(past, {s: f"p{s}" for s in range(1, 11)}, 1)  # about a second
    monkeypatch.setattr(bot.render.replay, "draw_frame", None)  # never called here
    drawing = asyncio.create_task(render.render_replay_async(view))
    for _ in range(500):
        if render.drawing_alone() or drawing.done():
            break
        await asyncio.sleep(0.01)
    [pid] = render.drawing_alone()
    assert pid != os.getpid()
    os.kill(pid, signal.SIGKILL)
    with pytest.raises(render.RenderFailed):
        await drawing
    assert render.drawing_alone() == ()


async def test_a_replay_too_large_says_so_across_the_process() -> None:
    with pytest.raises(render.TooLarge) as raised:
        await render.render_replay_async(_replay(), limit=5000)
    assert raised.value.limit == 5000 and raised.value.size > 5000
