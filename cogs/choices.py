"""Slash-command choices that several cogs offer: the game and the betting structure.

One list each, named as the engine names them (:data:`bot.engine.variants.VARIANTS`,
:class:`bot.engine.variants.Structure`), so ``/table create``, ``/tournament
create``, ``/leaderboard`` and ``/stats`` show the same words for the same game
and no cog imports another cog's module for them.
"""

from __future__ import annotations

from discord import app_commands

from bot.engine.variants import VARIANTS, Structure

#: Every game, valued by its variant key (``omaha``, ``omaha_hilo``, ``big_o``...).
VARIANT_CHOICES: list[app_commands.Choice[str]] = [
    app_commands.Choice(name=variant.name, value=key) for key, variant in VARIANTS.items()
]

#: Every betting structure, valued by its name (``pot limit``, ``no limit``, ``fixed limit``).
STRUCTURE_CHOICES: list[app_commands.Choice[str]] = [
    app_commands.Choice(name=s.value, value=s.value) for s in Structure
]

__all__ = ["STRUCTURE_CHOICES", "VARIANT_CHOICES"]
