"""Sit-and-go tournaments in channels: the /tournament group.

    /tournament create buy_in [variant] [structure] [entrants] [speed] [clock]
                       [stack] [payouts] [late_levels] [starts]
    /tournament join     /tournament leave (before the start: the entry comes back)
    /tournament start    the creator or a manager, once enough players registered
    /tournament cancel   before the start the creator or a manager; after it a manager or
                         every player still in (rule: bot.runtime.tournament.control)
    /tournament info     payouts (before the start), blind levels, standings

The tournament starts by itself when the last seat is taken (or earlier with
/tournament start), or, scheduled with ``starts`` (issue 34: a date and time in the
server's time zone, ``/schedule timezone``, or a delay), at that time when enough
registered, otherwise cancelled and refunded (:mod:`bot.runtime.tournament.starts`);
play then goes on at the channel's table with the usual action commands and buttons. One
table or tournament per channel. The rules live in :mod:`bot.runtime.tournament`
(the service, ``service.py``, above the table registry); refusals come back as
the runtime's :class:`~bot.runtime.errors.TableError` and ``bot.adapter.polite``
answers them privately.

The cog depends on no other cog: ``setup(bot)`` gives it the tournaments service
the composition root built (``bot.app.tournaments``), and its choices come from
:mod:`bot.adapter.choices`. Playing at the tournament's table uses the action
commands of ``cogs.table`` or the buttons, which the bot registers itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.choices import STRUCTURE_CHOICES, VARIANT_CHOICES
from bot.adapter.guild_events import events_hint
from bot.adapter.limits import fit_text
from bot.adapter.names import member_name
from bot.adapter.permissions import (
    refuse_private_thread,
    require_member_post,
    require_table_permissions,
    require_thread_permissions,
)
from bot.adapter.polite import acknowledge, announce
from bot.adapter.table_text import game_choices, mix_options
from bot.adapter.timezones import ServerZones
from bot.adapter.tournament_text import cancel_text, describe, registers_text, started_text
from bot.i18n import Phrase, resolve, translate
from bot.runtime.errors import TableError
from bot.runtime.mix import MAX_EVERY
from bot.runtime.tournament.blinds import PRESETS
from bot.runtime.tournament.payouts import MAX_ENTRANTS
from bot.runtime.tournament.service import TournamentService
from bot.runtime.tournament.settings import payouts_from_text
from bot.runtime.tournament.sit_and_go import Status, TournamentSettings
from bot.runtime.tournament.starts import parse_start
from bot.runtime.tournament.table_policy import SitAndGoRuntime

if TYPE_CHECKING:
    from bot.client import OmahaDealer

#: Seats per table of a tournament of more than 10 players when the creator names none.
DEFAULT_TABLE_SIZE = 9

SPEED_CHOICES = [app_commands.Choice(name=name, value=name) for name in PRESETS]


async def _announce(interaction: discord.Interaction[Any], text: str) -> None:
    """The public outcome of a command deferred privately (its refusals come after the wait)."""
    await announce(interaction, text, allowed_mentions=discord.AllowedMentions.none())


def _is_manager(interaction: discord.Interaction[Any]) -> bool:
    return bool(interaction.permissions.manage_guild)


class Tournaments(commands.Cog, name="Tournaments"):
    """Sit-and-go tournaments: register, start when full, play to one winner."""

    tournament = app_commands.Group(
        name="tournament", guild_only=True,
        description="Sit-and-go tournaments: every Omaha game and Texas Hold'em",
    )

    def __init__(
        self, tournaments: TournamentService, zones: ServerZones, now: Callable[[], float]
    ) -> None:
        self.tournaments = tournaments
        self.zones = zones  # start times typed by members are read in the server's zone
        self.now = now  # the bot's wall clock (Unix seconds)
        super().__init__()

    def here(self, interaction: discord.Interaction[Any]) -> SitAndGoRuntime:
        if interaction.channel_id is None:
            raise TableError(Phrase("refuse.tournament.server_channels"))
        return self.tournaments.in_channel(interaction.channel_id)

    @tournament.command(name="create", description="Open a sit-and-go in this channel")
    @app_commands.describe(
        buy_in="Entry fee in chips, paid into the prize pool",
        variant="Game to play (default Omaha)",
        structure="Betting structure (default Pot Limit; No Limit for Texas Hold'em)",
        entrants="Players, 2 to 60; over 10, several tables in threads (default 6)",
        speed=("Blind levels: turbo 5 min, regular 10 min, slow 15 min (default regular;"
               " turbo for NL Hold'em)"),
        clock="Seconds per decision, 5 to 600 (default 30)",
        stack="Starting chips, at least 10 big blinds of level 1 (default 1,500)",
        payouts="Prize % from 1st place down, adding up to 100, like 50/30/20 (default by field)",
        late_levels="Late registration during the first N levels, 0 to 10 (default 0: none)",
        table_size="Seats per table for several tables in threads, 3 to 10 (default 9)",
        games="A rotation of 2 to 8 games, e.g. NLHE, PLO, O8 limit (default one game)",
        every="A rotation: hands of each game (default one per seat)",
        starts=("Start time: 2026-12-11 21:00 in the server's time zone, or in 2 hours"
                " (default when full)"),
        weekly="Every week at the same time: the next one is scheduled when one ends (default no)",
    )
    @app_commands.choices(variant=VARIANT_CHOICES, structure=STRUCTURE_CHOICES,
                          speed=SPEED_CHOICES)
    async def create(
        self,
        interaction: discord.Interaction[Any],
        buy_in: app_commands.Range[int, 1, 1_000_000_000],
        variant: app_commands.Choice[str] | None = None,
        structure: app_commands.Choice[str] | None = None,
        entrants: app_commands.Range[int, 2, 60] = 6,
        speed: app_commands.Choice[str] | None = None,
        clock: app_commands.Range[int, 5, 600] = 30,
        stack: app_commands.Range[int, 1, 1_000_000_000] = 1_500,
        payouts: app_commands.Range[str, 1, 60] | None = None,
        late_levels: app_commands.Range[int, 0, 10] = 0,
        table_size: app_commands.Range[int, 3, 10] | None = None,
        games: str | None = None,
        every: app_commands.Range[int, 1, MAX_EVERY] | None = None,
        starts: app_commands.Range[str, 1, 60] | None = None,
        weekly: bool = False,
    ) -> None:
        if interaction.guild_id is None or interaction.channel_id is None:
            raise app_commands.NoPrivateMessage()
        refuse_private_thread(interaction)
        require_member_post(interaction, files=False)  # its announcements speak for its creator
        require_table_permissions(interaction)
        table = None if payouts is None else payouts_from_text(payouts, entrants)
        rotation = mix_options(games, None, every, variant, structure)
        settings = TournamentSettings.create(
            games=rotation["games"], every=rotation["every"],
            buy_in=buy_in,
            starting_stack=stack,
            payouts=table,
            min_entrants=max(2, table.places if table else 2),
            late_levels=late_levels,
            max_entrants=entrants,
            variant_key=variant.value if variant else "omaha",
            structure=structure.value if structure else None,  # the game's own
            schedule=speed.value if speed else None,  # the game's preset
            table_size=table_size or (DEFAULT_TABLE_SIZE if entrants > MAX_ENTRANTS else 0),
        )
        zone = self.zones.of(interaction.guild_id)
        if weekly and starts is None:
            raise TableError(Phrase("refuse.schedule.weekly_needs_start"))
        starts_at = (None if starts is None else  # unreadable or past: refused at once
                     parse_start(starts, self.now(), zone))
        if settings.multi_table:  # its tables play in threads: refused before anything
            require_thread_permissions(interaction)
        self.tournaments.check_free(interaction.channel_id)  # refused privately, at once
        self.tournaments.check_room(interaction.guild_id, interaction.user.id, settings)  # caps
        await acknowledge(interaction, private=False)
        rt = await self.tournaments.create(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id,
            creator_id=interaction.user.id, settings=settings, clock=clock,
            language=resolve(interaction.guild_locale),  # its tables speak the server's
            starts_at=starts_at, weekly=zone.key if weekly else None,
        )
        lang = rt.config.language  # a public message: the tournament's language
        text = describe(rt, lang) + "\n" + translate(lang, "tournament.registration_open")
        if starts_at is not None and not interaction.app_permissions.manage_events:
            text += "\n" + events_hint(lang)  # what Manage Events would add
        await interaction.edit_original_response(content=fit_text(text, locale=lang))

    @create.autocomplete("games")
    async def _games(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await game_choices(current)

    @tournament.command(name="join", description="Pay the buy-in and register")
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        rt = self.here(interaction)
        if rt.sng.settings.multi_table:  # an entry may start it: refused first, at once
            require_thread_permissions(interaction)
        user = interaction.user
        name = member_name(user)
        await acknowledge(interaction)  # the balance may refuse the buy-in: privately
        if rt.sng.status is Status.RUNNING:
            seat = await self.tournaments.join_late(rt, user.id, name)
            await _announce(interaction, translate(
                interaction.locale, "reply.registers_late", player=f"<@{user.id}>", seat=seat,
                pool=Phrase("chips.count", count=rt.sng.pool)))
            return
        started = await self.tournaments.join(rt, user.id, name)
        text = registers_text(rt.config.language, rt, user.id, started)  # public
        await _announce(interaction, fit_text(text, locale=rt.config.language))

    @tournament.command(name="leave", description="Unregister before the start (refunded)")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        rt = self.here(interaction)
        await acknowledge(interaction)
        await self.tournaments.leave(rt, interaction.user.id)
        await interaction.edit_original_response(
            content=translate(interaction.locale, "reply.unregistered",
                      amount=Phrase("chips.count", count=rt.sng.settings.buy_in)),
        )

    @tournament.command(name="start", description="Start now (the creator, 2+ registered)")
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        rt = self.here(interaction)
        if rt.sng.settings.multi_table:  # refused privately, at once, starting nothing
            require_thread_permissions(interaction)
        await acknowledge(interaction)  # refused privately; a multi-table start opens threads
        await self.tournaments.start_now(rt, interaction.user.id,
                                         is_manager=_is_manager(interaction))
        lang = rt.config.language
        await _announce(interaction, fit_text(started_text(lang, rt), locale=lang))

    @tournament.command(
        name="cancel",
        description=(
            "Cancel: creator/manager before the start (refunds); after it, a manager or all"
            " players still in"
        ),
    )
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        rt = self.here(interaction)
        registering = rt.sng.status is Status.REGISTERING
        await acknowledge(interaction)  # a refusal (not the creator) stays private
        done = await self.tournaments.cancel(rt, interaction.user.id,
                                             is_manager=_is_manager(interaction))
        if not registering:  # after the start: private, in the reader's language
            await interaction.edit_original_response(
                content=cancel_text(interaction.locale, rt, registering, done))
            return
        lang = rt.config.language  # before the start: public, the tournament's language
        await _announce(interaction, cancel_text(lang, rt, registering, done))

    @tournament.command(name="info", description="Payouts, blind levels and standings")
    async def info(self, interaction: discord.Interaction[Any]) -> None:
        rt = self.here(interaction)
        await interaction.response.send_message(
            describe(rt, interaction.locale), ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )


async def setup(bot: OmahaDealer) -> None:
    await bot.add_cog(Tournaments(bot.app.tournaments, bot.zones, bot.now))


__all__ = ["Tournaments", "describe", "setup"]
