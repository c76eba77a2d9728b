"""Run it twice: the rest of the board dealt twice, each pot split between the boards.

RULES.md does not know running it twice; these are the decisions made here
(pinned by ``tests/engine/test_run_twice.py``):

* **When.** The table allows it (``GameConfig.run_it_twice``) and the betting
  ends with at most one player able to bet, two or more in the hand and board
  cards still to come (RULES.md section 6, an all-in run-out; not when the
  last all-in is called on the river). Every live hand is shown first, as in
  any run-out; then every player still in the hand (the one who covered the
  all-ins too: no more betting is possible for anyone) is asked. Their
  answers are inputs of the hand (:meth:`Hand.vote_run_twice`), recorded as
  :class:`~bot.engine.events.RunTwiceVoted`. The first "once" deals the board
  once at once; when all have said "twice" it is dealt twice. Silence is the
  runtime's business: it answers "once" for a player whose clock runs out.
* **Enough cards.** The question is asked only when the deck still holds the
  second run's cards (:func:`second_run_cards`): six players of six-card Omaha
  all-in before the flop use every card of the deck; seven cannot run twice
  before the flop (they are not asked, the board is dealt once).
* **The dealing order** (RULES.md section 4: "one card is burned before the
  flop, the turn and the river"). The first run is dealt exactly as a board
  dealt once. The second run continues from the same deck right after the
  first run's last card, street by street as the first: one burn, then the
  street's cards (Courchevel's flop, two cards with no burn, as in the first
  run). The second board is the cards dealt before the all-in followed by the
  second run's own cards. So, all-in on the flop with nine players of Omaha:
  deck positions 36..43 deal the flop, turn and river of the first run (burns
  at 36, 40, 42), then 44 is burned, 45 is the second turn, 46 burned and 47
  the second river (:func:`~bot.engine.dealing.deal_positions`).
* **Splitting.** Each pot (main and side pots, cut as for one board) is
  halved between the boards, the odd chip to the first board. Each board's
  half is then awarded on that board as a pot of its own by RULES.md section
  6: the best high hand, in hi-lo the high and low halves (odd chip to the
  high half, no qualifying low: the high takes that board's half), ties split
  with odd chips clockwise from the first seat after the button.
* **The record.** The second run's burns, board cards and awards carry
  ``run=1``; the awards of the first board come first (main pot first), then
  the second board's.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.betting import Player
from bot.engine.cards import Card
from bot.engine.events import PotAwarded, Street
from bot.engine.pots import board_halves, build_pots
from bot.engine.showdown import award_two_boards, hand_values
from bot.engine.variants import Variant

__all__ = ["board_halves", "second_run_cards", "settle_two_boards", "streets_to_come"]

_AFTER = {Street.PREFLOP: Street.FLOP, Street.FLOP: Street.TURN, Street.TURN: Street.RIVER}


def streets_to_come(street: Street) -> list[Street]:
    """The streets still to be dealt after ``street`` (none on the river)."""
    out: list[Street] = []
    while street in _AFTER:
        street = _AFTER[street]
        out.append(street)
    return out


def street_cards(variant: Variant, street: Street) -> tuple[int, int]:
    """``(burns, cards)`` one street deals: Courchevel's flop burns nothing and deals 2."""
    if street is Street.FLOP:
        return (0, 2) if variant.courchevel else (1, 3)
    return 1, 1


def second_run_cards(variant: Variant, street: Street) -> int:
    """How many deck cards the second run takes when the all-in closes ``street``."""
    return sum(sum(street_cards(variant, s)) for s in streets_to_come(street))


def settle_two_boards(
    players: Sequence[Player], boards: tuple[Sequence[Card], Sequence[Card]], variant: Variant
) -> list[PotAwarded]:
    """Award every pot half on each board (module docstring;
    :func:`~bot.engine.showdown.award_two_boards`); the winners' stacks grow here. Every
    live hand was shown in the run-out, so nobody mucks."""
    pots = build_pots([p.committed for p in players], [not p.folded for p in players],
                      [p.all_in for p in players])
    values = [hand_values(players, board, variant) for board in boards]
    return award_two_boards(players, pots, values, (), variant.hi_lo)
