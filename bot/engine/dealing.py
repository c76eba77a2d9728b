"""Where seats and cards go: the button's move (:func:`next_button`) and the deck's
dealing plan (:func:`deal_positions`, :func:`deck_order_for`).

Seats are table seat numbers, clockwise in ascending order (wrapping). The
:class:`~bot.engine.hand.Hand` deals hole cards one at a time, clockwise from
the small blind (heads-up from the button), then burns one card before each
street (Courchevel: see the :mod:`bot.engine.hand` docstring). A board run
twice deals its second run right after the first (:mod:`bot.engine.run_twice`); a
double board deals each street twice (:mod:`bot.engine.bomb_pot`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.engine.cards import DECK, Card
from bot.engine.variants import Variant

__all__ = ["deal_positions", "deck_order_for", "next_button"]


def next_button(seats: Iterable[int], button: int) -> int:
    """The seat that takes the button after ``button``: the next dealt-in seat clockwise
    (seat numbers ascend clockwise and wrap). ``seats`` are the seats dealt into the
    next hand; ``button`` need not be one of them."""
    ordered = sorted(set(seats))
    if not ordered:
        raise ValueError("nobody is dealt in")
    for s in ordered:
        if s > button:
            return s
    return ordered[0]


def deal_positions(
    n_players: int, variant: Variant, shared: int | None = None, *, double: bool = False
) -> dict[str, list[int]]:
    """Where each card comes from in the deck, for ``n_players`` in deal order.

    Returns ``{"hole:K": [...], "burn": [...], "board": [...]}``: ``hole:K``
    lists the deck indexes of the K-th player's hole cards in deal order
    (dealt one at a time, clockwise from the small blind). ``shared``: the
    board was run twice after its first ``shared`` cards; ``"board2"`` and
    ``"burn2"`` then list the second run's own cards and burns, which follow
    the first run in the deck (:mod:`bot.engine.run_twice`). ``double``: a
    double-board bomb pot, each street dealt on board 1 then on board 2
    (:mod:`bot.engine.bomb_pot`): ``"board2"`` and ``"burn2"`` are board 2's.
    """
    h = variant.hole_cards
    out: dict[str, list[int]] = {f"hole:{k}": [r * n_players + k for r in range(h)]
                                 for k in range(n_players)}
    pos = n_players * h
    if double:
        out["burn"], out["board"], out["burn2"], out["board2"] = _two_boards(variant, pos)
        return out
    burns: list[int] = []
    board: list[int] = []
    if variant.courchevel:
        burns.append(pos)
        board.append(pos + 1)
        board.extend((pos + 2, pos + 3))
        pos += 4
    else:
        burns.append(pos)
        board.extend((pos + 1, pos + 2, pos + 3))
        pos += 4
    for _ in range(2):
        burns.append(pos)
        board.append(pos + 1)
        pos += 2
    out["burn"] = burns
    out["board"] = board
    if shared is not None:
        out["burn2"], out["board2"] = _second_run(variant, shared, pos)
    return out


def _two_boards(
    variant: Variant, pos: int
) -> tuple[list[int], list[int], list[int], list[int]]:
    """A double board from deck position ``pos``: board 1's burns and cards, board 2's.
    Each street (Courchevel: its face-up first card, then the rest of its flop without a
    burn) is dealt on board 1, then on board 2."""
    streets = [(1, 1), (0, 2)] if variant.courchevel else [(1, 3)]
    streets += [(1, 1), (1, 1)]
    boards: tuple[tuple[list[int], list[int]], ...] = (([], []), ([], []))
    for burns, cards in streets:
        for burned, dealt in boards:
            burned.extend(range(pos, pos + burns))
            pos += burns
            dealt.extend(range(pos, pos + cards))
            pos += cards
    (burn1, board1), (burn2, board2) = boards
    return burn1, board1, burn2, board2


def _second_run(variant: Variant, shared: int, pos: int) -> tuple[list[int], list[int]]:
    """The second run's burns and cards from deck position ``pos``: one burn before each
    street still to come (Courchevel's flop: two cards, no burn), as the first run."""
    streets = {0: [3, 1, 1], 3: [1, 1], 4: [1]}
    if variant.courchevel:
        streets = {1: [2, 1, 1], 3: [1, 1], 4: [1]}
    if shared not in streets:
        raise ValueError(f"a board cannot be run twice after {shared} cards")
    burns: list[int] = []
    board: list[int] = []
    for cards in streets[shared]:
        if not (variant.courchevel and cards == 2):
            burns.append(pos)
            pos += 1
        board.extend(range(pos, pos + cards))
        pos += cards
    return burns, board


def deck_order_for(
    variant: Variant,
    holes: Sequence[Sequence[Card]],
    board: Sequence[Card] = (),
    burns: Sequence[Card] = (),
) -> tuple[Card, ...]:
    """A full deck order that deals ``holes`` (in deal order, from the small blind;
    heads-up from the button) and ``board``; unknown cards are filled from the
    unused ones. For replaying a history whose deck is not stored (PHH).
    """
    plan = deal_positions(len(holes), variant)
    slots: dict[int, Card] = {}
    for k, cards in enumerate(holes):
        for idx, c in zip(plan[f"hole:{k}"], cards, strict=False):
            slots[idx] = c
    for idx, c in zip(plan["board"], board, strict=False):
        slots[idx] = c
    for idx, c in zip(plan["burn"], burns, strict=False):
        slots[idx] = c
    used = set(slots.values())
    if len(used) != len(slots):
        raise ValueError("a card appears twice")
    spare = iter(c for c in DECK if c not in used)
    return tuple(slots[i] if i in slots else next(spare) for i in range(len(DECK)))
