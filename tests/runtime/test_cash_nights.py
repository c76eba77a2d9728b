"""Cash game nights on the calendar, through the offline Discord: /schedule cash, its
Discord event live while the channel's table is open, cancelled, weekly, restarted."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import discord
import pytest

from tests.conftest import Harness

pytestmark = pytest.mark.asyncio

HOUR = 3600.0


@pytest.fixture
def bot_extensions() -> tuple[str, ...]:
    return ("cogs.errors", "cogs.economy", "cogs.table", "cogs.actions",
            "cogs.tournament", "cogs.schedule")


def events(h: Harness) -> list[object]:
    return list(h.env.backend.get_guild(h.guild.id).scheduled_events.values())


def texts(h: Harness) -> list[str]:
    return [m.content for m in h.public_messages()]


async def night(h: Harness, starts: str, **options: object) -> str:
    """Schedule a cash game night in #poker; its public announcement."""
    assert h.bot.registry is not None
    h.bot.registry.pause = 10.0
    reply = await h.slash(h.alice, "schedule cash", starts=starts, **options)
    assert not reply.ephemeral and "Cash game night #" in reply.text, reply
    await h.bot.guild_events.idle()
    return reply.text


async def test_a_night_is_live_while_its_table_is_open(harness: Harness) -> None:
    h = harness
    text = await night(h, "in 2 hours", about="PLO 1/2")
    at = int(h.clock.now + 2 * HOUR)
    assert f"<t:{at}:F>" in text and "(PLO 1/2)" in text and "/table create" in text
    assert "Manage Events" not in text
    [event] = events(h)
    assert event.name == "Cash game night #1: PLO 1/2" and event.status == 1
    assert event.entity_type == 3 and event.entity_metadata["location"] == "#poker"
    assert f"<#{h.channel.id}>" in event.description and "/table create" in event.description
    h.env.backend.set_scheduled_event_subscription(h.guild.id, event.id, h.bob.id, True)
    again = await h.slash(h.bob, "schedule cash", starts="in 3 hours")
    assert again.ephemeral and "already has cash game night #1" in again.text
    listed = await h.slash(h.dave, "schedule list")
    assert listed.ephemeral and "Cash game night #1 (PLO 1/2)" in listed.text
    await h.advance(2 * HOUR - 15 * 60 + 5)
    [reminder] = [m for m in h.public_messages() if "interested" in m.content]
    assert {u.id for u in reminder.mentions} == {h.bob.id} and "/table create" in reminder.content
    await h.advance(15 * 60)
    assert any("starts now: open the table with /table create" in t for t in texts(h))
    assert not (await h.slash(h.alice, "table create")).ephemeral
    await h.bot.guild_events.idle()
    assert events(h)[0].status == 2  # (Discord starts an external event at its time too)
    assert "live now" in (await h.slash(h.dave, "schedule list")).text
    assert "The table is closed" in (await h.slash(h.alice, "table close")).text
    for _ in range(4):
        await h.advance(15)
    await h.bot.guild_events.idle()
    assert events(h)[0].status == 3
    assert "No games are scheduled" in (await h.slash(h.dave, "schedule list")).text
    await h.audit()


async def test_a_table_open_before_the_start_makes_the_night_live_at_its_time(
    harness: Harness,
) -> None:
    """A table opened more than an hour early does not start the night; at the start the
    night is live at once (no "open the table" notice)."""
    h = harness
    await night(h, "in 3 hours")
    assert not (await h.slash(h.alice, "table create")).ephemeral
    await h.bot.guild_events.idle()
    assert events(h)[0].status == 1
    await h.advance(3 * HOUR + 1)
    await h.bot.guild_events.idle()
    assert events(h)[0].status == 2
    assert not any("starts now" in t for t in texts(h))


async def test_the_organiser_cancels_a_night_and_its_event_goes(harness: Harness) -> None:
    h = harness
    await night(h, "in 2 hours")
    refused = await h.slash(h.bob, "schedule cancel", night=1)
    assert refused.ephemeral and "organiser or a server manager" in refused.text
    neither = await h.slash(h.alice, "schedule cancel")
    assert neither.ephemeral and "Name either a game" in neither.text
    missing = await h.slash(h.alice, "schedule cancel", night=7)
    assert missing.ephemeral and "no scheduled cash game night #7" in missing.text
    done = await h.slash(h.alice, "schedule cancel", night=1)
    assert not done.ephemeral and "Cash game night #1" in done.text and "cancelled" in done.text
    await h.bot.guild_events.idle()
    assert events(h) == []
    await h.advance(3 * HOUR)
    assert not any("starts now" in t for t in texts(h))


async def test_a_weekly_night_nobody_played_goes_on_a_week_later_across_daylight_saving(
    harness: Harness,
) -> None:
    """Rome, Friday 2026-03-27 21:00 (UTC+1), weekly; nobody opens a table: four hours
    after the start the night is over, its event deleted, and the next one is Friday
    2026-04-03 21:00 (UTC+2), 167 hours later; it survives a restart; the series is
    then cancelled."""
    h = harness
    h.clock.now = datetime(2026, 3, 26, 12, 0, tzinfo=ZoneInfo("UTC")).timestamp()
    await h.slash(h.manager, "schedule timezone", zone="Europe/Rome")
    text = await night(h, "2026-03-27 21:00", weekly=True)
    assert "Every week at the same time" in text
    rome = ZoneInfo("Europe/Rome")
    first = datetime(2026, 3, 27, 21, 0, tzinfo=rome).timestamp()
    await h.advance(first + 4 * HOUR + 1 - h.clock.now)
    await h.settle()
    await h.bot.guild_events.idle()
    [nxt] = h.bot.app.cash_nights.scheduled(h.guild.id)
    assert nxt.starts_at == datetime(2026, 4, 3, 21, 0, tzinfo=rome).timestamp()
    assert nxt.starts_at - first == 167 * HOUR and nxt.weekly == "Europe/Rome"
    assert any("next night of this weekly series" in t for t in texts(h))
    [event] = events(h)  # the first one's went with it; this is the next one's
    assert event.name == f"Cash game night #{nxt.night_id}"
    await h.restart()
    await h.settle()
    [kept] = h.bot.app.cash_nights.scheduled(h.guild.id)
    assert (kept.night_id, kept.weekly) == (nxt.night_id, "Europe/Rome")
    done = await h.slash(h.alice, "schedule cancel", night=kept.night_id, series=True)
    assert not done.ephemeral
    await h.settle()
    await h.bot.guild_events.idle()
    assert h.bot.app.cash_nights.scheduled(h.guild.id) == [] and events(h) == []


async def test_without_manage_events_a_night_says_what_the_permission_adds(
    harness: Harness,
) -> None:
    h = harness
    backend = h.env.backend
    guild = backend.get_guild(h.guild.id)
    role = next(r for r in guild.roles.values() if r.managed)
    backend.edit_role(h.guild.id, role.id, {
        "permissions": role.permissions & ~discord.Permissions(manage_events=True).value})
    await h.settle()
    text = await night(h, "in 1 hour")
    assert "Manage Events permission" in text and events(h) == []
    await h.advance(HOUR + 1)
    assert any("starts now" in t for t in texts(h))


async def test_a_night_the_bot_was_down_for_is_over_at_once_without_a_word(
    harness: Harness,
) -> None:
    """Down from before the start until after the night's four hours: after the restart
    the night is over, its event deleted, and the channel is not told to open a table."""
    h = harness
    await night(h, "in 1 hour")
    assert len(events(h)) == 1
    await h.restart(after=6 * HOUR)
    await h.settle()
    await h.bot.guild_events.idle()
    assert h.bot.app.cash_nights.scheduled(h.guild.id) == [] and events(h) == []
    assert not any("starts now" in t for t in texts(h))


async def test_a_night_moved_keeps_its_event_and_its_notice_in_step(harness: Harness) -> None:
    h = harness
    await night(h, "in 2 hours")
    refused = await h.slash(h.bob, "schedule move", night=1, starts="in 3 hours")
    assert refused.ephemeral and "organiser or a server manager" in refused.text
    moved = await h.slash(h.alice, "schedule move", night=1, starts="in 3 hours")
    at = int(h.clock.now + 3 * HOUR)
    assert not moved.ephemeral and f"<t:{at}:F>" in moved.text, moved
    await h.bot.guild_events.idle()
    [event] = events(h)
    assert datetime.fromisoformat(event.scheduled_start_time).timestamp() == at
    await h.advance(2 * HOUR + 60)
    assert not any("starts now" in t for t in texts(h))
    await h.advance(HOUR)
    assert sum("starts now" in t for t in texts(h)) == 1
