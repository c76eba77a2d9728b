"""``/leaderboard``'s picture and its pager (Previous / Next under the picture).

What it ranks (:func:`choose_board`): the metric asked, else net won while a season runs
(:mod:`bot.adapter.seasons`), else the balances; over the season asked, else the period
asked, else the running season, else all time. The balances are never seasonal.

A leaderboard is public: it ranks the results its readers may all see
(:func:`bot.adapter.visibility.counted_channels`, recomputed at every page); balances are
the server's whole. Each page is drawn in the render processes
(:func:`bot.render.render_leaderboard_async`) in the server's language, with the members'
display names (the bot's remembered look-up).

Turning a page draws one: a member turns up to
:data:`~bot.adapter.cooldowns.PAGER_BURST` pages at once, then one every
``COMMAND_COOLDOWN`` seconds (:func:`bot.adapter.cooldowns.turn_page`); only the member
who asked may page.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.adapter.choices import METRIC_NAMES, PERIOD_NAMES
from bot.adapter.cooldowns import TooSoon, turn_page
from bot.adapter.hooks import TOKEN_LIFETIME, TOKEN_MARGIN
from bot.adapter.names import member_name
from bot.adapter.polite import PoliteView, defer_once, report, send_private
from bot.adapter.visibility import counted_channels
from bot.engine.variants import VARIANTS, game_name
from bot.i18n import Choice, Command, Name, Phrase, number, resolve, translate
from bot.render import LeaderboardRow, LeaderboardView, alt, render_leaderboard_async
from bot.storage import EconomyError, Metric, Period, Season

if TYPE_CHECKING:
    from bot.adapter.seasons import SeasonBook
    from bot.client import OmahaDealer
    from bot.economy import Economy

__all__ = ["PAGER_TIMEOUT", "PER_PAGE", "Board", "LeaderboardPager", "choose_board", "counted",
           "leaderboard_file", "window_name"]

PER_PAGE = 10
PAGER_TIMEOUT = 300.0

#: The value column's heading per metric (chips when not listed).
VALUE_LABELS = {
    Metric.HANDS_WON: "Hands", Metric.TOURNAMENT_WINS: "Wins",
    Metric.TOURNAMENT_CASHES: "Cashes", Metric.TOURNAMENT_ROI: "ROI",
}


@dataclass(frozen=True, slots=True)
class Board:
    """What a leaderboard ranks: a server's players by ``metric`` over ``season`` when
    given, else over ``period``."""

    guild_id: int
    metric: Metric
    period: Period
    variant: str | None
    season: Season | None = None


def choose_board(
    book: SeasonBook, guild_id: int, metric: Metric | None, period: Period | None,
    variant: str | None, season: str | None,
) -> Board:
    """What ``/leaderboard`` ranks (see the module docstring), or its polite refusal: a
    season and a period together, an unknown season, a balance with a season, variant
    or period. Read from memory: refused before anything is acknowledged."""
    if season is not None and period is not None:
        raise EconomyError(Phrase("refuse.season_or_period"))
    chosen = book.running(guild_id) if period is None else None
    if season is not None:
        chosen = book.named(guild_id, season)
        if chosen is None:
            raise EconomyError(Phrase("refuse.season.unknown", name=Name(season),
                                      show=Command("season show")))
    if metric is None:
        metric = Metric.BALANCE if chosen is None else Metric.NET_WON
    if metric is Metric.BALANCE:
        if season is not None:
            raise EconomyError(Phrase("refuse.balance_season"))
        if variant is not None or period not in (None, Period.ALL_TIME):
            raise EconomyError(Phrase("refuse.balance_filters"))
        chosen = None
    return Board(guild_id, metric, period or Period.ALL_TIME, variant, chosen)


def window_name(locale: object, board: Board) -> str:
    """``Season Spring 2027`` or ``This week`` in ``locale`` (plain text: pictures)."""
    if board.season is not None:
        return translate(locale, "leaderboard.season", name=board.season.name)
    return Choice(PERIOD_NAMES[board.period]).to(locale)


def _subtitle(locale: str, board: Board, total: int) -> str:
    """``All time · Big O · 12 players`` in ``locale``."""
    if board.metric is Metric.BALANCE:
        parts = [translate(locale, "leaderboard.current_balances")]
    else:
        parts = [window_name(locale, board)]
        if board.variant is not None:
            parts.append(Choice(game_name(VARIANTS[board.variant])).to(locale))
    parts.append(translate(locale, "players.count", count=total))
    return " · ".join(parts)


async def counted(
    economy: Economy, interaction: discord.Interaction[Any], board: Board, *,
    hands: bool = False,
) -> Collection[int] | None:
    """The channels whose results the public leaderboard counts (None: balances, the
    server's whole); with ``hands``, whose hands its graphs draw (a balance leaderboard's
    too: its graphs are each player's net over their hands)."""
    if board.metric is Metric.BALANCE and not hands:
        return None
    every = await economy.result_channels(board.guild_id)
    return counted_channels(interaction, every, public=True)


async def leaderboard_file(
    economy: Economy, interaction: discord.Interaction[Any], board: Board, page: int
) -> tuple[discord.File, int]:
    """The PNG of one page as a discord.File, and how many players are ranked."""
    client: OmahaDealer = interaction.client
    ranking = await economy.leaderboard(
        board.guild_id, board.metric, period=board.period, variant=board.variant, page=page,
        per_page=PER_PAGE, channels=await counted(economy, interaction, board),
        season=board.season)
    loc = resolve(interaction.guild_locale)  # a public picture: the server's language
    rows = []
    for row in ranking.rows:
        name = await client.display_name(interaction.guild, row.user_id)
        value: int | str = row.value
        if board.metric is Metric.TOURNAMENT_ROI:
            value = ("+" if row.value >= 0 else "") + number(loc, row.value) + "%"
        rows.append(LeaderboardRow(rank=row.rank, name=name, value=value))
    view = LeaderboardView(
        title=translate(loc, "leaderboard.title", metric=Choice(METRIC_NAMES[board.metric]),
                        server=interaction.guild.name if interaction.guild else ""),
        rows=tuple(rows),
        subtitle=_subtitle(loc, board, ranking.total),
        value_label=translate(
            loc, "leaderboard.value." + VALUE_LABELS.get(board.metric, "Chips").lower()),
        highlight=member_name(interaction.user),
        locale=loc,
    )
    png = await render_leaderboard_async(view)
    return discord.File(io.BytesIO(png), filename="leaderboard.png",
                        description=alt.leaderboard(view)), ranking.total


class LeaderboardPager(PoliteView):
    """Previous/Next buttons under a leaderboard image; only its requester may page.

    Every edit goes through the latest interaction's token (the command's, then each
    click's): a token lives 15 minutes and the pager may be paged for longer, so its
    timeout never edits through the command's. A token too old even so (not expected:
    the pager times out 5 minutes after the last click) leaves the channel route."""

    def __init__(
        self, economy: Economy, board: Board, *, owner_id: int, total: int, page: int = 0,
        locale: object = None,
    ) -> None:
        super().__init__(timeout=PAGER_TIMEOUT)
        self.economy = economy
        self.board = board
        self.locale = locale  # the requester's: a command's reply speaks its user's language
        self.previous.label = translate(locale, "button.previous")
        self.next.label = translate(locale, "button.next")
        self.owner_id = owner_id
        self.page = page
        self.total = total
        self.message: discord.InteractionMessage | None = None
        #: The latest interaction on the pager (the command's, then each click's) and
        #: until when (the event loop's clock) its token may be used.
        self.latest: discord.Interaction[Any] | None = None
        self.until = 0.0
        self._sync_buttons()

    def follow(self, interaction: discord.Interaction[Any]) -> None:
        """``interaction`` is the latest on the pager: later edits go through its token."""
        self.latest = interaction
        self.until = asyncio.get_running_loop().time() + TOKEN_LIFETIME - TOKEN_MARGIN

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // PER_PAGE))

    def _sync_buttons(self) -> None:
        self.previous.disabled = self.page <= 0
        self.next.disabled = self.page >= self.pages - 1
        self.where.label = translate(getattr(self, "locale", None), "button.page",
                                     page=self.page + 1, count=self.pages)

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        if interaction.user.id != self.owner_id:
            await send_private(interaction, translate(
                interaction.locale, "refuse.not_your_pager", command=Command("leaderboard")))
            return False
        return True

    async def _turn(self, interaction: discord.Interaction[Any], step: int) -> None:
        client: OmahaDealer = interaction.client
        try:
            turn_page(client.cooldowns, interaction)
        except TooSoon as soon:  # at once, privately: the page stays as it is
            await report(interaction, soon)
            return
        await defer_once(interaction)
        self.follow(interaction)
        self.page = max(0, min(self.pages - 1, self.page + step))
        file, total = await leaderboard_file(self.economy, interaction, self.board, self.page)
        self.total = total
        self._sync_buttons()
        await interaction.edit_original_response(attachments=[file], view=self)

    @discord.ui.button(label="◀", style=discord.ButtonStyle.secondary, custom_id="lb:prev")
    async def previous(
        self, interaction: discord.Interaction[Any], button: discord.ui.Button[LeaderboardPager]
    ) -> None:
        await self._turn(interaction, -1)

    @discord.ui.button(label="…", style=discord.ButtonStyle.secondary, disabled=True,
                       custom_id="lb:page")
    async def where(
        self, interaction: discord.Interaction[Any], button: discord.ui.Button[LeaderboardPager]
    ) -> None:  # a label, never clickable
        await defer_once(interaction)

    @discord.ui.button(label="▶", style=discord.ButtonStyle.secondary, custom_id="lb:next")
    async def next(
        self, interaction: discord.Interaction[Any], button: discord.ui.Button[LeaderboardPager]
    ) -> None:
        await self._turn(interaction, +1)

    async def on_timeout(self) -> None:
        for item in self.children:
            if isinstance(item, discord.ui.Button):
                item.disabled = True
        latest, message = self.latest, self.message
        try:
            if latest is not None and asyncio.get_running_loop().time() < self.until:
                await latest.edit_original_response(view=self)
            elif message is not None and latest is not None:  # the channel's route
                channel = latest.client.get_partial_messageable(message.channel.id)
                await channel.get_partial_message(message.id).edit(view=self)
        except discord.HTTPException:
            pass
