"""What a seat panel shows (:mod:`bot.adapter.seat_panel`): its text and its buttons.

Pure functions of what the panel knows (a :class:`Seen`), in the player's language: the
table, hand and game; their cards and what they hold now in words (hi-lo: the low too);
the board (a double board or a hand run twice: both, and what they hold on each, worded
as the result says it); what a call costs and their stack; on their turn the pot and
their clock (Discord's ``<t:…:R>``, worded on each screen); their pre-action; once the
hand is over, its result and their net. The buttons: on their turn the turn message's
own (built by :func:`bot.adapter.views.turn_buttons`: the same custom ids and handlers);
asked whether to run it twice, the question's two answers; while they wait in the hand,
Fold and Check/Call shown disabled and the pre-actions; a stale panel has only
**Reopen**; a panel whose table closed, none (its last words say so, under the last
hand's result). Nothing here sends a request.

Only on the player's own turn does the panel show the pot and their clock: while they
wait it shows what a call costs them (which changes only with a bet or a raise), their
stack and pre-action, so another player's check or call costs their panel no edit (the
table's message shows whose turn it is and the pot).
"""

from __future__ import annotations

from dataclasses import dataclass

import discord

from bot.adapter.limits import fit_message
from bot.adapter.scenes import game_line
from bot.adapter.views import (
    PRE_ACTIONS,
    ActionButton,
    MySeatButton,
    PreActionButton,
    RunTwiceButton,
    turn_buttons,
)
from bot.engine.cards import Card
from bot.engine.evaluate import hand_label
from bot.i18n import hands, translate
from bot.i18n.cards import written
from bot.render import sort_hole
from bot.runtime.seating import PreAction
from bot.runtime.table import wording
from bot.runtime.table.events import RunTwiceAsked
from bot.runtime.table.result_text import message_lines, on_boards, signed
from bot.runtime.table.views import (
    HandResultView,
    PrivateCards,
    SeatSnapshot,
    TableSnapshot,
    TurnView,
)

__all__ = ["Seen", "closed_panel", "panel_buttons", "panel_cards", "panel_text", "stale_panel"]

#: The ``custom_id`` token of the disabled action buttons shown while the player waits.
NO_TOKEN = "0.0"


@dataclass(frozen=True)
class Seen:
    """What one player's panel knows of their table now."""

    user_id: int
    locale: str
    snap: TableSnapshot | None  # None: no hand to show yet
    turn: TurnView | None = None
    deadline: float | None = None  # epoch seconds when the turn's clock runs out
    board: tuple[Card, ...] = ()  # as the table's message shows it (a run-out street by street)
    second_board: tuple[Card, ...] = ()  # a double board or a second run: board 2, as shown
    cards: PrivateCards | None = None  # theirs, with the board shown and what they make
    result: HandResultView | None = None  # the hand is over
    pre_action: PreAction | None = None
    question: RunTwiceAsked | None = None  # the run-it-twice question, when they are asked
    closed: str = ""  # the table closed: the panel's last words (:func:`closed_panel`)

    @property
    def seat(self) -> SeatSnapshot | None:
        if self.snap is None:
            return None
        return next((s for s in self.snap.seats if s.user_id == self.user_id), None)

    @property
    def my_turn(self) -> bool:
        return self.turn is not None and self.turn.user_id == self.user_id and (
            self.result is None)

    @property
    def deciding(self) -> bool:
        """In the hand with decisions to come (not folded, not all-in), the hand not over."""
        seat = self.seat
        return (self.result is None and seat is not None and seat.in_hand
                and not seat.all_in)


def panel_cards(hole: tuple[Card, ...], board: tuple[Card, ...], snap: TableSnapshot,
                second: tuple[Card, ...] = ()) -> PrivateCards:
    """The player's cards with the board shown (and board 2, if any) and what they make
    on each (from its flop)."""
    variant = snap.config.variant
    label, label2 = (hand_label(hole, b, variant) if len(b) >= 3 else "" for b in (board, second))
    return PrivateCards(hole, board, label, second, label2)


def to_call(snap: TableSnapshot, seat: SeatSnapshot) -> int:
    """What a call would cost ``seat`` now (at most its stack)."""
    top = max((s.bet for s in snap.seats), default=0)
    return min(max(top - seat.bet, 0), seat.stack)


def _head(seen: Seen, snap: TableSnapshot) -> str:
    lang = seen.locale
    return " · ".join((f"**{wording.table_name(lang, snap.table_id)}**",
                       translate(lang, "table.hand", number=str(snap.hand_no)),
                       game_line(snap, lang)))


def _cards_line(seen: Seen) -> str:
    lang, mine = seen.locale, seen.cards
    if mine is None:
        return translate(lang, "panel.not_dealt")
    cards = written(sort_hole(mine.cards))  # the picture's order
    if mine.second_board and (mine.label or mine.second_label):  # as the result says it
        return translate(lang, "cards.yours_label", cards=cards,
                         hand=on_boards(lang, (mine.label, mine.second_label)))
    if mine.label:
        return translate(lang, "cards.yours_label", cards=cards,
                         hand=hands.in_sentence(lang, mine.label))
    return translate(lang, "cards.yours", cards=cards)


def _board_lines(seen: Seen) -> list[str]:
    """The board shown; two boards: each, named."""
    lang = seen.locale
    if seen.second_board:
        named = [(translate(lang, "render.board_number", number=str(i)), board)
                 for i, board in ((1, seen.board), (2, seen.second_board))]
    else:
        named = [(translate(lang, "render.board"), seen.board)] if seen.board else []
    return [translate(lang, "table.street_line", street=name, cards=written(board))
            for name, board in named]


def _money(seen: Seen, snap: TableSnapshot, seat: SeatSnapshot) -> str:
    lang, owed = seen.locale, to_call(snap, seat)
    if owed:
        return translate(lang, "panel.money_call", amount=owed, stack=seat.stack)
    return translate(lang, "panel.money_check", stack=seat.stack)


def _your_turn(seen: Seen, snap: TableSnapshot, turn: TurnView) -> str:
    """The pot and the player's clock (Discord words ``<t:…:R>`` on each screen)."""
    lang = seen.locale
    when = translate(lang, "turn.clock", when=f"<t:{int(seen.deadline)}:R>") \
        if seen.deadline else ""
    bank = translate(lang, "turn.bank", seconds=int(turn.time_bank)) \
        if turn.time_bank >= 1 else ""
    return translate(lang, "panel.your_turn", pot=snap.pot, clock=when, bank=bank)


def _result_lines(seen: Seen, snap: TableSnapshot, result: HandResultView) -> list[str]:
    lang, seat = seen.locale, seen.seat
    lines = [translate(lang, "panel.over", number=str(result.hand_no))]
    if seat is not None and seat.seat in result.net:
        lines.append(translate(lang, "panel.net", net=signed(lang, result.net[seat.seat])))
    return lines + [f"> {line}" for line in message_lines(lang, result)]


def panel_text(seen: Seen) -> str:
    """The panel's text (at most Discord's 2,000 characters)."""
    lang, snap, seat = seen.locale, seen.snap, seen.seat
    if snap is None or seat is None:
        return seen.closed or translate(lang, "panel.no_hand")
    lines = [_head(seen, snap), _cards_line(seen), *_board_lines(seen)]
    if seen.result is not None:
        lines.extend(_result_lines(seen, snap, seen.result))
    elif seat.folded:
        lines.append(translate(lang, "panel.folded"))
    elif seen.question is not None:
        when = f"<t:{int(seen.deadline)}:R>" if seen.deadline else ""
        lines.append(translate(lang, "panel.run_twice", when=when))
    elif seat.in_hand:
        lines.append(_money(seen, snap, seat))
        if seen.turn is not None and seen.my_turn:
            lines.append(_your_turn(seen, snap, seen.turn))
    if seen.pre_action is not None and seen.deciding and not seen.my_turn:
        lines.append(translate(lang, "panel.pre_action", action=translate(
            lang, f"pre_action.{seen.pre_action.name.lower()}")))
    return fit_message([*lines, seen.closed] if seen.closed else lines, locale=lang)


def panel_buttons(seen: Seen) -> discord.ui.View:
    """On their turn, the turn's buttons (in their language); waiting in the hand, Fold
    and Check/Call disabled, then the pre-actions (the one set stands out)."""
    snap, seat, turn = seen.snap, seen.seat, seen.turn
    if seen.closed:
        return discord.ui.View(timeout=None)
    if snap is not None and turn is not None and seen.my_turn:
        return turn_buttons(snap, turn, seen.locale)
    view = discord.ui.View(timeout=None)
    if snap is not None and seen.question is not None:  # they are asked: their answer
        for choice, key in (("twice", "run_twice.yes"), ("once", "run_twice.no")):
            view.add_item(RunTwiceButton(snap.table_id, seen.question.token, choice,
                                         translate(seen.locale, key)))
        return view
    if snap is None or seat is None or not seen.deciding:
        return view
    lang, owed = seen.locale, to_call(snap, seat)
    waiting = [ActionButton(snap.table_id, NO_TOKEN, "fold", label=translate(lang, "button.fold"),
                            style=discord.ButtonStyle.danger, row=0)]
    if owed:
        waiting.append(ActionButton(snap.table_id, NO_TOKEN, "call", row=0,
                                    label=translate(lang, "button.call", amount=owed)))
    else:
        waiting.append(ActionButton(snap.table_id, NO_TOKEN, "check", row=0,
                                    label=translate(lang, "button.check")))
    for item in waiting:
        item.item.disabled = True
        view.add_item(item)
    for choice, pre in PRE_ACTIONS.items():
        button = PreActionButton(snap.table_id, choice, lang)
        if pre is not None and pre is seen.pre_action:
            button.item.style = discord.ButtonStyle.primary
        view.add_item(button)
    return view


def stale_panel(locale: str, table_id: int) -> tuple[str, discord.ui.View]:
    """A panel whose token is about to expire: it says so, with one button to reopen."""
    view = discord.ui.View(timeout=None)
    view.add_item(MySeatButton(table_id, locale, reopen=True))
    return translate(locale, "panel.stale", button=translate(locale, "button.reopen")), view


def closed_panel(locale: str, table_id: int, returned: int | None) -> str:
    """A panel's last words when its table closes: the chips that went back to the
    player's balance (when any did)."""
    table = wording.table_name(locale, table_id)
    if returned:
        return translate(locale, "panel.closed_returned", table=table, count=returned)
    return translate(locale, "panel.closed", table=table)
