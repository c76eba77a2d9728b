"""Log lines never carry an interaction's token (bot/logs.py)."""

from __future__ import annotations

import io
import logging

from bot.logs import RedactTokens, redact_tokens

TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDpzZWNyZXQ.x-y_z"


def test_route_tokens_are_redacted_through_every_handler() -> None:
    """discord.http's DEBUG lines name the callback and webhook routes: the token goes."""
    out = io.StringIO()
    logger = logging.getLogger("test-logs-root")
    handler = logging.StreamHandler(out)
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    redact_tokens(logger)
    redact_tokens(logger)  # once is enough: no second filter
    child = logger.getChild("discord.http")
    child.debug("POST https://discord.com/api/v10/interactions/%s/%s/callback", 123, TOKEN)
    child.debug("PATCH /webhooks/42/%s/messages/@original has returned 200", TOKEN)
    child.debug("GET /channels/5/messages/6 has returned 200")
    lines = out.getvalue().splitlines()
    assert TOKEN not in out.getvalue()
    assert lines == [
        "POST https://discord.com/api/v10/interactions/123/<token>/callback",
        "PATCH /webhooks/42/<token>/messages/@original has returned 200",
        "GET /channels/5/messages/6 has returned 200",
    ]
    assert sum(isinstance(f, RedactTokens) for f in handler.filters) == 1
