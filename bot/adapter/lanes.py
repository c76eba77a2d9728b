"""A lane: requests run one after another by one task (a table's direct messages).

:class:`bot.adapter.presenter.DiscordPresenter` keeps one per table, so a slow or
refused DM delays only that table's other DMs, never its channel or another table.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable

log = logging.getLogger("bot.adapter.presenter")

__all__ = ["Lane"]


class Lane:
    """Requests run one after another by one task (a table's DMs)."""

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
                log.exception("%s: a direct message failed", self.name)
