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
    # the hand's first public message carries it, before anyone could act (the hole cards'
    # direct messages go out beside it, in no fixed order; the root was fixed before them)
    first = next(line for line in during.splitlines() if "**Hand #1**" in line)
    assert f"deck `{root[:12]}`" in first and "Preflop" in first, first
    result = next(m for m in h.public_messages() if "Hand #1 result" in m.content)
    log = await h.click(h.carol, result, label="Hand log")  # the whole root, with the log
    assert log.ephemeral and root in "".join(e.footer.text or "" for e in log.embeds), log
    deal = await h.bot.db.hands.reveal_deal(record.id)
    assert deal is not None and deal.commitment == root
    said = h.env.transcript() + "\n".join(logs.lines)
    leaked = [s.hex() for s in deal.salts if s.hex() in said]
    assert not leaked
    burns = deal_positions(3, VARIANTS["omaha"])["burn"]
    # everything the bot wrote, as sent and as edited (the live message's streets too)
    public = re.sub(r"[0-9a-f]{8,}", "", "\n".join(text for text, _, _ in h.pinged()))
    # cards are written in runs ("shows Ah Kd 7c 2s", "Flop: 9h 8d 2c"): a burned card in
    # any run would be a leak (a lone "As" is English)
    runs = re.findall(r"(?:\b[2-9TJQKA][cdhs]\b[ ,]*){2,}", public)
    written = {c for run in runs for c in re.findall(r"[2-9TJQKA][cdhs]", run)}
    assert written, public
    assert not written & {str(deal.deck[pos]) for pos in burns}
