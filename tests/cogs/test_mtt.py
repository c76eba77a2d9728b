"""Multi-table tournaments through the offline Discord: each table in a thread the bot
opens under the tournament's channel, players moved by mention, played to the end."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.adapter.threads import ARCHIVE_MINUTES
from tests.conftest import Harness, buttons_of

from .test_tournament import PAUSE, bot_extensions, create

pytestmark = pytest.mark.asyncio

__all__ = ["bot_extensions"]


def to_act_in(h: Harness, thread: Any) -> Any | None:
    """The member the thread's last turn prompt names, if one is up."""
    for m in reversed(h.public_messages(thread)):
        if any(b.label == "Fold" for b in buttons_of(m)):
            return next((a for a in h.members.values() if f"<@{a.id}>" in m.content), None)
    return None


async def register(h: Harness, count: int) -> list[Any]:
    players = [h.alice, h.bob, h.carol, h.dave]
    players += [h.add_member(f"player{i}") for i in range(count - len(players))]
    for actor in players[:-1]:
        reply = await h.slash(actor, "tournament join")
        assert not reply.ephemeral and "registers" in reply.text, reply
    return players


async def shove_round(
    h: Harness, threads: list[Any], rng: random.Random | None = None
) -> bool:
    """One decision at every thread whose turn prompt is up (all-in; with ``rng``, half
    the time, else check or fold); True if any was taken."""
    acted = False
    for thread in threads:
        actor = to_act_in(h, thread)
        if actor is None:
            continue
        if rng is None or rng.random() < 0.5:
            reply = await h.slash(actor, "allin", channel=thread)
        else:
            reply = await h.slash(actor, "fold", channel=thread)
            if reply.ephemeral and "check" in reply.text.lower():
                reply = await h.slash(actor, "check", channel=thread)
        acted = acted or not reply.ephemeral
    return acted


async def test_45_players_at_five_threads_play_to_the_end(harness: Harness) -> None:
    """45 players at tables of 9: the last entry starts it and names the five threads the
    bot opened (a week's auto-archive); shove-heavy players act in their threads; tables
    break down to a final table with the moved players mentioned; the pool is paid."""
    h = harness
    await create(h, buy_in=100, entrants=45, speed="turbo", structure="no limit")
    players = await register(h, 45)
    last = await h.slash(players[-1], "tournament join")
    assert not last.ephemeral and "starts now" in last.text, last
    threads = h.channel.threads
    assert sorted(t.name for t in threads) == [f"Tournament #1 - table {n}" for n in range(1, 6)]
    assert all(f"<#{t.id}>" in last.text for t in threads)
    seen = [h.bot.get_channel(t.id) for t in threads]  # as the bot sees them
    assert all(getattr(t, "auto_archive_duration", None) == ARCHIVE_MINUTES for t in seen)
    assert [await h.balance(a) for a in players] == [9_900] * 45
    info = await h.slash(h.bob, "tournament info")
    assert "(9 per table)" in info.text and all(f"<#{t.id}>" in info.text for t in threads)
    rng = random.Random(4)
    over = False
    for _ in range(3000):
        acted = await shove_round(h, threads, rng)
        texts = [m.content for t in threads for m in h.public_messages(t)]
        over = any("wins the tournament" in t for t in texts)
        if over:
            break
        if not acted:
            await h.advance(PAUSE + 0.1)
    assert over, texts[-6:]
    moved = [m for t in threads for m in h.public_messages(t)
             if "you are moved here from table" in m.content]
    assert moved and all(m.mentions for m in moved)  # the mention notifies
    assert any("is broken" in t for t in texts)
    assert sum("This is the final table." in t for t in texts) == 1
    balances = [await h.balance(a) for a in players]
    assert sum(balances) == 450_000 and max(balances) > 10_000
    assert h.bot.registry is not None and not h.bot.registry.all()
    await h.audit()


@pytest.mark.parametrize(("denied", "named"), [
    ("create_public_threads", "Create Public Threads"),
    ("send_messages_in_threads", "Send Messages in Threads"),
])
async def test_an_entry_without_thread_permissions_is_refused_and_the_tournament_waits(
    harness: Harness, denied: str, named: str
) -> None:
    """Without Create Public Threads or Send Messages in Threads, the entry that would
    start the tournament is refused privately at once, naming the permission: not
    registered, nothing paid, no thread, no table (Send Messages in Threads denied used
    to start it and at once cancel it). With the permission back, the entry starts it."""
    h = harness
    await create(h, buy_in=100, entrants=11, table_size=6)
    players = await register(h, 11)
    h.deny_bot(denied)
    refused = await h.slash(players[-1], "tournament join")
    assert refused.ephemeral and named in refused.text, refused
    assert await h.balance(players[-1]) == 10_000
    assert not h.channel.threads
    assert h.bot.registry is not None and not h.bot.registry.all()
    info = await h.slash(h.bob, "tournament info")
    assert "10/11 players" in info.text, info
    h.restore_bot()
    started = await h.slash(players[-1], "tournament join")
    assert "starts now" in started.text, started
    assert len(h.channel.threads) == 2
    assert sum([await h.balance(a) for a in players]) == 11 * 9_900


async def test_create_without_thread_permissions_is_refused_naming_them(
    harness: Harness,
) -> None:
    """/tournament create for more than 10 players, without Send Messages in Threads (or
    Create Public Threads): a private refusal naming it; nothing is created."""
    h = harness
    h.deny_bot("send_messages_in_threads")
    refused = await h.slash(h.alice, "tournament create", buy_in=100, entrants=11, table_size=6)
    assert refused.ephemeral and "Send Messages in Threads" in refused.text, refused
    assert "Create Public Threads" not in refused.text
    h.deny_bot("create_public_threads")
    refused = await h.slash(h.alice, "tournament create", buy_in=100, entrants=11, table_size=6)
    assert "Create Public Threads and Send Messages in Threads" in refused.text, refused
    info = await h.slash(h.alice, "tournament info")
    assert info.ephemeral and "no tournament" in info.text.lower(), info
    assert await h.balance(h.alice) == 10_000


async def test_start_without_send_messages_in_threads_is_refused_and_changes_nothing(
    harness: Harness,
) -> None:
    """Send Messages in Threads taken after the creation: /tournament start is refused
    naming it (it used to start and at once cancel); once it is back, start works."""
    h = harness
    await create(h, buy_in=100, entrants=11, table_size=6)
    await register(h, 5)
    h.deny_bot("send_messages_in_threads")
    refused = await h.slash(h.alice, "tournament start")
    assert refused.ephemeral and "Send Messages in Threads" in refused.text, refused
    assert not h.channel.threads
    assert h.bot.registry is not None and not h.bot.registry.all()
    info = await h.slash(h.bob, "tournament info")
    assert "4/11 players" in info.text, info
    h.restore_bot()
    started = await h.slash(h.alice, "tournament start")
    assert "starts now with 4 players" in started.text, started


async def test_a_restart_mid_hand_resumes_both_tables_and_a_cancellation_pays_the_pool(
    harness: Harness,
) -> None:
    """A restart with a hand running in both threads: each goes on with the same hole
    cards; then a manager cancels, the hands in progress are
    played out, the pool is split by the stated rule and every thread's table closes."""
    h = harness
    await create(h, buy_in=100, entrants=12, table_size=6, speed="turbo",
                 structure="no limit")
    players = await register(h, 12)
    await h.slash(players[-1], "tournament join")
    threads = h.channel.threads
    for _ in range(40):  # a hand running at both tables, each waiting for a decision
        if all(to_act_in(h, t) is not None for t in threads):
            break
        await h.advance(PAUSE + 0.1)
    registry = h.bot.registry
    assert registry is not None
    tables = registry.all()
    assert len(tables) == 2 and all(t.current is not None for t in tables)
    holes = {t.table_id: {n: t.current.hand.player(n).hole for n in t.current.dealt}
             for t in tables if t.current is not None}
    bot = await h.restart()
    await h.settle()
    restored = bot.registry.all()
    assert {t.table_id for t in restored} == set(holes)
    for t in restored:
        assert t.current is not None
        assert {n: t.current.hand.player(n).hole for n in t.current.dealt} == holes[t.table_id]
    later = await h.slash(h.manager, "tournament cancel")
    assert later.ephemeral and "when the hands in progress end" in later.text, later
    for _ in range(100):
        texts = [m.content for t in threads for m in h.public_messages(t)]
        if any(t.startswith("The tournament is cancelled. Prizes:") for t in texts):
            break
        if not await shove_round(h, threads):
            await h.advance(PAUSE + 0.1)
    assert any(t.startswith("The tournament is cancelled. Prizes:") for t in texts), texts[-5:]
    assert not bot.registry.all()
    balances = [await h.balance(a) for a in players]
    assert sum(balances) == 120_000 and sorted(balances) != [10_000] * 12
    await h.audit()
