"""The night's ledger and seasons (issue 32).

    /table ledger [export] [public]   this channel's cash table's session: each player's
                                      buy-ins, top-ups, cash-outs, stack and net (its last
                                      session once closed; export: a CSV file too)
    /table session new                a new session (the table's creator or Manage Server)
    /season start name                Manage Server: a new season now (the running one ends)
    /season show [name]               a season's dates and its top three (default the
                                      running one), privately

``/table ledger`` and ``/table session`` join the Tables cog's ``/table`` group when this
cog loads (after ``cogs.table``: :data:`bot.client.EXTENSIONS`); without that group the
seasons still work. The figures come from the chip ledger (:mod:`bot.storage.sessions`,
worded by :mod:`bot.adapter.night_ledger`); the seasons from the bot's memory of them
(:mod:`bot.adapter.seasons`), so their refusals come before any wait.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.actions import acknowledge, reply_private
from bot.adapter.names import member_name
from bot.adapter.night_ledger import ledger_file, ledger_names, ledger_text
from bot.adapter.permissions import require_member_post
from bot.adapter.polite import announce
from bot.adapter.seasons import season_choices, season_text
from bot.adapter.visibility import counted_channels
from bot.i18n import Command, Name, Phrase, translate
from bot.storage import EconomyError, TableRecordError
from bot.storage.seasons import MAX_NAME, season_name

if TYPE_CHECKING:
    from bot.client import OmahaDealer

log = logging.getLogger(__name__)


def _guild_id(interaction: discord.Interaction[Any]) -> int:
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.guild_id


class SessionGroup(app_commands.Group, name="session",
                   description="Sessions of the night's ledger"):
    """/table session new."""

    def __init__(self, cog: Ledger) -> None:
        super().__init__()
        self.cog = cog

    @app_commands.command(name="new",
                          description="Start a new ledger session (creator or manager)")
    async def new(self, interaction: discord.Interaction[Any]) -> None:
        await self.cog.new_session(interaction)


class TableExtras(app_commands.Group, name="table", description="Omaha cash tables"):
    """Holds ``/table ledger`` until the cog moves it into the real ``/table`` group (this
    group itself is never in the tree)."""

    def __init__(self, cog: Ledger) -> None:
        super().__init__()
        self.cog = cog

    @app_commands.command(name="ledger", description=(
        "This session's ledger: buy-ins, cash-outs and net per player"))
    @app_commands.describe(export="Attach it as a CSV file too (default no)",
                           public="Show it to the channel (default no: only you)")
    async def ledger(
        self, interaction: discord.Interaction[Any], export: bool = False, public: bool = False,
    ) -> None:
        await self.cog.show_ledger(interaction, export=export, public=public)


class Ledger(commands.Cog, name="Ledger"):
    """The night's ledger of cash tables, and seasons of the leaderboards."""

    season = app_commands.Group(name="season", description="Seasons of the leaderboards",
                                guild_only=True)

    def __init__(self, bot: OmahaDealer) -> None:
        self.bot = bot
        self.extras = TableExtras(self)
        self.sessions = SessionGroup(self)
        self._attached: app_commands.Group | None = None

    async def cog_load(self) -> None:
        table = self.bot.tree.get_command("table")
        if not isinstance(table, app_commands.Group):
            log.warning("no /table group: /table ledger and /table session are not offered")
            return
        ledger = self.extras.get_command("ledger")
        assert ledger is not None
        table.add_command(ledger)
        table.add_command(self.sessions)
        self._attached = table

    async def cog_unload(self) -> None:
        if self._attached is not None:
            self._attached.remove_command("ledger")
            self._attached.remove_command("session")

    # -- the night's ledger ------------------------------------------------------------
    async def show_ledger(
        self, interaction: discord.Interaction[Any], *, export: bool, public: bool,
    ) -> None:
        """The session of this channel's cash table (its last one once closed)."""
        if interaction.channel_id is None:
            raise app_commands.NoPrivateMessage()
        if public:
            require_member_post(interaction, files=export)
        await acknowledge(interaction)  # "no table here" is known after the database
        economy = self.bot.app.economy
        table_id = await economy.ledger_table(interaction.channel_id)
        if table_id is None:
            raise TableRecordError(Phrase("refuse.ledger.none", create=Command("table create")))
        ledger = await economy.session_ledger(table_id)
        names = await ledger_names(self.bot, interaction.guild, ledger)
        locale = interaction.guild_locale if public else interaction.locale
        text = ledger_text(ledger, names, locale)
        if not public:
            files = [ledger_file(ledger, names, locale)] if export else []
            await interaction.edit_original_response(content=text, attachments=files)
            return
        await announce(interaction, text)
        if export:
            await interaction.followup.send(file=ledger_file(ledger, names, locale))

    async def new_session(self, interaction: discord.Interaction[Any]) -> None:
        """End this channel's cash table's session and start the next; the ended one is
        posted in the channel, in the table's language."""
        table = self.bot.table_actions.here(interaction)
        table.check_allowed(interaction.user.id, bool(interaction.permissions.manage_guild),
                            "session")
        await acknowledge(interaction)  # a tournament's table is refused by the database
        ended = await self.bot.app.economy.new_session(table.table_id, interaction.user.id)
        names = await ledger_names(self.bot, interaction.guild, ended)
        lang = table.config.language
        lead = translate(lang, "ledger.session_new", name=Name(member_name(interaction.user)),
                         number=ended.number + 1)
        await announce(interaction, ledger_text(ended, names, lang, lead=lead))

    # -- seasons -------------------------------------------------------------------------
    @season.command(name="start", description="Start a new season (managers)")
    @app_commands.describe(name="The season's name, e.g. Spring 2027")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def start(
        self, interaction: discord.Interaction[Any],
        name: app_commands.Range[str, 1, MAX_NAME],
    ) -> None:
        guild_id = _guild_id(interaction)
        chosen = season_name(name)
        if self.bot.seasons.named(guild_id, chosen) is not None:
            raise EconomyError(Phrase("refuse.season.name_taken", name=Name(chosen)))
        await acknowledge(interaction)
        new, ended = await self.bot.seasons.start(guild_id, chosen, interaction.user.id)
        locale = interaction.guild_locale  # a public announcement: the server's language
        text = translate(locale, "season.started", name=Name(new.name),
                         leaderboard=Command("leaderboard"))
        if ended is not None:
            text += "\n" + translate(locale, "season.ended", name=Name(ended.name),
                                     show=Command("season show"))
        await announce(interaction, text)

    @season.command(name="show", description="A season's dates and its top three")
    @app_commands.describe(name="Which season (default the running one)")
    async def show(self, interaction: discord.Interaction[Any], name: str | None = None) -> None:
        guild_id = _guild_id(interaction)
        book = self.bot.seasons
        season = book.running(guild_id) if name is None else book.named(guild_id, name)
        if season is None and name is not None:
            raise EconomyError(Phrase("refuse.season.unknown", name=Name(name),
                                      show=Command("season show")))
        if season is None:
            await reply_private(interaction, Phrase("season.none",
                                                    start=Command("season start")))
            return
        await acknowledge(interaction)
        economy = self.bot.app.economy
        # a private answer: the results of the channels the member may view
        channels = counted_channels(interaction, await economy.result_channels(guild_id),
                                    public=False)
        await reply_private(interaction, await season_text(self.bot, interaction, season,
                                                           channels))

    @show.autocomplete("name")
    async def _season_names(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return season_choices(self.bot.seasons, interaction, current)


async def setup(bot: OmahaDealer) -> None:
    await bot.add_cog(Ledger(bot))
