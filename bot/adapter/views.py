"""Buttons and the raise form of the table messages.

Every button is a :class:`discord.ui.DynamicItem`: its ``custom_id`` carries
the table id (and, for turn buttons, the turn token and the action), so the
bot answers clicks on messages posted before a restart without keeping any
view in memory. The token makes a stale button (from an earlier decision)
harmless: the runtime refuses it politely.

The bot registers these items once, at start (``OmahaDealer.setup_hook``,
with :data:`DYNAMIC_ITEMS`); a click reaches the table through the
:class:`bot.adapter.actions.TableActions` the bot holds (``interaction.client.table_actions``),
not through a cog, so buttons do not depend on which cogs are loaded.

Custom ids::

    omaha:act:<table>:<token>:<kind>[:<amount>]   kind: fold check call raise allin form
    omaha:cards:<table>                            the player's own cards, privately (the
                                                   My cards of messages before the panel)
    omaha:myseat:<table>                           the player's seat panel, privately
                                                   (My seat; Reopen on a stale panel)
    omaha:pre:<table>:<choice>                     a pre-action (checkfold callany foldany off)
    omaha:rit:<table>:<token>:<twice|once>         an answer to the run-it-twice question
    omaha:bomb:<table>:<token>:<yes|no>            an answer to a proposed bomb pot
                                                   (bot.adapter.bomb_votes)
    omaha:seat:<table>:<user>:<kind>[:<amount>]    a seat's way forward (bot.adapter.seat_buttons)
    omaha:choose:<table>:<token>                   dealer's choice: the chooser's menu, and
    omaha:pick:<table>:<token>:<index>             a game of it (bot.adapter.game_choice)
    omaha:hand:<hand id>                           a finished hand, privately (the Hand log
                                                   button of a result, the buttons of /hands:
                                                   answered by ``cogs.hands.OpenHandButton``)
    omaha:after:<table>:<hand no>:<what>           after the hand, until the next deal: a rabbit
                                                   hunt, showing cards (bot.adapter.after_hand)
    omaha:foldq:<table>:<token>:<fold|check>       the answer to the question before a fold
                                                   when a check is free (bot.adapter.fold_question)

The live message's buttons are public: their labels speak the table's language
(``button.*`` messages). The raise form is the clicking player's own: it speaks
their ``interaction.locale``. A button rebuilt from its ``custom_id`` (a click)
keeps the label Discord shows; only its callback matters then.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, ClassVar

import discord

from bot.adapter.after_hand import AfterHandButton, add_after_hand_buttons
from bot.adapter.bomb_votes import BombPotButton
from bot.adapter.fold_question import FoldAnswerButton
from bot.adapter.game_choice import ChooseButton, PickButton
from bot.adapter.polite import PoliteModal, report
from bot.adapter.seat_buttons import SeatButton
from bot.engine.variants import Structure
from bot.i18n import translate
from bot.runtime.table.live import PreAction
from bot.runtime.table.views import HandResultView, TableSnapshot, TurnView

if TYPE_CHECKING:
    from bot.adapter.actions import TableActions
    from bot.client import OmahaDealer

PRE_ACTIONS: dict[str, PreAction | None] = {
    "checkfold": PreAction.CHECK_FOLD,
    "callany": PreAction.CALL_ANY,
    "foldany": PreAction.FOLD_TO_BET,
    "off": None,
}


def _actions(interaction: discord.Interaction[Any]) -> TableActions:
    """The table actions the bot holds (built once in ``OmahaDealer.setup_hook``)."""
    client: OmahaDealer = interaction.client
    return client.table_actions


class ActionButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"omaha:act:(?P<table>[0-9]+):(?P<token>[0-9]+\.[0-9]+):"
    r"(?P<kind>fold|check|call|raise|allin|form)(?::(?P<amount>[0-9]+))?",
):
    """One of the turn message's buttons."""

    def __init__(
        self,
        table_id: int,
        token: str,
        kind: str,
        amount: int | None = None,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        custom_id = f"omaha:act:{table_id}:{token}:{kind}" + (
            f":{amount}" if amount is not None else ""
        )
        super().__init__(
            discord.ui.Button(label=label or kind, style=style, custom_id=custom_id, row=row)
        )
        self.table_id = table_id
        self.token = token
        self.kind = kind
        self.amount = amount

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ActionButton:
        amount = match["amount"]
        return cls(
            int(match["table"]), match["token"], match["kind"], int(amount) if amount else None
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            if self.kind == "form":
                await _actions(interaction).open_raise_form(interaction, self.table_id, self.token)
            else:
                await _actions(interaction).act_from_button(
                    interaction, self.table_id, self.token, self.kind, self.amount
                )
        except Exception as exc:
            await report(interaction, exc)


class CardsButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"omaha:cards:(?P<table>[0-9]+)"
):
    """Shows the clicking player their own hole cards, privately."""

    def __init__(self, table_id: int, locale: object = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=translate(locale, "button.my_cards"),
                emoji="🃏",
                style=discord.ButtonStyle.secondary,
                custom_id=f"omaha:cards:{table_id}",
                row=2,
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> CardsButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await _actions(interaction).show_cards(interaction, self.table_id)
        except Exception as exc:
            await report(interaction, exc)


class MySeatButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"omaha:myseat:(?P<table>[0-9]+)"
):
    """Opens the clicking player's seat panel, privately (:mod:`bot.adapter.seat_panel`);
    on a stale panel, **Reopen** (the same id) opens a fresh one in its place."""

    def __init__(self, table_id: int, locale: object = None, *, reopen: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=translate(locale, "button.reopen" if reopen else "button.my_seat"),
                emoji="🪑",
                style=discord.ButtonStyle.primary if reopen else discord.ButtonStyle.secondary,
                custom_id=f"omaha:myseat:{table_id}",
                row=None if reopen else 2,
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> MySeatButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await _actions(interaction).open_seat(interaction, self.table_id)
        except Exception as exc:
            await report(interaction, exc)


class PreActionButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"omaha:pre:(?P<table>[0-9]+):(?P<choice>checkfold|callany|foldany|off)",
):
    """Sets (or clears) the clicking player's pre-action (a button of their seat panel)."""

    #: The label of each choice: the message ``button.pre.<choice>``.
    LABELS: ClassVar[tuple[str, ...]] = ("checkfold", "callany", "foldany", "off")

    def __init__(self, table_id: int, choice: str, locale: object = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=translate(locale, f"button.pre.{choice}"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"omaha:pre:{table_id}:{choice}",
                row=1,
            )
        )
        self.table_id = table_id
        self.choice = choice

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> PreActionButton:
        return cls(int(match["table"]), match["choice"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await _actions(interaction).set_pre_action(
                interaction, self.table_id, PRE_ACTIONS[self.choice]
            )
        except Exception as exc:
            await report(interaction, exc)


class RunTwiceButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"omaha:rit:(?P<table>[0-9]+):(?P<token>[0-9]+\.[0-9]+):(?P<choice>twice|once)",
):
    """An all-in player's answer: run the rest of the board twice, or once."""

    def __init__(self, table_id: int, token: str, choice: str, label: str = "") -> None:
        style = discord.ButtonStyle.primary if choice == "twice" else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(
            label=label or choice, style=style, row=0,
            custom_id=f"omaha:rit:{table_id}:{token}:{choice}",
        ))
        self.table_id, self.token, self.choice = table_id, token, choice

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> RunTwiceButton:
        return cls(int(match["table"]), match["token"], match["choice"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await _actions(interaction).run_twice_from_button(
                interaction, self.table_id, self.token, self.choice == "twice"
            )
        except Exception as exc:
            await report(interaction, exc)


def add_run_twice_buttons(view: discord.ui.View, table: TableSnapshot, token: str) -> None:
    """The question's two buttons, in the table's language."""
    lang = table.config.language
    for choice in ("twice", "once"):
        key = "run_twice.yes" if choice == "twice" else "run_twice.no"
        view.add_item(RunTwiceButton(table.table_id, token, choice, translate(lang, key)))


def hand_button_id(hand_id: int) -> str:
    """The ``custom_id`` of a button that opens a finished hand privately."""
    return f"omaha:hand:{hand_id}"


class Unkept(discord.ui.View):
    """Buttons discord.py need not keep: every click on them is answered by a dynamic
    item registered at start (:data:`DYNAMIC_ITEMS`, ``cogs.hands.OpenHandButton``).

    discord.py keeps a sent view whose buttons are plain (not dynamic items) in its view
    store, under the message, for as long as the process runs when it has no timeout:
    one result's **Hand log** a hand, about 13,000 views an hour at 100 tables
    (``bench/bench_soak.py``). Views of dynamic items only are not kept anyway."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        return False


def hand_log_button(hand_id: int | None, locale: object) -> discord.ui.View | None:
    """The result's **Hand log** button: every action of the hand, only to whoever clicks
    (what ``/hand show`` answers: their own cards, never another player's hidden ones)."""
    if hand_id is None:
        return None
    view = Unkept()
    view.add_item(discord.ui.Button(label=translate(locale, "button.hand_log"), emoji="📜",
                                    custom_id=hand_button_id(hand_id),
                                    style=discord.ButtonStyle.secondary))
    return view


def result_buttons(
    snap: TableSnapshot, result: HandResultView, locale: object
) -> discord.ui.View | None:
    """The result's buttons: **Hand log**, then what it offers until the next deal
    (:mod:`bot.adapter.after_hand`: **Rabbit hunt**, **Show**, **Show one**)."""
    view = hand_log_button(snap.hand_id, locale)
    if view is not None:
        add_after_hand_buttons(view, snap, result)
    return view


def raise_limits(
    turn: TurnView, structure: Structure, locale: object = None
) -> tuple[str, str]:
    """The raise form's label and hint: the rules' range, never the stack as the limit.

    ``("Raise to: 4 to 7 (pot limit)", "A total from 4 to 7; all-in (200) is over the
    pot limit")``; in no limit the top of the range is the all-in and says so.
    """
    verb = "bet" if turn.is_bet else "raise"
    low, high = turn.min_raise_to or 0, turn.max_raise_to or 0
    limit = structure.name.lower()
    if high == turn.all_in_to:
        note = translate(locale, "form.all_in")
        hint = translate(locale, "form.hint_all_in", high=high)
    else:
        note = translate(locale, f"form.{limit}")
        hint = translate(locale, f"form.hint_over_{limit}", all_in=turn.all_in_to)
    label = translate(locale, f"form.{verb}_range_note", low=low, high=high, note=note)
    if len(label) > 45:  # Discord's limit for a text input's label: keep the numbers whole
        label = translate(locale, f"form.{verb}_range", low=low, high=high)
    placeholder = translate(locale, "form.placeholder", low=low, high=high, hint=hint)
    return label[:45], placeholder[:100]


#: Seconds the raise form waits beyond its turn's longest length (a submit that comes
#: after the turn ended is refused politely, as a stale form, never left unanswered).
FORM_MARGIN = 60.0


class RaiseModal(PoliteModal):
    """The raise form: an exact amount within the range the rules allow.

    It listens as long as the turn can last (the table's decision clock plus the
    player's time bank, up to 600 s + 3,600 s) and a margin: a player who opens it
    late in a long turn is still answered."""

    def __init__(
        self, table_id: int, token: str, turn: TurnView, structure: Structure,
        locale: object = None,
    ) -> None:
        verb = "bet" if turn.is_bet else "raise"
        title = translate(locale, f"form.{verb}_title", table=str(table_id))
        super().__init__(title=title[:45], timeout=turn.clock + turn.time_bank + FORM_MARGIN)
        self.table_id = table_id
        self.token = token
        label, placeholder = raise_limits(turn, structure, locale)
        self.amount: discord.ui.TextInput[RaiseModal] = discord.ui.TextInput(
            label=label,
            placeholder=placeholder,
            custom_id="amount",
            min_length=1,
            max_length=24,
        )
        self.add_item(self.amount)

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await _actions(interaction).act_from_form(
            interaction, self.table_id, self.token, self.amount.value
        )


def live_buttons(
    table: TableSnapshot, turn: TurnView | None, question: str | None = None
) -> discord.ui.View:
    """The live message's buttons: the turn's actions (rows 0 and 1) when someone is to
    act, or the run-it-twice question's (``question``: its token), then **My seat**
    (row 2), which opens each player's own panel: their cards, pre-actions and buttons.
    Nothing else meant for the others: the pre-actions live in the panel."""
    view = turn_buttons(table, turn) if turn is not None else discord.ui.View(timeout=None)
    if turn is None and question is not None:
        add_run_twice_buttons(view, table, question)
    view.add_item(MySeatButton(table.table_id, table.config.language))
    return view


def call_label(table: TableSnapshot, turn: TurnView, locale: object = None) -> str:
    """``Call 6``, or ``Call 40 (all-in)`` when the call takes the player's last chip."""
    seat = table.at(turn.seat)
    all_in = seat is not None and 0 < seat.stack <= turn.to_call
    key = "button.call_all_in" if all_in else "button.call"
    return translate(locale or table.config.language, key, amount=turn.to_call)


#: The runtime's quick raise sizes (``turns.presets``) by their English label.
PRESETS = {"Min": "button.min", "½ Pot": "button.half_pot", "Pot": "button.pot"}


def turn_buttons(
    table: TableSnapshot, turn: TurnView, locale: str | None = None
) -> discord.ui.View:
    """Fold, Check or Call (amount), the raise sizes, All-in and the raise form, in
    ``locale`` (default the table's language: the public message's)."""
    t, tok, lang = table.table_id, turn.token, locale or table.config.language
    view = discord.ui.View(timeout=None)
    view.add_item(ActionButton(t, tok, "fold", label=translate(lang, "button.fold"),
                               style=discord.ButtonStyle.danger, row=0))
    if turn.can_check:
        view.add_item(ActionButton(t, tok, "check", label=translate(lang, "button.check"),
                                   style=discord.ButtonStyle.success, row=0))
    else:
        view.add_item(
            ActionButton(
                t,
                tok,
                "call",
                label=call_label(table, turn, lang),
                style=discord.ButtonStyle.success,
                row=0,
            )
        )
    can_raise = turn.min_raise_to is not None and turn.max_raise_to is not None
    if can_raise:
        assert turn.max_raise_to is not None
        verb = "bet" if turn.is_bet else "raise"
        for label, amount in turn.presets:
            size = translate(lang, PRESETS[label]) if label in PRESETS else label
            view.add_item(
                ActionButton(
                    t,
                    tok,
                    "raise",
                    amount,
                    label=translate(lang, f"button.preset_{verb}", size=size, amount=amount),
                    style=discord.ButtonStyle.primary,
                    row=1,
                )
            )
        if turn.all_in_to <= turn.max_raise_to:
            view.add_item(
                ActionButton(
                    t,
                    tok,
                    "allin",
                    label=translate(lang, "button.all_in", amount=turn.all_in_to),
                    style=discord.ButtonStyle.danger,
                    row=0,
                )
            )
        if turn.min_raise_to != turn.max_raise_to:
            view.add_item(
                ActionButton(
                    t, tok, "form", label=translate(lang, f"button.{verb}_form"),
                    style=discord.ButtonStyle.primary, row=0,
                )
            )
    return view


DYNAMIC_ITEMS = (ActionButton, CardsButton, MySeatButton, PreActionButton, RunTwiceButton,
                 SeatButton, ChooseButton, PickButton, AfterHandButton, FoldAnswerButton,
                 BombPotButton)
