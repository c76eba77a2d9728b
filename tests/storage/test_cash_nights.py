"""Cash game nights: stored, read back while open, and their status moves."""

from __future__ import annotations

import pytest

from bot.storage import Database
from bot.storage.cash_nights import CashNightRepo

G, CHANNEL, ALICE = 1, 10, 101


async def test_open_nights_are_read_back_soonest_first_until_over_or_cancelled(
    db: Database,
) -> None:
    repo = CashNightRepo(db)
    late = await repo.create(guild_id=G, channel_id=CHANNEL, creator_id=ALICE,
                             starts_at=2_000.0, weekly="Europe/Rome", about="PLO 1/2",
                             language="it")
    soon = await repo.create(guild_id=G, channel_id=CHANNEL + 1, creator_id=ALICE,
                             starts_at=1_000.0, weekly=None, about="", language="en")
    assert (late.status, late.weekly, late.about, late.language) == (
        "scheduled", "Europe/Rome", "PLO 1/2", "it")
    assert [n.id for n in await repo.open_nights()] == [soon.id, late.id]
    await repo.set_status(soon.id, "active")
    assert [n.status for n in await repo.open_nights()] == ["active", "scheduled"]
    await repo.set_status(soon.id, "over")
    await repo.set_status(late.id, "cancelled")
    assert await repo.open_nights() == []

    def bad(conn):  # type: ignore[no-untyped-def]
        conn.execute("UPDATE cash_nights SET status = 'postponed' WHERE id = ?", (late.id,))

    with pytest.raises(Exception) as refused:
        await db.write(bad)
    assert "check" in str(refused.value).lower() or "constraint" in str(refused.value).lower()
