"""Log lines never carry an interaction's token; JSON lines (bot/logs.py)."""

from __future__ import annotations

import asyncio
import io
import json
import logging

from bot.logs import JsonLines, RedactTokens, bind, redact_tokens

TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDpzZWNyZXQ.x-y_z"


def test_route_tokens_are_redacted_through_every_handler() -> None:
    """discord.http's DEBUG lines name the callback and webhook routes, discord.gateway's
    echo each event received (an interaction's ``token`` field): the token goes."""
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
    logger.getChild("discord.gateway").debug(
        "For Shard ID None: WebSocket Event: %s", {"t": "INTERACTION_CREATE", "d": {
            "id": "8", "token": TOKEN}})
    child.debug('{"type": 4, "token": "%s"}', TOKEN)
    lines = out.getvalue().splitlines()
    assert TOKEN not in out.getvalue()
    assert lines == [
        "POST https://discord.com/api/v10/interactions/123/<token>/callback",
        "PATCH /webhooks/42/<token>/messages/@original has returned 200",
        "GET /channels/5/messages/6 has returned 200",
        "For Shard ID None: WebSocket Event: {'t': 'INTERACTION_CREATE', 'd': {'id': '8', "
        "'token': '<token>'}}",
        '{"type": 4, "token": "<token>"}',
    ]
    assert sum(isinstance(f, RedactTokens) for f in handler.filters) == 1


def test_json_lines_name_the_task_s_table_and_redact_tokens_in_tracebacks() -> None:
    """LOG_FORMAT=json: one object a line; guild/table/hand from bind() or extra=."""
    out = io.StringIO()
    logger = logging.getLogger("test-logs-json")
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonLines())
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    redact_tokens(logger)

    async def in_a_table_task() -> None:
        bind(guild=5, table=7, hand=3)
        logger.info("dealt to %d players", 3)
        try:
            raise RuntimeError(f"POST /interactions/1/{TOKEN}/callback failed")
        except RuntimeError:
            logger.exception("request failed")

    asyncio.run(in_a_table_task())
    logger.warning("outside any table", extra={"guild": 9})
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert TOKEN not in out.getvalue()
    first, failed, outside = lines
    assert first["message"] == "dealt to 3 players" and first["level"] == "INFO"
    assert (first["guild"], first["table"], first["hand"]) == (5, 7, 3)
    assert first["logger"] == "test-logs-json" and first["time"].endswith("+00:00")
    assert "/interactions/1/<token>/callback" in failed["error"]
    assert outside == {**outside, "guild": 9, "level": "WARNING"} and "table" not in outside
