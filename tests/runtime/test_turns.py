"""The quick raise sizes of a turn (:func:`bot.runtime.turns.presets`)."""

from __future__ import annotations

from bot.engine.betting import LegalActions
from bot.engine.variants import Structure
from bot.runtime.turns import presets


def legal(low: int, high: int, all_in: int, *, pot: int = 3, to_call: int = 2) -> LegalActions:
    return LegalActions(seat=1, can_check=False, to_call=to_call, min_raise_to=low,
                        max_raise_to=high, is_bet=False, all_in_to=all_in, current_bet=2,
                        pot=pot)


def test_sizes_below_the_all_in() -> None:
    """Blinds 1-2, first to act with 200: Min 4, ½ Pot 4 is Min's (not repeated), Pot 7."""
    assert presets(legal(4, 7, 200), Structure.POT_LIMIT) == (("Min", 4), ("Pot", 7))


def test_min_is_never_the_all_in() -> None:
    """Issue 23: when the least raise takes the whole stack, only the All-in button shows
    it (no "Min 6" beside "All-in 6"), in every structure."""
    for structure in Structure:
        assert presets(legal(6, 6, 6), structure) == ()
    assert presets(legal(4, 9, 9, pot=20), Structure.NO_LIMIT) == (("Min", 4),)
