"""Reading the engine's hand for the table: sentences and the result players see.

The engine's :class:`~bot.engine.hand_state.HandState` is the one model of a
hand (seats, pots, board, shown hands, result); this module only words it:
"alice raises to 12", "bob wins 40 with a flush, ace high (main pot)".
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.engine.evaluate import hand_label
from bot.engine.events import ActionKind, BountyPaid, CardsShown, PlayerActed
from bot.engine.hand_state import HandState
from bot.engine.results import HandResult, PotResult, ShownHand
from bot.runtime.decisions import Source
from bot.runtime.seating import Seat
from bot.runtime.table.views import (
    ActionView,
    BountyView,
    HandResultView,
    PotResultView,
    PotWinnerView,
    PrivateCards,
    ShownHandView,
)


def action_text(name: str, ev: PlayerActed) -> tuple[str, ActionKind, int | None]:
    """A sentence for an action, and the (kind, amount) shown with it."""
    allin = " and is all-in" if ev.all_in else ""
    if ev.kind is ActionKind.FOLD:
        return f"{name} folds", ev.kind, None
    if ev.kind is ActionKind.CHECK:
        return f"{name} checks", ev.kind, None
    if ev.kind is ActionKind.CALL:
        return f"{name} calls {ev.amount:,}{allin}", ev.kind, ev.amount
    if ev.kind is ActionKind.BET:
        return f"{name} bets {ev.to:,}{allin}", ev.kind, ev.to
    return f"{name} raises to {ev.to:,}{allin}", ev.kind, ev.to


def result_view(
    hand: HandState, hand_no: int, names: Mapping[int, str], users: Mapping[int, int]
) -> HandResultView:
    """Who won what in the finished ``hand``, with the hands shown and their labels, and the
    7-2 bounties paid after the pots."""
    result = hand.result
    many = len({pot.index for pot in result.pots}) > 1
    twice = any(pot.run for pot in result.pots)  # run twice or a double board, to showdown
    bounties = tuple(bounty_view(hand, paid, names) for paid in result.bounties)
    return HandResultView(
        hand_no=hand_no,
        board=result.board,
        lines=tuple(line for pot in result.pots
                    for line in _pot_lines(result, pot, names, many, twice))
        + tuple(bounty_line(b) for b in bounties),
        payouts={s: won for s, won in result.payouts.items() if won},
        net=dict(result.net),
        shown=tuple(_shown_view(sh, names, users) for _, sh in sorted(result.shown.items())),
        mucked=tuple(sorted(result.mucked)),
        uncontested=bool(result.pots) and all(p.uncontested for p in result.pots),
        pots=tuple(_pot_view(pot, names, many, twice) for pot in result.pots),
        second_board=result.second_board,
        second_shown=tuple(_shown_view(sh, names, users)
                           for _, sh in sorted(result.second_shown.items())),
        bounties=bounties,
    )


def bounty_view(hand: HandState, paid: BountyPaid, names: Mapping[int, str]) -> BountyView:
    """A 7-2 bounty as the result tells it (the 7-2 with it when the bot showed it)."""
    shown = next((e.cards for e in hand.events
                  if isinstance(e, CardsShown) and e.bounty and e.seat == paid.seat), ())
    return BountyView(paid.seat, _name(names, paid.seat), paid.amount,
                      tuple((_name(names, s), c) for s, c in paid.payers if c), shown)


def bounty_line(b: BountyView) -> str:
    """"alice shows 7c 2d and collects the 7-2 bounty: 20 (bob 10, cy 10)"."""
    who = f"{b.name} shows {' '.join(map(str, b.shown))} and" if b.shown else b.name
    if not b.payers:
        return f"{who} wins with 7-2, but nobody has chips left to pay the bounty"
    payers = ", ".join(f"{name} {chips:,}" for name, chips in b.payers)
    return f"{who} collects the 7-2 bounty: {b.amount:,} ({payers})"


def _name(names: Mapping[int, str], seat: int) -> str:
    return names.get(seat, f"seat {seat}")


def _where(pot: PotResult, many: bool, twice: bool = False) -> str:
    """"main pot", "side pot 2", or "" when the hand had one pot; run twice, the board
    follows: "main pot, board 2", "board 1"."""
    where = ("main pot" if pot.index == 0 else f"side pot {pot.index}") if many else ""
    if twice:
        board = f"board {pot.run + 1}"
        return f"{where}, {board}" if where else board
    return where


def _shown_view(
    shown: ShownHand, names: Mapping[int, str], users: Mapping[int, int]
) -> ShownHandView:
    return ShownHandView(
        shown.seat,
        users.get(shown.seat, 0),
        _name(names, shown.seat),
        shown.cards,
        shown.label,
        shown.high,
        shown.low,
    )


def _pot_view(pot: PotResult, names: Mapping[int, str], many: bool,
              twice: bool) -> PotResultView:
    return PotResultView(
        label=_where(pot, many).capitalize() or "Pot",
        amount=pot.amount,
        winners=tuple(
            PotWinnerView(seat, _name(names, seat), amount, half if pot.low else "")
            for half, pairs in (("high", pot.high), ("low", pot.low))
            for seat, amount in pairs
        ),
        uncontested=pot.uncontested,
        board=pot.run + 1 if twice else 0,
    )


def _pot_lines(
    result: HandResult, pot: PotResult, names: Mapping[int, str], many: bool, twice: bool
) -> list[str]:
    """"alice wins 40 high with a flush, ace high (main pot)", one line a share."""
    where, lines = _where(pot, many, twice), []
    shown = result.second_shown if pot.run else result.shown
    for part, pairs in (("high", pot.high), ("low", pot.low)):
        for seat, amount in pairs:
            bits = [f"{_name(names, seat)} wins {amount:,}"]
            if pot.low:
                bits.append(part)
            what = "" if pot.uncontested else _made(shown.get(seat), part == "low")
            if what:
                bits.append(f"with {what}")
            if where:
                bits.append(f"({where})")
            lines.append(" ".join(bits))
    return lines


def _made(shown: ShownHand | None, low: bool) -> str:
    if shown is None:
        return ""
    if low:  # "wins 40 low with 6-5-4-2-A": the line says low once
        return shown.low.description.removeprefix("Low ") if shown.low else ""
    return shown.high.description.lower()


def action_view(seat: Seat, acted: PlayerActed, source: Source) -> ActionView:
    """What the table is told of ``seat``'s action (its text notes who decided)."""
    text, kind, amount = action_text(seat.name, acted)
    return ActionView(
        seat=seat.number,
        user_id=seat.user_id,
        name=seat.name,
        kind=kind,
        amount=amount,
        text=text + source.note,
        source=source,
        all_in=acted.all_in,
    )


def private_cards(hand: HandState, seat: int) -> PrivateCards:
    """``seat``'s own cards, the board and what they make (the label once the flop is out)."""
    hole, board = hand.hole(seat), hand.board
    label = hand_label(hole, board, hand.config.variant) if len(board) >= 3 else ""
    return PrivateCards(hole, board, label)
