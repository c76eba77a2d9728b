"""The deck commitment on the hand's message: posted before the first card, whole in the
result's log, and nothing said during the hand (messages, DMs, logs) holds a salt or a
card the rules keep hidden."""

from __future__ import annotations

import logging
import re

from bot.engine.dealing import deal_positions
from bot.engine.variants import VARIANTS
from tests.cogs.test_table import play_out, seat_three
from tests.conftest import Harness


class _Everything(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


async def test_the_commitment_is_posted_before_the_deal_and_nothing_leaks(
    harness: Harness,
) -> None:
    h = harness
    logs = _Everything()
    root_logger = logging.getLogger()
    old_level = root_logger.level
    root_logger.addHandler(logs)
    root_logger.setLevel(logging.DEBUG)
    try:
        await seat_three(h)
        during = h.env.transcript()
        await play_out(h)
    finally:
        root_logger.removeHandler(logs)
        root_logger.setLevel(old_level)
    record = await h.bot.db.hands.get(1)
    root = record.commitment
    assert root is not None and re.fullmatch(r"[0-9a-f]{64}", root)
    first = next(line for line in during.splitlines() if "Hand #1" in line)
    assert f"deck `{root[:12]}`" in first, first
    assert "/users/@me/channels" not in during.split(first)[0]  # no card was sent before it
    result = next(m for m in h.public_messages() if "Hand #1 result" in m.content)
    assert root in (result.embeds[0].description or "")
    deal = await h.bot.db.hands.reveal_deal(record.id)
    assert deal is not None and deal.commitment == root
    said = h.env.transcript() + "\n".join(logs.lines)
    leaked = [s.hex() for s in deal.salts if s.hex() in said]
    assert not leaked
    burns = deal_positions(3, VARIANTS["omaha"])["burn"]
    public = re.sub(r"[0-9a-f]{8,}", "", "\n".join(m.content + "".join(
        e.description or "" for e in m.embeds) for m in h.public_messages()))
    for pos in burns:
        assert not re.search(rf"(?<![0-9A-Za-z]){deal.deck[pos]}(?![0-9a-z])", public), pos
