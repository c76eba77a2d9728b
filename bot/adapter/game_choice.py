"""Dealer's choice on Discord (RULES.md 11): the player on the button picks the next
hand's game from a private menu.

When the table asks (:class:`~bot.runtime.table.events.GameAsked`), the channel gets one
line that mentions the chooser, says until when (``<t:…:R>``) and which game comes if they
do not choose, with a **Choose the game** button. Their click answers privately (an
ephemeral message, seen by them alone) with one button per game of the list; clicking one
answers the table (:func:`bot.runtime.table.choosing.answer`), which deals it at once and
announces the pick in the channel before the hand's deck commitment. Anyone else's click,
a click after the 15 seconds, or from a chooser who sat out meanwhile, is refused
privately. Custom ids::

    omaha:choose:<table>:<token>            open the menu (the chooser only)
    omaha:pick:<table>:<token>:<index>      pick game <index> of the list

The open question of each table is kept here (:class:`OpenChoices`), in memory: a restart
forgets it, and the next deal repeats the previous hand's game.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.adapter.polite import report
from bot.adapter.posts import Text
from bot.i18n import Phrase, spoken, translate
from bot.runtime.errors import NotAllowed
from bot.runtime.mix import named
from bot.runtime.table import choosing
from bot.runtime.table.events import GameAsked, GameChoice

if TYPE_CHECKING:
    from bot.adapter.presenter import DiscordPresenter
    from bot.client import OmahaDealer

__all__ = ["ChooseButton", "OpenChoices", "PickButton", "menu_view", "offer"]


class OpenChoices:
    """The open dealer's-choice question of each table (memory only)."""

    def __init__(self) -> None:
        self._open: dict[int, GameChoice] = {}

    def keep(self, table_id: int, choice: GameChoice) -> None:
        """The table's question now (answered or expired ones are dropped)."""
        self._open = {t: c for t, c in self._open.items() if c.open}
        self._open[table_id] = choice

    def find(self, table_id: int, token: str) -> GameChoice:
        """The table's question with ``token``; refused when it is over or not this one."""
        choice = self._open.get(table_id)
        if choice is None or choice.token != token or not choice.open:
            raise NotAllowed(Phrase("refuse.choice.over"))
        return choice


def offer(presenter: DiscordPresenter, event: GameAsked, lang: str) -> None:
    """Post the question in the table's channel, mentioning the chooser (who is pinged)."""
    snap, choice = event.table, event.choice
    presenter.choices.keep(snap.table_id, choice)
    when = f"<t:{int(presenter.now() + event.seconds)}:R>"
    text = translate(lang, "choice.ask", player=f"<@{choice.user_id}>", when=when,
                     game=named(snap.config.current_game))
    view = discord.ui.View(timeout=None)
    view.add_item(ChooseButton(snap.table_id, choice.token, lang))
    presenter.channel(snap).post(Text(text, pings=frozenset({choice.user_id}), view=view))


def menu_view(table_id: int, choice: GameChoice, locale: object) -> discord.ui.View:
    """One button per game of the list (at most 8: two rows of Discord's five)."""
    view = discord.ui.View(timeout=None)
    for index, game in enumerate(choice.games):
        view.add_item(PickButton(table_id, choice.token, index, named(game).to(locale)))
    return view


class ChooseButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"omaha:choose:(?P<table>[0-9]+):(?P<token>[0-9a-f]+)",
):
    """Opens the private menu of games for the player on the button."""

    def __init__(self, table_id: int, token: str, locale: object = None) -> None:
        super().__init__(discord.ui.Button(
            label=translate(locale, "button.choose_game"), style=discord.ButtonStyle.primary,
            custom_id=f"omaha:choose:{table_id}:{token}"))
        self.table_id, self.token = table_id, token

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> ChooseButton:
        return cls(int(match["table"]), match["token"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            client: OmahaDealer = interaction.client
            choice = client.presenter.choices.find(self.table_id, self.token)
            if interaction.user.id != choice.user_id:
                raise NotAllowed(Phrase("refuse.choice.not_yours"))
            await interaction.response.send_message(
                translate(interaction.locale, "choice.menu"), ephemeral=True,
                view=menu_view(self.table_id, choice, interaction.locale))
        except Exception as exc:
            await report(interaction, exc)


class PickButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"omaha:pick:(?P<table>[0-9]+):(?P<token>[0-9a-f]+):(?P<index>[0-9])",
):
    """One game of the menu: picking it answers the table."""

    def __init__(self, table_id: int, token: str, index: int, label: str = "?") -> None:
        super().__init__(discord.ui.Button(
            label=label[:80], style=discord.ButtonStyle.secondary,
            custom_id=f"omaha:pick:{table_id}:{token}:{index}"))
        self.table_id, self.token, self.index = table_id, token, index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> PickButton:
        return cls(int(match["table"]), match["token"], int(match["index"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            client: OmahaDealer = interaction.client
            choice = client.presenter.choices.find(self.table_id, self.token)
            table = client.table_actions.by_id(self.table_id)
            game = choosing.answer(table, choice, interaction.user.id, self.index)
            await interaction.response.edit_message(  # the menu becomes the answer
                content=spoken(Phrase("reply.game_chosen", game=named(game)),
                               interaction.locale), view=None)
        except Exception as exc:
            await report(interaction, exc)
