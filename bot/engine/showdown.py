"""The showdown (RULES.md section 6): who shows, who mucks, and who wins each pot.

Pure functions over the engine's :class:`~bot.engine.betting.Player` state;
the :class:`~bot.engine.hand.Hand` turns their answers into events and chips.

Hands are shown in showdown order (:func:`showdown_order`). A hand that can
no longer win or tie any part of a pot it is eligible for, against the hands
shown before it, is mucked unless its owner asked to show
(:class:`BestShown` keeps that score). Each pot goes to the best high hand
among the contenders; in hi-lo, when a contender makes a low, the pot is
split in halves (:func:`~bot.engine.pots.split_hi_lo`) and ties share a half
(:func:`~bot.engine.pots.split_evenly`).

Two boards (a double-board bomb pot, :mod:`bot.engine.bomb_pot`; a board run
twice, :mod:`bot.engine.run_twice`): a hand is mucked only when it can win or
tie nothing on either board, and :func:`award_two_boards` halves each pot
between the boards (the odd chip to board 1), each half awarded on its board
as a pot of its own.
"""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence
from dataclasses import dataclass, field

from bot.engine.betting import Player
from bot.engine.cards import Card
from bot.engine.evaluate import high_value, low_value
from bot.engine.events import Event, HandMucked, HandShown, PotAwarded
from bot.engine.pots import Pot, board_halves, build_pots, split_evenly, split_hi_lo
from bot.engine.variants import Variant

__all__ = [
    "BestShown",
    "Showdown",
    "award_shares",
    "award_two_boards",
    "hand_values",
    "play_showdown",
    "showdown_order",
]


@dataclass
class Showdown:
    """What a showdown did: its events in order (hands shown or mucked, then one
    award per pot), and the positions it showed face down and mucked."""

    events: list[Event] = field(default_factory=list)
    shown: list[int] = field(default_factory=list)
    mucked: list[int] = field(default_factory=list)
    awards: list[PotAwarded] = field(default_factory=list)


def play_showdown(
    players: Sequence[Player],
    boards: Sequence[Sequence[Card]],
    order: Sequence[int],
    face_up: Container[int],
    variant: Variant,
) -> Showdown:
    """Show or muck each live hand in ``order`` (positions; those in ``face_up`` were
    already shown), then award every pot on the one board, or halved between two
    ``boards``: the winners' stacks grow here. A hand that ties shows all its hole
    cards, the board playing too (RULES.md 9)."""
    hi_lo = variant.hi_lo
    values = [hand_values(players, board, variant) for board in boards]
    pots = build_pots([p.committed for p in players], [not p.folded for p in players],
                      [p.all_in for p in players])
    bests = [BestShown(len(pots), hi_lo) for _ in boards]
    done = Showdown()
    for i in order:
        p = players[i]
        mine = [k for k, pot in enumerate(pots) if i in pot.eligible]
        if i not in face_up:
            could = any(best.could_win(mine, hi[i], lo.get(i))
                        for best, (hi, lo) in zip(bests, values, strict=True))
            if not (could or p.show_requested):
                done.mucked.append(i)
                done.events.append(HandMucked(p.seat))
                continue
            done.shown.append(i)
            done.events.append(HandShown(p.seat, p.hole, False))
        for best, (hi, lo) in zip(bests, values, strict=True):
            best.add(mine, hi[i], lo.get(i))
    mucked = set(done.mucked)
    if len(boards) == 2:
        done.awards = award_two_boards(players, pots, values, mucked, hi_lo)
    else:
        hi, lo = values[0]
        for k, pot in enumerate(pots):
            contenders = [i for i in pot.eligible if i not in mucked]
            done.awards.append(_pay(players, k, pot,
                                    award_shares(pot, contenders, hi, lo, hi_lo)))
    done.events.extend(done.awards)
    return done


Values = tuple[dict[int, int], dict[int, int | None]]


def award_two_boards(
    players: Sequence[Player],
    pots: Sequence[Pot],
    values: Sequence[Values],
    mucked: Container[int],
    hi_lo: bool,
) -> list[PotAwarded]:
    """Each pot halved between two boards (``values``: the hands' values on each, from
    :func:`hand_values`), the odd chip to board 1; each half awarded on its board by
    RULES.md 6 among the hands not ``mucked``. Board 1's awards come first (main pot
    first), then board 2's (``run=1``); the winners' stacks grow here."""
    awards: list[PotAwarded] = []
    for run, (hi, lo) in enumerate(values):
        for k, pot in enumerate(pots):
            share = Pot(board_halves(pot.amount)[run], pot.eligible)
            if share.amount == 0:
                continue
            contenders = [i for i in pot.eligible if i not in mucked]
            awards.append(_pay(players, k, share,
                               award_shares(share, contenders, hi, lo, hi_lo), run))
    return awards


def _pay(
    players: Sequence[Player],
    index: int,
    pot: Pot,
    shares: tuple[list[tuple[int, int]], list[tuple[int, int]]],
    run: int = 0,
) -> PotAwarded:
    """Add each share to its winner's stack; the award event (seats, not positions;
    ``run`` 1: board 2's half)."""
    high, low = shares
    for i, chips in high:
        players[i].stack += chips
    for i, chips in low:
        players[i].stack += chips
    return PotAwarded(
        index, pot.amount, tuple(players[i].seat for i in pot.eligible),
        tuple((players[i].seat, c) for i, c in high), tuple((players[i].seat, c) for i, c in low),
        run=run,
    )  # fmt: skip


def showdown_order(players: Sequence[Player], river_aggressor: int | None) -> list[int]:
    """Live positions in showdown order: the last river bettor or raiser first,
    else the first live player after the button; then clockwise."""
    n = len(players)
    if river_aggressor is not None:
        first = river_aggressor
    else:
        first = next(p.pos for p in players if not p.folded)
    return [i for k in range(n) if not players[i := (first + k) % n].folded]


def hand_values(
    players: Sequence[Player], board: Sequence[Card], variant: Variant
) -> tuple[dict[int, int], dict[int, int | None]]:
    """Each live position's high value and (in hi-lo, else empty) low value."""
    hi: dict[int, int] = {}
    lo: dict[int, int | None] = {}
    for p in players:
        if not p.folded:
            hi[p.pos] = high_value(p.hole, board, variant.rule)
            if variant.hi_lo:
                lo[p.pos] = low_value(p.hole, board)
    return hi, lo


class BestShown:
    """The best high and low value shown so far in each pot (``None``: none yet)."""

    __slots__ = ("hi_lo", "high", "low")

    def __init__(self, pots: int, hi_lo: bool) -> None:
        self.hi_lo = hi_lo
        self.high: list[int | None] = [None] * pots
        self.low: list[int | None] = [None] * pots

    def could_win(self, pots: Sequence[int], high: int, low: int | None) -> bool:
        """Whether a hand could win or tie a half of one of ``pots`` (indexes)."""
        for k in pots:
            best_high = self.high[k]
            if best_high is None or high >= best_high:
                return True
            if self.hi_lo:
                best_low = self.low[k]
                if low is not None and (best_low is None or low >= best_low):
                    return True
        return False

    def add(self, pots: Sequence[int], high: int, low: int | None) -> None:
        """A hand was shown: it now sets the bar in each of ``pots``."""
        for k in pots:
            best_high = self.high[k]
            if best_high is None or high > best_high:
                self.high[k] = high
            if self.hi_lo:
                best_low = self.low[k]
                if low is not None and (best_low is None or low > best_low):
                    self.low[k] = low


def award_shares(
    pot: Pot,
    contenders: Sequence[int],
    hi: Mapping[int, int],
    lo: Mapping[int, int | None],
    hi_lo: bool,
) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """``(position, chips)`` for the high and the low half of ``pot`` among ``contenders``
    (positions whose hands were not mucked). Without a low, the high takes it all."""
    top = max(hi[i] for i in contenders)
    high_winners = [i for i in contenders if hi[i] == top]
    low_winners: list[int] = []
    if hi_lo:
        lows = [(v, i) for i in contenders if (v := lo[i]) is not None]
        if lows:
            best = max(v for v, _ in lows)
            low_winners = [i for v, i in lows if v == best]
    if low_winners:
        high_amount, low_amount = split_hi_lo(pot.amount)
    else:
        high_amount, low_amount = pot.amount, 0
    high = split_evenly(high_amount, high_winners)
    low = split_evenly(low_amount, low_winners) if low_amount else []  # 1 chip: no low half
    return high, low
