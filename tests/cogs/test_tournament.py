"""Behaviour of the /tournament commands through the offline Discord (simcord)."""

from __future__ import annotations

import pytest

from tests.conftest import Harness, buttons_of

pytestmark = pytest.mark.asyncio

PAUSE = 10.0


@pytest.fixture
def bot_extensions() -> tuple[str, ...]:
    return ("cogs.errors", "cogs.economy", "cogs.table", "cogs.actions", "cogs.tournament")


async def create(h: Harness, **options: object) -> None:
    assert h.bot.registry is not None
    h.bot.registry.pause = PAUSE
    reply = await h.slash(h.alice, "tournament create", **options)
    assert not reply.ephemeral and "Registration is open" in reply.text, reply


def to_act(h: Harness) -> object | None:
    """The member the last turn prompt names, if a turn prompt is up."""
    for m in reversed(h.public_messages()):
        if any(b.label == "Fold" for b in buttons_of(m)):
            for actor in h.members.values():
                if f"<@{actor.id}>" in m.content:
                    return actor
    return None


async def test_a_three_player_turbo_is_played_to_the_end(harness: Harness) -> None:
    """Three players register, it starts when full, everyone goes all-in every hand:
    the winner gets the whole pool, balances add up and the audit holds."""
    h = harness
    await create(h, buy_in=500, entrants=3, speed="turbo", structure="no limit")
    info = await h.slash(h.bob, "tournament info")
    assert info.ephemeral and "Payouts" in info.text and "Level" not in info.text.split("\n")[1]
    assert "turbo" in info.text.lower() and "15/30" in info.text
    players = (h.alice, h.bob, h.carol)
    for actor in players:
        reply = await h.slash(actor, "tournament join")
        assert not reply.ephemeral and "registers" in reply.text, reply
    assert "starts now" in reply.text and "1st: 1,500 chips" in reply.text
    assert [await h.balance(a) for a in players] == [9_500] * 3
    for _ in range(80):
        if any("wins the tournament" in m.content for m in h.public_messages()):
            break
        await h.advance(PAUSE + 0.1)
        for _ in range(6):
            actor = to_act(h)
            if actor is None:
                break
            reply = await h.slash(actor, "allin")
            if not reply.ephemeral or "not your turn" in reply.text:
                break
    texts = [m.content for m in h.public_messages()]
    assert any("wins the tournament and 1,500 chips" in t for t in texts), texts[-5:]
    results = [m for m in h.public_messages() if m.content == "The results:"]
    assert len(results) == 1 and (await h.png(results[0])).startswith(b"\x89PNG")
    balances = [await h.balance(a) for a in players]
    assert sorted(balances) == [9_500, 9_500, 11_000]
    winner = players[balances.index(11_000)]
    stats = await h.slash(winner, "stats")
    assert "Sit and gos" in stats.all_text and "1 played · 1 won · 1 cashed" in stats.all_text
    assert "Profit +1,000 chips · ROI +200%" in stats.all_text
    board = await h.slash(h.bob, "leaderboard", metric="tournament_roi")
    assert not board.ephemeral and len(await board.images()) == 1
    assert h.bot.registry is not None and h.bot.registry.find(h.channel.id) is None
    await h.audit()  # fails the test on any unreconciled account


async def test_bad_requests_are_answered_politely_and_change_nothing(harness: Harness) -> None:
    """Joining twice, joining a full or started one, joining short of chips, leaving after
    the start: private answers, no chips move."""
    h = harness
    missing = await h.slash(h.bob, "tournament join")
    assert missing.ephemeral and "no tournament" in missing.text.lower()
    await create(h, buy_in=9_000, entrants=2)
    await h.slash(h.alice, "tournament join")
    twice = await h.slash(h.alice, "tournament join")
    assert twice.ephemeral and "already registered" in twice.text
    assert await h.balance(h.alice) == 1_000
    left = await h.slash(h.alice, "tournament leave")
    assert left.ephemeral and "back" in left.text
    assert await h.balance(h.alice) == 10_000
    again = await h.slash(h.alice, "tournament leave")
    assert again.ephemeral and "not registered" in again.text
    await h.bot.economy.adjust(h.guild.id, h.dave.id, -5_000, actor_id=1, reason="test")
    short = await h.slash(h.dave, "tournament join")
    assert short.ephemeral and "9,000" in short.text, short
    assert await h.balance(h.dave) == 5_000
    await h.slash(h.alice, "tournament join")
    await h.slash(h.bob, "tournament join")
    full = await h.slash(h.carol, "tournament join")
    assert full.ephemeral and "closed" in full.text
    assert await h.balance(h.carol) == 10_000
    late = await h.slash(h.alice, "tournament leave")
    assert late.ephemeral and "started" in late.text
    cash = await h.slash(h.bob, "table leave")
    assert cash.ephemeral and "cannot leave with chips" in cash.text
    other = await h.slash(h.carol, "table create")
    assert other.ephemeral and "already has a table" in other.text
    assert [await h.balance(a) for a in (h.alice, h.bob)] == [1_000, 1_000]
