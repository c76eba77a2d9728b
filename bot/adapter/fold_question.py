"""Folding when a check is free asks first (RULES.md 5: "the interface asks first").

Whichever way a player folds (the live message's **Fold**, ``/fold``), when they could
check instead the fold is not taken: they alone get a question (an ephemeral message,
in their language) with two buttons, **Fold anyway** and **Check**. Either answer acts
for that decision only: its ``custom_id`` carries the turn's token, so an answer that
comes after the turn passed changes nothing and the question says so
(``fold.passed``). The pre-action check/fold is not a fold: it checks when checking is
free, and the clock's timeout does the same (RULES.md 8).

Custom id (a :class:`discord.ui.DynamicItem`, so it works after a restart)::

    omaha:foldq:<table>:<token>:<fold|check>
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.adapter.polite import report
from bot.engine.events import ActionKind
from bot.i18n import translate
from bot.runtime.table.views import TurnView

if TYPE_CHECKING:
    from bot.client import OmahaDealer

__all__ = ["FoldAnswerButton", "asks_first", "question"]


def asks_first(kind: ActionKind, turn: TurnView, user_id: int) -> bool:
    """Whether ``user_id``'s ``kind`` is a fold at ``turn`` when they could check (then
    they are asked first)."""
    return kind is ActionKind.FOLD and turn.user_id == user_id and turn.can_check


class FoldAnswerButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"omaha:foldq:(?P<table>[0-9]+):(?P<token>[0-9]+\.[0-9]+):(?P<answer>fold|check)",
):
    """An answer to the question: fold anyway, or check."""

    def __init__(self, table_id: int, token: str, answer: str, label: str = "") -> None:
        style = discord.ButtonStyle.danger if answer == "fold" else discord.ButtonStyle.success
        super().__init__(discord.ui.Button(
            label=label or answer, style=style,
            custom_id=f"omaha:foldq:{table_id}:{token}:{answer}",
        ))
        self.table_id, self.token, self.answer = table_id, token, answer

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> FoldAnswerButton:
        return cls(int(match["table"]), match["token"], match["answer"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        client: OmahaDealer = interaction.client
        kind = ActionKind.FOLD if self.answer == "fold" else ActionKind.CHECK
        try:
            await client.table_actions.answer_fold(interaction, self.table_id, self.token, kind)
        except Exception as exc:
            await report(interaction, exc)


def question(table_id: int, token: str, locale: object) -> tuple[str, discord.ui.View]:
    """The question's text and its two buttons, in the reader's language."""
    view = discord.ui.View(timeout=None)
    view.add_item(FoldAnswerButton(table_id, token, "fold",
                                   translate(locale, "button.fold_anyway")))
    view.add_item(FoldAnswerButton(table_id, token, "check", translate(locale, "button.check")))
    return translate(locale, "fold.ask"), view
