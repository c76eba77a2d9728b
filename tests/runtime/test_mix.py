"""Mixed tables as data (bot/runtime/mix.py): which game a hand deals, what comes next."""

from __future__ import annotations

from bot.engine.variants import Structure
from bot.runtime.mix import Game, Mix, Mode, game_for_hand, upcoming

NLHE = Game("holdem", Structure.NO_LIMIT)
PLO = Game("omaha", Structure.POT_LIMIT)
O8 = Game("omaha_hilo", Structure.FIXED_LIMIT)


def test_rotation_deals_each_game_every_n_hands_in_order() -> None:
    mix = Mix((NLHE, PLO, O8), every=2)
    assert [game_for_hand(mix, n).key for n in range(1, 8)] == [
        "holdem/no limit"] * 2 + ["omaha/pot limit"] * 2 + ["omaha_hilo/fixed limit"] * 2 + [
        "holdem/no limit"]


def test_rotation_counts_from_when_the_list_was_set() -> None:
    """A list set after hand 5: hand 6 deals its first game."""
    mix = Mix((PLO, NLHE), every=3, since=5)
    assert [game_for_hand(mix, n) for n in (6, 8, 9, 12)] == [PLO, PLO, NLHE, PLO]


def test_upcoming_says_the_next_game_and_in_how_many_hands() -> None:
    mix = Mix((NLHE, PLO), every=3)
    assert upcoming(mix, 1) == (PLO, 3)
    assert upcoming(mix, 3) == (PLO, 1)
    assert upcoming(mix, 4) == (NLHE, 3)
    assert upcoming(Mix((NLHE, PLO), Mode.DEALERS_CHOICE), 4) is None


def test_dealers_choice_picked_else_previous_else_first() -> None:
    mix = Mix((NLHE, PLO, O8), Mode.DEALERS_CHOICE)
    assert game_for_hand(mix, 9, previous=PLO, chosen=O8) == O8
    assert game_for_hand(mix, 9, previous=PLO) == PLO
    assert game_for_hand(mix, 1) == NLHE
    other = Game("omaha6", Structure.POT_LIMIT)  # no longer in the list: the first game
    assert game_for_hand(mix, 9, previous=other) == NLHE
    assert game_for_hand(mix, 9, previous=PLO, chosen=other) == PLO


def test_a_mix_reads_back_from_its_dict() -> None:
    mix = Mix((NLHE, O8), Mode.DEALERS_CHOICE, every=4, since=12)
    again = Mix.from_dict(mix.to_dict())
    assert again == mix and again.since == 12
