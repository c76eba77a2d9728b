"""What the bot's HTTP client gets before it logs in: its pace, its counts, its safety.

In this order (aiohttp calls a trace's handlers in turn, and one that raises stops the
rest, so what only counts comes before what may raise):

1. :func:`bot.adapter.pacing.pace_requests`: under Discord's global limit (this
   process's share of it), held through a global 429's window; acknowledgements never
   wait;
2. :meth:`bot.adapter.meter.DiscordMeter.install`: every request counted (429s and
   invalid requests too), acknowledgements timed;
3. :func:`bot.adapter.hooks.watch_token_waits`: a long 429 on an interaction token
   sends the request by the channel's route instead, and a followup answered 5xx is not
   sent again blindly;
4. :func:`bot.adapter.nonces.send_with_nonces`: a message answered 5xx and sent again is
   not posted twice.

And a pool of at most :data:`CONNECTIONS` connections to Discord (discord.py's own has no
limit: it opens one for each request in flight, and aiohttp, reusing the connection idle
longest first, keeps every one of them open while requests keep coming, so the pool only
grew with each busier moment: 84 to 113 sockets over half an hour of 100 tables in
``bench/bench_soak.py``). A request past the limit waits for a connection to come free;
the gateway's websocket holds one of them per shard.
"""

from __future__ import annotations

import aiohttp
import discord

from bot.adapter.hooks import watch_token_waits
from bot.adapter.meter import DiscordMeter
from bot.adapter.nonces import send_with_nonces
from bot.adapter.pacing import GLOBAL_BUDGET, Pacer, pace_requests

__all__ = ["CONNECTIONS", "guard"]

#: At most so many connections to Discord at once (each request in flight takes one).
CONNECTIONS = 64


def guard(http: discord.http.HTTPClient, meter: DiscordMeter, share: float = 1.0) -> Pacer:
    """Put the above on ``http`` (``share``: this process's part of the global limit);
    the pacer. Call it in the running loop, before the client logs in."""
    if http.connector is discord.utils.MISSING:
        http.connector = aiohttp.TCPConnector(limit=CONNECTIONS)
    pacer = pace_requests(http, Pacer(max(1, int(GLOBAL_BUDGET * share))))
    meter.install(http)
    meter.watch(pacer=pacer)
    watch_token_waits(http)
    send_with_nonces(http)
    return pacer
