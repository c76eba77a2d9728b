"""The Discord side's memories are bounded (bot.adapter.bounded): a long night does not
grow them for ever."""

from __future__ import annotations

from typing import Any

from bot.adapter.bounded import REMEMBERED, Recent
from bot.adapter.closed_dms import ClosedDms
from bot.adapter.presenter import DiscordPresenter


def test_recent_keeps_the_newest_written() -> None:
    recent: Recent[int, str] = Recent(3)
    for key in (1, 2, 3):
        recent[key] = f"v{key}"
    recent[1] = "again"  # written again: the newest
    recent[4] = "v4"
    assert list(recent) == [3, 1, 4] and recent[1] == "again"
    assert 2 not in recent and len(recent) == 3


async def test_refused_dms_are_remembered_for_the_last_users_only() -> None:
    """A refusal forgotten past the bound costs one DM tried again, no more."""
    closed = ClosedDms()
    for user in range(REMEMBERED + 10):
        closed.refused(user)
    assert 0 not in closed and 9 not in closed
    assert 10 in closed and REMEMBERED + 9 in closed


def test_the_users_languages_and_the_lost_tables_are_bounded() -> None:
    bot: Any = object()
    presenter = DiscordPresenter(bot)
    for user in range(REMEMBERED + 5):
        presenter.remember_locale(user, "it")
    assert len(presenter.locales) == REMEMBERED and 0 not in presenter.locales
    for table in range(REMEMBERED + 5):
        presenter.forget(table)
    assert len(presenter.lost_tables) == REMEMBERED and 0 not in presenter.lost_tables
