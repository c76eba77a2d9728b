"""Economy commands: balances, the daily bonus, leaderboards, statistics, manager tools.

    /balance [user] [public]                 a player's chips (your own: only to you)
    /daily                                   the daily bonus (streaks), only to you
    /leaderboard [metric] [variant] [period] [graphs] [season]  an image, paged; the top's
                                             graphs (bot.adapter.leaderboard; a season's
                                             standings by default while one runs)
    /stats [user] [variant] [period] [public]  figures and a graph of the results
                                             (both: COMMAND_COOLDOWN per member,
                                             bot.adapter.cooldowns)
    /chips grant|remove user amount reason   server managers (Manage Server)
    /economy settings [...]                  server managers: show or change the rules

Who sees what (issue 29, :mod:`bot.adapter.visibility`): another member's statistics and
graphs and the leaderboards are public answers, so they count only the hands and
tournaments of channels everyone reading this channel may view; a member's own
statistics answered to them alone count all their hands; balances are the server's
whole. A public answer is posted only where the member may post it themselves (Send
Messages, Attach Files for a picture: :func:`bot.adapter.permissions.require_member_post`),
else refused privately before anything is drawn.

Amounts are typed as text so that every mistake gets a clear answer instead
of the client's silent refusal (:func:`bot.adapter.amounts.parse_amount`). The rules
themselves (balances, the ledger) live in :class:`bot.economy.Economy`;
nothing here touches the database directly.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.amounts import parse_amount
from bot.adapter.choices import (
    METRIC_CHOICES,
    METRIC_NAMES,
    PERIOD_CHOICES,
    PERIOD_NAMES,
    VARIANT_CHOICES,
)
from bot.adapter.cooldowns import take_turn
from bot.adapter.leaderboard import (
    LeaderboardPager,
    choose_board,
    counted,
    leaderboard_file,
    window_name,
)
from bot.adapter.limits import EMBED_TITLE, clip
from bot.adapter.names import member_name
from bot.adapter.permissions import require_member_post
from bot.adapter.polite import acknowledge, announce, defer_once
from bot.adapter.seasons import season_choices
from bot.adapter.stats_graphs import stats_file, top_file
from bot.adapter.visibility import counted_channels
from bot.engine.variants import VARIANTS, game_name
from bot.i18n import Choice, Name, Phrase, number, resolve, translate
from bot.storage import EconomyError, Metric, Period

if TYPE_CHECKING:
    from bot.client import OmahaDealer
    from bot.economy import Economy


def _guild_id(interaction: discord.Interaction[Any]) -> int:
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.guild_id


def _refuse_bot(user: discord.abc.User) -> None:
    if user.bot:
        raise EconomyError(Phrase("refuse.bot_player", name=Name(member_name(user))))


def _private(
    interaction: discord.Interaction[Any], target: discord.abc.User, public: bool
) -> bool:
    """A player's own balance or statistics go only to them unless they ask to show them;
    another player's are answered in the channel, as a leaderboard would show them."""
    return target.id == interaction.user.id and not public


def _when(timestamp: float) -> str:
    return discord.utils.format_dt(datetime.fromtimestamp(timestamp, tz=UTC), "R")


def _signed(locale: object, n: int) -> str:
    """``+1,234`` / ``-56`` / ``0`` with the locale's thousands separator."""
    return ("+" if n > 0 else "") + number(locale, n)


def _stats_embed(locale: object, name: str, variant_key: str | None, s: Any) -> discord.Embed:
    """/stats: the player's cash-game figures, in the reader's language and number style."""
    game = (Choice(game_name(VARIANTS[variant_key])).to(locale) if variant_key
            else translate(locale, "stats.all_games"))
    title = clip(f"{Name(name).to(locale)}: {game}", EMBED_TITLE)
    embed = discord.Embed(title=title, colour=discord.Colour.green())
    if not s.hands_played:
        embed.description = translate(locale, "stats.none")
        return embed
    won_pct = round(100 * s.hands_won / s.hands_played)
    sd = (translate(locale, "stats.of", part=s.showdowns_won, whole=s.showdowns) if s.showdowns
          else translate(locale, "stats.none_yet"))
    fields = (
        ("stats.hands_played", number(locale, s.hands_played)),
        ("stats.hands_won", translate(locale, "stats.count_pct", count=s.hands_won, pct=won_pct)),
        ("stats.net", translate(locale, "stats.chips", chips=_signed(locale, s.net))),
        ("stats.biggest_pot", translate(locale, "chips.count", count=s.biggest_pot)),
        ("stats.vpip_pfr", translate(locale, "stats.pcts", vpip=round(100 * s.vpip),
                                     pfr=round(100 * s.pfr))),
        ("stats.showdowns_won", sd),
    )
    for key, value in fields:
        embed.add_field(name=translate(locale, key), value=value)
    return embed


class ChipsGroup(
    app_commands.Group, name="chips", description="Give or take chips (managers)",
    guild_only=True, default_permissions=discord.Permissions(manage_guild=True),
):
    """/chips grant and /chips remove."""

    def __init__(self, cog: EconomyCog) -> None:
        super().__init__()
        self.cog = cog

    @app_commands.command(name="grant", description="Give chips to a player; the reason is kept")
    @app_commands.describe(user="Who gets the chips", amount="Chips to give, e.g. 5000 or 5k",
                           reason="Why, kept in the ledger")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def grant(
        self, interaction: discord.Interaction[Any], user: discord.Member, amount: str,
        reason: str,
    ) -> None:
        await self._move(interaction, user, amount, reason, grant=True)

    @app_commands.command(name="remove", description="Take chips from a player; the reason is kept")
    @app_commands.describe(user="Whose chips", amount="Chips to take, e.g. 5000 or 5k",
                           reason="Why, kept in the ledger")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def remove(
        self, interaction: discord.Interaction[Any], user: discord.Member, amount: str,
        reason: str,
    ) -> None:
        await self._move(interaction, user, amount, reason, grant=False)

    async def _move(
        self, interaction: discord.Interaction[Any], user: discord.Member, amount: str,
        reason: str, *, grant: bool,
    ) -> None:
        """Grant or remove chips through the ledger, with the reason kept, and say so."""
        guild_id = _guild_id(interaction)
        _refuse_bot(user)
        chips_ = parse_amount(amount)
        economy = self.cog.economy
        move = economy.grant if grant else economy.remove
        await acknowledge(interaction)  # a removal may be refused by the balance it finds
        balance = await move(guild_id, user.id, chips_, actor_id=interaction.user.id, reason=reason)
        locale = interaction.locale
        await announce(interaction, translate(
            locale, "reply.chips_given" if grant else "reply.chips_taken",
            amount=Phrase("chips.count", count=chips_), user=user.mention,
            reason=reason.strip(), balance=Phrase("chips.count", count=balance)),
            allowed_mentions=discord.AllowedMentions.none(),
        )


class EconomyGroup(
    app_commands.Group, name="economy", description="Economy rules (managers)",
    guild_only=True, default_permissions=discord.Permissions(manage_guild=True),
):
    """/economy settings."""

    def __init__(self, cog: EconomyCog) -> None:
        super().__init__()
        self.cog = cog

    @app_commands.command(name="settings", description="Show or change this server's economy")
    @app_commands.describe(
        starting_balance="Chips a new player starts with (default unchanged)",
        daily_base="Daily bonus in chips on the first day of a streak (default unchanged)",
        daily_step="Extra chips per day of streak (default unchanged)",
        daily_max_streak="Days after which the daily bonus stops growing (default unchanged)",
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def settings(
        self, interaction: discord.Interaction[Any], starting_balance: str | None = None,
        daily_base: str | None = None, daily_step: str | None = None,
        daily_max_streak: app_commands.Range[int, 1, 3650] | None = None,
    ) -> None:
        guild_id = _guild_id(interaction)
        economy = self.cog.economy
        changes: dict[str, int] = {}
        if starting_balance is not None:
            text = starting_balance.strip()
            # A starting balance of zero is allowed (players then live on /daily).
            changes["starting_balance"] = (
                0 if text in ("0", "-0") else parse_amount(text, "starting balance")
            )
        if daily_base is not None:
            changes["daily_base"] = parse_amount(daily_base, "daily bonus")
        if daily_step is not None:
            text = daily_step.strip()
            changes["daily_step"] = 0 if text in ("0", "-0") else parse_amount(text, "daily step")
        if daily_max_streak is not None:
            changes["daily_max_streak"] = daily_max_streak
        await acknowledge(interaction)
        if changes:
            current = await economy.update_settings(guild_id, **changes)
            key = "reply.economy_updated"
        else:
            current = await economy.settings(guild_id)
            key = "reply.economy_settings"
        top = current.daily_base + current.daily_step * (current.daily_max_streak - 1)
        locale = interaction.locale
        await interaction.edit_original_response(content=translate(
            locale, key, start=Phrase("chips.count", count=current.starting_balance),
            base=Phrase("chips.count", count=current.daily_base),
            step=Phrase("chips.count", count=current.daily_step),
            top=Phrase("chips.count", count=top), day=current.daily_max_streak,
        ))


class EconomyCog(commands.Cog, name="Economy"):
    """Chips: balance, daily bonus, leaderboard, statistics, manager tools."""

    def __init__(self, bot: OmahaDealer, economy: Economy) -> None:
        self.bot = bot  # its command tree (for the groups) and display names
        self.economy = economy
        self.chips_group = ChipsGroup(self)
        self.economy_group = EconomyGroup(self)

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.chips_group)
        self.bot.tree.add_command(self.economy_group)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.chips_group.name)
        self.bot.tree.remove_command(self.economy_group.name)

    # -- /balance ------------------------------------------------------------------
    @app_commands.command(name="balance", description="Show a player's chips in this server")
    @app_commands.describe(user="Whose balance (default yours)",
                           public="Show your own balance to the channel (default no: only you)")
    @app_commands.guild_only()
    async def balance(
        self, interaction: discord.Interaction[Any], user: discord.Member | None = None,
        public: bool = False,
    ) -> None:
        guild_id = _guild_id(interaction)
        target = user or interaction.user
        _refuse_bot(target)
        private = _private(interaction, target, public)
        if not private:
            require_member_post(interaction, files=False)
        await acknowledge(interaction, private=private)
        amount = await self.economy.balance(guild_id, target.id)
        # a private reply in the asker's language; a public one in the server's
        locale = interaction.locale if private else interaction.guild_locale
        if target.id == interaction.user.id:
            text = translate(locale, "balance.yours", count=amount)
        else:
            text = translate(locale, "balance.theirs", count=amount,
                             name=Name(member_name(target)))
        await interaction.edit_original_response(content=text)

    # -- /daily --------------------------------------------------------------------
    @app_commands.command(name="daily", description="Claim your daily bonus")
    @app_commands.guild_only()
    async def daily(self, interaction: discord.Interaction[Any]) -> None:
        guild_id = _guild_id(interaction)
        await acknowledge(interaction)  # "already claimed" is known only after the database
        claim = await self.economy.claim_daily(guild_id, interaction.user.id)
        locale = interaction.locale
        streak = (translate(locale, "daily.streak", day=str(claim.streak)) if claim.streak > 1
                  else translate(locale, "daily.first_day"))
        # only to the player (issue 23): a balance is theirs to show (/balance public)
        await interaction.edit_original_response(content=translate(
            locale, "daily.claimed", bonus=translate(locale, "chips.count", count=claim.amount),
            streak=streak, balance=translate(locale, "chips.count", count=claim.balance),
            next=_when(claim.next_at)))

    # -- /leaderboard ----------------------------------------------------------------
    @app_commands.command(name="leaderboard", description="The server's best players, as an image")
    @app_commands.describe(
        metric="What to rank by (default Net won during a season, else Balance)",
        variant="Only this game, not for balance (default all games)",
        period="Since when, not for balance (default the running season, else All time)",
        graphs="The top players' results as graphs too (default no)",
        season="A season's standings, not for balance (default the running season)")
    @app_commands.choices(metric=METRIC_CHOICES, variant=VARIANT_CHOICES, period=PERIOD_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(
        self, interaction: discord.Interaction[Any],
        metric: app_commands.Choice[str] | None = None,
        variant: app_commands.Choice[str] | None = None,
        period: app_commands.Choice[str] | None = None, graphs: bool = False,
        season: str | None = None,
    ) -> None:
        board = choose_board(self.bot.seasons, _guild_id(interaction),
                             Metric(metric.value) if metric else None,
                             Period(period.value) if period else None,
                             variant.value if variant else None, season)
        require_member_post(interaction, files=True)  # a public picture, in the member's name
        take_turn(self.bot.cooldowns, interaction, "leaderboard")
        await defer_once(interaction, thinking=True)
        file, total = await leaderboard_file(self.economy, interaction, board, 0)
        pager = LeaderboardPager(self.economy, board, owner_id=interaction.user.id, total=total,
                                 locale=interaction.locale)
        pager.follow(interaction)
        pager.message = await interaction.edit_original_response(
            attachments=[file], view=pager if pager.pages > 1 else None
        )
        if graphs:  # a message of their own: the pager replaces the leaderboard's picture
            loc = resolve(interaction.guild_locale)  # public, as the leaderboard
            picture = await top_file(
                self.economy, lambda u: self.bot.display_name(interaction.guild, u),
                board, channels=await counted(self.economy, interaction, board, hands=True),
                metric_name=Choice(METRIC_NAMES[board.metric]).to(loc),
                period_name=window_name(loc, board), locale=loc)
            if picture is not None:
                await interaction.followup.send(file=picture)

    @leaderboard.autocomplete("season")
    async def _seasons(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """This server's seasons, newest first."""
        return season_choices(self.bot.seasons, interaction, current)

    # -- /stats ----------------------------------------------------------------------
    @app_commands.command(name="stats", description="A player's poker statistics in this server")
    @app_commands.describe(user="Whose statistics (default yours)",
                           variant="Only this game (default all games)",
                           period="Since when (default All time)",
                           public="Show your own statistics to the channel (default no: only you)")
    @app_commands.choices(variant=VARIANT_CHOICES, period=PERIOD_CHOICES)
    @app_commands.guild_only()
    async def stats(
        self, interaction: discord.Interaction[Any], user: discord.Member | None = None,
        variant: app_commands.Choice[str] | None = None,
        period: app_commands.Choice[str] | None = None, public: bool = False,
    ) -> None:
        guild_id = _guild_id(interaction)
        target = user or interaction.user
        _refuse_bot(target)
        variant_key = variant.value if variant else None
        period_ = Period(period.value) if period else Period.ALL_TIME
        private = _private(interaction, target, public)
        if not private:
            require_member_post(interaction, files=True)
        take_turn(self.bot.cooldowns, interaction, "stats")
        await acknowledge(interaction, private=private)
        # one's own figures, to oneself: every hand (bot.adapter.visibility); else what
        # the channel's readers may all see
        channels = None if private else counted_channels(
            interaction, await self.economy.result_channels(guild_id), public=True)
        s = await self.economy.stats(guild_id, target.id, variant=variant_key, period=period_,
                                     channels=channels)
        lc = resolve(interaction.locale)
        embed = _stats_embed(lc, member_name(target), variant_key, s)
        t = await self.economy.tournament_stats(guild_id, target.id, period=period_,
                                                channels=channels)
        if t.played:
            embed.add_field(name=translate(lc, "stats.sngs"), inline=False, value=translate(
                lc, "stats.sngs_value", played=t.played, wins=t.wins, cashes=t.cashes,
                profit=_signed(lc, t.profit), roi=_signed(lc, round(100 * t.roi))))
        game = (Choice(game_name(VARIANTS[variant_key])).to(lc) if variant_key
                else translate(lc, "stats.all_games"))
        picture = await stats_file(
            self.economy, guild_id, target.id, member_name(target), variant=variant_key,
            game=game, period=period_, period_name=Choice(PERIOD_NAMES[period_]).to(lc),
            locale=lc, channels=channels)
        if picture is None:
            await interaction.edit_original_response(embed=embed)
            return
        embed.set_image(url=f"attachment://{picture.filename}")
        await interaction.edit_original_response(embed=embed, attachments=[picture])


async def setup(bot: OmahaDealer) -> None:
    await bot.add_cog(EconomyCog(bot, bot.app.economy))
