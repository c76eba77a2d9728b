"""Players' notification choices: stored per player and server, defaults without a row."""

from __future__ import annotations

import sqlite3

import pytest

from bot.storage import Database, HoleCards, PlayerPrefs, Reminders, TurnPings

G, OTHER, ALICE, BOB = 1, 2, 101, 102


async def test_defaults_until_a_player_chooses(db: Database) -> None:
    assert await db.prefs.get(G, ALICE) == PlayerPrefs(TurnPings.ALWAYS, HoleCards.DM)
    assert await db.prefs.all() == {}


async def test_a_choice_keeps_the_other_and_stays_in_its_server(db: Database) -> None:
    low = await db.prefs.set(G, ALICE, turn_pings=TurnPings.LOW)
    assert low == PlayerPrefs(TurnPings.LOW, HoleCards.DM)
    both = await db.prefs.set(G, ALICE, hole_cards=HoleCards.REQUEST)
    assert both == PlayerPrefs(TurnPings.LOW, HoleCards.REQUEST)
    await db.prefs.set(OTHER, BOB, turn_pings=TurnPings.NEVER)
    assert await db.prefs.get(G, ALICE) == both
    assert await db.prefs.get(OTHER, ALICE) == PlayerPrefs()
    assert await db.prefs.all() == {
        (G, ALICE): both, (OTHER, BOB): PlayerPrefs(TurnPings.NEVER, HoleCards.DM)}


async def test_the_schema_refuses_an_unknown_choice(db: Database) -> None:
    """The CHECK constraints hold on both databases: nothing but the known values is kept."""

    def bad(conn):  # type: ignore[no-untyped-def]
        conn.execute("INSERT INTO player_prefs (guild_id, user_id, turn_pings, hole_cards,"
                     " updated_at) VALUES (1, 1, 'sometimes', 'dm', 0)")

    with pytest.raises(Exception) as refused:
        await db.write(bad)
    assert isinstance(refused.value, sqlite3.IntegrityError) or "check" in str(
        refused.value).lower()
    assert await db.prefs.all() == {}


async def test_the_pictures_choices_are_kept_with_the_others(db: Database) -> None:
    """Migration 0013: the deck's colours and the background, defaults four colours on
    dark; a change keeps the other choices, and the schema refuses an unknown value."""
    assert (await db.prefs.get(G, ALICE)).deck == "four_colour"
    low = await db.prefs.set(G, ALICE, turn_pings=TurnPings.LOW)
    mine = await db.prefs.set(G, ALICE, deck="colour_blind", theme="light")
    assert mine == PlayerPrefs(TurnPings.LOW, HoleCards.DM, "colour_blind", "light") != low
    assert await db.prefs.set(G, ALICE, hole_cards=HoleCards.REQUEST) == PlayerPrefs(
        TurnPings.LOW, HoleCards.REQUEST, "colour_blind", "light")
    assert (await db.prefs.all())[(G, ALICE)].theme == "light"

    def bad(conn):  # type: ignore[no-untyped-def]
        conn.execute("UPDATE player_prefs SET deck = 'rainbow' WHERE user_id = ?", (ALICE,))

    with pytest.raises(Exception) as refused:
        await db.write(bad)
    assert isinstance(refused.value, sqlite3.IntegrityError) or "check" in str(
        refused.value).lower()
    assert (await db.prefs.get(G, ALICE)).deck == "colour_blind"


async def test_the_reminder_choice_is_kept_with_the_others(db: Database) -> None:
    """Migration 0015: a ping by default; a DM kept with the other choices; the schema
    refuses an unknown value."""
    assert (await db.prefs.get(G, ALICE)).reminders is Reminders.PING
    await db.prefs.set(G, ALICE, theme="light")
    mine = await db.prefs.set(G, ALICE, reminders=Reminders.DM)
    assert mine == PlayerPrefs(theme="light", reminders=Reminders.DM)
    assert (await db.prefs.set(G, ALICE, turn_pings=TurnPings.NEVER)).reminders is Reminders.DM
    assert (await db.prefs.all())[(G, ALICE)].reminders is Reminders.DM

    def bad(conn):  # type: ignore[no-untyped-def]
        conn.execute("UPDATE player_prefs SET reminders = 'pigeon' WHERE user_id = ?", (ALICE,))

    with pytest.raises(Exception) as refused:
        await db.write(bad)
    assert isinstance(refused.value, sqlite3.IntegrityError) or "check" in str(
        refused.value).lower()
