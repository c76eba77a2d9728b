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
"""

from __future__ import annotations

import discord

from bot.adapter.hooks import watch_token_waits
from bot.adapter.meter import DiscordMeter
from bot.adapter.nonces import send_with_nonces
from bot.adapter.pacing import GLOBAL_BUDGET, Pacer, pace_requests

__all__ = ["guard"]


def guard(http: discord.http.HTTPClient, meter: DiscordMeter, share: float = 1.0) -> Pacer:
    """Put the above on ``http`` (``share``: this process's part of the global limit);
    the pacer."""
    pacer = pace_requests(http, Pacer(max(1, int(GLOBAL_BUDGET * share))))
    meter.install(http)
    meter.watch(pacer=pacer)
    watch_token_waits(http)
    send_with_nonces(http)
    return pacer
