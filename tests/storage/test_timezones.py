"""A server's time zone: stored per server (issue 34), on SQLite and PostgreSQL."""

from __future__ import annotations

from bot.storage import Database


async def test_a_zone_is_kept_per_server_and_replaced(db: Database) -> None:
    assert await db.timezones.all() == {}
    await db.timezones.set(1, "Europe/Rome")
    await db.timezones.set(2, "America/Sao_Paulo")
    await db.timezones.set(1, "UTC")
    assert await db.timezones.all() == {1: "UTC", 2: "America/Sao_Paulo"}
