"""Scheduled tournaments as the server's Discord events, through the offline Discord."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import discord
import pytest

from bot.offline.events import event_errors, status_error
from bot.runtime.tournament.starts import Moment
from tests.conftest import Harness

pytestmark = pytest.mark.asyncio

HOUR = 3600.0


@pytest.fixture
def bot_extensions() -> tuple[str, ...]:
    return ("cogs.errors", "cogs.economy", "cogs.table", "cogs.actions",
            "cogs.tournament", "cogs.schedule", "cogs.prefs")


def events(h: Harness) -> list[object]:
    return list(h.env.backend.get_guild(h.guild.id).scheduled_events.values())


async def create(h: Harness, starts: str = "in 2 hours") -> str:
    assert h.bot.registry is not None
    h.bot.registry.pause = 10.0
    reply = await h.slash(h.alice, "tournament create", buy_in=100, entrants=3, starts=starts)
    assert not reply.ephemeral and "Registration is open" in reply.text, reply
    await h.bot.guild_events.idle()
    return reply.text


def revoke_manage_events(h: Harness) -> None:
    backend = h.env.backend
    guild = backend.get_guild(h.guild.id)
    role = next(r for r in guild.roles.values() if r.managed)
    backend.edit_role(h.guild.id, role.id, {
        "permissions": role.permissions & ~discord.Permissions(manage_events=True).value})


async def test_an_event_follows_the_tournament_to_its_end(harness: Harness) -> None:
    h = harness
    text = await create(h)
    assert "Manage Events" not in text  # the bot has it: nothing to suggest
    [event] = events(h)
    rt = h.bot.app.tournaments.in_channel(h.channel.id)
    assert event.name == f"Pot Limit Omaha tournament #{rt.tournament_id}"
    assert "Buy-in 100 chips" in event.description and f"<#{h.channel.id}>" in event.description
    assert event.entity_type == 3 and event.entity_metadata["location"] == "#poker"
    for actor in (h.alice, h.bob):
        await h.slash(actor, "tournament join")
    await h.advance(2 * HOUR + 1)
    await h.bot.guild_events.idle()
    assert events(h)[0].status == 2  # active while it plays
    await h.slash(h.manager, "tournament cancel")  # a manager ends it: its table closes
    for _ in range(10):
        await h.advance(15)
    await h.bot.guild_events.idle()
    assert events(h)[0].status == 3  # completed
    assert await h.bot.app.db.state.get(f"event:tournament:{rt.tournament_id}") == ""
    await h.audit()


async def test_the_event_shows_the_registrations_as_they_change(harness: Harness) -> None:
    """Each registration and withdrawal edits the event's description (one PATCH for
    changes that come while an edit is under way); an unchanged event is not edited."""
    h = harness
    await create(h)
    [event] = events(h)
    assert event.description.startswith("Registered so far: 0/3.")
    await h.slash(h.bob, "tournament join")
    await h.bot.guild_events.idle()
    assert events(h)[0].description.startswith("Registered so far: 1/3.")
    await h.concurrently(lambda: h.slash(h.carol, "tournament join"),
                         lambda: h.slash(h.dave, "tournament join"))
    await h.slash(h.carol, "tournament leave")
    await h.bot.guild_events.idle()
    [event] = events(h)
    assert event.description.startswith("Registered so far: 2/3."), event.description
    assert "Buy-in 100 chips" in event.description and event.status == 1
    patched = len(h.requests("PATCH", "/scheduled-events/"))
    h.bot.guild_events.tell(h.bot.app.tournaments.in_channel(h.channel.id), Moment.CHANGED)
    await h.bot.guild_events.idle()
    assert len(h.requests("PATCH", "/scheduled-events/")) == patched  # nothing to change
    await h.audit()


async def test_a_cancelled_tournament_deletes_its_event(harness: Harness) -> None:
    h = harness
    await create(h)
    assert len(events(h)) == 1
    await h.slash(h.alice, "tournament cancel")
    await h.bot.guild_events.idle()
    assert events(h) == []


async def test_too_few_at_the_start_deletes_the_event(harness: Harness) -> None:
    h = harness
    await create(h, "90m")
    await h.advance(90 * 60 + 1)
    await h.bot.guild_events.idle()
    assert events(h) == []


async def test_a_restart_keeps_the_one_event(harness: Harness) -> None:
    h = harness
    await create(h)
    await h.restart()
    await h.settle()
    await h.bot.guild_events.idle()
    assert len(events(h)) == 1


async def test_without_manage_events_everything_works_and_the_reply_says_what_it_adds(
    harness: Harness,
) -> None:
    h = harness
    revoke_manage_events(h)
    await h.settle()
    text = await create(h)
    assert "Manage Events permission" in text
    assert events(h) == []
    await h.slash(h.bob, "tournament join")
    await h.advance(2 * HOUR + 1)
    assert any("so it is cancelled" in m.content for m in h.public_messages())
    await h.audit()


@pytest.mark.off_contract("it sends the event bodies Discord refuses, to see them refused")
async def test_discord_refuses_what_it_documents(harness: Harness) -> None:
    """The offline Discord's limits: name 1-100, description up to 1000, privacy 2, and
    the status only moving forward."""
    assert event_errors({"name": "x" * 101, "privacy_level": 2}, creating=False) == {
        "name": "Must be between 1 and 100 in length."}
    assert "description" in event_errors(
        {"name": "a", "description": "d" * 1001, "privacy_level": 2}, creating=True)
    assert "privacy_level" in event_errors({"name": "a"}, creating=True)
    assert "privacy_level" in event_errors({"privacy_level": 1}, creating=False)
    now = datetime(2026, 1, 1, tzinfo=UTC)
    event = {"name": "a", "privacy_level": 2, "entity_type": 3,
             "entity_metadata": {"location": "#poker"},
             "scheduled_start_time": "2026-01-01T20:00:00+00:00",
             "scheduled_end_time": "2026-01-02T00:00:00+00:00"}
    assert event_errors(event, creating=True, now=now) == {}
    assert event_errors({**event, "scheduled_start_time": "2025-12-31T20:00:00+00:00"},
                        creating=True, now=now) == {
        "scheduled_start_time": "Cannot schedule event in the past."}
    assert "scheduled_end_time" in event_errors(
        {**event, "scheduled_end_time": "2026-01-01T19:00:00+00:00"}, creating=True, now=now)
    assert "channel_id" in event_errors({**event, "entity_type": 2}, creating=True)
    assert "entity_type" in event_errors({**event, "entity_type": 5}, creating=True)
    assert "entity_metadata.location" in event_errors(
        {**event, "entity_metadata": {}}, creating=True)
    assert event_errors({"scheduled_start_time": "2025-12-31T20:00:00+00:00"},
                        creating=False, now=now)  # an edit may not move it into the past
    assert event_errors({"status": 2}, creating=False, now=now) == {}
    assert status_error(1, 2) is None and status_error(2, 3) is None
    assert status_error(1, 4) is None
    assert status_error(3, 2) is not None and status_error(2, 1) is not None
    guild = harness.bot.get_guild(harness.guild.id)
    assert guild is not None
    with pytest.raises(discord.HTTPException) as refused:
        await guild.create_scheduled_event(
            name="n" * 101, start_time=discord.utils.utcnow(), location="#poker",
            end_time=discord.utils.utcnow(), entity_type=discord.EntityType.external,
            privacy_level=discord.PrivacyLevel.guild_only)
    assert refused.value.status == 400 and refused.value.code == 50035
    past = discord.utils.utcnow() - timedelta(hours=1)
    with pytest.raises(discord.HTTPException) as refused:
        await guild.create_scheduled_event(
            name="PLO", start_time=past, location="#poker", end_time=past + timedelta(hours=4),
            entity_type=discord.EntityType.external, privacy_level=discord.PrivacyLevel.guild_only)
    assert refused.value.status == 400 and "scheduled_start_time" in str(refused.value)


async def test_interested_members_are_reminded_once_with_pings_to_exactly_them(
    harness: Harness,
) -> None:
    h = harness
    await create(h)
    [event] = events(h)
    for actor in (h.bob, h.carol):
        h.env.backend.set_scheduled_event_subscription(h.guild.id, event.id, actor.id, True)
    await h.advance(2 * HOUR - 15 * 60 - 5)
    assert not any("interested" in m.content for m in h.public_messages())
    await h.advance(10)
    reminders = [m for m in h.public_messages() if "interested" in m.content]
    assert len(reminders) == 1
    assert {u.id for u in reminders[0].mentions} == {h.bob.id, h.carol.id}
    await h.restart()  # a restart does not remind again
    await h.advance(60)
    assert sum("interested" in m.content for m in h.public_messages()) == 1


async def test_reminders_go_as_each_member_chose_in_prefs(harness: Harness) -> None:
    """Bob chose a DM, Dave too but his DMs are closed, Carol kept the ping: Bob gets a
    DM, and one channel message pings exactly Carol and Dave."""
    h = harness
    await create(h)
    [event] = events(h)
    for actor in (h.bob, h.dave):
        assert (await h.slash(actor, "prefs", reminders="dm")).ephemeral
    h.close_dms(h.dave)
    for actor in (h.bob, h.carol, h.dave):
        h.env.backend.set_scheduled_event_subscription(h.guild.id, event.id, actor.id, True)
    await h.advance(2 * HOUR - 15 * 60 + 5)
    [reminder] = [m for m in h.public_messages() if "interested" in m.content]
    assert {u.id for u in reminder.mentions} == {h.carol.id, h.dave.id}
    assert f"<@{h.bob.id}>" not in reminder.content
    [dm] = h.dms(h.bob)
    rt = h.bot.app.tournaments.in_channel(h.channel.id)
    assert f"#{rt.tournament_id}" in dm.content and f"<#{h.channel.id}>" in dm.content
    assert f"<t:{int(rt.starts_at or 0)}:R>" in dm.content and "/tournament join" in dm.content
    assert h.dms(h.carol) == [] and h.dms(h.dave) == []


async def test_a_new_start_time_moves_the_event_the_timer_and_the_reminder(
    harness: Harness,
) -> None:
    """/schedule move: its creator only; the event's start and end move, the old start
    passes quietly, the stored time survives a restart, the reminder comes before the
    new start and the game is settled then."""
    h = harness
    await create(h)
    [event] = events(h)
    h.env.backend.set_scheduled_event_subscription(h.guild.id, event.id, h.carol.id, True)
    number = h.bot.app.tournaments.in_channel(h.channel.id).tournament_id
    refused = await h.slash(h.bob, "schedule move", game=number, starts="in 3 hours")
    assert refused.ephemeral and "change its start time" in refused.text
    bad = await h.slash(h.alice, "schedule move", game=number, starts="yesterday-ish")
    assert bad.ephemeral and "could not read" in bad.text
    moved = await h.slash(h.alice, "schedule move", game=number, starts="in 3 hours")
    at = int(h.clock.now + 3 * HOUR)
    assert not moved.ephemeral and f"<t:{at}:F>" in moved.text and f"#{number}" in moved.text
    await h.bot.guild_events.idle()
    [event] = events(h)
    assert datetime.fromisoformat(event.scheduled_start_time).timestamp() == at
    assert datetime.fromisoformat(event.scheduled_end_time).timestamp() == at + 4 * HOUR
    await h.restart()
    await h.settle()
    assert h.bot.app.tournaments.in_channel(h.channel.id).starts_at == at
    await h.advance(2 * HOUR + 60)  # the old start and its reminder: nothing
    assert not any("interested" in m.content or "so it is cancelled" in m.content
                   for m in h.public_messages())
    await h.advance(HOUR - 15 * 60 - 60 + 5)
    [reminder] = [m for m in h.public_messages() if "interested" in m.content]
    assert f"<t:{at}:F>" in reminder.content and {u.id for u in reminder.mentions} == {h.carol.id}
    await h.advance(15 * 60 - 5 + 1)
    assert sum("so it is cancelled" in m.content for m in h.public_messages()) == 1
    await h.bot.guild_events.idle()
    assert events(h) == []
    await h.audit()


async def test_a_start_passed_during_a_restart_marks_the_event_active(harness: Harness) -> None:
    """The restored tournament starts before the servers are known to the new process:
    its event follows once they are."""
    h = harness
    await create(h, "in 1 hour")
    for actor in (h.alice, h.bob):
        await h.slash(actor, "tournament join")
    await h.restart(after=2 * HOUR)
    await h.settle()
    await h.bot.guild_events.idle()
    assert h.bot.registry.find(h.channel.id) is not None
    assert [e.status for e in events(h)] == [2]
