"""The hand's invariants: what must hold after every action (tests check them all).

:meth:`bot.engine.hand.Hand.invariant_violations` calls :func:`violations`
with its internal state; each check below returns the broken invariants it
finds, as readable sentences, in a fixed order.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.betting import BettingRound, Player
from bot.engine.cards import Card
from bot.engine.events import Street
from bot.engine.variants import Variant

__all__ = ["violations"]


def violations(
    players: Sequence[Player],
    board: Sequence[Card],
    *,
    variant: Variant,
    street: Street,
    started: bool,
    over: bool,
    paid: int,
    to_act: int | None,
    betting: BettingRound,
    asking: bool = False,
    second_board: Sequence[Card] = (),
    double: bool = False,
) -> list[str]:
    """Every broken invariant (empty when all is well). ``paid``: chips awarded so far;
    ``to_act``: the position to act; ``betting``: the current betting round;
    ``asking``: the players are asked whether to run it twice (nobody acts);
    ``second_board``: the second board of a hand run twice, or of a double board
    (``double``)."""
    return [
        *_chips(players, paid),
        *_seats(players, over),
        *_cards(players, board, variant, street, started, over),
        *(_double_board(board, second_board) if double else _second_board(board, second_board)),
        *_turn(players, to_act, betting, started, over or asking),
        *_settlement(players, paid, over, betting),
    ]


def _chips(players: Sequence[Player], paid: int) -> list[str]:
    start_total = sum(p.start for p in players)
    now = sum(p.stack for p in players) + sum(p.committed for p in players) - paid
    if now != start_total:
        return [f"chips not conserved: {now} != {start_total}"]
    return []


def _seats(players: Sequence[Player], over: bool) -> list[str]:
    bad: list[str] = []
    for p in players:
        if p.stack < 0 or p.bet < 0 or p.committed < p.bet:
            bad.append(f"seat {p.seat}: negative stack or bet")
        if not over and not p.folded and p.all_in != (p.stack == 0):
            bad.append(f"seat {p.seat}: all-in flag does not match the stack")
    return bad


def _cards(
    players: Sequence[Player],
    board: Sequence[Card],
    variant: Variant,
    street: Street,
    started: bool,
    over: bool,
) -> list[str]:
    bad: list[str] = []
    cards = [c for p in players for c in p.hole] + list(board)
    if len(set(cards)) != len(cards):
        bad.append("a card appears twice")
    if not started:
        return bad
    if any(len(p.hole) != variant.hole_cards for p in players):
        bad.append("a player has the wrong number of hole cards")
    expected = {Street.PREFLOP: 1 if variant.courchevel else 0,
                Street.FLOP: 3, Street.TURN: 4, Street.RIVER: 5, Street.SHOWDOWN: 5}
    if not over and len(board) != expected[street]:
        bad.append("the board does not match the street")
    return bad


def _second_board(board: Sequence[Card], second: Sequence[Card]) -> list[str]:
    """A second board has five cards, shares the cards dealt before the all-in with the
    first, and none of its own cards is on the first board."""
    if not second:
        return []
    if len(second) != 5 or len(board) != 5:
        return ["a board run twice does not hold five cards"]
    shared = next((k for k in range(5) if board[k] != second[k]), 5)
    if shared == 5 or set(board) & set(second[shared:]):
        return ["the second board repeats a card of the first"]
    return []


def _double_board(board: Sequence[Card], second: Sequence[Card]) -> list[str]:
    """A double board's second board is dealt street by street with the first and shares
    no card with it."""
    if len(second) != len(board):
        return ["the second board does not match the street"]
    if set(board) & set(second):
        return ["the second board repeats a card of the first"]
    return []


def _turn(
    players: Sequence[Player],
    to_act: int | None,
    betting: BettingRound,
    started: bool,
    over: bool,
) -> list[str]:
    bad: list[str] = []
    if to_act is not None:
        p = players[to_act]
        if p.folded or p.all_in:
            bad.append("the player to act cannot act")
        if not betting.needs_action(players, p):
            bad.append("the player to act has nothing to decide")
    elif started and not over:
        bad.append("nobody is to act in a hand that is not over")
    return bad


def _settlement(
    players: Sequence[Player], paid: int, over: bool, betting: BettingRound
) -> list[str]:
    if over:
        if paid != sum(p.committed for p in players):
            return ["not every chip in the middle was awarded"]
    elif any(p.bet > betting.level for p in players):
        return ["a bet is above the current bet"]
    return []
