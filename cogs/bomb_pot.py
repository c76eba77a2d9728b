"""``/bombpot``: propose a bomb pot for the next hand (RULES.md 10).

    /bombpot    at this channel's table, for a player who will be dealt into the next hand

The table decides (:mod:`bot.runtime.table.bomb_vote`): whether it may be proposed now
(bomb pots on, once per hand, none open, two players or more), who is asked, the 20
seconds. The refusals that need no wait answer at once, privately; then the interaction
is acknowledged privately (the table's lock may be held by a hand being dealt or settled,
and a refusal can still come under it), and the proposal goes to the channel as a public
message with its Agree and Refuse buttons (:mod:`bot.adapter.bomb_votes`), pinging the
players asked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.actions import TableActions
from bot.adapter.bomb_votes import proposal_text, proposal_view
from bot.adapter.polite import acknowledge, announce
from bot.adapter.posts import pinging
from bot.runtime.table import bomb_vote

if TYPE_CHECKING:
    from collections.abc import Callable

    from bot.client import OmahaDealer


class BombPots(commands.Cog, name="Bomb pots"):
    """A bomb pot proposed to the players of a table."""

    def __init__(self, actions: TableActions, now: Callable[[], float]) -> None:
        self.actions = actions
        self.now = now  # the bot's wall clock (the proposal's deadline as a timestamp)
        super().__init__()

    @app_commands.command(
        name="bombpot",
        description="Propose a bomb pot for the next hand: everyone dealt in must agree")
    @app_commands.guild_only()
    async def bombpot(self, interaction: discord.Interaction[Any]) -> None:
        table = self.actions.here(interaction)
        bomb_vote.check_propose(table, interaction.user.id)
        await acknowledge(interaction)
        proposal = await bomb_vote.propose(table, interaction.user.id)
        snap = table.snapshot()
        await announce(interaction, proposal_text(snap, proposal, self.now() + proposal.seconds),
                       view=proposal_view(snap, proposal),
                       allowed_mentions=pinging(proposal.silent))


async def setup(bot: OmahaDealer) -> None:
    await bot.add_cog(BombPots(bot.table_actions, bot.now))


__all__ = ["BombPots", "setup"]
