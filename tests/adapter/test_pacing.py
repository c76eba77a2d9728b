"""The bot paces itself under Discord's global limit; interaction endpoints never wait."""

from __future__ import annotations

import asyncio

from discord.http import Route

from bot.adapter.pacing import GLOBAL_BUDGET, Pacer, counts_globally


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


async def test_requests_are_paced_as_they_leave_not_before_the_route_wait() -> None:
    """The pacer runs in aiohttp's request-start signal (discord.py's ``http_trace``): every
    request to a global-limited API route takes a slot when it is sent, retries too, while
    interaction endpoints, the CDN and anything outside ``/api`` never wait."""
    from aiohttp import ClientSession, web
    from discord.http import HTTPClient

    from bot.adapter.pacing import counts_globally_url, pace_requests

    async def ok(request: web.Request) -> web.Response:
        return web.Response(text="{}")

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", ok)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    clock = Clock()
    http = HTTPClient(asyncio.get_running_loop())
    pacer = pace_requests(http, Pacer(limit=2, clock=clock))
    assert http.http_trace is not None
    base = f"http://127.0.0.1:{port}"
    try:
        async with ClientSession(trace_configs=[http.http_trace]) as session:
            for path in ("/api/v10/interactions/1/t/callback", "/api/v10/webhooks/1/t",
                         "/attachments/1/2/a.png", "/api/v10/channels/1/messages",
                         "/api/v10/users/@me/channels"):
                async with session.post(base + path) as response:
                    assert response.status == 200
            assert len(pacer._sent) == 2 and pacer.waited == 0  # the two counted ones
            late = asyncio.create_task(session.post(base + "/api/v10/channels/1/messages"))
            await asyncio.sleep(0.05)
            assert not late.done() and pacer.waited == 1  # held before leaving
            clock.now += 1.0
            (await asyncio.wait_for(late, 5)).release()
    finally:
        await runner.cleanup()
    import yarl
    assert counts_globally_url(yarl.URL("https://discord.com/api/v10/channels/1/messages"))
    assert not counts_globally_url(yarl.URL("https://discord.com/api/v10/webhooks/1/t/messages/2"))
    assert not counts_globally_url(yarl.URL("https://cdn.discordapp.com/attachments/1/2/a.png"))


async def test_an_urgent_request_goes_before_the_ones_waiting_in_turn() -> None:
    """The window is full and two requests wait in turn; a deck commitment's request
    (``first``) takes the next free slot before them, and the window still holds."""
    clock = Clock()
    pacer = Pacer(limit=2, clock=clock)
    await pacer.acquire()
    await pacer.acquire()
    order: list[str] = []

    async def take(name: str, first: bool = False) -> None:
        await pacer.acquire(first=first)
        order.append(name)

    waiting = [asyncio.create_task(take("notice 1")), asyncio.create_task(take("notice 2"))]
    await asyncio.sleep(0)
    urgent = asyncio.create_task(take("commitment", first=True))
    await asyncio.sleep(0)
    assert order == [] and pacer.queued == 3
    clock.now += 1.0  # both slots free again: the commitment and the first in turn
    await asyncio.wait_for(urgent, 2)
    assert order[0] == "commitment"
    clock.now += 1.0
    await asyncio.wait_for(asyncio.gather(*waiting), 2)
    assert order == ["commitment", "notice 1", "notice 2"]


async def test_a_global_429_holds_every_global_request_as_its_headers_say() -> None:
    """Discord answers a global 429 (``X-RateLimit-Global: true``, ``Retry-After: 3``): no
    request bound to the global limit leaves for 3 s, whoever sends it; the interaction
    endpoints go on; a 429 of a route's bucket holds nothing."""
    from aiohttp import ClientSession, web
    from discord.http import HTTPClient

    from bot.adapter.pacing import pace_requests

    async def answer(request: web.Request) -> web.Response:
        if request.path.endswith("/global"):
            return web.Response(status=429, text='{"retry_after": 2.2, "global": true}',
                                headers={"X-RateLimit-Global": "true", "Retry-After": "3",
                                         "X-RateLimit-Scope": "global"})
        if request.path.endswith("/bucket"):
            return web.Response(status=429, text='{"retry_after": 9, "global": false}',
                                headers={"Retry-After": "9", "X-RateLimit-Scope": "user"})
        return web.Response(text="{}")

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", answer)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    base = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"  # type: ignore[union-attr]
    clock = Clock()
    http = HTTPClient(asyncio.get_running_loop())
    pacer = pace_requests(http, Pacer(clock=clock))
    assert http.http_trace is not None
    try:
        async with ClientSession(trace_configs=[http.http_trace]) as session:
            (await session.get(base + "/api/v10/channels/1/bucket")).release()
            assert pacer.delay() == 0.0
            (await session.get(base + "/api/v10/channels/1/global")).release()
            assert pacer.delay() == 3.0
            (await session.post(base + "/api/v10/interactions/1/t/callback")).release()
            held = asyncio.create_task(session.get(base + "/api/v10/channels/2"))
            await asyncio.sleep(0.05)
            assert not held.done()
            clock.now += 2.9
            await asyncio.sleep(0.05)
            assert not held.done()
            clock.now += 0.1
            (await asyncio.wait_for(held, 5)).release()
    finally:
        await runner.cleanup()
