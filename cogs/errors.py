"""The extension that answers slash-command errors politely.

It installs :func:`bot.adapter.polite.report` as the command tree's error handler:
domain refusals are worded in the reader's language, bugs are logged and
apologised for (see :mod:`bot.adapter.polite`). Buttons and modals do not go
through the tree: their views derive from :class:`~bot.adapter.polite.PoliteView` /
:class:`~bot.adapter.polite.PoliteModal`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.polite import report

if TYPE_CHECKING:
    from bot.client import OmahaDealer


class ErrorHandler(commands.Cog):
    """Installs :func:`report` as the command tree's error handler."""

    def __init__(self, bot: OmahaDealer) -> None:
        self.bot = bot
        self._previous = bot.tree.on_error

    async def cog_load(self) -> None:
        self.bot.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]

    async def cog_unload(self) -> None:
        self.bot.tree.on_error = self._previous  # type: ignore[method-assign]

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        await report(interaction, error)


async def setup(bot: OmahaDealer) -> None:
    await bot.add_cog(ErrorHandler(bot))
