"""bot/adapter/polite.py: what an interaction's failure becomes."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import pytest

from bot.adapter.polite import report


async def test_an_interaction_cut_short_by_the_shutdown_is_one_quiet_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """While the bot closes, an interaction whose request failed on the closed session is
    logged in one line without a traceback, and nothing is sent (there is no session to
    send it with). Any attempt to answer it would fail on this bare object."""
    interaction: Any = SimpleNamespace(client=SimpleNamespace(shutting_down=True))
    with caplog.at_level(logging.INFO, logger="bot.adapter.polite"):
        await report(interaction, RuntimeError("Session is closed"))
    [record] = caplog.records
    assert record.levelno == logging.INFO and record.exc_info is None
    assert "cut short by the shutdown (RuntimeError: Session is closed)" in record.getMessage()


async def test_a_bug_outside_the_shutdown_is_still_an_error() -> None:
    interaction: Any = SimpleNamespace(client=SimpleNamespace(shutting_down=False))
    with pytest.raises(AttributeError):  # it goes on to describe and answer the error
        await report(interaction, RuntimeError("boom"))
