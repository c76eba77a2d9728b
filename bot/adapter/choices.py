"""Slash-command choices that several cogs offer: the game and the betting structure.

One list each, named by :func:`bot.engine.variants.game_name` and
:func:`~bot.engine.variants.structure_name`, the helpers every answer uses too
(the table's title, ``/tournament info``, ``/stats``, ``/leaderboard``), so a
game has one name wherever it appears and no cog imports another cog's module
for them.
"""

from __future__ import annotations

from discord import app_commands

from bot.engine.variants import VARIANTS, Structure, game_name, structure_name

#: Every game, valued by its variant key (``omaha``, ``omaha_hilo``, ``big_o``...).
VARIANT_CHOICES: list[app_commands.Choice[str]] = [
    app_commands.Choice(name=game_name(variant), value=key) for key, variant in VARIANTS.items()
]

#: Every betting structure, shown as ``Pot Limit``..., valued ``pot limit``, ``no limit``...
STRUCTURE_CHOICES: list[app_commands.Choice[str]] = [
    app_commands.Choice(name=structure_name(s), value=s.value) for s in Structure
]

__all__ = ["STRUCTURE_CHOICES", "VARIANT_CHOICES"]
