"""The players' choices in memory (bot/adapter/prefs.py), on a real database."""

from __future__ import annotations

import pytest

from bot.adapter.prefs import Prefs
from bot.storage import Database, HoleCards, PlayerPrefs, TurnPings

G, ALICE, BOB, CAROL = 1, 101, 102, 103


async def test_loaded_once_written_through_and_read_without_the_database() -> None:
    async with await Database.open(":memory:") as db:
        await db.prefs.set(G, BOB, turn_pings=TurnPings.LOW)
        prefs = Prefs()
        with pytest.raises(RuntimeError):  # nothing is stored before the choices are loaded
            await prefs.choose(G, ALICE, turn_pings=TurnPings.NEVER)
        await prefs.load(db.prefs)
        assert prefs.of(G, BOB) == PlayerPrefs(TurnPings.LOW, HoleCards.DM)
        assert prefs.of(G, ALICE) == PlayerPrefs()
        now = await prefs.choose(G, CAROL, turn_pings=TurnPings.NEVER,
                                 hole_cards=HoleCards.REQUEST)
        assert prefs.of(G, CAROL) == now == await db.prefs.get(G, CAROL)
        assert prefs.of(G + 1, CAROL) == PlayerPrefs()  # another server: the defaults


async def test_a_new_message_pings_only_those_who_chose_always() -> None:
    async with await Database.open(":memory:") as db:
        prefs = Prefs()
        await prefs.load(db.prefs)
        await prefs.choose(G, BOB, turn_pings=TurnPings.LOW)
        await prefs.choose(G, CAROL, turn_pings=TurnPings.NEVER)
        assert prefs.pinged(G, [ALICE, BOB, CAROL]) == {ALICE}
        assert prefs.pinged(G + 1, [BOB, CAROL]) == {BOB, CAROL}
