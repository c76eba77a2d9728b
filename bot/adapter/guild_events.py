"""Scheduled games as the server's Discord events (issue 34), when the bot may.

With **Manage Events** in the server, a scheduled tournament
(:mod:`bot.runtime.tournament.starts`) or a cash game night
(:mod:`bot.runtime.cash_nights`) becomes a Guild Scheduled Event in the server's
Events list, where members see it in their own time and mark themselves interested
(what it says: :mod:`bot.adapter.calendar_text`):

* scheduled: created (an *external* event whose location is the channel's name: a
  text channel cannot be a voice or stage event's channel; Discord requires an end
  time for it, :data:`PLANNED_LENGTH` after the start), named and described in its
  language (a tournament's game, buy-in, stack, players and how to register; a
  night's game and how to open its table);
* changed (a registration or a withdrawal, a new start time): its name, description
  and times edited when they differ from what it shows (changes that come while one
  is under way are folded into the next edit);
* started (a tournament's start, a night's table open): marked active (Discord may
  already have started an external event at its time by itself: then it is left as
  it is);
* ended (its last table closed): marked completed;
* cancelled before its start (or a night nobody played): deleted.

Members who marked the event "Interested" are reminded :data:`REMIND_BEFORE` before the
start, once (``bot_state``: ``remind:tournament:<id>``, ``remind:cash:<id>``, so a
restart does not remind again), while it is still to come, as each chose in
``/prefs``: by DM, or (the default, and when their DMs are closed) named in one
message in its channel that pings exactly them (``allowed_mentions`` names each).

The event's id is kept in the bot's state (``bot_state``: ``event:tournament:<id>``,
``event:cash:<id>``) so a restart neither creates a second event nor loses the
first; after a restart the events wait for the servers to be known. Without the
permission nothing is created and everything else works; ``/tournament create`` and
``/schedule cash`` say what the permission would add (:func:`events_hint`).
Discord's refusals (a permission removed meanwhile, an event a moderator deleted)
are logged, never shown: the game does not depend on its event.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot.adapter.calendar_text import (
    Entry,
    event_text,
    key_of,
    reminder_dm_text,
    reminder_text,
    waiting,
)
from bot.i18n import translate
from bot.runtime.tournament.starts import Moment

if TYPE_CHECKING:
    from bot.client import OmahaDealer

log = logging.getLogger(__name__)

__all__ = ["PLANNED_LENGTH", "REMIND_BEFORE", "GuildEvents", "events_hint", "may_manage_events"]

#: The end time given to Discord (it requires one for an external event).
PLANNED_LENGTH = timedelta(hours=4)
#: How long before the start the interested members are reminded.
REMIND_BEFORE = 15 * 60.0
#: Discord's limit on an external event's location.
LOCATION_MAX = 100


def may_manage_events(guild: discord.Guild | None) -> bool:
    """Whether the bot has Manage Events in ``guild``."""
    return guild is not None and guild.me is not None and guild.me.guild_permissions.manage_events


def events_hint(locale: object) -> str:
    """What Manage Events would add (shown by ``/tournament create`` without it)."""
    return translate(locale, "tournament.events_hint")


def event_times(starts_at: float) -> tuple[datetime, datetime]:
    """The event's start and the end Discord requires (:data:`PLANNED_LENGTH` later)."""
    start = datetime.fromtimestamp(starts_at, UTC)
    return start, start + PLANNED_LENGTH


class GuildEvents:
    """Keeps each scheduled tournament's Discord event in step (see the module docstring)."""

    def __init__(self, bot: OmahaDealer) -> None:
        self.bot = bot
        self._tasks: set[asyncio.Task[None]] = set()
        self._locks: dict[str, asyncio.Lock] = {}
        self._reminders: dict[str, asyncio.Task[None]] = {}
        self._changing: set[str] = set()  # entries with an edit waiting its turn

    def tell(self, rt: Entry, moment: Moment) -> None:
        """The runtime's hook: follow ``moment`` in the background, in order per
        tournament or night."""
        if moment is Moment.CHANGED:
            if key_of(rt) in self._changing:
                return  # the edit waiting will show this change too
            self._changing.add(key_of(rt))
        task = asyncio.create_task(self._follow(rt, moment))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def idle(self) -> None:
        """Wait for every change under way (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def _follow(self, rt: Entry, moment: Moment) -> None:
        # a restart restores the calendar before the servers are known: wait for them
        await self.bot.wait_until_ready()
        key = key_of(rt)
        lock = self._locks.setdefault(key, asyncio.Lock())
        async with lock:
            if moment is Moment.CHANGED:
                self._changing.discard(key)  # from here on, a change is new
            try:
                await self._apply(rt, moment)
            except discord.HTTPException as exc:
                log.warning("%s: its server event could not be %s: %s", key, moment.value, exc)
        if moment not in (Moment.SCHEDULED, Moment.CHANGED):
            reminder = self._reminders.pop(key, None)
            if reminder is not None:
                reminder.cancel()
        if moment in (Moment.ENDED, Moment.CANCELLED):
            self._locks.pop(key, None)

    async def _apply(self, rt: Entry, moment: Moment) -> None:
        guild = self.bot.get_guild(rt.guild_id)
        if guild is None or not may_manage_events(guild) or rt.starts_at is None:
            return
        state = self.bot.app.db.state
        key = f"event:{key_of(rt)}"
        known = await state.get(key)
        if moment is Moment.SCHEDULED:
            if not known:
                event = await self._create(guild, rt, rt.starts_at)
                known = str(event.id)
                await state.put(key, known)
            if key_of(rt) not in self._reminders:
                self._arm_reminder(rt, int(known))
            return
        if not known:
            return
        event = await guild.fetch_scheduled_event(int(known))
        status = event.status
        if moment is Moment.CHANGED:
            if await _edit(event, rt):  # a new start time: a new reminder before it
                await state.put(f"remind:{key_of(rt)}", "")
                self._arm_reminder(rt, event.id)
        elif moment is Moment.CANCELLED:
            await event.delete()
        elif moment is Moment.STARTED and status is discord.EventStatus.scheduled:
            await event.start()
        elif moment is Moment.ENDED:
            if status is discord.EventStatus.scheduled:
                event = await event.start()
            if event.status is discord.EventStatus.active:
                await event.end()
        if moment in (Moment.ENDED, Moment.CANCELLED):
            await state.put(key, "")

    async def _create(
        self, guild: discord.Guild, rt: Entry, starts_at: float
    ) -> discord.ScheduledEvent:
        name, description = event_text(rt)
        start, end = event_times(starts_at)
        channel = guild.get_channel(rt.channel_id)
        location = f"#{channel.name}" if channel is not None else f"<#{rt.channel_id}>"
        kwargs: dict[str, Any] = {"location": location[:LOCATION_MAX]}
        return await guild.create_scheduled_event(
            name=name, description=description, start_time=start,
            end_time=end, entity_type=discord.EntityType.external,
            privacy_level=discord.PrivacyLevel.guild_only, **kwargs)

    def _arm_reminder(self, rt: Entry, event_id: int) -> None:
        """(Re)start the wait for ``rt``'s reminder."""
        old = self._reminders.pop(key_of(rt), None)
        if old is not None:
            old.cancel()
        self._reminders[key_of(rt)] = asyncio.create_task(self._remind(rt, event_id))

    async def _remind(self, rt: Entry, event_id: int) -> None:
        """Wait until :data:`REMIND_BEFORE` the start, then remind the interested members
        once (not when that moment passed while the bot was down)."""
        assert rt.starts_at is not None
        wait = rt.starts_at - REMIND_BEFORE - self.bot.now()
        if wait < 0:
            return
        await asyncio.sleep(wait)
        if self.bot.is_closed():  # stopped meanwhile: the next start reminds, if still due
            return
        state, key = self.bot.app.db.state, f"remind:{key_of(rt)}"
        if not waiting(rt) or await state.get(key):
            return
        await state.put(key, "sent")  # once, even if the post fails
        try:
            guild = self.bot.get_guild(rt.guild_id)
            channel = self.bot.get_channel(rt.channel_id)
            if guild is None or not isinstance(channel, discord.abc.Messageable):
                return
            event = await guild.fetch_scheduled_event(event_id)
            await self._send_reminders(rt, channel, [u.id async for u in event.users()])
        except discord.HTTPException as exc:
            log.warning("%s: the reminder failed: %s", key_of(rt), exc)
        finally:
            self._reminders.pop(key_of(rt), None)

    async def _send_reminders(
        self, rt: Entry, channel: discord.abc.Messageable, users: list[int]
    ) -> None:
        """A DM to each of ``users`` who chose one in ``/prefs``, then one message in the
        channel pinging exactly the others and those whose DMs are closed."""
        presenter = self.bot.presenter
        by_dm = presenter.prefs.reminded_by_dm(rt.guild_id, users)
        text = reminder_dm_text(rt)
        closed = {u for u in users if u in by_dm and not await presenter.dm(u, text)}
        pinged = [u for u in users if u not in by_dm or u in closed]
        if pinged:
            await channel.send(reminder_text(rt, pinged), allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(u) for u in pinged], everyone=False, roles=False))


async def _edit(event: discord.ScheduledEvent, rt: Entry) -> bool:
    """Edit what ``event`` shows that differs from the tournament now (its times only
    while it has not started); True when its start time moved."""
    name, description = event_text(rt)
    changes: dict[str, Any] = {}
    if event.name != name:
        changes["name"] = name
    if (event.description or "") != description:
        changes["description"] = description
    if rt.starts_at is not None and event.status is discord.EventStatus.scheduled:
        start, end = event_times(rt.starts_at)
        if event.start_time != start:
            changes.update(start_time=start, end_time=end)
    if changes and event.status in (discord.EventStatus.scheduled, discord.EventStatus.active):
        await event.edit(**changes)
    return "start_time" in changes
