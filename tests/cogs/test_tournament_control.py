"""/tournament start and cancel, custom stack and payouts, through the offline Discord."""

from __future__ import annotations

import pytest

from tests.conftest import Harness

from .test_tournament import PAUSE, bot_extensions, create, to_act

pytestmark = pytest.mark.asyncio

__all__ = ["bot_extensions"]


async def test_custom_stack_and_payouts_are_shown_and_checked_before_registration(
    harness: Harness,
) -> None:
    """A payout table that does not add up to 100 is refused politely and opens nothing;
    a good one and the starting stack are shown with the cancellation rule."""
    h = harness
    bad = await h.slash(h.alice, "tournament create", buy_in=500, payouts="50/30")
    assert bad.ephemeral and "add up to 80, not 100" in bad.text, bad
    worse = await h.slash(h.alice, "tournament create", buy_in=500, entrants=2,
                          payouts="50/30/20")
    assert worse.ephemeral and "pays 3 places" in worse.text, worse
    assert h.bot.registry is not None and not h.bot.tournaments.all()
    await create(h, buy_in=500, entrants=4, stack=3000, payouts="60/30/10")
    info = await h.slash(h.bob, "tournament info")
    assert "3,000 chips each" in info.text and "(60%)" in info.text and "(10%)" in info.text
    assert "split among the players still in, in proportion to their chips" in info.text
    assert "Paid places by field size" not in info.text


async def test_start_early_then_a_manager_cancels_mid_hand_and_the_pool_is_split(
    harness: Harness,
) -> None:
    """Only the creator starts, and only once one player per paid place registered; after
    the start a player's cancel is an agreement the table is told of (RULES.md 7); a
    manager's cancellation waits for the hand to end, then the pool is paid by stacks."""
    h = harness
    await create(h, buy_in=500, entrants=5, payouts="60/40")
    await h.slash(h.alice, "tournament join")
    early = await h.slash(h.alice, "tournament start")
    assert early.ephemeral and "at least 2 players" in early.text, early
    await h.slash(h.bob, "tournament join")
    await h.slash(h.carol, "tournament join")
    not_yours = await h.slash(h.bob, "tournament start")
    assert not_yours.ephemeral and "creator" in not_yours.text
    started = await h.slash(h.alice, "tournament start")
    assert not started.ephemeral and "starts now with 3 players" in started.text, started
    assert "1st: 900 chips (60%)" in started.text
    await h.advance(PAUSE + 0.1)
    agreed = await h.slash(h.bob, "tournament cancel")
    assert agreed.ephemeral and "You agree to cancel" in agreed.text, agreed
    assert any("1 of 3 players still in agree" in m.content for m in h.public_messages())
    later = await h.slash(h.manager, "tournament cancel")
    assert later.ephemeral and "when this hand ends" in later.text, later
    players = (h.alice, h.bob, h.carol)
    for _ in range(12):
        await h.settle()
        if any("tournament is cancelled" in m.content for m in h.public_messages()):
            break
        actor = to_act(h)
        if actor is None:
            await h.advance(1.0)
            continue
        folded = await h.slash(actor, "fold")
        if folded.ephemeral and "check" in folded.text.lower():
            await h.slash(actor, "check")
    texts = [m.content for m in h.public_messages()]
    assert any("The tournament is cancelled. Prizes:" in t for t in texts), texts[-4:]
    results = [m for m in h.public_messages() if m.content == "The results:"]
    assert len(results) == 1
    (name, png), = await h.files(results[0])
    assert name.endswith("-results.png") and png.startswith(b"\x89PNG")
    balances = [await h.balance(a) for a in players]
    assert sum(balances) == 30_000 and sorted(balances) != [10_000] * 3
    assert h.bot.registry is not None and h.bot.registry.find(h.channel.id) is None
    await h.audit()


async def test_a_cancel_before_the_start_refunds_everyone(harness: Harness) -> None:
    """Before the start the creator cancels: buy-ins back, the channel is free again."""
    h = harness
    await create(h, buy_in=700, entrants=3)
    await h.slash(h.alice, "tournament join")
    await h.slash(h.bob, "tournament join")
    done = await h.slash(h.alice, "tournament cancel")
    assert not done.ephemeral and "every buy-in of 700 chips is refunded" in done.text, done
    assert [await h.balance(a) for a in (h.alice, h.bob)] == [10_000, 10_000]
    await create(h, buy_in=100, entrants=2)
    await h.audit()


async def test_late_registration_is_shown_and_takes_a_seat_after_the_start(
    harness: Harness,
) -> None:
    """With late registration for 2 levels, info says so; a player joining after the
    start is seated and charged; a leave after the start is still refused."""
    h = harness
    await create(h, buy_in=400, entrants=4, late_levels=2)
    info = await h.slash(h.bob, "tournament info")
    assert "Late registration during the first 2 levels" in info.text, info.text
    await h.slash(h.alice, "tournament join")
    await h.slash(h.bob, "tournament join")
    await h.slash(h.alice, "tournament start")
    running = await h.slash(h.bob, "tournament info")
    assert "Late registration is open" in running.text
    late = await h.slash(h.carol, "tournament join")
    assert not late.ephemeral and "registers late at seat" in late.text, late
    assert "prize pool 1,200 chips" in late.text and await h.balance(h.carol) == 9_600
    again = await h.slash(h.carol, "tournament join")
    assert again.ephemeral and "already registered" in again.text
    table = h.bot.registry.find(h.channel.id) if h.bot.registry else None
    assert table is not None and len(table.seats) == 3
    await h.audit()


async def test_a_restart_mid_hand_resumes_the_sit_and_go_and_it_is_played_out(
    harness: Harness,
) -> None:
    """The bot restarts after the first action of hand 1: the channel is told, the hand
    goes on from that action, and the tournament is played to a winner paid exactly."""
    h = harness
    await create(h, buy_in=500, entrants=3, speed="turbo", structure="no limit")
    players = (h.alice, h.bob, h.carol)
    for actor in players:
        await h.slash(actor, "tournament join")
    await h.advance(PAUSE + 0.1)
    first = to_act(h)
    assert first is not None
    called = await h.slash(first, "call")
    assert called.ephemeral and called.text.startswith("Done"), called
    new = await h.restart()
    await h.settle()
    table = new.registry.in_channel(h.channel.id)
    assert table.current is not None and table.current.seq == 1
    texts = [m.content for m in h.public_messages()]
    assert any("the tournament goes on" in t for t in texts), texts[-4:]
    assert any("Hand #1 resumes" in t for t in texts)
    for _ in range(80):
        if any("wins the tournament" in m.content for m in h.public_messages()):
            break
        for _ in range(6):
            actor = to_act(h)
            if actor is None:
                break
            reply = await h.slash(actor, "allin")
            if not reply.ephemeral or "not your turn" in reply.text:
                break
        await h.advance(PAUSE + 0.1)
    balances = sorted([await h.balance(a) for a in players])
    assert balances == [9_500, 9_500, 11_000]
    await h.audit()
