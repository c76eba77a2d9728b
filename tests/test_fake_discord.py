"""The process-level fake Discord refuses what Discord refuses, and can be slow on purpose.

Requests go over HTTP as ``python -m bot`` sends them (JSON, or multipart with
``payload_json`` and ``files[n]``), straight from aiohttp.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from tests.fakediscord import FakeDiscord
from tests.fakediscord.payloads import (
    ATTACH_FILES,
    CREATE_PUBLIC_THREADS,
    EMBED_LINKS,
    READ_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    Channel,
)
from tests.limit_cases import MESSAGE_CASES, MODAL_CASES


class Client:
    """A bot's REST calls to the fake, by hand."""

    def __init__(self, fd: FakeDiscord, session: aiohttp.ClientSession) -> None:
        self.fd = fd
        self.session = session
        self.headers = {"Authorization": f"Bot {fd.token}"}

    async def call(
        self, method: str, path: str, body: dict[str, Any] | None = None,
        files: list[tuple[str, bytes]] | None = None,
    ) -> tuple[int, dict[str, Any]]:
        url = self.fd.api_base + path
        if files:
            form = aiohttp.FormData()
            form.add_field("payload_json", json.dumps(body or {}),
                           content_type="application/json")
            for i, (name, data) in enumerate(files):  # discord.py's multipart layout
                form.add_field(f"files[{i}]", data, filename=name, content_type="image/png")
            request = self.session.request(method, url, data=form, headers=self.headers)
        else:
            request = self.session.request(method, url, json=body, headers=self.headers)
        async with request as response:
            text = await response.text()
            return response.status, (json.loads(text) if text else {})

    async def post(
        self, channel: Channel, body: dict[str, Any], files: list[tuple[str, bytes]] | None = None
    ) -> tuple[int, dict[str, Any]]:
        return await self.call("POST", f"/channels/{channel.id}/messages", body, files)


@pytest_asyncio.fixture
async def world() -> AsyncIterator[tuple[FakeDiscord, Client, Channel]]:
    # refusals one at a time, faster than Discord's buckets allow: rate limits are
    # tested on their own in tests/fakediscord/test_ratelimits.py; and these requests
    # break Discord's contract on purpose (the bot's own are checked: tests/discord_spec)
    fake = FakeDiscord(rate_limits=False, contract=False)
    async with fake as fd, aiohttp.ClientSession() as session:
        guild = fd.add_guild("Poker Club")
        channel = fd.add_channel(guild, "poker")
        yield fd, Client(fd, session), channel


def _paths(errors: dict[str, Any], prefix: str = "") -> list[str]:
    found = []
    for key, value in errors.items():
        if key == "_errors":
            found.append(prefix)
        elif isinstance(value, dict):
            found.extend(_paths(value, f"{prefix}.{key}" if prefix else key))
    return found


@pytest.mark.parametrize(
    "at_limit, over_limit, field",
    [case[1:] for case in MESSAGE_CASES],
    ids=[case[0] for case in MESSAGE_CASES],
)
async def test_message_limits(
    world: tuple[FakeDiscord, Client, Channel],
    at_limit: dict[str, Any], over_limit: dict[str, Any], field: str,
) -> None:
    """At the limit a message is posted (and can be edited); one step over: 400, 50035, the path."""
    fd, client, channel = world
    status, posted = await client.post(channel, at_limit)
    assert status == 200, posted
    status, answer = await client.post(channel, over_limit)
    assert status == 400 and answer["code"] == 50035, answer
    assert any(field in path for path in _paths(answer["errors"])), answer
    status, answer = await client.call(
        "PATCH", f"/channels/{channel.id}/messages/{posted['id']}", over_limit
    )
    assert status == 400 and answer["code"] == 50035
    assert len(fd.channel_messages(channel)) == 1


async def test_invalid_emoji_answer_names_the_field(
    world: tuple[FakeDiscord, Client, Channel],
) -> None:
    """Discord's answer for 🂠 on a button: the errors tree down to emoji.name."""
    _, client, channel = world
    body = {"content": "hand", "components": [{"type": 1, "components": [
        {"type": 2, "style": 2, "label": "My cards", "custom_id": "c",
         "emoji": {"name": "🂠", "id": None}},
    ]}]}
    status, answer = await client.post(channel, body)
    assert status == 400
    assert answer["errors"]["components"]["0"]["components"]["0"]["emoji"]["name"] == {
        "_errors": [{"code": "BUTTON_COMPONENT_INVALID_EMOJI", "message": "Invalid emoji"}]
    }


@pytest.mark.parametrize(
    "at_limit, over_limit, field",
    [case[1:] for case in MODAL_CASES],
    ids=[case[0] for case in MODAL_CASES],
)
async def test_modal_limits(
    world: tuple[FakeDiscord, Client, Channel],
    at_limit: dict[str, Any], over_limit: dict[str, Any], field: str,
) -> None:
    """A modal over a limit is refused (the interaction stays unanswered); at the limit it opens."""
    fd, client, channel = world
    guild = fd.guilds[channel.guild_id or 0]
    alice = fd.add_member(guild, "alice")
    refused, _ = fd._base_interaction(2, alice, channel, {"name": "table"})
    status, answer = await client.call(
        "POST", f"/interactions/{refused.id}/{refused.token}/callback",
        {"type": 9, "data": over_limit},
    )
    assert status == 400 and answer["code"] == 50035
    assert any(field in path for path in _paths(answer["errors"])), answer
    assert refused.modal is None and refused.callback_type is None
    shown, _ = fd._base_interaction(2, alice, channel, {"name": "table"})
    status, _ = await client.call(
        "POST", f"/interactions/{shown.id}/{shown.token}/callback",
        {"type": 9, "data": at_limit},
    )
    assert status == 200 and shown.modal is not None


async def test_interaction_replies_are_checked_too(
    world: tuple[FakeDiscord, Client, Channel],
) -> None:
    """A reply over 2000 characters, as callback or followup, is refused like a post."""
    fd, client, channel = world
    alice = fd.add_member(fd.guilds[channel.guild_id or 0], "alice")
    it, _ = fd._base_interaction(2, alice, channel, {"name": "table"})
    callback = f"/interactions/{it.id}/{it.token}/callback"
    status, _ = await client.call("POST", callback, {"type": 4, "data": {"content": "x" * 2001}})
    assert status == 400 and it.callback_type is None
    status, _ = await client.call("POST", callback, {"type": 5, "data": {}})
    assert status == 200
    followup = f"/webhooks/{fd.application_id}/{it.token}"
    status, _ = await client.call("POST", followup, {"content": "y" * 2001})
    assert status == 400
    status, _ = await client.call("PATCH", followup + "/messages/@original",
                                  {"content": "z" * 2001})
    assert status == 400


async def test_bot_permissions_per_channel(world: tuple[FakeDiscord, Client, Channel]) -> None:
    """Each permission the bot loses in a channel refuses the requests that need it."""
    fd, client, channel = world
    picture = [("table.png", b"\x89PNG\r\n\x1a\n")]
    status, first = await client.post(channel, {"content": "hello"}, picture)
    assert status == 200
    fd.deny_bot(channel, ATTACH_FILES)
    status, answer = await client.post(channel, {"content": "picture"}, picture)
    assert (status, answer["code"]) == (403, 50013)
    status, _ = await client.call(
        "PATCH", f"/channels/{channel.id}/messages/{first['id']}",
        {"content": "new picture", "attachments": [{"id": "0"}]}, picture,
    )
    assert status == 403
    fd.deny_bot(channel, EMBED_LINKS)
    status, answer = await client.post(channel, {"embeds": [{"title": "only"}]})
    assert (status, answer["code"]) == (403, 50013)
    status, kept = await client.post(channel, {"content": "text", "embeds": [{"title": "x"}]})
    assert status == 200 and kept["embeds"] == []
    fd.deny_bot(channel, READ_HISTORY)
    status, _ = await client.call("GET", f"/channels/{channel.id}/messages/{first['id']}")
    assert status == 403
    fd.deny_bot(channel, SEND_MESSAGES)
    status, answer = await client.post(channel, {"content": "text"})
    assert (status, answer["code"]) == (403, 50013)
    fd.deny_bot(channel, VIEW_CHANNEL)
    status, answer = await client.post(channel, {"content": "text"})
    assert (status, answer["code"]) == (403, 50001)


async def test_threads_and_app_permissions(world: tuple[FakeDiscord, Client, Channel]) -> None:
    """Threads check Send Messages in Threads from their parent; interactions carry it all."""
    fd, client, channel = world
    thread = fd.add_thread(channel, "high stakes")
    alice = fd.add_member(fd.guilds[channel.guild_id or 0], "alice")
    fd.deny_bot(channel, SEND_MESSAGES)
    status, _ = await client.post(thread, {"content": "fine in the thread"})
    assert status == 200
    _, payload = fd._base_interaction(2, alice, thread, {"name": "table"})
    granted = int(payload["app_permissions"])
    assert granted & SEND_MESSAGES_IN_THREADS and not granted & SEND_MESSAGES
    fd.deny_bot(channel, SEND_MESSAGES_IN_THREADS)
    status, _ = await client.post(thread, {"content": "refused"})
    assert status == 403
    _, payload = fd._base_interaction(2, alice, thread, {"name": "table"})
    assert not int(payload["app_permissions"]) & SEND_MESSAGES_IN_THREADS


async def test_injected_latency_delays_only_matching_routes(
    world: tuple[FakeDiscord, Client, Channel],
) -> None:
    """``fd.delay`` slows the routes it names and leaves the others alone."""
    fd, client, channel = world
    fd.delay("GET", r"/users/\d+", 0.3)
    start = time.perf_counter()
    status, _ = await client.call("GET", f"/users/{fd.owner.id}")
    slow = time.perf_counter() - start
    start = time.perf_counter()
    status2, _ = await client.post(channel, {"content": "quick"})
    quick = time.perf_counter() - start
    assert status == status2 == 200
    assert slow >= 0.3 and quick < slow


async def test_a_deleted_channel_and_a_removed_bot_are_refused_as_on_discord(
    world: tuple[FakeDiscord, Client, Channel],
) -> None:
    """After deletion every request to a channel (and its threads) gets 404 10003; after the
    bot is removed from the server its channels there get 403 50001."""
    fd, client, channel = world
    thread = fd.add_thread(channel, "high stakes")
    status, first = await client.post(channel, {"content": "hello"})
    assert status == 200
    await fd.delete_channel(channel)
    for target in (channel, thread):
        status, answer = await client.post(target, {"content": "still there?"})
        assert (status, answer["code"]) == (404, 10003)
    for method, path, body in (
        ("PATCH", f"/channels/{channel.id}/messages/{first['id']}", {"content": "edit"}),
        ("DELETE", f"/channels/{channel.id}/messages/{first['id']}", None),
        ("GET", f"/channels/{channel.id}", None),
    ):
        status, answer = await client.call(method, path, body)
        assert (status, answer["code"]) == (404, 10003), (method, path)
    guild = fd.guilds[channel.guild_id or 0]
    other = fd.add_channel(guild, "other")
    status, kept = await client.post(other, {"content": "hello"})
    assert status == 200
    await fd.remove_bot(guild)
    status, answer = await client.post(other, {"content": "and now?"})
    assert (status, answer["code"]) == (403, 50001)
    status, answer = await client.call("DELETE", f"/channels/{other.id}/messages/{kept['id']}")
    assert (status, answer["code"]) == (403, 50001)


async def test_a_click_answers_through_its_token_until_it_expires(
    world: tuple[FakeDiscord, Client, Channel],
) -> None:
    """A click acknowledged with a deferred update: its followup (a picture and buttons) is
    a new channel message; its @original is the message the button is on (DELETE removes
    it); the followup is edited through the token or the channel; after 15 minutes the
    token gets 401 Invalid Webhook Token (50027), an unknown one 404 Unknown Webhook (10015)."""
    fd, client, channel = world
    alice = fd.add_member(fd.guilds[channel.guild_id or 0], "alice")
    buttons = [{"type": 1, "components": [
        {"type": 2, "style": 2, "label": "Fold", "custom_id": "omaha:act:1:1.1:fold"}]}]
    status, posted = await client.post(channel, {"content": "your turn", "components": buttons})
    assert status == 200
    it, _ = fd._base_interaction(3, alice, channel, {"custom_id": "x", "component_type": 2})
    it.source_message = fd.messages[int(posted["id"])]
    status, _ = await client.call("POST", f"/interactions/{it.id}/{it.token}/callback",
                                  {"type": 6})
    assert status == 200
    hook = f"/webhooks/{fd.application_id}/{it.token}"
    status, followup = await client.call(
        "POST", hook, {"content": "next turn", "components": buttons},
        files=[("t.png", b"\x89PNG\r\n\x1a\n")],
    )
    assert status == 200 and it.followups and it.followups[0].attachments
    assert fd.channel_messages(channel)[-1].id == int(followup["id"])
    assert (await client.call("DELETE", hook + "/messages/@original"))[0] == 204
    assert it.source_message.deleted
    status, _ = await client.call("PATCH", f"{hook}/messages/{followup['id']}", {"content": "a"})
    assert status == 200
    status, _ = await client.call(
        "PATCH", f"/channels/{channel.id}/messages/{followup['id']}", {"content": "b"})
    assert status == 200 and it.followups[0].content == "b"
    it.expire()
    for method, path in (("POST", hook), ("DELETE", f"{hook}/messages/{followup['id']}")):
        status, answer = await client.call(method, path, {"content": "late"})
        assert (status, answer["code"]) == (401, 50027), (method, path)
    status, answer = await client.call("POST", f"/webhooks/{fd.application_id}/nope", {})
    assert (status, answer["code"]) == (404, 10015)


async def test_the_first_followup_after_a_private_defer_edits_it(
    world: tuple[FakeDiscord, Client, Channel],
) -> None:
    """Discord's Create Followup Message: right after a type-5 defer it edits the loading
    original (no new message) and keeps the defer's ephemeral flag, whatever the followup's
    flags; once the original was edited, a followup is a new message with its own flags."""
    fd, client, channel = world
    alice = fd.add_member(fd.guilds[channel.guild_id or 0], "alice")
    for edit_first in (False, True):
        it, _ = fd._base_interaction(2, alice, channel, {"name": "call", "type": 1})
        status, _ = await client.call("POST", f"/interactions/{it.id}/{it.token}/callback",
                                      {"type": 5, "data": {"flags": 64}})
        assert status == 200 and it.original is not None
        hook = f"/webhooks/{fd.application_id}/{it.token}"
        if edit_first:
            await client.call("PATCH", hook + "/messages/@original", {"content": "Done"})
        status, sent = await client.call("POST", hook, {"content": "next turn", "flags": 0})
        assert status == 200
        if edit_first:  # a new public message; the original stays the private confirmation
            assert [m.id for m in it.followups] == [int(sent["id"])] != [it.original.id]
            assert not it.followups[0].ephemeral and it.original.content == "Done"
        else:  # the loading original, edited, still ephemeral
            assert int(sent["id"]) == it.original.id and not it.followups
            assert it.original.ephemeral and it.original.content == "next turn"


async def test_creating_threads_checks_what_discord_checks(
    world: tuple[FakeDiscord, Client, Channel],
) -> None:
    """A public thread under a text channel (the name and archive duration kept); refused
    with a bad name or duration, inside a thread, or without Create Public Threads."""
    fd, client, channel = world
    path = f"/channels/{channel.id}/threads"
    status, thread = await client.call(
        "POST", path, {"name": "table 1", "type": 11, "auto_archive_duration": 10080})
    assert status == 200 and thread["type"] == 11 and thread["parent_id"] == str(channel.id)
    assert thread["thread_metadata"]["auto_archive_duration"] == 10080
    assert thread["owner_id"] == str(fd.bot_user.id)
    status, _ = await client.post(fd.channels[int(thread["id"])], {"content": "seated"})
    assert status == 200
    for bad in ({"name": "", "type": 11}, {"name": "x" * 101, "type": 11},
                {"name": "t", "type": 11, "auto_archive_duration": 43200},
                {"name": "t", "type": 0}):
        status, answer = await client.call("POST", path, bad)
        assert (status, answer["code"]) == (400, 50035), bad
    status, answer = await client.call("POST", f"/channels/{thread['id']}/threads",
                                       {"name": "nested", "type": 11})
    assert (status, answer["code"]) == (400, 50024)
    status, private = await client.call("POST", path, {"name": "private"})  # the default
    assert status == 200 and private["type"] == 12
    fd.deny_bot(channel, CREATE_PUBLIC_THREADS)
    status, answer = await client.call("POST", path, {"name": "table 2", "type": 11})
    assert (status, answer["code"]) == (403, 50013)


@pytest.mark.parametrize("public", [True, False])
async def test_the_first_followup_after_thinking_edits_it_and_keeps_its_visibility(
    world: tuple[FakeDiscord, Client, Channel], public: bool,
) -> None:
    """Discord's "Create Followup Message": directly after a deferred "thinking…" (type 5)
    a followup edits it, its ephemeral flag ignored; once the original is edited, a
    followup is a new message with its own flags; a "thinking…" deleted before it was
    edited leaves the followup nothing to edit (404 Unknown Message)."""
    fd, client, channel = world
    alice = fd.add_member(fd.guilds[channel.guild_id or 0], "alice")
    hook = f"/webhooks/{fd.application_id}"

    async def deferred() -> Any:
        it, _ = fd._base_interaction(2, alice, channel, {"name": "daily"})
        flags = 0 if public else 64
        status, _ = await client.call("POST", f"/interactions/{it.id}/{it.token}/callback",
                                      {"type": 5, "data": {"flags": flags}})
        assert status == 200 and it.original is not None
        return it

    it = await deferred()
    flipped = 64 if public else 0
    status, edited = await client.call("POST", f"{hook}/{it.token}",
                                       {"content": "first", "flags": flipped})
    assert status == 200 and int(edited["id"]) == it.original.id and not it.followups
    assert it.original.content == "first" and it.original.ephemeral is not public
    status, new = await client.call("POST", f"{hook}/{it.token}",
                                    {"content": "second", "flags": flipped})
    assert status == 200 and int(new["id"]) == it.followups[0].id
    assert it.followups[0].ephemeral is public

    gone = await deferred()
    assert (await client.call("DELETE", f"{hook}/{gone.token}/messages/@original"))[0] == 204
    status, answer = await client.call("POST", f"{hook}/{gone.token}",
                                       {"content": "secret", "flags": 64})
    assert (status, answer["code"]) == (404, 10008) and not gone.followups


async def test_archived_and_locked_threads_refuse_as_discord_does(
    world: tuple[FakeDiscord, Client, Channel],
) -> None:
    """Archived: posts, edits and deletes refused (400, 50083) until the bot unarchives the
    thread with ``{"archived": false}``; locked: refused (403, 160005), and it stays so.
    Every 401/403/429 is counted as Discord counts invalid requests; a 400 is not."""
    fd, client, channel = world
    thread = fd.add_thread(channel, "high stakes")
    status, sent = await client.post(thread, {"content": "seated"})
    assert status == 200
    message = f"/channels/{thread.id}/messages/{sent['id']}"
    fd.archive_thread(thread)
    for method, path in (("POST", f"/channels/{thread.id}/messages"), ("PATCH", message),
                         ("DELETE", message)):
        status, answer = await client.call(method, path, {"content": "x"})
        assert (status, answer["code"]) == (400, 50083), (method, path)
    assert fd.invalid == []
    status, answer = await client.call("PATCH", f"/channels/{thread.id}", {"archived": False})
    assert status == 200 and answer["thread_metadata"]["archived"] is False
    assert (await client.post(thread, {"content": "again"}))[0] == 200
    fd.archive_thread(thread, locked=True)
    status, answer = await client.post(thread, {"content": "locked"})
    assert (status, answer["code"]) == (403, 160005)
    status, answer = await client.call("PATCH", f"/channels/{thread.id}", {"archived": False})
    assert (status, answer["code"]) == (403, 160005)
    assert [entry[0] for entry in fd.invalid] == [403, 403]


async def test_a_file_over_the_upload_limit_is_refused(
    world: tuple[FakeDiscord, Client, Channel],
) -> None:
    """Discord's 413 (40005) for a file over ``attachment_size_limit`` (10 MiB without
    boosts); a file at the limit is posted."""
    fd, client, channel = world
    fd.upload_limit = 1000
    status, _ = await client.post(channel, {"content": "x"}, [("a.png", b"x" * 1000)])
    assert status == 200
    status, answer = await client.post(channel, {"content": "x"}, [("b.png", b"x" * 1001)])
    assert status == 413 and answer["code"] == 40005
    assert len(fd.channel_messages(channel)) == 1


async def test_an_attachment_description_over_1024_characters_is_refused(
    world: tuple[FakeDiscord, Client, Channel],
) -> None:
    """Discord's alt text holds 1,024 characters at most: one more is 400 (50035), naming
    the attachment's description; nothing is posted."""
    fd, client, channel = world
    body: dict[str, Any] = {"content": "x", "attachments": [{"id": 0, "description": "d" * 1024}]}
    status, _ = await client.post(channel, body, [("a.png", b"x")])
    assert status == 200
    body["attachments"][0]["description"] = "d" * 1025
    status, answer = await client.post(channel, body, [("b.png", b"x")])
    assert status == 400 and answer["code"] == 50035
    assert "description" in json.dumps(answer["errors"])
    assert len(fd.channel_messages(channel)) == 1
