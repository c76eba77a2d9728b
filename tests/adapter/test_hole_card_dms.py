"""Hole cards by DM (bot/adapter/hole_card_dms.py) through the offline Discord: the DM by
default, none for a "panel only" player, and closed DMs told once, pointing at My seat."""

from __future__ import annotations

import pytest

from bot.i18n.cards import written
from bot.render import sort_hole
from tests.cogs.test_table import PAUSE, open_table, seat_three
from tests.conftest import Harness

pytestmark = pytest.mark.asyncio


@pytest.fixture
def bot_extensions() -> tuple[str, ...]:
    return ("cogs.errors", "cogs.economy", "cogs.table", "cogs.actions", "cogs.prefs")


async def test_the_dm_by_default_and_none_for_panel_only(harness: Harness) -> None:
    """alice and carol get their picture with its description and the cards in words;
    bob chose "panel only": no DM, no request to his DMs at all."""
    h = harness
    await h.slash(h.bob, "prefs", hole_cards="request")
    await seat_three(h)
    table = h.bot.registry.in_channel(h.channel.id)
    for actor in (h.alice, h.carol):
        [dm] = h.dms(actor)
        hole = written(sort_hole(table.hole_cards(actor.id).cards))
        assert dm.content.endswith(f"Your cards: {hole}"), dm.content
        [picture] = dm.attachments
        assert "Your cards: " in picture.description and picture.description.startswith(
            "Table 1 · Hand #1")
    assert not h.dms(h.bob)
    assert not [r for r in h.requests("POST", "/users/@me/channels")
                if (r.json or {}).get("recipient_id") in (h.bob.id, str(h.bob.id))]


async def test_closed_dms_are_told_once_to_press_my_seat(harness: Harness) -> None:
    h = harness
    await open_table(h)
    h.close_dms(h.carol)
    for actor in (h.alice, h.bob, h.carol):
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)
    told = [m.content for m in h.public_messages()
            if f"<@{h.carol.id}>, I cannot send you direct messages" in m.content]
    assert len(told) == 1 and "press **My seat** under the table" in told[0], told
