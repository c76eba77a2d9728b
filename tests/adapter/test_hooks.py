"""Clicks carry the next turn message through their interaction routes (bot/adapter/hooks.py).

Played through the offline Discord with the real bot; the routes checked are the
requests in simcord's log. Also here: a refused turn prompt is sent again after
a pause (bot/adapter/channel.py), and simcord refuses tokens as Discord does
(bot/offline/refusals.py).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import discord
import pytest
from discord.http import Route

from bot.adapter.hooks import TOKEN_LIFETIME, TOKEN_MARGIN
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


async def test_a_slash_command_action_keeps_the_channel_routes(harness: Harness) -> None:
    """A typed /call has no message to answer on: the next turn is posted in the channel,
    and the old turn message (a click's followup) is deleted through that click's token."""
    h = harness
    await seat_three(h)
    old = turn_message(h)
    await h.click(actor_of(h, old), old, label=call_or_check(old))
    followup = turn_message(h)
    first = len(h.env.http_requests)
    reply = await h.slash(actor_of(h, followup), "call")
    assert reply.ephemeral and "Done: you call" in reply.text, reply
    new = turn_message(h)
    assert new.id != followup.id
    sent = since(h, first)
    assert f"POST /channels/{h.channel.id}/messages" in sent, sent
    assert any(r.startswith("DELETE /webhooks/") and r.endswith(f"/messages/{followup.id}")
               for r in sent), sent


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
    assert not [r for r in sent if "/webhooks/" in r and "@original" not in r], sent
    assert f"DELETE /channels/{h.channel.id}/messages/{followup.id}" in sent, sent


async def test_a_refused_turn_prompt_is_sent_again_after_a_pause(harness: Harness) -> None:
    """Discord answers 503 to the next turn's post, twice: it is sent again after 1 s,
    then 2 s, and the player is prompted; nothing is lost, the table plays on."""
    h = harness
    await seat_three(h)
    old = turn_message(h)
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
