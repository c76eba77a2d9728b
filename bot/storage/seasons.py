"""Seasons (issue 32): a server's named stretches of time, one after the other.

A server manager starts a season by name; that ends the season running (if any) at the
same moment, so seasons never overlap and a result belongs to at most one: the one whose
``[started_at, ended_at)`` holds the moment it ended (a hand's settlement, a tournament's
end; :mod:`.stats` counts them). A season's standings are computed from those results,
which are never changed or removed, so once it is over they are final and stay readable.

Names: 1 to :data:`MAX_NAME` characters, spaces tidied, no line breaks, tabs or other
control or format characters, one season per name and server (compared case-folded:
"Spring" is "spring").
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Any

from bot.i18n import Name, Phrase
from bot.storage.dialect import Conn
from bot.storage.errors import EconomyError
from bot.storage.models import Season

if TYPE_CHECKING:
    from bot.storage.db import Database

__all__ = ["MAX_NAME", "SeasonRepo", "season_name"]

MAX_NAME = 40
_COLS = "id, guild_id, name, started_at, ended_at, started_by"


def season_name(text: str) -> str:
    """``text`` as a season's name, or :class:`EconomyError` saying what is wrong."""
    text = str(text).strip()
    if any(unicodedata.category(ch).startswith("C") for ch in text):
        raise EconomyError(Phrase("refuse.season.name_characters"))
    name = " ".join(text.split())
    if not name:
        raise EconomyError(Phrase("refuse.season.name_empty"))
    if len(name) > MAX_NAME:
        raise EconomyError(Phrase("refuse.season.name_long", max=MAX_NAME))
    return name


def _key(name: str) -> str:
    return name.casefold()


def _season(row: Any) -> Season:
    return Season(int(row[0]), int(row[1]), str(row[2]), float(row[3]),
                  None if row[4] is None else float(row[4]), int(row[5]))


def _running(conn: Conn, guild_id: int) -> Season | None:
    row = conn.execute(
        f"SELECT {_COLS} FROM seasons WHERE guild_id = ? AND ended_at IS NULL", (guild_id,)
    ).fetchone()
    return None if row is None else _season(row)


class SeasonRepo:
    """Start seasons, find them by name, list them."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def start(
        self, guild_id: int, name: str, started_by: int
    ) -> tuple[Season, Season | None]:
        """Start season ``name`` now, ending the running one; ``(new, ended or None)``.
        A name the server already used is refused and nothing changes."""
        name = season_name(name)
        now = self._db.clock()

        def job(conn: Conn) -> tuple[Season, Season | None]:
            if conn.execute(
                "SELECT 1 FROM seasons WHERE guild_id = ? AND name_key = ?",
                (guild_id, _key(name)),
            ).fetchone():
                raise EconomyError(Phrase("refuse.season.name_taken", name=Name(name)))
            ended = _running(conn, guild_id)
            if ended is not None:
                conn.execute("UPDATE seasons SET ended_at = ? WHERE id = ?", (now, ended.id))
                ended = Season(ended.id, guild_id, ended.name, ended.started_at, now,
                               ended.started_by)
            cur = conn.execute(
                "INSERT INTO seasons (guild_id, name, name_key, started_at, started_by)"
                " VALUES (?,?,?,?,?) RETURNING id",
                (guild_id, name, _key(name), now, started_by),
            )
            return Season(int(cur.fetchone()[0]), guild_id, name, now, None, started_by), ended

        return await self._db.write(job)

    async def running(self, guild_id: int) -> Season | None:
        """The season running in the server, if any."""
        return await self._db.read(lambda c: _running(c, guild_id))

    async def named(self, guild_id: int, name: str) -> Season | None:
        """The server's season of that name (any case), if any."""
        key = _key(" ".join(str(name).split()))

        def q(conn: Conn) -> Season | None:
            row = conn.execute(
                f"SELECT {_COLS} FROM seasons WHERE guild_id = ? AND name_key = ?",
                (guild_id, key),
            ).fetchone()
            return None if row is None else _season(row)

        return await self._db.read(q)

    async def every(self) -> list[Season]:
        """Every server's seasons, oldest first (read once at start: the bot keeps them)."""

        def q(conn: Conn) -> list[Season]:
            return [_season(r) for r in conn.execute(
                f"SELECT {_COLS} FROM seasons ORDER BY started_at, id")]

        return await self._db.read(q)

    async def listed(self, guild_id: int) -> list[Season]:
        """The server's seasons, newest first."""

        def q(conn: Conn) -> list[Season]:
            return [_season(r) for r in conn.execute(
                f"SELECT {_COLS} FROM seasons WHERE guild_id = ? ORDER BY started_at DESC, id DESC",
                (guild_id,),
            )]

        return await self._db.read(q)
