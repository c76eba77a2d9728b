"""The list of games as players type it (bot/runtime/game_list.py)."""

from __future__ import annotations

import pytest

from bot.engine.variants import VARIANTS, Structure
from bot.runtime.errors import TableSettingsError
from bot.runtime.game_list import parse_game, parse_games, short_name, suggestions
from bot.runtime.mix import Game

NL, PL, FL = Structure.NO_LIMIT, Structure.POT_LIMIT, Structure.FIXED_LIMIT


@pytest.mark.parametrize("typed, variant, structure", [
    ("NLHE", "holdem", NL), ("nlh", "holdem", NL), ("LHE", "holdem", FL),
    ("PLHE", "holdem", PL), ("Texas Hold'em", "holdem", NL), ("Limit Hold'em", "holdem", FL),
    ("No-Limit Hold’em", "holdem", NL), ("holdem pot limit", "holdem", PL),
    ("PLO", "omaha", PL), ("Omaha", "omaha", PL), ("NLO", "omaha", NL), ("FLO", "omaha", FL),
    ("O8", "omaha_hilo", FL), ("O8 limit", "omaha_hilo", FL), ("PLO8", "omaha_hilo", PL),
    ("Omaha Hi-Lo", "omaha_hilo", FL), ("Pot-Limit Omaha Hi/Lo", "omaha_hilo", PL),
    ("plo hi-lo", "omaha_hilo", PL), ("O/8", "omaha_hilo", FL),
    ("PLO5", "omaha5", PL), ("5-card PLO", "omaha5", PL), ("Five-card Omaha", "omaha5", PL),
    ("PLO6", "omaha6", PL), ("6 card omaha no limit", "omaha6", NL),
    ("Big O", "big_o", PL), ("FL Big O", "big_o", FL),
    ("Courchevel", "courchevel", PL), ("Courchevel Hi-Lo", "courchevel_hilo", PL),
    ("courchevel 8 fixed limit", "courchevel_hilo", FL),
    ("sin límite hold'em", "holdem", NL), ("Omaha límite fijo", "omaha", FL),
    ("omaha limite do pote", "omaha", PL), ("Hold'em limite fisso", "holdem", FL),
])
def test_the_usual_names_and_abbreviations(typed: str, variant: str, structure: Structure) -> None:
    assert parse_game(typed) == Game(variant, structure)


@pytest.mark.parametrize("typed", ["", "PL", "stud", "razz", "PLO limit", "NL PL omaha", "HORSE"])
def test_what_is_not_a_game(typed: str) -> None:
    """Nothing, a structure alone, games we do not deal, two structures at once."""
    assert parse_game(typed) is None


def test_a_list_keeps_its_order_and_separators() -> None:
    assert parse_games("NLHE, PLO; O8 limit + PLO") == (
        Game("holdem", NL), Game("omaha", PL), Game("omaha_hilo", FL), Game("omaha", PL))


@pytest.mark.parametrize("typed, part", [
    ("NLHE, stud, PLO", "stud"), ("NLHE,, PLO", "…"), ("NLHE, PLO,", "…"), ("", "…")])
def test_the_part_not_understood_is_named(typed: str, part: str) -> None:
    with pytest.raises(TableSettingsError) as refused:
        parse_games(typed)
    assert f"“{part}”" in str(refused.value) and "NLHE, PLO, O8 limit" in str(refused.value)


def test_every_short_name_reads_back_as_its_game() -> None:
    games = [Game(k, s) for k in VARIANTS for s in Structure]
    shorts = [short_name(g) for g in games]
    assert len(set(shorts)) == len(games) == 24
    assert [parse_game(s) for s in shorts] == games
    assert short_name(Game("holdem", FL)) == "LHE" and short_name(Game("big_o", PL)) == "PL Big O"


def test_suggestions_complete_the_last_game() -> None:
    """The list so far is kept as typed; the last part is completed; a list that reads
    whole comes first; the most played games first when nothing is typed."""
    assert suggestions("NLHE, pl")[:3] == ["NLHE, PLO", "NLHE, PLO8", "NLHE, PLO5"]
    assert suggestions("nlhe, plo")[0] == "nlhe, plo"
    assert suggestions("")[:3] == ["NLHE", "PLO", "PLO8"] and len(suggestions("")) == 24
    assert suggestions("NLHE, big") == ["NLHE, PL Big O", "NLHE, NL Big O", "NLHE, FL Big O"]
    assert suggestions("NLHE, xyz") == []
    assert all(len(s) <= 100 for s in suggestions("Pot Limit Omaha Hi-Lo, " * 4 + "p"))
