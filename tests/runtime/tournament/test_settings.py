"""Sit-and-go settings (RULES.md section 7): validation, storage form, registration text."""

from __future__ import annotations

import pytest

from bot.engine.variants import Structure
from bot.runtime.tournament.blinds import PRESETS, BlindLevel, BlindSchedule, LevelUnit
from bot.runtime.tournament.payouts import PayoutError, mtt_payouts
from bot.runtime.tournament.settings import TournamentRuleError, TournamentSettings


def test_settings_validation() -> None:
    """Readable refusals: seats, entrant bounds, short stack, payouts, unknown names."""
    cases: list[tuple[dict[str, object], str]] = [
        ({"max_entrants": 8, "variant_key": "omaha6"}, "at most 7"),
        ({"min_entrants": 5, "max_entrants": 4}, "minimum"),
        ({"max_entrants": 11}, "maximum"),
        ({"starting_stack": 199}, "10 big blinds"),
        ({"payouts": [50, 30, 20], "min_entrants": 2}, "3 places"),
        ({"payouts": [70, 20]}, "add up to 90"),
        ({"schedule": "hyper"}, "no 'hyper'"),
        ({"structure": "spread limit"}, "betting structure"),
        ({"variant_key": "razz"}, "no variant"),
        ({"buy_in": 0}, "buy-in"),
    ]
    for changes, message in cases:
        with pytest.raises(TournamentRuleError, match=message):
            TournamentSettings.create(**({"buy_in": 10} | changes))  # type: ignore[arg-type]


def test_settings_round_trip_through_storage_form() -> None:
    """storage_settings() is JSON-able and from_storage rebuilds the same settings."""
    import json

    s = TournamentSettings.create(buy_in=50, starting_stack=3_000, min_entrants=3,
                                  max_entrants=9, variant_key="omaha_hilo",
                                  structure="fixed limit", schedule="turbo", payouts=[60, 40])
    data = json.loads(json.dumps(s.storage_settings()))
    assert TournamentSettings.from_storage(50, 3_000, data) == s
    assert TournamentSettings.from_storage(50, 1_500, {}).schedule is PRESETS["regular"]
    assert TournamentSettings.from_storage(50, 1_500, {"schedule": "slow"}).schedule.duration == 15
    for broken in ({"min_entrants": "two"}, {"schedule": {"levels": [[1]]}},
                   {"payouts": [70, 20]}):
        with pytest.raises(TournamentRuleError):
            TournamentSettings.from_storage(50, 1_500, broken)


def test_what_registration_shows() -> None:
    """The paid places for each player count and the blind levels are readable text."""
    s = TournamentSettings.create(buy_in=10, max_entrants=10)
    assert s.payout_summary() == (
        "2-3 players: 100%", "4-6 players: 65% / 35%", "7-10 players: 50% / 30% / 20%",
    )
    custom = TournamentSettings.create(buy_in=10, min_entrants=4, max_entrants=4,
                                       payouts=[70, 30])
    assert custom.payout_summary() == ("4 players: 70% / 30%",)
    lines = PRESETS["turbo"].lines()
    assert lines[:3] == ("Turbo: 5 minutes per level", "Level 1: 15/30", "Level 2: 25/50")
    assert lines[-1] == "Level 13: 1,500/3,000 ante 300"


def test_multi_table_settings() -> None:
    """A multi-table tournament: up to 60 players at tables of 3 to the variant's seats,
    blinds on a clock in minutes, no late registration; it survives storage."""
    cases: list[tuple[dict[str, object], str]] = [
        ({"max_entrants": 61, "table_size": 9}, "maximum"),
        ({"max_entrants": 20, "table_size": 2}, "seats per table"),
        ({"max_entrants": 20, "table_size": 8, "variant_key": "omaha6"}, "at most 7"),
        ({"max_entrants": 20, "table_size": 9, "late_levels": 2}, "no late registration"),
        ({"max_entrants": 20, "table_size": 9,
          "schedule": BlindSchedule("by hand", (BlindLevel(15, 30),), 5, LevelUnit.HANDS)},
         "in minutes"),
    ]
    for changes, message in cases:
        with pytest.raises(TournamentRuleError, match=message):
            TournamentSettings.create(**({"buy_in": 10} | changes))  # type: ignore[arg-type]
    s = TournamentSettings.create(buy_in=10, max_entrants=45, table_size=9)
    assert s.multi_table and not TournamentSettings.create(buy_in=10).multi_table
    again = TournamentSettings.from_storage(10, s.starting_stack, s.storage_settings())
    assert again == s
    assert s.payout_table(45).percentages == (28, 18, 13, 10, 8, 7, 6, 5, 5)


@pytest.mark.parametrize("entrants", range(2, 61))
def test_multi_table_payouts_add_up_and_pay_fewer_than_the_field(entrants: int) -> None:
    """Every field of 2 to 60: the standard table adds up to the pool, highest first, and
    pays at most half the field (a third from 21 players)."""
    table = mtt_payouts(entrants)
    pool = entrants * 37
    amounts = table.amounts(pool)
    assert sum(amounts) == pool and list(amounts) == sorted(amounts, reverse=True)
    assert table.places <= (entrants // 2 if entrants <= 20 else entrants // 3)
    with pytest.raises(PayoutError):
        mtt_payouts(61)


def test_blinds_are_worded_in_the_readers_number_style() -> None:
    """A level's blinds in a notice: English as ``str(level)``, the others with their own
    thousands separator (issue 13)."""
    from bot.i18n import Phrase
    from bot.runtime.tournament.blinds import Blinds

    last = PRESETS["turbo"].levels[-1]
    notice = Phrase("notice.level", level=Blinds(last), number=13)
    assert str(notice) == f"Blinds are now {last} (level 13)." == (
        "Blinds are now 1,500/3,000 ante 300 (level 13).")
    assert notice.to("pt-BR") == "Os blinds agora são 1.500/3.000 ante 300 (nível 13)."
    assert notice.to("it") == "I bui ora sono 1.500/3.000 ante 300 (livello 13)."
    assert Blinds(BlindLevel(1_000, 2_000)).to("es-ES") == "1.000/2.000"


def test_section_11_a_rotation_of_games_reads_back_from_storage() -> None:
    """A rotation keeps its games and hands per game through storage; its first game is
    the one named for one-game readers; a list of one game is that game."""
    s = TournamentSettings.create(buy_in=10, max_entrants=6, games="PLO, NLHE, O8", every=3)
    assert [g.key for g in s.games] == ["omaha/pot limit", "holdem/no limit",
                                        "omaha_hilo/fixed limit"]
    assert (s.variant_key, s.every, s.blinds_structure.value) == ("omaha", 3, "fixed limit")
    again = TournamentSettings.from_storage(10, s.starting_stack, s.storage_settings())
    assert again == s
    assert TournamentSettings.create(buy_in=10, max_entrants=6, games="PLO, NLHE").every == 6
    one = TournamentSettings.create(buy_in=10, games="NLHE")
    assert (one.variant_key, one.games) == ("holdem", ())
    with pytest.raises(TournamentRuleError, match="“razz”"):
        TournamentSettings.create(buy_in=10, games="NLHE, razz")
    with pytest.raises(TournamentRuleError, match="list of games"):
        TournamentSettings.create(buy_in=10, every=4)


def test_a_holdem_sit_and_go_is_a_no_limit_turbo_relative_to_its_stack() -> None:
    """Issue 30: no structure and no speed named, Texas Hold'em is a no-limit turbo; its
    presets (any speed) are multiplied to the starting stack, the nearest whole multiple
    of 1,500; Omaha keeps pot limit, the regular preset and its amounts whatever the
    stack. Stored and read back, the scaled schedule stays as it was."""
    holdem = TournamentSettings.create(buy_in=10, variant_key="holdem")
    assert (holdem.structure, holdem.schedule) == (Structure.NO_LIMIT, PRESETS["turbo"])
    deep = TournamentSettings.create(buy_in=10, variant_key="holdem", starting_stack=3_000)
    assert deep.schedule == PRESETS["turbo"].times(2)
    assert deep.schedule.lines()[:2] == ("Turbo: 5 minutes per level", "Level 1: 30/60")
    assert TournamentSettings.from_storage(10, 3_000, deep.storage_settings()) == deep
    for stack, factor in ((300, 1), (2_249, 1), (2_250, 2), (10_000, 7)):
        s = TournamentSettings.create(buy_in=10, variant_key="holdem", starting_stack=stack)
        assert s.schedule.levels[0].big_blind == 30 * factor, stack
    slow = TournamentSettings.create(buy_in=10, variant_key="holdem", structure="pot limit",
                                     schedule="slow", starting_stack=4_500)
    assert (slow.structure, slow.schedule) == (Structure.POT_LIMIT, PRESETS["slow"].times(3))
    limit = TournamentSettings.create(buy_in=10, variant_key="holdem", structure="fixed limit")
    assert limit.schedule == PRESETS["regular"]  # the turbo default is no-limit Hold'em's
    omaha = TournamentSettings.create(buy_in=10, starting_stack=3_000)
    assert (omaha.structure, omaha.schedule) == (Structure.POT_LIMIT, PRESETS["regular"])
    with pytest.raises(TournamentRuleError, match="10 big blinds"):
        TournamentSettings.create(buy_in=10, variant_key="holdem", starting_stack=299)
