"""Players' choices (``player_prefs``): turn pings, hole-card DMs, their pictures' colours
and how they are reminded of a scheduled game.

One row per player and server, written only when the player changes something
(``/prefs``); a player without a row has :class:`~bot.storage.models.PlayerPrefs`'
defaults. The Discord side reads them all once at start (:meth:`PrefsRepo.all`)
and keeps them in memory: a server's tables and its commands run in the same
process (:mod:`bot.sharding`), so the copy there is never stale.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.storage.dialect import Conn
from bot.storage.models import HoleCards, PlayerPrefs, Reminders, TurnPings

if TYPE_CHECKING:
    from bot.storage.db import Database

_COLUMNS = "turn_pings, hole_cards, deck, theme, reminders"


def _prefs(row: tuple[str, str, str, str, str]) -> PlayerPrefs:
    return PlayerPrefs(TurnPings(row[0]), HoleCards(row[1]), row[2], row[3], Reminders(row[4]))


class PrefsRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def all(self) -> dict[tuple[int, int], PlayerPrefs]:
        """Every stored choice, by (server, player)."""

        def job(conn: Conn) -> dict[tuple[int, int], PlayerPrefs]:
            rows = conn.execute(f"SELECT guild_id, user_id, {_COLUMNS} FROM player_prefs")
            return {(int(r[0]), int(r[1])): _prefs((r[2], r[3], r[4], r[5], r[6])) for r in rows}

        return await self.db.read(job)

    async def get(self, guild_id: int, user_id: int) -> PlayerPrefs:
        def job(conn: Conn) -> PlayerPrefs:
            row = conn.execute(
                f"SELECT {_COLUMNS} FROM player_prefs WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            ).fetchone()
            return PlayerPrefs() if row is None else _prefs(row)

        return await self.db.read(job)

    async def set(
        self, guild_id: int, user_id: int, *, turn_pings: TurnPings | None = None,
        hole_cards: HoleCards | None = None, deck: str | None = None, theme: str | None = None,
        reminders: Reminders | None = None,
    ) -> PlayerPrefs:
        """Change the choices given (the others stay); the player's choices now."""
        now = self.db.clock()

        def job(conn: Conn) -> PlayerPrefs:
            row = conn.execute(
                f"SELECT {_COLUMNS} FROM player_prefs WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            ).fetchone()
            old = PlayerPrefs() if row is None else _prefs(row)
            new = PlayerPrefs(turn_pings or old.turn_pings, hole_cards or old.hole_cards,
                              deck or old.deck, theme or old.theme,
                              reminders or old.reminders)
            conn.execute(
                f"INSERT INTO player_prefs (guild_id, user_id, {_COLUMNS}, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET"
                " turn_pings = excluded.turn_pings, hole_cards = excluded.hole_cards,"
                " deck = excluded.deck, theme = excluded.theme, reminders = excluded.reminders,"
                " updated_at = excluded.updated_at",
                (guild_id, user_id, new.turn_pings.value, new.hole_cards.value, new.deck,
                 new.theme, new.reminders.value, now),
            )
            return new

        return await self.db.write(job)
