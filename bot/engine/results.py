"""What a finished hand settled: :class:`HandResult` and its parts."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from bot.engine.betting import Player
from bot.engine.cards import Card
from bot.engine.evaluate import MadeHand, best_high, best_low, describe_against, hand_label
from bot.engine.events import BountyPaid, PotAwarded
from bot.engine.variants import Variant

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
    run: int = 0  # 1: the second board's share of a pot run twice


@dataclass(frozen=True)
class HandResult:
    """Everything a finished hand settled. Dicts are keyed by seat number.

    Run twice: ``second_board`` is the second board and ``second_shown`` the
    shown hands as they play on it; ``pots`` lists each board's shares.
    ``bounties``: the 7-2 bounties paid after the pots (RULES.md 10), in ``final_stacks``
    and ``net`` but not in ``payouts`` (chips from pots only)."""

    starting_stacks: dict[int, int]
    final_stacks: dict[int, int]
    payouts: dict[int, int]
    net: dict[int, int]
    returned: dict[int, int]
    pots: tuple[PotResult, ...]
    shown: dict[int, ShownHand] = field(default_factory=dict)
    mucked: tuple[int, ...] = ()
    board: tuple[Card, ...] = ()
    second_board: tuple[Card, ...] = ()
    second_shown: dict[int, ShownHand] = field(default_factory=dict)
    bounties: tuple[BountyPaid, ...] = ()

    @property
    def boards(self) -> tuple[tuple[Card, ...], ...]:
        """One board, or two when the hand was run twice."""
        return (self.board, self.second_board) if self.second_board else (self.board,)


def hand_result(
    players: Sequence[Player],
    awards: Sequence[PotAwarded],
    *,
    shown: Iterable[int],
    mucked: Iterable[int],
    returned: Mapping[int, int],
    board: tuple[Card, ...],
    variant: Variant,
    second_board: tuple[Card, ...] = (),
    bounties: tuple[BountyPaid, ...] = (),
) -> HandResult:
    """The result of a finished hand; ``shown`` and ``mucked`` are positions, in the
    order they were shown or mucked, ``returned`` the uncalled bets by seat."""
    payouts = {p.seat: 0 for p in players}
    for a in awards:
        for seat, chips in a.high + a.low:
            payouts[seat] += chips
    order = list(shown)
    return HandResult(
        starting_stacks={p.seat: p.start for p in players},
        final_stacks={p.seat: p.stack for p in players},
        payouts=payouts,
        net={p.seat: p.stack - p.start for p in players},
        returned=dict(returned),
        pots=tuple(
            PotResult(a.index, a.amount, a.eligible, a.high, a.low, a.uncontested, a.run)
            for a in awards
        ),
        shown=_shown_on(players, order, board, variant),
        mucked=tuple(players[i].seat for i in mucked),
        board=board,
        second_board=second_board,
        second_shown=_shown_on(players, order, second_board, variant) if second_board else {},
        bounties=bounties,
    )


def _shown_on(
    players: Sequence[Player], shown: Sequence[int], board: tuple[Card, ...], variant: Variant
) -> dict[int, ShownHand]:
    """The hands shown (positions, in order) as they play on ``board``, by seat; a high hand
    that only its kickers tell from another shown hand names them ("Pair of kings, kicker
    ace")."""
    highs = {i: best_high(players[i].hole, board, variant.rule) for i in shown}
    out: dict[int, ShownHand] = {}
    for i in shown:
        p = players[i]
        rivals = [h.value for j, h in highs.items() if j != i]
        high = replace(highs[i], description=describe_against(highs[i].value, rivals))
        out[p.seat] = ShownHand(
            p.seat, p.hole, high, best_low(p.hole, board) if variant.hi_lo else None,
            hand_label(p.hole, board, variant, rivals),
        )  # fmt: skip
    return out
