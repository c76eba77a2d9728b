"""What a player does at a table, whichever way they asked: a slash command, a button, the form.

:class:`TableActions` is built once by the composition root
(:meth:`bot.client.OmahaDealer.setup_hook`) on the bot's table registry and
kept as ``bot.table_actions``. The table cog's commands call it, and so do
the buttons and the raise form of :mod:`bot.adapter.views`, which find it on
``interaction.client``: a click works whichever cogs are loaded, and no item
looks a cog up by name.

Every answer goes privately to the player who acted; the runtime's
:class:`~bot.runtime.errors.TableError` propagates to the caller (the error
handler or the button's ``report``), which turns it into a private reply.
"""

from __future__ import annotations

import io
from typing import Any, Protocol

import discord

from bot.adapter.amounts import parse_amount
from bot.adapter.cooldowns import CARDS_BURST, take_turn
from bot.adapter.fold_question import asks_first, question
from bot.adapter.hooks import Hook
from bot.adapter.polite import PUBLIC_DEFER, acknowledge, defer_once, send_private
from bot.adapter.scenes import hole_cards_view
from bot.adapter.seat_panel import SeatPanels
from bot.adapter.views import RaiseModal
from bot.engine.events import ActionKind
from bot.i18n import Name, Phrase, Wording, hands, resolve, spoken, translate
from bot.i18n.cards import written
from bot.render import alt, render_hole_cards_async, sort_hole
from bot.runtime.decisions import parse_kind
from bot.runtime.errors import TableError
from bot.runtime.registry import TableRegistry
from bot.runtime.table import bomb_vote
from bot.runtime.table.live import PreAction, Table
from bot.runtime.table.views import ActionView


async def reply_private(
    interaction: discord.Interaction[Any], text: str | Wording, **kwargs: Any
) -> None:
    """Answer only to the player who acted: in place of a private "thinking…" left by
    :func:`acknowledge`, or as the answer, or as a followup. A :class:`~bot.i18n.Wording`
    (a runtime's reply) is worded in the player's language."""
    text = spoken(text, interaction.locale)
    deferred = interaction.response.type is discord.InteractionResponseType.deferred_channel_message
    if deferred and interaction.extras.get(PUBLIC_DEFER):
        await send_private(interaction, text)  # a followup would edit the public "thinking…"
    elif deferred and not kwargs:
        await interaction.edit_original_response(content=text)
    elif interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=True, **kwargs)


def second_person(view: ActionView) -> Phrase:
    """``Done: you call 2.``, ``Done: you raise to 12 and are all-in.`` (``done.*``)."""
    all_in = "_all_in" if view.all_in and view.kind in (
        ActionKind.CALL, ActionKind.BET, ActionKind.RAISE) else ""
    return Phrase(f"done.{view.kind.name.lower()}{all_in}", amount=view.amount or 0)


def answered_privately(interaction: discord.Interaction[Any]) -> bool:
    """A slash command, or a click on a private message (the question before a fold): the
    action is confirmed privately, in that original."""
    if interaction.type is discord.InteractionType.application_command:
        return True
    message = interaction.message
    return message is not None and message.flags.ephemeral


async def _confirm(
    interaction: discord.Interaction[Any], hook: Hook | None, view: ActionView
) -> None:
    """The private confirmation (``Done: you fold.``) in the interaction's original, its
    buttons gone; the hook's followup carrying the next turn waits for it (Hook.ready)."""
    confirmed = False
    try:
        await interaction.edit_original_response(
            content=second_person(view).to(interaction.locale), view=None)
        confirmed = True
    finally:
        if hook is not None:
            hook.confirm(confirmed)


def _panels(interaction: discord.Interaction[Any]) -> SeatPanels:
    """The seat panels the bot's presenter keeps (:mod:`bot.adapter.seat_panel`)."""
    panels: SeatPanels = interaction.client.presenter.panels
    return panels


async def _in_panel(interaction: discord.Interaction[Any], table_id: int) -> bool:
    """Whether the click is in the player's seat panel at ``table_id``. A panel not kept
    current (opened before a restart) is acknowledged as its update and made their panel
    again at once, whatever the click then does (:meth:`SeatPanels.left_over`)."""
    panels = _panels(interaction)
    if panels.owns(interaction, table_id):
        return True
    if not panels.left_over(interaction, table_id):
        return False
    await defer_once(interaction)
    panels.renew(interaction, table_id)
    return True


class ClickTaker(Protocol):
    """Told of each acknowledged click, raise form or slash-command action before it acts,
    and again with ``refused=True`` when the runtime refuses the action after all."""

    def __call__(self, table_id: int, hook: Hook, *, refused: bool = False) -> None: ...


class TableActions:
    """A player's actions at the live tables of one registry.

    ``take_click`` (the presenter's :meth:`~bot.adapter.presenter.DiscordPresenter.take_click`)
    gets every acknowledged click, raise form or slash-command action before the
    action is applied, so the table's channel can post the next turn as that
    interaction's followup, outside Discord's global rate limit
    (:mod:`bot.adapter.hooks`).
    """

    def __init__(self, registry: TableRegistry, take_click: ClickTaker | None = None) -> None:
        self.registry = registry
        self.take_click = take_click

    def here(self, interaction: discord.Interaction[Any]) -> Table:
        """The table of the channel the interaction came from (or NoTable)."""
        if interaction.channel_id is None:
            raise TableError(Phrase("refuse.server_channels"))
        return self.registry.in_channel(interaction.channel_id)

    def by_id(self, table_id: int) -> Table:
        return self.registry.by_id(table_id)

    async def act(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        kind: ActionKind,
        amount: int | None = None,
        token: str | None = None,
        *,
        asked: bool = False,
    ) -> None:
        """Fold, check, call, bet, raise or go all-in.

        The interaction is acknowledged first and handed to the table's channel, which
        posts the next live message as its followup (:mod:`bot.adapter.hooks`). A click
        (or the raise form) is acknowledged as an update of its message: the table's
        live message shows the action, so nothing private is sent. A slash command is
        deferred privately and gets a short private confirmation in that original, and
        so does an answer to a private question (its message is edited). A refusal is
        told privately. A click in the player's seat panel is acknowledged as an update
        of the panel, whose token it renews; the panel, kept current, is the confirmation
        (:mod:`bot.adapter.seat_panel`); a click in a panel from before a restart makes it
        their panel again first. A fold when a check is free is not taken unless
        ``asked``: the player is asked first, whichever way they fold
        (:mod:`bot.adapter.fold_question`).
        """
        panels = _panels(interaction)
        in_panel = await _in_panel(interaction, table.table_id)
        privately = answered_privately(interaction) and not in_panel
        if interaction.type is discord.InteractionType.application_command:
            await defer_once(interaction, ephemeral=True, thinking=True)
        table.check_action(interaction.user.id, kind, amount, token)  # a click: refused at once
        if in_panel and not interaction.response.is_done():  # an update of the panel:
            await defer_once(interaction)  # its token is the newest
            panels.renew(interaction, table.table_id)
        turn = table.turn_view()
        if not asked and turn is not None and asks_first(kind, turn, interaction.user.id):
            await self._ask_fold(interaction, table, turn.token)
            return
        if not interaction.response.is_done():
            await defer_once(interaction)
        hook = self._hand_over(table, interaction)
        if in_panel and hook is not None:
            hook.confirm(True)  # a deferred update: its followup is a message of its own
        view = await self._apply(interaction, table, hook, kind, amount, token)
        if privately:
            await _confirm(interaction, hook, view)

    @staticmethod
    async def _ask_fold(interaction: discord.Interaction[Any], table: Table, token: str) -> None:
        """The question before a fold when a check is free, to the player alone: in the
        command's private original, or as a private answer to the click (a message of its
        own under a seat panel)."""
        text, buttons = question(table.table_id, token, interaction.locale)
        if not interaction.response.is_done():
            await interaction.response.send_message(text, view=buttons, ephemeral=True)
        elif interaction.type is discord.InteractionType.application_command:
            await interaction.edit_original_response(content=text, view=buttons)
        else:  # a click in the seat panel, acknowledged as its update
            await interaction.followup.send(text, view=buttons, ephemeral=True)

    async def answer_fold(
        self, interaction: discord.Interaction[Any], table_id: int, token: str,
        kind: ActionKind,
    ) -> None:
        """An answer to the question before a fold (**Fold anyway** or **Check**): the
        player's decision, confirmed in the question's place; when that turn has passed
        (or the table is gone) the question says so, without its buttons, and nothing is
        done."""
        try:
            table = self.by_id(table_id)
            table.check_action(interaction.user.id, kind, None, token)
        except TableError:
            await interaction.response.edit_message(
                content=translate(interaction.locale, "fold.passed"), view=None)
            return
        await self.act(interaction, table, kind, token=token, asked=True)

    def _hand_over(self, table: Table, interaction: discord.Interaction[Any]) -> Hook | None:
        """Give the table's channel the interaction's token (None: nothing to give)."""
        hook = Hook.of(interaction) if self.take_click is not None else None
        if hook is not None and self.take_click is not None:
            self.take_click(table.table_id, hook)
        return hook

    async def _apply(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        hook: Hook | None,
        kind: ActionKind,
        amount: int | None,
        token: str | None,
    ) -> ActionView:
        """The action, applied; refused, its hook is taken back (it carries nothing)."""
        try:
            return await table.act(interaction.user.id, kind, amount, token=token)
        except BaseException:
            if hook is not None and self.take_click is not None:
                hook.confirm(False)
                self.take_click(table.table_id, hook, refused=True)
            raise

    async def act_from_button(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        token: str,
        kind: str,
        amount: int | None,
    ) -> None:
        await self.act(interaction, self.by_id(table_id), parse_kind(kind), amount, token)

    async def open_raise_form(
        self, interaction: discord.Interaction[Any], table_id: int, token: str
    ) -> None:
        """Show the raise form to the player whose turn it is (others are told why not)."""
        table = self.by_id(table_id)
        turn = table.turn_view()
        if turn is None or turn.token != token:
            raise TableError(Phrase("refuse.stale_buttons"))
        if turn.user_id != interaction.user.id:
            table.require_seat(interaction.user.id)
            raise TableError(Phrase("refuse.not_your_turn", name=Name(turn.name)))
        await interaction.response.send_modal(
            RaiseModal(table_id, token, turn, table.config.structure, interaction.locale)
        )

    async def act_from_form(
        self, interaction: discord.Interaction[Any], table_id: int, token: str, text: str
    ) -> None:
        amount = parse_amount(text, "amount")
        table = self.by_id(table_id)
        turn = table.turn_view()
        kind = ActionKind.BET if turn is not None and turn.is_bet else ActionKind.RAISE
        await self.act(interaction, table, kind, amount, token)

    async def run_twice_from_button(
        self, interaction: discord.Interaction[Any], table_id: int, token: str, agree: bool
    ) -> None:
        """An answer to the run-it-twice question: refused at once when it cannot count,
        else acknowledged (privately) before it is stored and played."""
        table = self.by_id(table_id)
        table.check_run_twice(interaction.user.id, token)
        await acknowledge(interaction)
        text = await table.answer_run_twice(interaction.user.id, agree, token)
        await reply_private(interaction, text)

    async def bomb_pot_from_button(
        self, interaction: discord.Interaction[Any], table_id: int, token: str, agree: bool
    ) -> None:
        """An answer to a proposed bomb pot: refused at once when it cannot count, else
        acknowledged (privately) before the table takes it under its lock."""
        table = self.by_id(table_id)
        bomb_vote.check_answer(table, interaction.user.id, token)
        await acknowledge(interaction)
        await reply_private(interaction, await bomb_vote.answer(
            table, interaction.user.id, agree, token))

    async def show_cards(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """The player's hole cards (and hand label), as a picture only they see; drawn
        outside the render gate, so :data:`~bot.adapter.cooldowns.CARDS_BURST` looks at
        once, then one per ``COMMAND_COOLDOWN`` (``/cards``, **My seat** and **My cards**)."""
        table = self.by_id(table_id)
        mine = table.hole_cards(interaction.user.id)
        take_turn(interaction.client.cooldowns, interaction, "cards", burst=CARDS_BURST)
        await defer_once(interaction, ephemeral=True, thinking=True)
        snap = table.snapshot()
        lang = resolve(interaction.locale)
        view = hole_cards_view(snap, mine, lang)
        drawing = interaction.client.presenter.prefs.drawing(snap.guild_id, interaction.user.id)
        png = await render_hole_cards_async(view, *drawing)  # in the player's colours
        cards = written(sort_hole(mine.cards))  # the picture's order
        text = translate(lang, "cards.yours", cards=cards)
        if mine.label:
            hand = hands.in_sentence(lang, mine.label)
            text = translate(lang, "cards.yours_label", cards=cards, hand=hand)
        await interaction.followup.send(
            text,
            ephemeral=True,
            file=discord.File(io.BytesIO(png), filename=f"hand-{snap.hand_no}-cards.png",
                              description=alt.hole_cards(view)),
        )

    async def set_pre_action(
        self, interaction: discord.Interaction[Any], table_id: int, choice: PreAction | None
    ) -> None:
        """Set (or clear) the player's pre-action: acknowledged first, as the table's lock
        may be held by a hand being dealt or settled. From the player's seat panel the
        panel shows it (the click renews its token), else a private reply says it."""
        table = self.by_id(table_id)
        panels = _panels(interaction)
        if not await _in_panel(interaction, table_id):
            await acknowledge(interaction)
            await reply_private(interaction, await table.set_pre_action(
                interaction.user.id, choice))
            return
        if not interaction.response.is_done():
            await defer_once(interaction)
            panels.renew(interaction, table_id)
        await table.set_pre_action(interaction.user.id, choice)
        panels.changed(table_id)

    async def open_seat(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """**My seat** (or **Reopen**): the player's seat panel, only theirs
        (:mod:`bot.adapter.seat_panel`); a member without a seat there is told why not.
        A picture is drawn each time: the cooldown of ``/cards``."""
        self.by_id(table_id).require_seat(interaction.user.id)
        take_turn(interaction.client.cooldowns, interaction, "cards", burst=CARDS_BURST)
        await _panels(interaction).open(interaction, table_id)


__all__ = ["ClickTaker", "TableActions", "acknowledge", "answered_privately", "reply_private",
           "second_person"]
