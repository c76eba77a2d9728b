"""A proposed bomb pot on Discord (RULES.md 10): the proposal message and its buttons.

``/bombpot`` (:mod:`cogs.bomb_pot`) posts the proposal in the table's channel, in the
table's language, mentioning the players asked, with the time left as Discord's relative
timestamp and two buttons, Agree and Refuse; each click is answered privately
(:meth:`bot.adapter.actions.TableActions.bomb_pot_from_button`) and the table says the
outcome (:mod:`bot.runtime.table.bomb_vote`). Like every button of the table, they carry
their table and the proposal's token, so a click after a restart or on an old proposal is
refused politely::

    omaha:bomb:<table>:<token>:<yes|no>
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.adapter.cooldowns import moment
from bot.adapter.polite import report
from bot.i18n import Name, translate
from bot.runtime import bomb_pots
from bot.runtime.table.bomb_vote import Proposal
from bot.runtime.table.views import TableSnapshot

if TYPE_CHECKING:
    from bot.client import OmahaDealer

__all__ = ["BombPotButton", "proposal_text", "proposal_view"]


class BombPotButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"omaha:bomb:(?P<table>[0-9]+):(?P<token>[0-9]+\.[0-9]+):(?P<choice>yes|no)",
):
    """A player's answer to a proposed bomb pot: agree or refuse."""

    def __init__(self, table_id: int, token: str, choice: str, label: str = "") -> None:
        style = discord.ButtonStyle.success if choice == "yes" else discord.ButtonStyle.danger
        super().__init__(discord.ui.Button(
            label=label or choice, style=style,
            custom_id=f"omaha:bomb:{table_id}:{token}:{choice}"))
        self.table_id, self.token, self.choice = table_id, token, choice

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> BombPotButton:
        return cls(int(match["table"]), match["token"], match["choice"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        client: OmahaDealer = interaction.client
        try:
            await client.table_actions.bomb_pot_from_button(
                interaction, self.table_id, self.token, self.choice == "yes")
        except Exception as exc:
            await report(interaction, exc)


def proposal_view(table: TableSnapshot, proposal: Proposal) -> discord.ui.View:
    """Agree and Refuse, in the table's language."""
    lang = table.config.language
    view = discord.ui.View(timeout=None)
    for choice, key in (("yes", "bomb_pot.agree"), ("no", "bomb_pot.refuse")):
        view.add_item(BombPotButton(table.table_id, proposal.token, choice, translate(lang, key)))
    return view


def proposal_text(table: TableSnapshot, proposal: Proposal, deadline: float) -> str:
    """The proposal in the table's language: who proposes, for which hand, the ante (and two
    boards), the players asked (mentioned) and until when (a Unix time)."""
    lang = table.config.language
    bomb = bomb_pots.bomb_of(table.config)
    boards = translate(lang, "table.bomb_pot.two_boards") if bomb.double_board else ""
    asked = " ".join(f"<@{u}>" for u in proposal.silent)
    return translate(lang, "bomb_pot.proposal", proposer=Name(proposal.voters[proposal.proposer]),
                     number=str(proposal.hand_no), ante=bomb.ante, boards=boards,
                     players=asked, when=moment(deadline))
