"""Scheduled tournaments as the server's Discord events (issue 34), when the bot may.

With **Manage Events** in the server, a scheduled tournament
(:mod:`bot.runtime.tournament.starts`) becomes a Guild Scheduled Event in the server's
Events list, where members see it in their own time and mark themselves interested:

* scheduled: created (an *external* event whose location is the channel's name: a
  text channel cannot be a voice or stage event's channel; Discord requires an end
  time for it, :data:`PLANNED_LENGTH` after the start), named and described in the
  tournament's language (game, buy-in, stack, players, how to register);
* changed (a registration or a withdrawal, a new start time): its name, description
  and times edited when they differ from what it shows (changes that come while one
  is under way are folded into the next edit);
* started: marked active (Discord may already have started an external event at its
  time by itself: then it is left as it is);
* ended (its last table closed): marked completed;
* cancelled before its start: deleted.

Members who marked the event "Interested" are reminded :data:`REMIND_BEFORE` before the
start, once (``bot_state``: ``remind:tournament:<id>``, so a restart does not remind
again), while it is still registering, as each chose in ``/prefs``: by DM, or (the
default, and when their DMs are closed) named in one message in the tournament's
channel that pings exactly them (``allowed_mentions`` names each).

The event's id is kept in the bot's state (``bot_state``: ``event:tournament:<id>``)
so a restart neither creates a second event nor loses the first. Without the
permission nothing is created and everything else works; ``/tournament create``
says what the permission would add (:func:`events_hint`). Discord's refusals (a
permission removed meanwhile, an event a moderator deleted) are logged, never shown:
the tournament does not depend on its event.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot.adapter.tournament_text import game
from bot.i18n import Command, translate
from bot.runtime.tournament.sit_and_go import Status
from bot.runtime.tournament.starts import Moment, stamp
from bot.runtime.tournament.table_policy import SitAndGoRuntime

if TYPE_CHECKING:
    from bot.client import OmahaDealer

log = logging.getLogger(__name__)

__all__ = [
    "PLANNED_LENGTH", "REMIND_BEFORE", "GuildEvents", "event_text", "events_hint",
    "may_manage_events",
]

#: The end time given to Discord (it requires one for an external event).
PLANNED_LENGTH = timedelta(hours=4)
#: How long before the start the interested members are reminded.
REMIND_BEFORE = 15 * 60.0
#: Discord's limits on an event's name, description and location.
NAME_MAX, DESCRIPTION_MAX, LOCATION_MAX = 100, 1000, 100


def may_manage_events(guild: discord.Guild | None) -> bool:
    """Whether the bot has Manage Events in ``guild``."""
    return guild is not None and guild.me is not None and guild.me.guild_permissions.manage_events


def events_hint(locale: object) -> str:
    """What Manage Events would add (shown by ``/tournament create`` without it)."""
    return translate(locale, "tournament.events_hint")


def event_text(rt: SitAndGoRuntime) -> tuple[str, str]:
    """The event's name and description, in the tournament's language, within
    Discord's limits."""
    lang, s = rt.config.language, rt.sng.settings
    name = translate(lang, "event.name", game=game(lang, s), number=str(rt.tournament_id))
    description = translate(
        lang, "event.description", game=game(lang, s), buy_in=s.buy_in,
        stack=s.starting_stack, min=s.min_entrants, max=s.max_entrants,
        join=Command("tournament join"), channel=f"<#{rt.channel_id}>")
    registered = translate(lang, "event.registered", count=len(rt.sng.entrants),
                           max=s.max_entrants)
    return name[:NAME_MAX], f"{registered}\n{description}"[:DESCRIPTION_MAX]


def event_times(starts_at: float) -> tuple[datetime, datetime]:
    """The event's start and the end Discord requires (:data:`PLANNED_LENGTH` later)."""
    start = datetime.fromtimestamp(starts_at, UTC)
    return start, start + PLANNED_LENGTH


class GuildEvents:
    """Keeps each scheduled tournament's Discord event in step (see the module docstring)."""

    def __init__(self, bot: OmahaDealer) -> None:
        self.bot = bot
        self._tasks: set[asyncio.Task[None]] = set()
        self._locks: dict[int, asyncio.Lock] = {}
        self._reminders: dict[int, asyncio.Task[None]] = {}
        self._changing: set[int] = set()  # tournaments with an edit waiting its turn

    def tell(self, rt: SitAndGoRuntime, moment: Moment) -> None:
        """The runtime's hook: follow ``moment`` in the background, in order per
        tournament."""
        if moment is Moment.CHANGED:
            if rt.tournament_id in self._changing:
                return  # the edit waiting will show this change too
            self._changing.add(rt.tournament_id)
        task = asyncio.create_task(self._follow(rt, moment))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def idle(self) -> None:
        """Wait for every change under way (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def _follow(self, rt: SitAndGoRuntime, moment: Moment) -> None:
        # a restart restores the tournaments before the servers are known: wait for them
        await self.bot.wait_until_ready()
        lock = self._locks.setdefault(rt.tournament_id, asyncio.Lock())
        async with lock:
            if moment is Moment.CHANGED:
                self._changing.discard(rt.tournament_id)  # from here on, a change is new
            try:
                await self._apply(rt, moment)
            except discord.HTTPException as exc:
                log.warning("tournament %s: its server event could not be %s: %s",
                            rt.tournament_id, moment.value, exc)
        if moment not in (Moment.SCHEDULED, Moment.CHANGED):
            reminder = self._reminders.pop(rt.tournament_id, None)
            if reminder is not None:
                reminder.cancel()
        if moment in (Moment.ENDED, Moment.CANCELLED):
            self._locks.pop(rt.tournament_id, None)

    async def _apply(self, rt: SitAndGoRuntime, moment: Moment) -> None:
        guild = self.bot.get_guild(rt.guild_id)
        if guild is None or not may_manage_events(guild) or rt.starts_at is None:
            return
        state = self.bot.app.db.state
        key = f"event:tournament:{rt.tournament_id}"
        known = await state.get(key)
        if moment is Moment.SCHEDULED:
            if not known:
                event = await self._create(guild, rt, rt.starts_at)
                known = str(event.id)
                await state.put(key, known)
            if rt.tournament_id not in self._reminders:
                self._arm_reminder(rt, int(known))
            return
        if not known:
            return
        event = await guild.fetch_scheduled_event(int(known))
        status = event.status
        if moment is Moment.CHANGED:
            if await _edit(event, rt):  # a new start time: a new reminder before it
                await state.put(f"remind:tournament:{rt.tournament_id}", "")
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
        self, guild: discord.Guild, rt: SitAndGoRuntime, starts_at: float
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

    def _arm_reminder(self, rt: SitAndGoRuntime, event_id: int) -> None:
        """(Re)start the wait for ``rt``'s reminder."""
        old = self._reminders.pop(rt.tournament_id, None)
        if old is not None:
            old.cancel()
        self._reminders[rt.tournament_id] = asyncio.create_task(self._remind(rt, event_id))

    async def _remind(self, rt: SitAndGoRuntime, event_id: int) -> None:
        """Wait until :data:`REMIND_BEFORE` the start, then remind the interested members
        once (not when that moment passed while the bot was down)."""
        assert rt.starts_at is not None
        wait = rt.starts_at - REMIND_BEFORE - self.bot.now()
        if wait < 0:
            return
        await asyncio.sleep(wait)
        if self.bot.is_closed():  # stopped meanwhile: the next start reminds, if still due
            return
        state, key = self.bot.app.db.state, f"remind:tournament:{rt.tournament_id}"
        if rt.sng.status is not Status.REGISTERING or await state.get(key):
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
            log.warning("tournament %s: the reminder failed: %s", rt.tournament_id, exc)
        finally:
            self._reminders.pop(rt.tournament_id, None)

    async def _send_reminders(
        self, rt: SitAndGoRuntime, channel: discord.abc.Messageable, users: list[int]
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


async def _edit(event: discord.ScheduledEvent, rt: SitAndGoRuntime) -> bool:
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


def reminder_text(rt: SitAndGoRuntime, user_ids: list[int]) -> str:
    """The reminder, in the tournament's language, naming each interested member."""
    assert rt.starts_at is not None
    return translate(rt.config.language, "event.reminder", number=str(rt.tournament_id),
                     when=stamp(rt.starts_at, "F"), relative=stamp(rt.starts_at, "R"),
                     players=" ".join(f"<@{u}>" for u in user_ids),
                     join=Command("tournament join"))


def reminder_dm_text(rt: SitAndGoRuntime) -> str:
    """The reminder by DM, in the tournament's language, with its channel."""
    assert rt.starts_at is not None
    return translate(rt.config.language, "event.reminder_dm", number=str(rt.tournament_id),
                     channel=f"<#{rt.channel_id}>", when=stamp(rt.starts_at, "F"),
                     relative=stamp(rt.starts_at, "R"), join=Command("tournament join"))
