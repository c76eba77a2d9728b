"""What the table's events become on Discord (bot/adapter/presenter.py), through the offline
Discord: here, the time bank starting (RULES.md 8)."""

from __future__ import annotations

import re

import pytest

from tests.adapter.test_hearing import BANK, CLOCK, deadline_of, deal_three
from tests.cogs.test_table import turn_message
from tests.conftest import Harness

pytestmark = pytest.mark.asyncio


@pytest.fixture
def bot_extensions() -> tuple[str, ...]:
    return ("cogs.errors", "cogs.economy", "cogs.table", "cogs.actions")


async def test_the_deadline_moves_when_the_time_bank_starts(harness: Harness) -> None:
    """The clock runs out: the same turn message (one edit, no new post) says the player
    is using their time bank, and its ``<t:…:R>`` is the bank's end, not a moment past;
    the bank to come is no longer added."""
    h = harness
    await deal_three(h, clock=CLOCK, time_bank=BANK)
    turn = turn_message(h)
    assert deadline_of(h) == int(h.clock() + CLOCK) and f"(+{BANK} s time bank)" in turn.content
    posts = len(h.requests("POST"))
    edits = len(h.requests("PATCH"))
    await h.advance(CLOCK + 0.5)
    message = turn_message(h)
    assert message.id == turn.id and len(h.requests("POST")) == posts
    assert len(h.requests("PATCH")) == edits + 1
    assert "is using their time bank (30 s)" in message.content, message.content
    assert deadline_of(h) == int(h.clock() - 0.5 + BANK)
    assert "time bank)" not in message.content.replace("time bank (30 s)", "")
    assert len(re.findall(r"<t:\d+:R>", message.content)) == 1
