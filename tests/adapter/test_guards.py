"""The HTTP client's guards: its pool of connections is bounded."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
from aiohttp import web

from bot.adapter.guards import CONNECTIONS, guard
from bot.adapter.meter import DiscordMeter
from bot.metrics import Metrics


async def test_requests_in_flight_share_a_bounded_pool_of_connections() -> None:
    """Three times CONNECTIONS requests at once to a server that holds each for 0.2 s: at
    most CONNECTIONS are in flight at once, so at most CONNECTIONS sockets are open (not
    one a request, which aiohttp would then keep while requests keep coming), and every
    request is answered."""
    in_flight = most = 0

    async def held(request: web.Request) -> web.Response:
        nonlocal in_flight, most
        in_flight += 1
        most = max(most, in_flight)
        await asyncio.sleep(0.2)
        in_flight -= 1
        return web.Response(text="ok")

    app = web.Application()
    app.router.add_get("/", held)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    guard(http, DiscordMeter(Metrics()))
    try:
        async with aiohttp.ClientSession(connector=http.connector) as session:

            async def get() -> str:
                async with session.get(f"http://127.0.0.1:{port}/") as response:
                    return await response.text()

            answers = await asyncio.gather(*(get() for _ in range(3 * CONNECTIONS)))
    finally:
        await runner.cleanup()
    assert answers == ["ok"] * (3 * CONNECTIONS)
    assert CONNECTIONS // 2 < most <= CONNECTIONS
