"""Coming back to a cash table (RULES.md 7, the card rooms' rule against "ratholing").

A player who leaves a cash table with chips and, within :data:`RETURN_WINDOW`, sits
down at a cash table of the **same game and blinds in the same server** (the same
table, another one, or one closed and opened again) must bring at least the stack
they left with, even above that table's maximum buy-in.

It is stored, so it holds across restarts (table ``cash_departures``, migration 0010):

* every departure with chips (``/table leave``, a closed table, a lost channel: every
  cash-out) is a row with its stack and the game the table dealt **then**
  (:func:`departure_key`, the engine's :func:`~bot.engine.variants.game_key`: variant
  and structure, or a list of them, and the blinds; not the ante), since a table's
  settings may change afterwards;
* the least a player may sit down with is the biggest stack they left a table of that
  game with within the window (:func:`return_minimum`): with two tables of one game,
  leaving a big stack then a small one does not lower it;
* sitting down at a table of that game (with at least that) meets the rule: the
  player's departures of that game are deleted (:func:`forget_departures`);
* busting to zero resets it: a departure with no chips writes no row, and the
  sit-down before it deleted the older ones.

Rows older than the window are deleted when the player's next departure is written.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.variants import game_key
from bot.storage.dialect import Conn

#: Seconds after leaving during which a comeback must bring the stack back.
RETURN_WINDOW = 60 * 60.0


def departure_key(settings: Mapping[str, Any]) -> str:
    """The game a table with these stored settings deals, as the rule compares it
    (missing settings read as empty text and 0, as migration 0010 reads them). A mixed
    table (RULES.md 11) deals its list of games, in order, whichever it dealt last (its
    ``mix.games``: ``variant/structure`` keys, :class:`bot.runtime.mix.Game`)."""
    mix = settings.get("mix")
    listed = mix.get("games") if isinstance(mix, Mapping) else None
    games = ([(str(k).split("/", 1)[0], str(k).split("/", 1)[-1]) for k in listed] if listed
             else [(str(settings.get("variant_key", "")), str(settings.get("structure", "")))])
    return game_key(games, int(settings.get("small_blind", 0)), int(settings.get("big_blind", 0)))


def return_minimum(conn: Conn, guild_id: int, user_id: int, game: str, now: float) -> int:
    """The fewest chips ``user_id`` may sit down with at a cash table dealing ``game`` (a
    :func:`departure_key`) in ``guild_id`` now (0: no rule)."""
    row = conn.execute(
        "SELECT MAX(stack) FROM cash_departures"
        " WHERE guild_id = ? AND user_id = ? AND game = ? AND left_at > ?",
        (guild_id, user_id, game, now - RETURN_WINDOW),
    ).fetchone()
    return 0 if row is None or row[0] is None else int(row[0])


def record_departure(
    conn: Conn, *, guild_id: int, user_id: int, game: str, stack: int, table_id: int,
    now: float,
) -> None:
    """The player left a table dealing ``game`` with ``stack`` chips (0: busted, no row);
    their departures older than the window go."""
    conn.execute(
        "DELETE FROM cash_departures WHERE guild_id = ? AND user_id = ? AND left_at <= ?",
        (guild_id, user_id, now - RETURN_WINDOW),
    )
    if stack > 0:
        conn.execute(
            "INSERT INTO cash_departures (guild_id, user_id, game, stack, left_at, table_id)"
            " VALUES (?,?,?,?,?,?)",
            (guild_id, user_id, game, stack, now, table_id),
        )


def forget_departures(conn: Conn, guild_id: int, user_id: int, game: str) -> None:
    """The player sat down at a table dealing ``game``: the rule is met."""
    conn.execute(
        "DELETE FROM cash_departures WHERE guild_id = ? AND user_id = ? AND game = ?",
        (guild_id, user_id, game),
    )


__all__ = [
    "RETURN_WINDOW", "departure_key", "forget_departures", "record_departure",
    "return_minimum",
]
