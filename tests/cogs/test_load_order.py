"""Cogs take their services from the bot's composition root, so any load order works."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import Harness, buttons_of

pytestmark = pytest.mark.asyncio

PAUSE = 10.0


def turn_prompt(h: Harness) -> tuple[Any, Any] | None:
    """The member named by the newest turn prompt (one with a Fold button) and its message."""
    for m in reversed(h.public_messages()):
        if any(b.label == "Fold" for b in buttons_of(m)):
            for actor in h.members.values():
                if f"<@{actor.id}>" in m.content:
                    return actor, m
    return None


@pytest.mark.parametrize("bot_extensions", [("cogs.errors", "cogs.tournament")])
async def test_the_tournament_cog_alone_plays_a_sit_and_go_with_buttons(
    harness: Harness,
) -> None:
    """Without the table or economy cogs, a sit-and-go registers, starts and is played
    to a winner with the table's buttons (the bot, not a cog, answers them)."""
    h = harness
    assert h.bot.get_cog("Tables") is None and h.bot.get_cog("Economy") is None
    h.bot.registry.pause = PAUSE
    created = await h.slash(h.alice, "tournament create", buy_in=500, entrants=2,
                            structure="no limit", speed="turbo")
    assert "Registration is open" in created.text, created
    await h.slash(h.alice, "tournament join")
    started = await h.slash(h.bob, "tournament join")
    assert "starts now" in started.text, started
    clicks = 0
    for _ in range(12):
        if any("wins the tournament" in m.content for m in h.public_messages()):
            break
        await h.advance(PAUSE + 0.1)
        for _ in range(4):
            prompt = turn_prompt(h)
            if prompt is None:
                break
            actor, message = prompt
            labels = [b.label or "" for b in buttons_of(message)]
            label = next(
                (x for word in ("All-in", "Call", "Check") for x in labels if x.startswith(word)),
                "Fold",
            )
            reply = await h.click(actor, message, label=label)
            if not reply.silent:
                break
            clicks += 1
    assert clicks > 0
    texts = [m.content for m in h.public_messages()]
    assert any("wins the tournament and 1,000 chips" in t for t in texts), texts[-5:]
    assert sorted([await h.balance(h.alice), await h.balance(h.bob)]) == [9_500, 10_500]


@pytest.mark.parametrize(
    "bot_extensions", [("cogs.errors", "cogs.tournament", "cogs.table", "cogs.actions",
                        "cogs.economy")]
)
async def test_the_tournament_cog_loads_before_the_table_cog(harness: Harness) -> None:
    """Loaded first, the tournament cog's service stands on the table cog's one registry."""
    h = harness
    tables, tournaments = h.bot.get_cog("Tables"), h.bot.get_cog("Tournaments")
    assert tables is not None and tournaments is not None
    assert tournaments.tournaments is h.bot.app.tournaments
    assert tables.registry is tournaments.tournaments.registry is h.bot.app.registry
    created = await h.slash(h.alice, "tournament create", buy_in=100, entrants=3)
    assert "Registration is open" in created.text, created
    clash = await h.slash(h.bob, "table create")
    assert clash.ephemeral and "tournament" in clash.text, clash
    other = h.add_channel("cash")
    opened = await h.slash(h.bob, "table create", channel=other)
    assert "is open" in opened.text, opened
    joined = await h.slash(h.carol, "table join", channel=other)
    assert joined.ephemeral and "You sat down" in joined.text, joined
    assert (await h.slash(h.carol, "balance")).text.startswith("You have")
