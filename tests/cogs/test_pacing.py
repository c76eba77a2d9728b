"""The bot paces itself under Discord's global limit; interaction endpoints never wait."""

from __future__ import annotations

import asyncio

from discord.http import Route

from cogs.pacing import GLOBAL_BUDGET, Pacer, counts_globally


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def test_pacer_allows_the_budget_then_waits_for_the_window() -> None:
    """The budget goes at once; the next waits until the first leaves the one-second window."""
    clock = Clock()
    pacer = Pacer(clock=clock)
    for _ in range(GLOBAL_BUDGET):
        await pacer.acquire()
    assert pacer.waited == 0
    assert abs(pacer.delay() - 1.0) < 1e-9
    clock.now += 0.4
    assert abs(pacer.delay() - 0.6) < 1e-9
    late = asyncio.create_task(pacer.acquire())
    await asyncio.sleep(0)
    assert not late.done() and pacer.waited == 1
    clock.now += 0.6
    await asyncio.wait_for(late, 2)
    assert pacer.delay() == 0.0  # the whole first second has left the window


def test_interaction_endpoints_are_exempt() -> None:
    """Callbacks and interaction webhooks skip the pacer; channel and DM requests do not."""
    callback = Route("POST", "/interactions/{interaction_id}/{interaction_token}/callback",
                     interaction_id=1, interaction_token="t")
    followup = Route("POST", "/webhooks/{webhook_id}/{webhook_token}", webhook_id=1,
                     webhook_token="t")
    send = Route("POST", "/channels/{channel_id}/messages", channel_id=1)
    dm = Route("POST", "/users/@me/channels")
    assert not counts_globally(callback) and not counts_globally(followup)
    assert counts_globally(send) and counts_globally(dm)
