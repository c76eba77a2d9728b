"""The async wrappers run the rendering in a worker thread."""

from __future__ import annotations

import asyncio
import threading

import pytest

import bot.render as render
from bot.render import samples


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
