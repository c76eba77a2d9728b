"""A lane: requests run one after another by one task (a table's direct messages, or
its players' seat panels).

:class:`bot.adapter.presenter.DiscordPresenter` keeps one per table for its DMs and
:class:`bot.adapter.seat_panel.SeatPanels` one per table for its panels' edits, so a
slow or refused request delays only that table's others of its kind, never its channel
or another table.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable

log = logging.getLogger("bot.adapter.presenter")

__all__ = ["Lane"]


class Lane:
    """Requests run one after another by one task (a table's DMs, or its panels)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._jobs: deque[Callable[[], Awaitable[None]]] = deque()
        self._task: asyncio.Task[None] | None = None

    def run(self, job: Callable[[], Awaitable[None]]) -> None:
        self._jobs.append(job)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._drain(), name=self.name)

    def stop(self) -> None:
        self._jobs.clear()
        if self._task is not None and not self._task.done():
            self._task.cancel()

    async def _drain(self) -> None:
        while self._jobs:
            try:
                await self._jobs.popleft()()
            except Exception:
                log.exception("%s: a request failed", self.name)
