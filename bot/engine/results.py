"""What a finished hand settled: :class:`HandResult` and its parts."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from bot.engine.betting import Player
from bot.engine.cards import Card
from bot.engine.evaluate import MadeHand, best_high, best_low, hand_label
from bot.engine.events import PotAwarded

__all__ = ["HandResult", "PotResult", "ShownHand", "hand_result"]


@dataclass(frozen=True, slots=True)
class ShownHand:
    """A hand shown at showdown: the hands it makes and the players' label of them
    (``"Flush, ace high"``; hi-lo adds ``"; Low 7-5-4-2-A"`` or ``"; no low"``)."""

    seat: int
    cards: tuple[Card, ...]
    high: MadeHand
    low: MadeHand | None = None
    label: str = ""


@dataclass(frozen=True, slots=True)
class PotResult:
    """One pot's award: ``(seat, chips)`` for the high and the low halves."""

    index: int
    amount: int
    eligible: tuple[int, ...]
    high: tuple[tuple[int, int], ...]
    low: tuple[tuple[int, int], ...] = ()
    uncontested: bool = False


@dataclass(frozen=True)
class HandResult:
    """Everything a finished hand settled. Dicts are keyed by seat number."""

    starting_stacks: dict[int, int]
    final_stacks: dict[int, int]
    payouts: dict[int, int]
    net: dict[int, int]
    returned: dict[int, int]
    pots: tuple[PotResult, ...]
    shown: dict[int, ShownHand] = field(default_factory=dict)
    mucked: tuple[int, ...] = ()
    board: tuple[Card, ...] = ()


def hand_result(
    players: Sequence[Player],
    awards: Sequence[PotAwarded],
    *,
    shown: Iterable[int],
    mucked: Iterable[int],
    returned: Mapping[int, int],
    board: tuple[Card, ...],
    hi_lo: bool,
) -> HandResult:
    """The result of a finished hand; ``shown`` and ``mucked`` are positions, in the
    order they were shown or mucked, ``returned`` the uncalled bets by seat."""
    payouts = {p.seat: 0 for p in players}
    for a in awards:
        for seat, chips in a.high + a.low:
            payouts[seat] += chips
    shown_hands: dict[int, ShownHand] = {}
    for i in shown:
        p = players[i]
        shown_hands[p.seat] = ShownHand(
            p.seat, p.hole, best_high(p.hole, board), best_low(p.hole, board) if hi_lo else None,
            hand_label(p.hole, board, hi_lo),
        )  # fmt: skip
    return HandResult(
        starting_stacks={p.seat: p.start for p in players},
        final_stacks={p.seat: p.stack for p in players},
        payouts=payouts,
        net={p.seat: p.stack - p.start for p in players},
        returned=dict(returned),
        pots=tuple(
            PotResult(a.index, a.amount, a.eligible, a.high, a.low, a.uncontested)
            for a in awards
        ),
        shown=shown_hands,
        mucked=tuple(players[i].seat for i in mucked),
        board=board,
    )
