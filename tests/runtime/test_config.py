"""Table settings: defaults and validation."""

from __future__ import annotations

import pytest

from bot.engine.variants import Structure
from bot.runtime.config import TableConfig
from bot.runtime.errors import TableSettingsError
from bot.storage.returning import departure_key


def test_defaults_are_pot_limit_omaha_six_seats() -> None:
    """With no options a table is PLO 1/2, 6 seats, 20 to 100 big blinds, 30 s + 60 s bank."""
    c = TableConfig.create()
    assert (c.variant.key, c.structure, c.seats) == ("omaha", Structure.POT_LIMIT, 6)
    assert (c.small_blind, c.big_blind, c.ante) == (1, 2, 0)
    assert (c.min_buyin, c.max_buyin, c.clock, c.time_bank) == (40, 200, 30, 60)
    assert c.title == "Pot Limit Omaha 1/2"


def test_texas_holdem_is_no_limit_unless_a_structure_is_named() -> None:
    """Issue 30: "Texas Hold'em" alone is No Limit Texas Hold'em, ten seats allowed; a
    structure named is kept, and a change of game keeps the table's structure."""
    c = TableConfig.create(variant_key="holdem")
    assert (c.structure, c.title, c.variant.max_seats) == (
        Structure.NO_LIMIT, "No Limit Texas Hold'em 1/2", 10)
    assert TableConfig.create(variant_key="holdem", structure="pot limit").structure is (
        Structure.POT_LIMIT)
    assert TableConfig.create().changed(variant_key="holdem").structure is Structure.POT_LIMIT
    assert TableConfig.create(variant_key="holdem", seats=10).seats == 10


def test_buyins_follow_the_big_blind_when_left_out() -> None:
    """Blinds 5/10 give a default buy-in range of 200 to 1,000."""
    c = TableConfig.create(big_blind=10)
    assert (c.small_blind, c.min_buyin, c.max_buyin) == (5, 200, 1000)


def test_section_2_seats_are_limited_by_the_deck() -> None:
    """Six-card Omaha seats at most 7 players; 8 is refused with the limit named."""
    assert TableConfig.create(variant_key="omaha6", seats=7).seats == 7
    with pytest.raises(TableSettingsError, match="2 to 7"):
        TableConfig.create(variant_key="omaha6", seats=8)
    with pytest.raises(TableSettingsError):
        TableConfig.create(seats=1)
    assert TableConfig.create(variant_key="omaha", seats=10).seats == 10


def test_section_3_fixed_limit_small_blind_is_half_the_small_bet() -> None:
    """Fixed limit 5-10: blinds 2 and 5; any other small blind is refused."""
    c = TableConfig.create(structure="fixed limit", big_blind=5)
    assert (c.small_blind, c.big_blind) == (2, 5)
    with pytest.raises(TableSettingsError, match="half the big blind"):
        TableConfig.create(structure="fixed limit", big_blind=5, small_blind=3)


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"variant_key": "texas"}, "Unknown variant"),
        ({"structure": "spread limit"}, "Unknown structure"),
        ({"big_blind": 0}, "at least 1"),
        ({"big_blind": -4}, "at least 1"),
        ({"small_blind": 3, "big_blind": 2}, "bigger than the big blind"),
        ({"ante": 5}, "ante cannot be bigger"),
        ({"min_buyin": 300, "max_buyin": 200}, "cannot be below"),
        ({"min_buyin": 1, "big_blind": 2}, "at least one big blind"),
        ({"big_blind": 10**12}, "at most"),
        ({"clock": 2}, "clock"),
        ({"time_bank": -1}, "time bank"),
        ({"big_blind": "2"}, "whole number"),
    ],
)
def test_bad_settings_are_refused_politely(kwargs: dict[str, object], words: str) -> None:
    """Each unplayable setting is refused with a message naming the problem."""
    with pytest.raises(TableSettingsError, match=words):
        TableConfig.create(**kwargs)  # type: ignore[arg-type]


def test_round_trip_through_a_dict() -> None:
    """Settings survive storage as JSON-able data."""
    c = TableConfig.create(variant_key="big_o", structure="no limit", big_blind=4, ante=1)
    assert TableConfig.from_dict(c.to_dict()) == c


def test_changed_keeps_other_settings_and_revalidates() -> None:
    """Changing the big blind re-derives the small blind and buy-ins; bad changes fail."""
    c = TableConfig.create(clock=20)
    d = c.changed(big_blind=10)
    assert (d.small_blind, d.big_blind, d.min_buyin, d.max_buyin, d.clock) == (5, 10, 200, 1000, 20)
    assert c.changed(seats=None) == c
    with pytest.raises(TableSettingsError):
        c.changed(seats=11)


# -- mixed tables (RULES.md 11) ----------------------------------------------------------


def test_section_11_a_list_of_games_deals_its_first_and_rotates_one_orbit() -> None:
    """A typed list: the first game is dealt first, each game for as many hands as the
    table has seats; the settings read back the same; one game is that game's table."""
    c = TableConfig.create(games="NLHE, PLO, O8 limit", seats=5)
    assert c.mix is not None and [g.key for g in c.games] == [
        "holdem/no limit", "omaha/pot limit", "omaha_hilo/fixed limit"]
    assert (c.variant_key, c.structure, c.mix.every) == ("holdem", Structure.NO_LIMIT, 5)
    assert TableConfig.from_dict(c.to_dict()) == c and "mix" not in c.alone().to_dict()
    assert c.game_key == "holdem/no limit+omaha/pot limit+omaha_hilo/fixed limit@1/2"
    assert TableConfig.create(games="PLO8").mix is None
    assert TableConfig.create(games="PLO8").game_key == "omaha_hilo/pot limit@1/2"


def test_section_7_and_11_the_same_list_of_games_is_one_key() -> None:
    """The return rule's key of a mixed table is its list in order, with the blinds: the
    game it deals now, its mode and its rotation's length do not change it; storage reads
    the same key back from the stored settings."""
    c = TableConfig.create(games="NLHE, PLO", every=2, big_blind=4)
    assert c.game_key == "holdem/no limit+omaha/pot limit@2/4"
    assert c.playing(c.games[1]).game_key == c.game_key
    assert c.changed(mode="dealer's choice", every=5).game_key == c.game_key
    assert TableConfig.create(games="PLO, NLHE", big_blind=4).game_key != c.game_key
    for config in (c, c.playing(c.games[1]), TableConfig.create(variant_key="omaha6")):
        assert departure_key(config.to_dict()) == config.game_key


def test_section_11_seats_must_fit_every_game_of_the_list() -> None:
    """Six-card Omaha in the list: at most 7 seats, by default 6; the refusal names it."""
    assert TableConfig.create(games="NLHE, PLO6").seats == 6
    with pytest.raises(TableSettingsError, match="Six-card Omaha seats 2 to 7"):
        TableConfig.create(games="NLHE, PLO6", seats=8)
    assert TableConfig.create(games="NLHE, PLO", seats=10).seats == 10


def test_section_11_blinds_serve_every_game_fixed_limit_needs_half() -> None:
    """With a fixed-limit game in the list the small blind is half the big blind rounded
    down, as section 3 says, so every game posts the same blinds."""
    c = TableConfig.create(games="NLHE, O8 limit", big_blind=5)
    assert (c.small_blind, c.big_blind) == (2, 5)
    with pytest.raises(TableSettingsError, match="half the big blind"):
        TableConfig.create(games="NLHE, O8 limit", small_blind=3, big_blind=5)
    assert TableConfig.create(games="NLHE, PLO", small_blind=3, big_blind=5).small_blind == 3


@pytest.mark.parametrize("kwargs, words", [
    ({"games": "NLHE, stud"}, "“stud”"),
    ({"games": ", ".join(["NLHE"] * 9)}, "2 to 8 games"),
    ({"games": "NLHE, PLO", "mode": "random"}, "Unknown mode"),
    ({"games": "NLHE, PLO", "every": 0}, "1 to 100 hands"),
    ({"every": 3}, "list of games"),
])
def test_section_11_bad_lists_are_refused(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(TableSettingsError, match=words):
        TableConfig.create(**kwargs)  # type: ignore[arg-type]


def test_section_11_settings_change_the_list_between_hands() -> None:
    """A new list (its first game next), a new mode, or one game making the table a
    one-game table again; other settings keep the list."""
    c = TableConfig.create(games="NLHE, PLO", every=3)
    new = c.changed(games="PLO5, O8")
    assert new.mix is not None and [g.variant_key for g in new.games] == ["omaha5", "omaha_hilo"]
    assert new.variant_key == "omaha5" and new.mix.every == 3
    assert c.changed(mode="dealer's choice").mix.mode == "dealer's choice"  # type: ignore[union-attr]
    assert c.changed(big_blind=10).mix == c.mix
    alone = c.changed(variant_key="omaha6")
    assert alone.mix is None and alone.variant_key == "omaha6"
    with pytest.raises(TableSettingsError, match="list of games"):
        TableConfig.create().changed(mode="dealer's choice")


def test_the_settings_refuse_a_bounty_but_at_holdem_and_load_older_configs_off() -> None:
    with pytest.raises(TableSettingsError, match="Texas Hold'em tables only, not at Omaha"):
        TableConfig.create(seven_deuce=5)
    with pytest.raises(TableSettingsError, match="from 0 \\(off\\) to 100"):
        TableConfig.create(variant_key="holdem", seven_deuce=101)
    holdem = TableConfig.create(variant_key="holdem", seven_deuce=3, rabbit_hunt=True)
    assert holdem.game.seven_deuce == 3 and TableConfig.from_dict(holdem.to_dict()) == holdem
    with pytest.raises(TableSettingsError, match="Texas Hold'em tables only"):
        holdem.changed(variant_key="omaha")
    assert holdem.changed(variant_key="omaha", seven_deuce=0).rabbit_hunt
    mixed = TableConfig.create(games="PLO, NLHE", seven_deuce=2)
    assert mixed.seven_deuce == 2 and mixed.variant_key == "omaha"  # its Hold'em hands pay
    omaha_hand = mixed.alone().to_dict()  # what an Omaha hand stores: no bounty, and loads
    assert TableConfig.from_dict(omaha_hand).seven_deuce == 0
    holdem_hand = mixed.playing(mixed.games[1]).alone()
    assert TableConfig.from_dict(holdem_hand.to_dict()).game.seven_deuce == 2
    with pytest.raises(TableSettingsError, match="Texas Hold'em tables only"):
        TableConfig.create(games="PLO, O8 limit", seven_deuce=2)
    old = {k: v for k, v in holdem.to_dict().items()
           if k not in ("seven_deuce", "rabbit_hunt", "showing")}
    loaded = TableConfig.from_dict(old)
    assert (loaded.seven_deuce, loaded.rabbit_hunt, loaded.showing) == (0, False, False)
