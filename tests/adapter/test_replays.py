"""The replays' cache: a replay drawn once per hand, seat and language, however many ask,
kept within its bytes (least recently sent out first); a failure is not kept."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable

import pytest
from PIL import Image

from bot.adapter.replays import ReplayKey, Replays
from bot.render import ReplayView
from bot.runtime.replay_frames import replay_view
from tests.runtime.replay_hands import calling, play

PAST = play(4, policy=calling, seed=4)
NAMES = {s: f"p{s}" for s in range(1, 5)}


def _plan(seat: int | None, locale: str = "en") -> ReplayView:
    return replay_view(PAST, NAMES, seat, locale)


def _planner(seat: int | None, locale: str = "en",
             calls: list[int] | None = None) -> Callable[[], Awaitable[ReplayView]]:
    async def plan() -> ReplayView:
        if calls is not None:
            calls.append(1)
        return _plan(seat, locale)
    return plan


async def test_a_replay_asked_for_again_or_meanwhile_is_drawn_once(render_server: None) -> None:
    replays = Replays()
    calls: list[int] = []
    key = ReplayKey(50, 2, "en")
    first, second = await asyncio.gather(replays.gif(key, _planner(2, calls=calls)),
                                         replays.gif(key, _planner(2, calls=calls)))
    third = await replays.gif(key, _planner(2, calls=calls))
    assert first == second == third and first.startswith(b"GIF89a")
    assert replays.drawn == 1 and len(calls) == 1
    assert replays.size == len(first)


async def test_each_seat_and_language_is_its_own_replay(render_server: None) -> None:
    """A seat's replay shows its own cards beside the caption; nobody else's is that one
    (None: only the hands shown down, as a public replay or a railbird sees it)."""
    replays = Replays()
    gifs = {key: await replays.gif(key, _planner(key.seat, key.locale))
            for key in (ReplayKey(50, 1, "en"), ReplayKey(50, 2, "en"), ReplayKey(50, None, "en"),
                        ReplayKey(50, None, "it"))}
    assert replays.drawn == 4 and len(set(gifs.values())) == 4


async def test_the_cache_keeps_its_bytes_dropping_the_least_recently_sent(
    render_server: None,
) -> None:
    sizes = [len(await Replays().gif(ReplayKey(50, s, "en"), _planner(s))) for s in (1, 2, 3)]
    replays = Replays(limit=sizes[0] + sizes[1] + sizes[2] // 2)
    one, two, three = (ReplayKey(50, s, "en") for s in (1, 2, 3))
    await replays.gif(one, _planner(1))
    await replays.gif(two, _planner(2))
    await replays.gif(one, _planner(1))  # sent again: now the most recent
    await replays.gif(three, _planner(3))
    assert list(replays.kept) == [one, three] and replays.size <= replays.limit
    assert replays.drawn == 3
    await replays.gif(two, _planner(2))  # dropped: drawn again
    assert replays.drawn == 4


async def test_a_replay_that_failed_is_not_kept(render_server: None) -> None:
    replays = Replays()
    key = ReplayKey(50, 1, "en")

    async def broken() -> ReplayView:
        raise RuntimeError("the plan failed")

    with pytest.raises(RuntimeError):
        await replays.gif(key, broken)
    assert not replays.kept and replays.drawn == 0
    gif = await replays.gif(key, _planner(1))
    assert Image.open(io.BytesIO(gif)).n_frames == len(_plan(1).frames)
