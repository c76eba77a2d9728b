"""Clicks and slash commands carry the next turn message through their interaction routes
(bot/adapter/hooks.py).

Played through the offline Discord with the real bot; the routes checked are the
requests in simcord's log. Also here: a refused turn prompt is sent again after
a pause (bot/adapter/channel.py), and simcord refuses tokens as Discord does
(bot/offline/refusals.py).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import math
from typing import Any

import aiohttp
import discord
import pytest
from aiohttp import web
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.adapter.hooks import (
    LONG_WAIT,
    TOKEN_LIFETIME,
    TOKEN_MARGIN,
    TokenWait,
    UnknownEffect,
    falling_back,
    watch_token_waits,
)
from tests.cogs.test_table import actor_of, seat_three, turn_message
from tests.conftest import Harness, buttons_of


def since(h: Harness, first: int) -> list[str]:
    return [f"{r.method} {r.path}" for r in h.env.http_requests[first:]]


def call_or_check(message: Any) -> str:
    labels = [str(b.label) for b in buttons_of(message)]
    return "Check" if "Check" in labels else next(x for x in labels if x.startswith("Call"))


async def test_a_click_posts_the_next_turn_as_its_followup_and_deletes_its_message(
    harness: Harness,
) -> None:
    """The next turn message is the click's followup (it mentions the next player, with
    the picture and the buttons); the clicked one goes through DELETE @original; nothing
    reaches the channel's routes, which count against the global limit."""
    h = harness
    await seat_three(h)
    old = turn_message(h)
    first = len(h.env.http_requests)
    reply = await h.click(actor_of(h, old), old, label=call_or_check(old))
    assert reply.silent
    new = turn_message(h)
    [followup] = reply.result.followups
    assert followup.id == new.id != old.id and not followup.ephemeral
    assert actor_of(h, new) is not actor_of(h, old)
    assert len(new.attachments) == 1 and buttons_of(new)
    assert old.id not in [m.id for m in h.public_messages()]
    sent = since(h, first)
    assert not [r for r in sent if "/channels/" in r], sent
    assert [r.split()[0] for r in sent if "/webhooks/" in r] == ["POST", "DELETE"], sent
    assert any(r.startswith("DELETE") and r.endswith("/messages/@original") for r in sent)


async def test_a_slash_command_posts_the_next_turn_as_its_public_followup(
    harness: Harness,
) -> None:
    """A typed /call is deferred privately; its private confirmation is edited into that
    original FIRST (Discord: the first followup after a deferred response edits it and
    keeps it ephemeral), then the next turn is the command's public followup, and the old
    turn message (a click's followup) is deleted through that click's token: nothing
    reaches the channel's routes."""
    h = harness
    await seat_three(h)
    old = turn_message(h)
    await h.click(actor_of(h, old), old, label=call_or_check(old))
    followup = turn_message(h)
    first = len(h.env.http_requests)
    reply = await h.slash(actor_of(h, followup), "call")
    assert reply.ephemeral and "Done: you call" in reply.text, reply
    new = turn_message(h)
    [posted] = reply.result.followups
    assert posted.id == new.id != followup.id and not posted.ephemeral
    assert actor_of(h, new) is not actor_of(h, followup) and buttons_of(new)
    sent = since(h, first)
    assert not [r for r in sent if "/channels/" in r], sent
    hooked = [r.split()[0] + (" @original" if r.endswith("@original") else "")
              for r in sent if "/webhooks/" in r]
    assert hooked == ["PATCH @original", "POST", "DELETE"], sent
    assert sent[-1].endswith(f"/messages/{followup.id}"), sent
    assert followup.id not in [m.id for m in h.public_messages()]


async def test_a_command_after_a_command_deletes_through_the_first_commands_token(
    harness: Harness,
) -> None:
    """A turn message posted as a command's followup is deleted by the next action through
    that command's token (``DELETE .../messages/{id}``), not its private ``@original``."""
    h = harness
    await seat_three(h)
    first_turn = turn_message(h)
    assert (await h.slash(actor_of(h, first_turn), call_or_check(first_turn).split()[0].lower()))
    mid = turn_message(h)
    first = len(h.env.http_requests)
    await h.slash(actor_of(h, mid), call_or_check(mid).split()[0].lower())
    sent = since(h, first)
    assert not [r for r in sent if "/channels/" in r], sent
    [deleted] = [r for r in sent if r.startswith("DELETE")]
    assert deleted.endswith(f"/messages/{mid.id}"), sent
    assert mid.id not in [m.id for m in h.public_messages()]
    assert [m for m in h.public_messages() if m.id == turn_message(h).id]


async def test_a_stale_command_token_falls_back_to_the_channel(harness: Harness) -> None:
    """The turn message is a command's followup whose token Discord no longer takes:
    the next action deletes it through the channel's route; play goes on."""
    h = harness
    await seat_three(h)
    turn = turn_message(h)
    reply = await h.slash(actor_of(h, turn), call_or_check(turn).split()[0].lower())
    posted = turn_message(h)
    h.env.backend.interactions[reply.result._interaction.id].expires_at = h.env.backend.now_iso()
    first = len(h.env.http_requests)
    assert (await h.slash(actor_of(h, posted), call_or_check(posted).split()[0].lower())).ephemeral
    sent = since(h, first)
    assert [r for r in sent if r.startswith("DELETE /webhooks/")], sent  # tried, refused
    assert f"DELETE /channels/{h.channel.id}/messages/{posted.id}" in sent, sent
    assert posted.id not in [m.id for m in h.public_messages()]
    assert turn_message(h).id != posted.id
    h.check_errors()


async def test_a_followup_refused_with_429_goes_by_the_channel(harness: Harness) -> None:
    """Discord refuses the command's followup with 429: the next turn is posted at once
    through the channel's route (no wait), and play goes on by commands."""
    h = harness
    await seat_three(h)
    turn = turn_message(h)
    h.env.inject_error("POST", "/webhooks/*", status=429, message="You are being rate limited.")
    first = len(h.env.http_requests)
    reply = await h.slash(actor_of(h, turn), call_or_check(turn).split()[0].lower())
    assert reply.ephemeral and "Done: you" in reply.text, reply
    new = turn_message(h)
    assert new.id != turn.id and not reply.result.followups
    sent = since(h, first)
    assert [r for r in sent if r.startswith("POST /webhooks/")], sent  # refused
    assert f"POST /channels/{h.channel.id}/messages" in sent, sent
    assert turn.id not in [m.id for m in h.public_messages()]
    assert (await h.slash(actor_of(h, new), call_or_check(new).split()[0].lower())).ephemeral
    assert turn_message(h).id != new.id
    h.check_errors()


async def test_a_refused_token_falls_back_to_the_channel(harness: Harness) -> None:
    """Discord refuses a click's token (expired: 401 Invalid Webhook Token): the request
    goes again through the channel's route, and play goes on."""
    h = harness
    await seat_three(h)
    old = turn_message(h)
    reply = await h.click(actor_of(h, old), old, label=call_or_check(old))
    followup = turn_message(h)
    record = h.env.backend.interactions[reply.result._interaction.id]
    record.expires_at = h.env.backend.now_iso()  # Discord no longer takes it
    first = len(h.env.http_requests)
    assert (await h.slash(actor_of(h, followup), "call")).ephemeral
    sent = since(h, first)
    refused = [r for r in sent if r.startswith("DELETE /webhooks/")]
    assert refused and f"DELETE /channels/{h.channel.id}/messages/{followup.id}" in sent, sent
    assert followup.id not in [m.id for m in h.public_messages()]
    assert turn_message(h).id != followup.id
    h.check_errors()


async def test_simcord_refuses_tokens_as_discord_does(harness: Harness) -> None:
    """An expired token: 401, code 50027; one Discord never issued: 404, code 10015."""
    h = harness
    await seat_three(h)
    old = turn_message(h)
    reply = await h.click(actor_of(h, old), old, label=call_or_check(old))
    record = h.env.backend.interactions[reply.result._interaction.id]
    [followup] = reply.result.followups

    def get(token: str) -> Route:
        return Route("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                     webhook_id=h.bot.application_id, webhook_token=token,
                     message_id=followup.id)

    assert (await h.bot.http.request(get(record.token)))["id"] == str(followup.id)
    record.expires_at = h.env.backend.now_iso()
    with pytest.raises(discord.HTTPException) as expired:
        await h.bot.http.request(get(record.token))
    assert (expired.value.status, expired.value.code) == (401, 50027)
    with pytest.raises(discord.NotFound) as unknown:
        await h.bot.http.request(get("no-such-token"))
    assert unknown.value.code == 10015


async def test_a_token_past_its_time_is_not_used(harness: Harness) -> None:
    """Once a click's token is past its time (14 of Discord's 15 minutes), the live message
    it posted is reached through the channel's routes: the token is not even tried."""
    h = harness
    await seat_three(h)
    old = turn_message(h)
    await h.click(actor_of(h, old), old, label=call_or_check(old))
    followup = turn_message(h)
    shown = h.bot.presenter.channels[1]._shown
    assert shown is not None and shown.hook is not None and shown.message.id == followup.id
    assert shown.hook.until - TOKEN_LIFETIME + TOKEN_MARGIN > 0  # when it was handed over
    shown.hook = dataclasses.replace(shown.hook, until=float("-inf"))  # 14 minutes later
    first = len(h.env.http_requests)
    assert (await h.slash(actor_of(h, followup), "call")).ephemeral
    sent = since(h, first)
    # the command's own token posts the next turn; the old one is not tried through the
    # click's token, but deleted through the channel's route
    assert not [r for r in sent if "/webhooks/" in r and r.endswith(f"/{followup.id}")], sent
    assert f"DELETE /channels/{h.channel.id}/messages/{followup.id}" in sent, sent


async def test_a_refused_turn_prompt_is_sent_again_after_a_pause(harness: Harness) -> None:
    """Discord answers 503 to the next turn's post, twice: it is sent again after 1 s,
    then 2 s, and the player is prompted; nothing is lost, the table plays on."""
    h = harness
    await seat_three(h)
    old = turn_message(h)
    h.bot.table_actions.take_click = None  # actions carry nothing: the channel's routes
    h.env.inject_error("POST", f"/channels/{h.channel.id}/messages", status=503, times=2)
    assert (await h.slash(actor_of(h, old), "call")).ephemeral
    assert turn_message(h).id == old.id  # refused: the old prompt is still there
    await h.advance(1.1)
    assert turn_message(h).id == old.id  # refused again
    await h.advance(2.1)
    new = turn_message(h)
    assert new.id != old.id and actor_of(h, new) is not actor_of(h, old)
    assert old.id not in [m.id for m in h.public_messages()]
    await h.click(actor_of(h, new), new, label=call_or_check(new))
    assert turn_message(h).id != new.id


class TokenRoutes:
    """A local HTTP server answering one interaction webhook route as Discord does: a 429
    (with Discord's headers, ``Via`` included, so discord.py waits) then 204."""

    def __init__(self, wait: float) -> None:
        self.wait = wait
        self.seen = 0

    async def delete(self, request: web.Request) -> web.Response:
        self.seen += 1
        if self.seen > 1:
            return web.Response(status=204)
        headers = {"X-RateLimit-Reset-After": f"{self.wait:.3f}", "Via": "1.1 google",
                   "Retry-After": str(math.ceil(self.wait)), "X-RateLimit-Scope": "user",
                   "Content-Type": "application/json"}  # exactly: discord.py compares it
        body = {"message": "You are being rate limited.", "retry_after": self.wait,
                "global": False}
        return web.Response(body=json.dumps(body).encode(), status=429, headers=headers)


async def delete_through(routes: TokenRoutes, monkeypatch: pytest.MonkeyPatch) -> None:
    """``DELETE /webhooks/{app}/{token}/messages/1`` by discord.py's real webhook adapter,
    on a session with the bot's trace (:func:`watch_token_waits`), through the channel's
    :func:`falling_back`."""
    app = web.Application()
    app.router.add_delete("/api/v10/webhooks/{app}/{token}/messages/{id}", routes.delete)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    watch_token_waits(http)
    async_context.set(AsyncWebhookAdapter())  # discord.py's own, not the offline Discord's
    try:
        async with aiohttp.ClientSession(trace_configs=[http.http_trace]) as session:
            webhook = discord.Webhook.partial(1, "token", session=session)
            await asyncio.wait_for(falling_back(webhook.delete_message(1)), 10)
    finally:
        await runner.cleanup()


async def test_a_long_429_on_a_token_raises_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Discord asks a request through a token to wait 30 s (more than LONG_WAIT): it is
    not sent again, TokenWait is raised at once (the channel then uses its route)."""
    routes = TokenRoutes(30.0)
    with pytest.raises(TokenWait) as waited:
        await delete_through(routes, monkeypatch)
    assert waited.value.retry_after == 30.0 > LONG_WAIT and routes.seen == 1


async def test_a_short_429_on_a_token_is_waited_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """A wait within LONG_WAIT is discord.py's as before: it sleeps, sends again, done."""
    routes = TokenRoutes(0.05)
    await delete_through(routes, monkeypatch)
    assert routes.seen == 2


async def test_a_followup_answered_5xx_is_not_sent_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Discord answers a followup 502 (it may have posted it: a followup takes no nonce):
    discord.py's webhook adapter does not send it again, UnknownEffect is raised at once;
    a delete answered 502 does the same when sent again, and is."""
    seen: list[str] = []

    async def answer(request: web.Request) -> web.Response:
        seen.append(request.method)
        if len(seen) == 3:  # the delete's second try
            return web.Response(status=204)
        return web.Response(status=502, text="<html>502 Bad Gateway</html>",
                            content_type="text/html")

    app = web.Application()
    app.router.add_route("*", "/api/v10/webhooks/{app}/{token:.*}", answer)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    monkeypatch.setattr(discord.http.Route, "BASE",
                        f"http://127.0.0.1:{runner.addresses[0][1]}/api/v10")
    monkeypatch.setattr(asyncio, "sleep", _no_sleep)  # discord.py's pause between tries
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    watch_token_waits(http)
    async_context.set(AsyncWebhookAdapter())
    try:
        async with aiohttp.ClientSession(trace_configs=[http.http_trace]) as session:
            webhook = discord.Webhook.partial(1, "token", session=session)
            with pytest.raises(UnknownEffect):
                await webhook.send("your turn", wait=True)
            assert seen == ["POST"]
            await webhook.delete_message(1)
            assert seen == ["POST", "DELETE", "DELETE"]
    finally:
        await runner.cleanup()


_sleep = asyncio.sleep


async def _no_sleep(seconds: float, *args: Any) -> Any:
    return await _sleep(0, *args)
