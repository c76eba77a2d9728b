"""A board run twice in PHH: the user field ``_run_twice`` (:func:`second_run_of`).

PHH actions know one board, so :func:`~bot.engine.phh.history_of` writes the
first board in ``actions`` and the second run's own board deals in
``_run_twice`` (``["d db QcJh5s", "d db 4h", "d db 8d"]``, the cards in the
order dealt). A record with the field was run twice: every player agreed, so
:func:`~bot.engine.phh.replay` plays it on a table that runs it twice and
answers "twice" for everyone; the second run's cards sit in the deck right
after the first run's (:func:`~bot.engine.dealing.deal_positions`). The second
board shares the first board's first ``5 - len(second run)`` cards.
"""

from __future__ import annotations

from bot.engine.cards import Card
from bot.engine.phh.actions import BoardDeal, parse_action
from bot.engine.phh.history import RUN_TWICE_FIELD
from bot.engine.phh.records import HandError, HandHistory
from bot.engine.variants import Variant

__all__ = ["RUN_TWICE_FIELD", "board_deals", "second_run_of", "shared_cards"]


def second_run_of(hh: HandHistory) -> tuple[Card, ...] | None:
    """The second run's own cards, or ``None`` when the hand was dealt once;
    :class:`HandError` when the field cannot be read."""
    cards = board_deals(hh, RUN_TWICE_FIELD)
    if cards is not None and not 1 <= len(cards) <= 5:
        raise HandError(f"{RUN_TWICE_FIELD} deals {len(cards)} cards, not 1 to 5")
    return cards


def board_deals(hh: HandHistory, name: str) -> tuple[Card, ...] | None:
    """The cards of the user field ``name``, a list of board deals (``["d db QcJh5s",
    "d db 4h"]``), or ``None`` when the record has no such field; :class:`HandError`
    when it cannot be read."""
    value = dict(hh.extra).get(name)
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise HandError(f"{name} is not a list of board deals")
    cards: list[Card] = []
    for text in value:
        action = parse_action(str(text))
        if not isinstance(action, BoardDeal):
            raise HandError(f"{name} holds {text!r}, which is not a board deal")
        cards.extend(action.cards)
    return tuple(cards)


def shared_cards(variant: Variant, second: tuple[Card, ...]) -> int:
    """How many first-board cards the second board shares; :class:`HandError` when a
    board cannot be run twice after that many."""
    shared = 5 - len(second)
    allowed = (1, 3, 4) if variant.courchevel else (0, 3, 4)
    if shared not in allowed:
        raise HandError(f"{RUN_TWICE_FIELD} cannot run a board twice after {shared} cards")
    return shared
