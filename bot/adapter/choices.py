"""Slash-command choices that several cogs or commands offer: the game, the betting
structure, the leaderboard's metric and the period of ``/leaderboard`` and ``/stats``.

One list each, named by :func:`bot.engine.variants.game_name` and
:func:`~bot.engine.variants.structure_name`, the helpers every answer uses too
(the table's title, ``/tournament info``, ``/stats``, ``/leaderboard``), so a
game has one name wherever it appears and no cog imports another cog's module
for them.
"""

from __future__ import annotations

from discord import app_commands

from bot.engine.variants import VARIANTS, Structure, game_name, structure_name
from bot.storage import Metric, Period

#: Every game, valued by its variant key (``omaha``, ``omaha_hilo``, ``big_o``...).
VARIANT_CHOICES: list[app_commands.Choice[str]] = [
    app_commands.Choice(name=game_name(variant), value=key) for key, variant in VARIANTS.items()
]

#: Every betting structure, shown as ``Pot Limit``..., valued ``pot limit``, ``no limit``...
STRUCTURE_CHOICES: list[app_commands.Choice[str]] = [
    app_commands.Choice(name=structure_name(s), value=s.value) for s in Structure
]

#: How a mixed table's games follow each other (RULES.md 11), valued as ``bot.runtime.mix.Mode``.
MODE_CHOICES: list[app_commands.Choice[str]] = [
    app_commands.Choice(name="Rotation", value="rotation"),
    app_commands.Choice(name="Dealer's choice", value="dealer's choice"),
]

#: What ``/leaderboard`` ranks by, named as players read it.
METRIC_NAMES = {
    Metric.BALANCE: "Balance",
    Metric.NET_WON: "Net won",
    Metric.BIGGEST_POT: "Biggest pot",
    Metric.HANDS_WON: "Hands won",
    Metric.TOURNAMENT_WINS: "Tournament wins",
    Metric.TOURNAMENT_CASHES: "Tournament cashes",
    Metric.TOURNAMENT_PROFIT: "Tournament profit",
    Metric.TOURNAMENT_ROI: "Tournament ROI",
}

#: Since when ``/leaderboard`` and ``/stats`` count (weeks and months in UTC).
PERIOD_NAMES = {Period.ALL_TIME: "All time", Period.WEEK: "This week", Period.MONTH: "This month"}

METRIC_CHOICES = [app_commands.Choice(name=v, value=k.value) for k, v in METRIC_NAMES.items()]
PERIOD_CHOICES = [app_commands.Choice(name=v, value=k.value) for k, v in PERIOD_NAMES.items()]

__all__ = ["METRIC_CHOICES", "METRIC_NAMES", "MODE_CHOICES", "PERIOD_CHOICES", "PERIOD_NAMES",
           "STRUCTURE_CHOICES", "VARIANT_CHOICES"]
