"""Which hands are bomb pots and who is dealt in (bot.runtime.bomb_pots, RULES.md 10)."""

from __future__ import annotations

import pytest

from bot.engine.bomb_pot import BombPot
from bot.i18n import Listed, Name, Phrase
from bot.runtime import bomb_pots
from bot.runtime.config import TableConfig
from bot.runtime.errors import TableSettingsError
from bot.runtime.seating import DealPlan, Seat


def seats(*numbers: int, entering: tuple[int, ...] = ()) -> dict[int, Seat]:
    return {n: Seat(n, 100 + n, f"p{n}", 200, 60.0, needs_big_blind=n in entering)
            for n in numbers}


def test_settings_off_by_default_and_validated() -> None:
    config = TableConfig.create()
    assert (config.bomb_pot_every, config.bomb_pot_ante, config.double_board) == (0, 0, False)
    assert not bomb_pots.on(config)
    assert TableConfig.from_dict(config.to_dict()) == config
    on = TableConfig.create(bomb_pot_every=10, double_board=True)
    assert bomb_pots.on(on) and bomb_pots.bomb_of(on) == BombPot(4, True)  # 2 big blinds
    proposed_only = TableConfig.create(big_blind=10, bomb_pot_ante=3)
    assert bomb_pots.on(proposed_only) and bomb_pots.bomb_of(proposed_only) == BombPot(30)
    assert not bomb_pots.scheduled(proposed_only, 10)
    with pytest.raises(TableSettingsError, match="1,000"):
        TableConfig.create(bomb_pot_every=1001)
    with pytest.raises(TableSettingsError, match="100 big blinds"):
        TableConfig.create(bomb_pot_ante=101)
    older = {k: v for k, v in config.to_dict().items()
             if k not in ("bomb_pot_every", "bomb_pot_ante", "double_board")}
    assert TableConfig.from_dict(older) == config  # configs stored before load as off


def test_every_n_hands() -> None:
    config = TableConfig.create(bomb_pot_every=3)
    assert [n for n in range(1, 10) if bomb_pots.scheduled(config, n)] == [3, 6, 9]


def test_waiting_players_are_not_dealt_in_and_post_nothing() -> None:
    """The usual plan less the entering players; the button stays where it moved."""
    plan = DealPlan(button=1, dealt=(1, 2, 3, 5), posts=frozenset({5}))
    table = seats(1, 2, 3, 5, entering=(3, 5))
    bomb = bomb_pots.without_entering(plan, table)
    assert bomb == DealPlan(button=1, dealt=(1, 2), posts=frozenset())
    assert bomb_pots.without_entering(plan, seats(1, 2, 3, 5, entering=(2, 3, 5))) is None


def test_choose() -> None:
    """Scheduled: a bomb pot for whoever is dealt in; proposed: only when everyone dealt in
    agreed; too few players: a usual hand, and the table is told why."""
    config = TableConfig.create(bomb_pot_every=5)
    plan = DealPlan(button=1, dealt=(1, 2, 3))
    table = seats(1, 2, 3)
    assert bomb_pots.choose(config, plan, table, 4, None) == (None, plan, None)
    assert bomb_pots.choose(config, plan, table, 5, None) == (BombPot(4), plan, None)
    assert bomb_pots.choose(config, plan, table, 4, frozenset({101, 102, 103})) == (
        BombPot(4), plan, None)
    refused = bomb_pots.choose(config, plan, table, 4, frozenset({101, 103}))
    assert refused == (None, plan, Phrase("notice.bomb_pot.not_agreed",
                                          names=Listed([Name("p2")])))
    assert str(refused[2]) == "The bomb pot is off: not everyone who would be dealt in agreed (p2)."
    short = bomb_pots.choose(config, plan, seats(1, 2, 3, entering=(2, 3)), 5, None)
    assert short == (None, plan, Phrase("notice.bomb_pot.too_few"))
    off = TableConfig.create()
    assert bomb_pots.choose(off, plan, table, 4, frozenset({101, 102, 103}))[0] is None


def test_the_hand_settings_keep_its_bomb_pot() -> None:
    config = TableConfig.create(bomb_pot_every=5, double_board=True)
    stored = bomb_pots.hand_settings(config.to_dict(), BombPot(4, True))
    assert bomb_pots.stored_bomb_pot(stored) == BombPot(4, True)
    assert TableConfig.from_dict(stored) == config
    plain = bomb_pots.hand_settings(config.to_dict(), None)
    assert bomb_pots.stored_bomb_pot(plain) is None and plain == config.to_dict()
