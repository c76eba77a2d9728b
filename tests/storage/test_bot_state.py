"""``db.state``: named values that outlive a restart, on SQLite and PostgreSQL."""

from __future__ import annotations

from bot.storage import Database


async def test_a_value_is_kept_replaced_and_read_back(db: Database) -> None:
    assert await db.state.get("commands:global") is None
    await db.state.put("commands:global", "a" * 64)
    await db.state.put("commands:guild:5", "b" * 64)
    assert await db.state.get("commands:global") == "a" * 64
    await db.state.put("commands:global", "c" * 64)  # the upsert replaces
    assert await db.state.get("commands:global") == "c" * 64
    assert await db.state.get("commands:guild:5") == "b" * 64
