"""A bomb pot in PHH (:mod:`bot.engine.bomb_pot`): the fields that say one was dealt.

PHH has antes and blinds but no hand without preflop betting, and its actions know
one board. :func:`~bot.engine.phh.history_of` writes a bomb pot as what it is where
PHH can say it, and in user fields (names starting with ``_``, which PokerKit's loader
keeps aside) where it cannot:

* ``antes`` lists the bomb ante for every player (one who could not cover it posted
  all they had, as PHH's antes mean), ``blinds_or_straddles`` zeros, ``min_bet`` the
  big blind (fixed limit: ``small_bet`` and ``big_bet``);
* ``_bomb_pot = true``: there was no preflop betting (the flop follows the hole cards);
* ``_double_board``: board 2's deals of a double board, as ``_run_twice`` holds a
  second run's (``["d db 7d8c9h", "d db Kc", "d db 2s"]``); the ``actions`` deal
  board 1.

This module reads them back (:func:`bomb_pot_of`, :func:`double_board_of`). The table's
small blind is not part of a bomb pot: a record read back gets half the big blind (at
least one chip), which changes nothing in the hand.
"""

from __future__ import annotations

from bot.engine.bomb_pot import BombPot
from bot.engine.cards import Card
from bot.engine.phh.history import BOMB_POT_FIELD, DOUBLE_BOARD_FIELD
from bot.engine.phh.records import HandError, HandHistory
from bot.engine.phh.second_run import board_deals

__all__ = ["BOMB_POT_FIELD", "DOUBLE_BOARD_FIELD", "bomb_pot_of", "double_board_of"]


def bomb_pot_of(hh: HandHistory) -> BombPot | None:
    """The bomb pot a record describes, or ``None``; :class:`HandError` when it cannot be
    one of ours (blinds posted, antes that differ, unreadable fields)."""
    extra = dict(hh.extra)
    marked = extra.get(BOMB_POT_FIELD, False)
    if marked is False:
        if DOUBLE_BOARD_FIELD in extra:
            raise HandError(f"{DOUBLE_BOARD_FIELD} is written only with {BOMB_POT_FIELD}")
        return None
    if marked is not True:
        raise HandError(f"{BOMB_POT_FIELD} must be true or false")
    if any(hh.blinds_or_straddles):
        raise HandError("nobody posts a blind in a bomb pot")
    antes = set(hh.antes)
    if len(hh.antes) != hh.player_count or len(antes) != 1 or min(antes) < 1:
        raise HandError("in a bomb pot every player posts the same ante")
    return BombPot(hh.antes[0], DOUBLE_BOARD_FIELD in extra)


def double_board_of(hh: HandHistory) -> tuple[Card, ...] | None:
    """Board 2 of a double board (``_double_board``), or ``None`` when there is none."""
    cards = board_deals(hh, DOUBLE_BOARD_FIELD)
    if cards is not None and not 3 <= len(cards) <= 5:
        raise HandError(f"{DOUBLE_BOARD_FIELD} deals {len(cards)} cards, not 3 to 5")
    return cards
