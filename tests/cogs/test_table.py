"""Behaviour of the table commands and buttons through the offline Discord (simcord)."""

from __future__ import annotations

import pytest

from tests.conftest import Harness, Reply, buttons_of

pytestmark = pytest.mark.asyncio


@pytest.fixture
def bot_extensions() -> tuple[str, ...]:
    """Load the table cog with the error handler and the economy."""
    return ("cogs.errors", "cogs.economy", "cogs.table")


#: Seconds between hands in these tests: longer than simcord's settle timeout (5 s),
#: so the wait is parked until the test moves the clock.
PAUSE = 10.0


async def open_table(h: Harness, **options: object) -> Reply:
    assert h.bot.registry is not None
    h.bot.registry.pause = PAUSE
    reply = await h.slash(h.alice, "table create", **options)
    assert not reply.ephemeral, reply
    return reply


async def seat_three(h: Harness) -> None:
    await open_table(h)
    for actor in (h.alice, h.bob, h.carol):
        reply = await h.slash(actor, "table join", buyin="200")
        assert reply.ephemeral and "You sat down" in reply.text, reply
    await h.advance(PAUSE + 0.1)


def turn_message(h: Harness):  # type: ignore[no-untyped-def]
    """The current turn prompt (the last public message with a Fold button)."""
    for m in reversed(h.public_messages()):
        if any(b.label == "Fold" for b in buttons_of(m)):
            return m
    raise AssertionError("no turn message in the channel")


def actor_of(h: Harness, message) -> object:  # type: ignore[no-untyped-def]
    for actor in h.members.values():
        if f"<@{actor.id}>" in message.content:
            return actor
    raise AssertionError(f"nobody mentioned in {message.content!r}")


async def test_create_join_and_deal_a_hand(harness: Harness) -> None:
    """A table is created, three players sit, the hand is dealt: DMs carry PNG cards."""
    h = harness
    reply = await open_table(h)
    assert "Pot Limit Omaha 1/2" in reply.text and "6 seats" in reply.text
    for actor in (h.alice, h.bob, h.carol):
        await h.slash(actor, "table join", buyin="200")
    assert await h.balance(h.bob) == 10_000 - 200
    await h.advance(PAUSE + 0.1)
    for actor in (h.alice, h.bob, h.carol):
        [dm] = h.dms(actor)
        assert "hand #1" in dm.content and str(h.channel.id) in dm.content
        await h.png(dm)
    texts = [m.content for m in h.public_messages()]
    assert any("Drawing for the button" in t for t in texts)
    turn = turn_message(h)
    labels = [b.label for b in buttons_of(turn)]
    assert "Fold" in labels and "Call 2" in labels and any(str(x).startswith("Pot") for x in labels)
