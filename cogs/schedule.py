"""The server's calendar (issue 34): the /schedule group.

    /schedule list               the server's upcoming scheduled games (private)
    /schedule cash starts [about] [weekly]
                                 a cash game night in this channel (said in public;
                                 :mod:`bot.runtime.cash_nights`: live while its table
                                 is open, a Discord event when the bot may)
    /schedule cancel game|night [series]
                                 cancel one before its start (its creator or a
                                 manager): every buy-in refunded, said in public; a
                                 weekly game's next one is scheduled unless ``series``
    /schedule move starts game|night
                                 a new start time for one (its creator or a manager),
                                 said in public; its Discord event follows
    /schedule timezone [zone]    the zone start times are read in (anyone sees it; a
                                 manager changes it: an IANA name such as Europe/Rome)

A game is scheduled with ``/tournament create starts``; the rule of its start lives in
:mod:`bot.runtime.tournament.starts`. Times are shown as Discord timestamps
(``<t:…:F>``, ``<t:…:R>``): every reader's client words them in their own time zone and
language; the server's zone only reads what members type.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar
from zoneinfo import ZoneInfo, available_timezones

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.actions import reply_private
from bot.adapter.guild_events import events_hint
from bot.adapter.limits import fit_message
from bot.adapter.permissions import refuse_private_thread
from bot.adapter.polite import acknowledge, announce
from bot.adapter.timezones import ServerZones
from bot.adapter.tournament_text import cancel_text, game
from bot.i18n import Command, Phrase, resolve, translate
from bot.runtime.cash_nights import CashNight, CashNights
from bot.runtime.errors import NotAllowed, TableError
from bot.runtime.tournament.control import Cancelling
from bot.runtime.tournament.service import TournamentService
from bot.runtime.tournament.starts import parse_start, parse_zone, stamp
from bot.runtime.tournament.table_policy import SitAndGoRuntime

if TYPE_CHECKING:
    from bot.client import OmahaDealer

#: Zones offered while typing (Discord shows at most 25 choices).
SHOWN_ZONES = 25


def _is_manager(interaction: discord.Interaction[Any]) -> bool:
    return bool(interaction.permissions.manage_guild)


def _about(night: CashNight) -> str:
    return f" ({night.about})" if night.about else ""


def night_line(locale: object, night: CashNight) -> str:
    """A cash game night in the list."""
    return translate(
        locale, "schedule.cash_line", number=str(night.night_id),
        when=stamp(night.starts_at, "F"), relative=stamp(night.starts_at, "R"),
        channel=f"<#{night.channel_id}>", about=_about(night),
        weekly=Phrase("schedule.weekly") if night.weekly else "",
        live=Phrase("schedule.live") if night.status == "active" else "")


def schedule_text(
    locale: object, games: list[SitAndGoRuntime], nights: list[CashNight] | None = None
) -> str:
    """The upcoming games and cash game nights, soonest first, in ``locale``."""
    if not games and not nights:
        return translate(locale, "schedule.none", create=Command("tournament create"),
                         cash=Command("schedule cash"))
    timed: list[tuple[float, str]] = [(n.starts_at, night_line(locale, n))
                                      for n in nights or []]
    for rt in games:
        starts_at = rt.starts_at or 0.0
        s = rt.sng.settings
        timed.append((starts_at, translate(
            locale, "schedule.line", number=str(rt.tournament_id),
            when=stamp(starts_at, "F"), relative=stamp(starts_at, "R"),
            channel=f"<#{rt.channel_id}>", game=game(locale, s), buy_in=s.buy_in,
            count=len(rt.sng.entrants), max=s.max_entrants,
            weekly=Phrase("schedule.weekly") if rt.weekly else "")))
    lines = [translate(locale, "schedule.head"), *(line for _, line in sorted(timed))]
    lines.append(translate(locale, "schedule.how_cancel", cancel=Command("schedule cancel")))
    return fit_message(lines, locale=locale)


def zone_text(locale: object, zone: ZoneInfo, now: float) -> str:
    """``Start times are read in Europe/Rome (now 2026-12-06 04:00 there).``"""
    local = datetime.fromtimestamp(now, zone).strftime("%Y-%m-%d %H:%M")
    return translate(locale, "schedule.zone", zone=zone.key, now=local,
                     command=Command("schedule timezone"))


Numbered = TypeVar("Numbered")


def _numbered_one(by_number: dict[int, Numbered], number: int, refusal: str) -> Numbered:
    """The server's scheduled game or night ``number``; ``refusal`` (a catalog key) names
    it missing and points to ``/schedule list``."""
    if number not in by_number:
        raise TableError(Phrase(refusal, number=str(number), list=Command("schedule list")))
    return by_number[number]


def numbered(numbers: Iterable[int], current: str) -> list[app_commands.Choice[int]]:
    """Autocomplete for a game's or a night's number: those starting with what the member
    typed (a leading # allowed), at most Discord's 25."""
    typed = current.strip("# ")
    return [app_commands.Choice(name=f"#{n}", value=n)
            for n in numbers if str(n).startswith(typed)][:25]

class Schedule(commands.Cog, name="Schedule"):
    """The server's upcoming games and the time zone start times are read in."""

    schedule = app_commands.Group(
        name="schedule", guild_only=True,
        description="The server's upcoming games and its time zone",
    )

    def __init__(
        self, tournaments: TournamentService, nights: CashNights, zones: ServerZones,
        now: Callable[[], float],
    ) -> None:
        self.tournaments = tournaments
        self.nights = nights
        self.zones = zones
        self.now = now
        super().__init__()

    @schedule.command(name="list", description="The server's upcoming scheduled games")
    async def list_games(self, interaction: discord.Interaction[Any]) -> None:
        guild_id = interaction.guild_id
        if guild_id is None:
            raise app_commands.NoPrivateMessage()
        await reply_private(interaction, schedule_text(
            interaction.locale, self.tournaments.scheduled(guild_id),
            self.nights.scheduled(guild_id)))

    @schedule.command(name="cash", description="Schedule a cash game night in this channel")
    @app_commands.describe(
        starts="Start time: 2026-12-11 21:00 in the server's time zone, or in 2 hours",
        about="What is played, e.g. PLO 1/2, shown in the event (default nothing)",
        weekly="Every week at the same time: the next one is scheduled when one ends (default no)")
    async def cash(
        self, interaction: discord.Interaction[Any], starts: app_commands.Range[str, 1, 60],
        about: app_commands.Range[str, 1, 80] | None = None, weekly: bool = False,
    ) -> None:
        guild_id, channel_id = interaction.guild_id, interaction.channel_id
        if guild_id is None or channel_id is None:
            raise app_commands.NoPrivateMessage()
        refuse_private_thread(interaction)
        zone = self.zones.of(guild_id)
        starts_at = parse_start(starts, self.now(), zone)  # refused at once
        self.nights.check_free(channel_id)
        await acknowledge(interaction, private=False)
        lang = resolve(interaction.guild_locale)  # public: the server's language
        night = await self.nights.schedule(
            guild_id=guild_id, channel_id=channel_id, creator_id=interaction.user.id,
            starts_at=starts_at, weekly=zone.key if weekly else None,
            about=" ".join((about or "").split()), language=lang)
        text = translate(lang, "schedule.cash_created", number=str(night.night_id),
                         about=_about(night), channel=f"<#{channel_id}>",
                         when=stamp(starts_at, "F"), relative=stamp(starts_at, "R"),
                         create=Command("table create"),
                         weekly=Phrase("schedule.cash_weekly") if weekly else "")
        if not interaction.app_permissions.manage_events:
            text += "\n" + events_hint(lang)  # what Manage Events would add
        await interaction.edit_original_response(
            content=text, allowed_mentions=discord.AllowedMentions.none())

    @schedule.command(name="cancel", description="Cancel a scheduled game (refunds every entry)")
    @app_commands.describe(
        game="A tournament's number, as /schedule list shows it (default none: a night)",
        night="A cash game night's number, as /schedule list shows it (default none: a game)",
        series="A weekly game: cancel the whole series (default this one)")
    async def cancel(
        self, interaction: discord.Interaction[Any],
        game: app_commands.Range[int, 1, 2**53 - 1] | None = None,
        night: app_commands.Range[int, 1, 2**53 - 1] | None = None, series: bool = False,
    ) -> None:
        guild_id = interaction.guild_id
        if guild_id is None:
            raise app_commands.NoPrivateMessage()
        if (game is None) == (night is None):
            raise TableError(Phrase("refuse.schedule.which", list=Command("schedule list")))
        if night is not None:
            await self._cancel_night(interaction, self._night(guild_id, night), series)
            return
        assert game is not None
        rt = self._scheduled(guild_id, game)
        await acknowledge(interaction)  # a refusal (not the creator) stays private
        await self.tournaments.cancel(rt, interaction.user.id,
                                      is_manager=_is_manager(interaction), series=series)
        lang = rt.config.language  # public, in the tournament's language
        await announce(interaction, translate(
            lang, "schedule.cancelled", number=str(rt.tournament_id),
            channel=f"<#{rt.channel_id}>",
            text=cancel_text(lang, rt, True, Cancelling.DONE)),
            allowed_mentions=discord.AllowedMentions.none())

    @schedule.command(name="move", description="Change a scheduled game's start time")
    @app_commands.describe(
        starts="The new start time: 2026-12-11 21:00 in the server's time zone, or in 2 hours",
        game="A tournament's number, as /schedule list shows it (default none: a night)",
        night="A cash game night's number, as /schedule list shows it (default none: a game)")
    async def move(
        self, interaction: discord.Interaction[Any], starts: app_commands.Range[str, 1, 60],
        game: app_commands.Range[int, 1, 2**53 - 1] | None = None,
        night: app_commands.Range[int, 1, 2**53 - 1] | None = None,
    ) -> None:
        guild_id = interaction.guild_id
        if guild_id is None:
            raise app_commands.NoPrivateMessage()
        if (game is None) == (night is None):
            raise TableError(Phrase("refuse.schedule.which", list=Command("schedule list")))
        entry = self._scheduled(guild_id, game) if game else self._night(guild_id, night or 0)
        starts_at = parse_start(starts, self.now(), self.zones.of(guild_id))  # refused at once
        await acknowledge(interaction)
        user, manager = interaction.user.id, _is_manager(interaction)
        if isinstance(entry, CashNight):
            await self.nights.move(entry, user, starts_at, is_manager=manager)
            lang, key, number = entry.language, "schedule.cash_moved", entry.night_id
        else:
            await self.tournaments.move(entry, user, starts_at, is_manager=manager)
            lang, key, number = entry.config.language, "schedule.moved", entry.tournament_id
        await announce(interaction, translate(
            lang, key, number=str(number), channel=f"<#{entry.channel_id}>",
            when=stamp(starts_at, "F"), relative=stamp(starts_at, "R")),
            allowed_mentions=discord.AllowedMentions.none())

    async def _cancel_night(
        self, interaction: discord.Interaction[Any], night: CashNight, series: bool
    ) -> None:
        await acknowledge(interaction)  # a refusal (not its organiser) stays private
        await self.nights.cancel(night, interaction.user.id,
                                 is_manager=_is_manager(interaction), series=series)
        await announce(interaction, translate(
            night.language, "schedule.cash_cancelled", number=str(night.night_id),
            channel=f"<#{night.channel_id}>"), allowed_mentions=discord.AllowedMentions.none())

    def _night(self, guild_id: int, number: int) -> CashNight:
        """The server's cash game night ``number``; refuses one it has not."""
        return _numbered_one({n.night_id: n for n in self.nights.scheduled(guild_id)},
                             number, "refuse.schedule.night_not_found")

    @cancel.autocomplete("night")
    @move.autocomplete("night")
    async def _nights(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[int]]:
        return numbered((n.night_id for n in self.nights.scheduled(interaction.guild_id or 0)),
                        current)

    def _scheduled(self, guild_id: int, game: int) -> SitAndGoRuntime:
        """The server's scheduled game ``game``; refuses one it has not."""
        return _numbered_one({r.tournament_id: r for r in self.tournaments.scheduled(guild_id)},
                             game, "refuse.schedule.not_found")

    @cancel.autocomplete("game")
    @move.autocomplete("game")
    async def _games(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[int]]:
        return numbered((rt.tournament_id
                         for rt in self.tournaments.scheduled(interaction.guild_id or 0)), current)

    @schedule.command(name="timezone",
                      description="The time zone start times are read in (a manager changes it)")
    @app_commands.describe(
        zone="A time zone such as Europe/Rome or America/Sao_Paulo (default shows the one set)")
    async def timezone(
        self, interaction: discord.Interaction[Any],
        zone: app_commands.Range[str, 1, 60] | None = None,
    ) -> None:
        guild_id = interaction.guild_id
        if guild_id is None:
            raise app_commands.NoPrivateMessage()
        if zone is None:
            await reply_private(interaction, zone_text(
                interaction.locale, self.zones.of(guild_id), self.now()))
            return
        if not _is_manager(interaction):
            raise NotAllowed(Phrase("refuse.schedule.zone_manager_only"))
        parse_zone(zone)  # an unknown zone is refused at once
        await acknowledge(interaction)
        chosen = await self.zones.choose(guild_id, zone)
        await reply_private(interaction, translate(
            interaction.locale, "schedule.zone_changed",
            zone=zone_text(interaction.locale, chosen, self.now())))

    @timezone.autocomplete("zone")
    async def _zones(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        wanted = current.strip().lower().replace(" ", "_")
        names = sorted(z for z in available_timezones() if wanted in z.lower())
        return [app_commands.Choice(name=z, value=z) for z in names[:SHOWN_ZONES]]


async def setup(bot: OmahaDealer) -> None:
    await bot.add_cog(Schedule(bot.app.tournaments, bot.app.cash_nights, bot.zones, bot.now))


__all__ = ["Schedule", "schedule_text", "setup", "zone_text"]
