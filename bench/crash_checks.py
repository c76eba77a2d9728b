"""What the kill harness checks on the database a killed bot left (``bench/bench_crashes.py``).

Read with SQLite itself (the bot is dead while it is read), nothing of the bot's code
but its audit (:func:`audit`, the one ``python -m bot audit`` runs):

* :func:`action_problems`: every action the players were told was taken is in the
  database exactly once: per hand and player, acknowledged <= stored <= sent (more
  stored than sent is an action applied twice).
* :func:`told_problems`: what the public messages said happened happened: each live
  message's action lines are a run of the hand's stored actions, in order; a hand whose
  result was posted is finished, a hand said cancelled is cancelled.
* :func:`posted_twice`, :func:`posted_results`, :func:`settled_hands`: every hand's
  result went to its channel once at most and, once the tables are back after a
  restart, every settled hand's result is there (a kill between a settlement and its
  result: posted after the restart, :func:`posted_late` counts them).
* :func:`running_hands`, :func:`playable_channels`: what must resume after a restart.
"""

from __future__ import annotations

import contextlib
import json
import re
import secrets
import sqlite3
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from bench.crash_players import HAND_NO, Version
from bot.storage import Database

ACTION_LINE = re.compile(r"^> (\S+) (folds|checks|calls|bets|raises)\b")
RESULT = re.compile(r"\*\*Hand #(\d+) result\*\*")
LATE = "Posted after a restart"
CANCELLED = re.compile(r"Hand #(\d+) was interrupted and is cancelled")
#: The verb a stored kind is shown with ("allin" is shown as the bet, raise or call it was).
VERBS = {"fold": {"folds"}, "check": {"checks"}, "call": {"calls"}, "bet": {"bets"},
         "raise": {"raises"}, "allin": {"bets", "raises", "calls"}}

__all__ = ["Stored", "action_problems", "audit", "playable_channels", "posted_late",
           "posted_results", "posted_twice", "read", "running_hands", "settled_hands",
           "told_problems"]


@dataclass
class Stored:
    """The database's hands, by (channel, hand number)."""

    status: dict[tuple[int, int], str]
    resumed: dict[tuple[int, int], int]
    #: the stored actions of each hand, in order: (user id, kind, source)
    actions: dict[tuple[int, int], list[tuple[int, str, str]]]

    def by_player(self) -> Counter[tuple[int, int, int]]:
        """The players' own actions (not the clock's, nor a pre-action's), by (channel,
        hand number, user)."""
        out: Counter[tuple[int, int, int]] = Counter()
        for (channel, number), actions in self.actions.items():
            for user, _, source in actions:
                out[(channel, number, user)] += source == "player"
        return out


@contextlib.contextmanager
def _open(path: str) -> Iterator[sqlite3.Connection]:
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
        yield conn


def read(path: str) -> Stored:
    with _open(path) as conn:
        hands = conn.execute(
            "SELECT h.id, t.channel_id, h.number, h.status, h.resumed FROM hands h"
            " JOIN poker_tables t ON t.id = h.table_id").fetchall()
        seats = conn.execute("SELECT hand_id, seat_no, user_id FROM hand_seats").fetchall()
        rows = conn.execute(
            "SELECT hand_id, seq, action FROM hand_actions ORDER BY hand_id, seq").fetchall()
    key = {hid: (channel, number) for hid, channel, number, _, _ in hands}
    users = {(hid, seat): user for hid, seat, user in seats}
    actions: dict[tuple[int, int], list[tuple[int, str, str]]] = {k: [] for k in key.values()}
    for hid, _, text in rows:
        a = json.loads(text)
        if a["kind"] != "show":
            actions[key[hid]].append((users[(hid, a["seat"])], a["kind"], a.get("source", "")))
    return Stored(
        status={key[h]: status for h, _, _, status, _ in hands},
        resumed={key[h]: resumed for h, _, _, _, resumed in hands},
        actions=actions,
    )


def action_problems(
    stored: Stored, sent: Counter[tuple[int, int, int]], acked: Counter[tuple[int, int, int]],
) -> tuple[list[str], list[str]]:
    """(lost, doubled): acknowledged actions missing from the database; stored actions
    beyond those sent (applied twice)."""
    have = stored.by_player()
    lost = [f"channel {c} hand #{n} user {u}: {acked[k]} acknowledged, {have[k]} stored"
            for k in acked if acked[k] > have[k] for c, n, u in [k]]
    doubled = [f"channel {c} hand #{n} user {u}: {have[k]} stored, {sent[k]} sent"
               for k in have if have[k] > sent[k] for c, n, u in [k]]
    return lost, doubled


def _is_run(shown: list[tuple[str, str]], stored: list[tuple[str, set[str]]]) -> bool:
    """``shown`` (name, verb) is a contiguous run of ``stored`` (name, verbs)."""
    if not shown:
        return True
    return any(
        all(name == s_name and verb in verbs for (name, verb), (s_name, verbs)
            in zip(shown, stored[i:i + len(shown)], strict=True))
        for i in range(len(stored) - len(shown) + 1)
    )


def told_problems(stored: Stored, versions: Iterable[Version], names: dict[int, str]) -> list[str]:
    """What a public message said happened and the database does not hold."""
    problems = []
    for v in versions:
        if (found := RESULT.search(v.content)) is not None:
            key = (v.channel_id, int(found[1]))
            if stored.status.get(key) != "finished":
                problems.append(f"channel {key[0]} hand #{key[1]}: result posted, "
                                f"{stored.status.get(key, 'missing')} in the database")
        elif (found := CANCELLED.search(v.content)) is not None:
            key = (v.channel_id, int(found[1]))
            if stored.status.get(key) != "cancelled":
                problems.append(f"channel {key[0]} hand #{key[1]}: said cancelled, "
                                f"{stored.status.get(key, 'missing')} in the database")
        elif (found := HAND_NO.search(v.content)) is not None:
            key = (v.channel_id, int(found[1]))
            shown = [(m[1], m[2]) for line in v.content.splitlines()
                     if (m := ACTION_LINE.match(line)) is not None]
            actions = [(names.get(u, str(u)), VERBS[kind])
                       for u, kind, _ in stored.actions.get(key, [])]
            if not _is_run(shown, actions):
                problems.append(f"channel {key[0]} hand #{key[1]}: message {v.message_id} "
                                f"shows {shown}, the database has {actions}")
    return problems


def posted_results(versions: Iterable[Version]) -> Counter[tuple[int, int]]:
    """How many messages showed each hand's result: (channel, number) -> messages."""
    shown = {(v.channel_id, int(found[1]), v.message_id) for v in versions
             if (found := RESULT.search(v.content)) is not None}
    return Counter((channel, number) for channel, number, _ in shown)


def posted_late(versions: Iterable[Version]) -> int:
    """Results posted after a restart (the bot killed before it could post them)."""
    return len({v.message_id for v in versions
                if RESULT.search(v.content) is not None and LATE in v.content})


def posted_twice(versions: Iterable[Version]) -> list[str]:
    """Results posted in more than one message."""
    return [f"channel {c} hand #{n}: result posted {k} times"
            for (c, n), k in sorted(posted_results(versions).items()) if k > 1]


def settled_hands(path: str) -> set[tuple[int, int]]:
    """The hands settled in the database: (channel, number). (A table closed before the
    kill does not come back, but its results on their way are posted at start all the
    same: :func:`bot.adapter.late_results.post_closed`.)"""
    with _open(path) as conn:
        rows = conn.execute(
            "SELECT t.channel_id, h.number FROM hands h JOIN poker_tables t"
            " ON t.id = h.table_id WHERE h.status = 'finished'").fetchall()
    return {(c, n) for c, n in rows}


def running_hands(path: str) -> dict[tuple[int, int], int]:
    """The hands running in the database: (channel, number) -> times resumed."""
    with _open(path) as conn:
        rows = conn.execute(
            "SELECT t.channel_id, h.number, h.resumed FROM hands h JOIN poker_tables t"
            " ON t.id = h.table_id WHERE h.status = 'running'").fetchall()
    return {(c, n): r for c, n, r in rows}


def playable_channels(path: str) -> set[int]:
    """The channels of open tables where two players or more have chips and are not
    sitting out: a hand must be dealt there after a restart."""
    with _open(path) as conn:
        rows = conn.execute(
            "SELECT t.channel_id FROM poker_tables t JOIN seats s ON s.table_id = t.id"
            " WHERE t.closed_at IS NULL AND s.stack > 0 AND s.sitting_out = 0"
            " GROUP BY t.id HAVING COUNT(*) >= 2").fetchall()
    return {c for (c,) in rows}


async def audit(path: str) -> list[str]:
    """The chip audit's failing lines (empty: every chip accounted for)."""
    db = await Database.open(path, deck_key=secrets.token_bytes(32), migrate=False)
    try:
        return [str(line) for line in await db.audit() if not line.ok]
    finally:
        await db.close()
