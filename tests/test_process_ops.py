"""`python -m bot` run for a server: metrics scraped and JSON logs read after a real hand.

A real process over the fake Discord on 127.0.0.1, with ``METRICS_PORT=0`` (any free
port, named in its log), ``LOG_FORMAT=json`` and ``LOG_LEVEL=DEBUG`` (discord.py's
request lines included). Two players sit, read their cards, and play hand #1 by
buttons and a slash command until one folds (no showdown: no hole card is ever
revealed). Then ``/metrics`` shows the hand, the actions, the acknowledgements and
prompts timed, the requests by route, the renders and the writes; ``/healthz`` says ok;
every log line is one JSON object, and none carries an interaction token or a hole card.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from tests.card_text import cards_in
from tests.fakediscord import BotProcess, Channel, FakeDiscord, Message, User

CARD = r"[2-9TJQKA][cdhs]"
BUYIN = 200


async def get(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, \
            session.get(f"http://127.0.0.1:{port}{path}") as response:
        return response.status, await response.text()


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text) for s in family.samples
    }


def total(found: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str,
          **labels: str) -> float:
    """The sum of ``name``'s samples whose labels include ``labels``."""
    return sum(v for (n, ls), v in found.items()
               if n == name and set(labels.items()) <= set(ls))


async def turn(fd: FakeDiscord, channel: Channel, after: int) -> Message:
    def find() -> Message | None:
        return next((m for m in fd.channel_messages(channel)
                     if m.id > after and "your turn" in m.content
                     and any(b.get("label") == "Fold" for b in m.buttons())), None)

    found: Message = await fd.wait_until(find, 15, what="the next turn message")
    return found


def mentioned(message: Message, users: list[User]) -> User:
    (actor,) = [u for u in users if u.mention in message.content]
    return actor


async def play_until_a_fold(fd: FakeDiscord, poker: Channel, users: list[User]) -> int:
    """Preflop a call and a check (buttons), on the flop a bet (/bet) and a fold (button);
    the number of actions."""
    last = 0
    script: list[tuple[str, dict[str, Any]]] = [
        ("Call 1", {}), ("Check", {}), ("/bet", {"amount": "4"}), ("Fold", {}),
    ]
    for how, options in script:
        message = await turn(fd, poker, last)
        last = message.id
        actor = mentioned(message, users)
        if how.startswith("/"):
            reply = await (await fd.slash(actor, poker, how[1:], **options)).reply()
            assert reply.ephemeral and reply.content.startswith("Done"), reply.content
        else:
            await (await fd.click(actor, message, label=how)).answer()
    await fd.wait_for_message(
        lambda m: m.channel_id == poker.id and "**Hand #1 result**" in m.content)
    return len(script)


async def test_metrics_and_json_logs_after_a_hand_over_the_wire(tmp_path: Path) -> None:
    async with FakeDiscord() as fd:
        guild = fd.add_guild("Poker Club")
        poker = fd.add_channel(guild, "poker")
        users = [fd.add_member(guild, name) for name in ("alice", "bob")]
        env = {"METRICS_PORT": "0", "LOG_FORMAT": "json", "LOG_LEVEL": "DEBUG",
               "RENDER_PROCESSES": "0"}
        async with BotProcess(fd, tmp_path, env=env) as bot:
            await fd.wait_until_ready()
            line = await bot.wait_for_log("/metrics, health on /healthz")
            port = int(re.search(r"127\.0\.0\.1:(\d+)/metrics", line)[1])  # type: ignore[index]
            assert await get(port, "/healthz") == (200, "ok\n")
            await (await fd.slash(users[0], poker, "table create")).reply()
            for u in users:
                await (await fd.slash(u, poker, "table join", buyin=str(BUYIN))).reply()
            hole: set[str] = set()
            for u in users:
                await fd.wait_for_message(
                    lambda m, u=u: m.channel_id == fd.dm_channel(u).id, within=20)
                mine = await (await fd.slash(u, poker, "cards")).reply()
                hole |= set(cards_in(mine.content))  # K♠ read as Ks, as logs write it
                await (await fd.slash(u, poker, "table sitout")).reply()
            assert len(hole) == 8
            actions = await play_until_a_fold(fd, poker, users)

            status, text = await get(port, "/metrics")
            assert status == 200
            found = samples(text)
            game = {"variant": "omaha", "structure": "pot limit"}
            assert total(found, "omaha_hands_total", **game) == 1
            assert total(found, "omaha_actions_total", **game) == actions
            interactions = len(fd.interactions)
            assert total(found, "omaha_interaction_ack_seconds_count") == interactions
            assert total(found, "omaha_interaction_ack_seconds_bucket", le="3.0") == interactions
            assert total(found, "omaha_prompt_seconds_count") == actions - 1
            assert total(found, "omaha_discord_requests_total",
                         route="interaction_callback") == interactions
            assert total(found, "omaha_discord_requests_total", route="channel_messages") > 0
            assert total(found, "omaha_discord_requests_total", route="interaction_webhook") > 0
            assert total(found, "omaha_render_seconds_count") > 0
            assert total(found, "omaha_db_write_seconds_count") > actions
            assert total(found, "omaha_open_tables") == 1
            assert total(found, "process_resident_memory_bytes") > 10_000_000
            assert await get(port, "/healthz") == (200, "ok\n")
            assert await bot.stop() == 0
        tokens = {it.token for it in fd.interactions.values()}

    lines = [json.loads(raw) for raw in bot.lines if raw.strip()]  # every line is JSON
    assert lines and all({"time", "level", "logger", "message"} <= set(x) for x in lines)
    assert any(x["logger"] == "discord.http" and x["level"] == "DEBUG" for x in lines)
    assert any(x.get("table") == 1 and x.get("guild") == guild.id for x in lines)
    everything = "\n".join(bot.lines)
    leaked = [line for line in bot.lines if any(t in line for t in tokens)]
    assert not leaked, leaked[:3]
    assert fd.token not in everything
    # A hole card is named nowhere. Two kinds of line name cards for other reasons: the
    # command tree's sync (the help's examples) and the public draw for the button (its
    # own deck: a card drawn there may be anyone's hole card too). The board comes from
    # the hand's deck, so it never names a hole card.
    for line in bot.lines:
        if "/commands " in line or "Drawing for the button" in line:
            continue
        named = set(re.findall(rf"(?<![A-Za-z0-9])({CARD})(?![A-Za-z0-9])", line))
        assert not named & hole, line[:2000]
