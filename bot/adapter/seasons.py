"""Seasons on Discord: the servers' seasons in memory, their names offered, ``/season show``.

The seasons are read once at start (:meth:`SeasonBook.load`) and ``/season start`` writes
through :meth:`SeasonBook.start`: a server's commands run in one process
(:mod:`bot.sharding`), so this copy is the truth for the servers it serves, and
``/leaderboard`` knows the season it ranks (and refuses an unknown one) before it is
acknowledged, without a database wait.

What a season's standing measures (``/help`` says it): the leaderboard's metrics counted
over the results that ended in the season (:mod:`bot.storage.stats`): net won, biggest pot
and hands won from the hands settled in it (net won and biggest pot: cash hands only), the
tournament metrics from the sit-and-gos that ended in it. The balance is not seasonal.
``/season show`` names the top three of the two main standings: net won at cash tables and
tournament profit.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.adapter.choices import METRIC_NAMES
from bot.i18n import Choice, Command, Name, listed, number, translate
from bot.storage import Metric, Season
from bot.storage.seasons import SeasonRepo

if TYPE_CHECKING:
    from bot.client import OmahaDealer

__all__ = ["STANDINGS", "SeasonBook", "season_choices", "season_text"]

#: The standings ``/season show`` names the top three of.
STANDINGS = (Metric.NET_WON, Metric.TOURNAMENT_PROFIT)
#: How many other seasons ``/season show`` names at its end.
OTHERS_SHOWN = 10


class SeasonBook:
    """The seasons of the servers this process serves."""

    def __init__(self) -> None:
        self._of: dict[int, list[Season]] = {}  # guild -> its seasons, newest first
        self._repo: SeasonRepo | None = None

    async def load(self, repo: SeasonRepo) -> None:
        """Read every season (at start) and write through ``repo`` from now on."""
        self._repo = repo
        self._of = {}
        for season in await repo.every():
            self._of.setdefault(season.guild_id, []).insert(0, season)

    def of(self, guild_id: int) -> list[Season]:
        """The server's seasons, newest first."""
        return list(self._of.get(guild_id, ()))

    def running(self, guild_id: int) -> Season | None:
        return next((s for s in self._of.get(guild_id, ()) if s.running), None)

    def named(self, guild_id: int, name: str) -> Season | None:
        """The server's season of that name (any case, spaces tidied)."""
        key = " ".join(name.split()).casefold()
        return next((s for s in self._of.get(guild_id, ()) if s.name.casefold() == key), None)

    async def start(self, guild_id: int, name: str, started_by: int) -> tuple[Season,
                                                                             Season | None]:
        """Start season ``name`` now (the running one ends); ``(it, the one it ended)``."""
        if self._repo is None:
            raise RuntimeError("the seasons were not loaded")
        new, ended = await self._repo.start(guild_id, name, started_by)
        kept = [ended if ended is not None and s.id == ended.id else s
                for s in self._of.get(guild_id, ())]
        self._of[guild_id] = [new, *kept]
        return new, ended


def season_choices(
    book: SeasonBook, interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The server's seasons whose name holds what is typed, newest first (at most 25)."""
    if interaction.guild_id is None:
        return []
    typed = current.strip().casefold()
    return [app_commands.Choice(name=s.name, value=s.name)
            for s in book.of(interaction.guild_id) if typed in s.name.casefold()][:25]


def _moment(at: float) -> str:
    return f"<t:{int(at)}:D>"


async def _top(
    client: OmahaDealer, guild: discord.Guild | None, season: Season, metric: Metric,
    channels: Collection[int] | None, locale: object,
) -> str:
    """``Net won: 1. **A** +1,200 · 2. …`` (the first three of the standing)."""
    page = await client.app.economy.leaderboard(season.guild_id, metric, per_page=3,
                                                season=season, channels=channels)
    ranked = [translate(locale, "season.place", rank=str(r.rank),
                        name=Name(await client.display_name(guild, r.user_id)),
                        value=("+" if r.value > 0 else "") + number(locale, r.value))
              for r in page.rows]
    return translate(locale, "season.standing", metric=Choice(METRIC_NAMES[metric]),
                     top=" · ".join(ranked) if ranked else translate(locale, "season.nobody"))


async def season_text(
    client: OmahaDealer, interaction: discord.Interaction[Any], season: Season,
    channels: Collection[int] | None,
) -> str:
    """``/season show``: the season's dates, its top three of each standing (over the
    results in ``channels``) and the server's other seasons, in the reader's language."""
    locale = interaction.locale
    if season.ended_at is None:
        head = translate(locale, "season.head_running", name=Name(season.name),
                         since=_moment(season.started_at))
    else:
        head = translate(locale, "season.head_over", name=Name(season.name),
                         since=_moment(season.started_at), until=_moment(season.ended_at))
    lines = [head] + [await _top(client, interaction.guild, season, metric, channels, locale)
                      for metric in STANDINGS]
    others = [s.name for s in client.seasons.of(season.guild_id) if s.id != season.id]
    if others:
        lines.append(translate(locale, "season.others",
                               names=listed(locale, [Name(n) for n in others[:OTHERS_SHOWN]]),
                               show=Command("season show")))
    return "\n".join(lines)
