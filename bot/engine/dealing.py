"""Where seats and cards go: the button's move (:func:`next_button`) and the deck's
dealing plan (:func:`deal_positions`, :func:`deck_order_for`).

Seats are table seat numbers, clockwise in ascending order (wrapping). The
:class:`~bot.engine.hand.Hand` deals hole cards one at a time, clockwise from
the small blind (heads-up from the button), then burns one card before each
street (Courchevel: see the :mod:`bot.engine.hand` docstring).
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


def deal_positions(n_players: int, variant: Variant) -> dict[str, list[int]]:
    """Where each card comes from in the deck, for ``n_players`` in deal order.

    Returns ``{"hole:K": [...], "burn": [...], "board": [...]}``: ``hole:K``
    lists the deck indexes of the K-th player's hole cards in deal order
    (dealt one at a time, clockwise from the small blind).
    """
    h = variant.hole_cards
    out: dict[str, list[int]] = {f"hole:{k}": [r * n_players + k for r in range(h)]
                                 for k in range(n_players)}
    pos = n_players * h
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
    return out


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
