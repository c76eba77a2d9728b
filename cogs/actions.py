"""Playing a hand by command: the action commands, /cards and /preaction.

    /fold /check /call /bet amount /raise to /allin     the player whose turn it is
    /cards          your hole cards and your hand's label, only to you
    /preaction      check/fold, call any, fold to any bet, or off

Each names the table of the channel it is used in (``TableActions.here``) and hands
the decision to :class:`bot.adapter.actions.TableActions`, which the table's buttons
share: it answers first (within Discord's 3 seconds) and acts after. Folding when a
check is free asks first there (:mod:`bot.adapter.fold_question`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.actions import TableActions
from bot.adapter.amounts import parse_amount
from bot.engine.events import ActionKind
from bot.runtime.table.live import PreAction, Table

if TYPE_CHECKING:
    from bot.client import OmahaDealer

PRE_ACTION_CHOICES = [
    app_commands.Choice(name="check/fold", value="check/fold"),
    app_commands.Choice(name="call any", value="call any"),
    app_commands.Choice(name="fold to any bet", value="fold to any bet"),
    app_commands.Choice(name="off", value="off"),
]


class Actions(commands.Cog, name="Playing"):
    """The decisions of the player to act, typed as commands."""

    def __init__(self, actions: TableActions) -> None:
        self.actions = actions
        super().__init__()

    def here(self, interaction: discord.Interaction[Any]) -> Table:
        return self.actions.here(interaction)

    async def _act(
        self, interaction: discord.Interaction[Any], kind: ActionKind, amount: int | None = None
    ) -> None:
        await self.actions.act(interaction, self.here(interaction), kind, amount)

    @app_commands.command(name="fold", description="Fold your hand")
    @app_commands.guild_only()
    async def fold(self, interaction: discord.Interaction[Any]) -> None:
        await self._act(interaction, ActionKind.FOLD)

    @app_commands.command(name="check", description="Check (nothing to call)")
    @app_commands.guild_only()
    async def check(self, interaction: discord.Interaction[Any]) -> None:
        await self._act(interaction, ActionKind.CHECK)

    @app_commands.command(name="call", description="Call the bet")
    @app_commands.guild_only()
    async def call(self, interaction: discord.Interaction[Any]) -> None:
        await self._act(interaction, ActionKind.CALL)

    @app_commands.command(name="bet", description="Bet an amount (the total you put in this round)")
    @app_commands.describe(amount="Chips, the total you bet this round, e.g. 40 or 2.5k")
    @app_commands.guild_only()
    async def bet(self, interaction: discord.Interaction[Any], amount: str) -> None:
        await self._act(interaction, ActionKind.BET, parse_amount(amount, "bet"))

    @app_commands.command(name="raise", description="Raise to a total for this round")
    @app_commands.describe(to="Chips, the total you raise to this round, e.g. 60")
    @app_commands.rename(to="to")
    @app_commands.guild_only()
    async def raise_(self, interaction: discord.Interaction[Any], to: str) -> None:
        await self._act(interaction, ActionKind.RAISE, parse_amount(to, "raise"))

    @app_commands.command(name="allin", description=(
        "Bet or raise the most the limit allows: all your chips at no limit, the pot at pot limit"))
    @app_commands.guild_only()
    async def allin(self, interaction: discord.Interaction[Any]) -> None:
        """Put in as much as the rules let the player (:func:`bot.runtime.decisions.choose_action`):
        the largest legal raise when raising is allowed (the whole stack in no limit,
        the pot raise in pot limit, the one fixed raise in fixed limit), else a call,
        all-in when it takes the whole stack (facing an all-in the player cannot
        raise over, or a short all-in that did not reopen the betting, or the cap).

        Decision (issue 23): the command keeps doing what a player who types it at a
        pot-limit table wants, the most they may put in (RULES.md 5 caps a raise at the
        pot there; the All-in button shows only when the stack is within the limit),
        and its description says so in every language."""
        await self._act(interaction, ActionKind.ALL_IN)

    @app_commands.command(name="cards", description="See your hole cards again (only you)")
    @app_commands.guild_only()
    async def cards(self, interaction: discord.Interaction[Any]) -> None:
        await self.actions.show_cards(interaction, self.here(interaction).table_id)

    @app_commands.command(name="preaction", description="Act in advance while you wait")
    @app_commands.describe(action="What to do when your turn comes")
    @app_commands.choices(action=PRE_ACTION_CHOICES)
    @app_commands.guild_only()
    async def preaction(
        self, interaction: discord.Interaction[Any], action: app_commands.Choice[str]
    ) -> None:
        choice = None if action.value == "off" else PreAction(action.value)
        await self.actions.set_pre_action(interaction, self.here(interaction).table_id, choice)



async def setup(bot: OmahaDealer) -> None:
    await bot.add_cog(Actions(bot.table_actions))


__all__ = ["Actions", "setup"]
