"""The check of the bot's requests against Discord's OpenAPI specification: what it
accepts, what it flags, its one exception; and that the offline Discord's and the fake
HTTP Discord's requests reach it (every harness test and every ``async with FakeDiscord()``
runs it on the way out)."""

from __future__ import annotations

import json

import aiohttp
import pytest

from tests.conftest import Harness
from tests.discord_spec.contract import Request, contract, offline_requests
from tests.fakediscord import FakeDiscord

MESSAGES = "POST /channels/{channel_id}/messages"


def test_a_request_within_the_spec_passes_and_its_route_is_counted() -> None:
    report = contract().check([
        Request("POST", "/channels/1/messages", body={"content": "hi"}),
        Request("GET", "/channels/1/messages", {"limit": "50", "before": "17"}),
    ])
    assert report.violations == []
    assert report.requests == 2
    assert report.routes == {MESSAGES: 1, "GET /channels/{channel_id}/messages": 1}


@pytest.mark.parametrize(("request_", "problem"), [
    (Request("POST", "/channels/1/messages", body={"content": 5}), "body/content: 5 is not"),
    (Request("POST", "/channels/1/messages", body={"embeds": [{"title": "x" * 257}]}),
     "body/embeds/0/title"),
    (Request("GET", "/channels/1/messages", {"limit": "500"}), "query limit: 500"),
    (Request("GET", "/channels/1/messages", {"sort": "up"}), "'sort' is not in the spec"),
    (Request("GET", "/channels/abc/messages"), "path channel_id: \"abc\" does not match"),
    (Request("POST", "/channels/1/typing", body={"x": 1}), "a body, where the spec takes none"),
    (Request("POST", "/channels/1/poker"), "no such route"),
    (Request("PUT", "/channels/1/messages"), "no such route"),
])
def test_a_request_outside_the_spec_is_a_violation(request_: Request, problem: str) -> None:
    violations = contract().check([request_]).violations
    assert len(violations) == 1
    assert problem in str(violations[0])


def test_integer_snowflakes_are_the_one_exception_and_are_counted() -> None:
    """discord.py writes these snowflakes as JSON integers; Discord accepts them."""
    as_written = [
        Request("POST", "/users/@me/channels", body={"recipient_id": 1234}),
        Request("POST", "/channels/1/messages", body={
            "content": "<@5>", "allowed_mentions": {"parse": [], "users": [5]},
            "attachments": [{"id": 0, "filename": "table.png"}]}),
    ]
    report = contract().check(as_written)
    assert report.violations == []
    assert report.integer_snowflakes == {"POST /users/@me/channels": 1, MESSAGES: 1}
    # ... and nothing more: a negative one, or an integer anywhere else, still fails
    wrong = [Request("POST", "/users/@me/channels", body={"recipient_id": -1}),
             Request("POST", "/channels/1/messages", body={"content": "x", "nonce": 1.5})]
    assert len(contract().check(wrong).violations) == 2


def test_the_most_literal_template_wins_and_booleans_read_as_discord_reads_them() -> None:
    report = contract().check([
        Request("PATCH", "/webhooks/1/token/messages/@original", body={"content": "x"}),
        Request("POST", "/interactions/1/token/callback", {"with_response": 1},
                body={"type": 5}),
    ])
    assert report.violations == []
    assert "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original" in report.routes
    wrong = Request("POST", "/interactions/1/token/callback", {"with_response": "yes"},
                    body={"type": 5})
    assert 'query with_response: "yes" is not' in str(contract().check([wrong]).violations[0])


async def test_the_offline_discord_requests_are_all_checked(harness: Harness) -> None:
    h = harness
    await h.slash(h.alice, "balance")
    report = contract().check(offline_requests(h.requests()))
    assert report.violations == []
    assert report.routes["POST /interactions/{interaction_id}/{interaction_token}/callback"]


async def test_the_fake_http_discord_checks_every_request_it_saw_multipart_too() -> None:
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps(
        {"content": "hi", "attachments": [{"id": 0, "filename": "a.png"}]}))
    form.add_field("files[0]", b"\x89PNG", filename="a.png", content_type="image/png")
    with pytest.raises(AssertionError, match=r"body/content: 7 is not of type"):
        async with FakeDiscord(rate_limits=False) as fd, aiohttp.ClientSession() as http:
            channel = fd.add_channel(fd.add_guild("Poker Club"), "poker")
            url = f"{fd.api_base}/channels/{channel.id}/messages"
            auth = {"Authorization": f"Bot {fd.token}"}
            async with http.post(url, data=form, headers=auth) as answer:
                assert answer.status == 200
            async with http.post(url, json={"content": 7}, headers=auth):
                pass
            upload = fd.seen[0].body
            assert upload["attachments"] == [{"id": 0, "filename": "a.png"}]
