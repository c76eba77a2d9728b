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


async def test_a_value_is_deleted_once_and_nothing_else(db: Database) -> None:
    await db.state.put("commitments:7", "123")
    await db.state.put("commitments:8", "456")
    await db.state.delete("commitments:7")
    await db.state.delete("commitments:7")  # already gone: nothing happens
    assert await db.state.get("commitments:7") is None
    assert await db.state.get("commitments:8") == "456"
