"""A server's own caps on open tables (``guild_table_caps``), on SQLite and PostgreSQL."""

from __future__ import annotations

import sqlite3

import pytest

from bot.storage import Database
from tests.storage.helpers import FakeClock

G, OTHER = 1, 2


async def test_caps_are_kept_per_server_and_replaced(db: Database, clock: FakeClock) -> None:
    assert await db.caps.all() == {}
    await db.caps.set(G, 5, None)
    await db.caps.set(OTHER, None, 40)
    assert await db.caps.all() == {G: (5, None), OTHER: (None, 40)}
    clock.advance(60)
    await db.caps.set(G, 6, 30)
    assert await db.caps.all() == {G: (6, 30), OTHER: (None, 40)}


@pytest.mark.parametrize(("member", "server"), [(0, None), (101, None), (None, 0), (None, 1001)])
async def test_caps_out_of_range_are_refused_and_change_nothing(
    db: Database, member: int | None, server: int | None
) -> None:
    await db.caps.set(G, 3, 20)
    with pytest.raises(sqlite3.IntegrityError):  # the PostgreSQL adapter raises it too
        await db.caps.set(G, member, server)
    assert await db.caps.all() == {G: (3, 20)}
