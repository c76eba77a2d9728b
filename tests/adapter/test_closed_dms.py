"""Closed DMs: Discord is asked once, not every hand (its invalid-request budget)."""

from __future__ import annotations

import pytest

from bot.adapter.closed_dms import CANNOT_DM, QUIET_SECONDS
from tests.cogs.test_table import PAUSE, actor_of, open_table, turn_message
from tests.conftest import Harness, buttons_of

pytestmark = pytest.mark.asyncio

#: Hands played with a closed-DM player, and the invalid requests allowed for them all.
HANDS = 8
BUDGET = 2


@pytest.fixture
def bot_extensions() -> tuple[str, ...]:
    return ("cogs.errors", "cogs.economy", "cogs.table", "cogs.actions")


async def play_hand(h: Harness, number: int, limit: int = 60) -> None:
    """Check or call with the turn buttons until hand ``number``'s result is posted."""
    for _ in range(limit):
        if any(m.content.startswith(f"**Hand #{number} result") for m in h.public_messages()):
            return
        turn = turn_message(h)
        labels = [str(b.label) for b in buttons_of(turn)]
        label = "Check" if "Check" in labels else next(x for x in labels if x.startswith("Call"))
        await h.click(actor_of(h, turn), turn, label=label)  # type: ignore[arg-type]
    raise AssertionError(f"hand #{number} did not end")


async def test_closed_dms_are_tried_once_not_every_hand(harness: Harness) -> None:
    """Bob's DMs are closed and he plays every hand by clicking: one refused DM in all,
    one notice in the channel, /cards still answers him; the others get their DMs."""
    h = harness
    await open_table(h)
    h.close_dms(h.bob)
    for actor in (h.alice, h.bob, h.carol):
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)
    for number in range(1, HANDS + 1):
        await play_hand(h, number)
        await h.advance(PAUSE + 0.1)
    invalid = h.invalid_requests
    assert len(invalid) <= BUDGET, invalid
    assert [r.code for r in invalid].count(CANNOT_DM) == 1, invalid
    told = [m for m in h.public_messages()
            if f"<@{h.bob.id}>" in m.content and "direct messages" in m.content]
    assert len(told) == 1, [m.content for m in told]
    assert len(h.dms(h.alice)) >= HANDS
    reply = await h.slash(h.bob, "cards")
    assert reply.ephemeral and await reply.images()


async def test_an_interaction_after_the_quiet_period_lets_dms_be_tried_again(
    harness: Harness,
) -> None:
    """The refusal is remembered through the player's interactions for a while; after
    :data:`QUIET_SECONDS` their next interaction clears it, and an open DM goes through."""
    h = harness
    await open_table(h)
    h.close_dms(h.bob)
    for actor in (h.alice, h.bob, h.carol):
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)
    presenter = h.bot.presenter
    assert h.bob.id in presenter.closed_dms
    await h.slash(h.bob, "balance")
    assert h.bob.id in presenter.closed_dms  # too soon: still remembered
    await h.slash(h.manager, "table close")
    h.env.backend.faults.clear()  # Bob opens his DMs
    await h.advance(QUIET_SECONDS)
    await h.slash(h.bob, "balance")
    assert h.bob.id not in presenter.closed_dms
    assert await presenter.dm(h.bob.id, "hello")
    assert h.dms(h.bob)[-1].content == "hello"


@pytest.mark.parametrize(("language", "button", "command"), [
    ("pt-BR", "Meu lugar", "/cartas"), ("es-ES", "Mi asiento", "/cartas"),
    ("it", "Il mio posto", "/carte"), ("en", "My seat", "/cards")])
async def test_the_closed_dm_notice_names_the_button_and_command_of_the_table(
        harness: Harness, language: str, button: str, command: str) -> None:
    """The notice and the turn line tell a player with closed DMs to press the button the
    table shows and type the command their language names, not the English ones."""
    h = harness
    await open_table(h, language=language)
    h.close_dms(h.bob)
    for actor in (h.alice, h.bob, h.carol):
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)
    told = [m.content for m in h.public_messages() if f"<@{h.bob.id}>" in m.content
            and f"**{button}**" in m.content and f"`{command}`" in m.content]
    assert told, [m.content for m in h.public_messages()][-3:]
    labels = {str(b.label) for m in h.public_messages() for b in buttons_of(m)}
    assert button in labels
    if language != "en":
        assert not [m.content for m in h.public_messages()
                    if "**My seat**" in m.content or "`/cards`" in m.content]
