"""The deck commitment is stored with the hand before its deal; its salts stay sealed."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.engine.cards import Deck
from bot.engine.commitment import commit
from bot.storage import Database, HandSeatIn, HandStateError

G, CH, ALICE, BOB = 1, 500, 101, 102
SEATS = [HandSeatIn(1, ALICE, 1_000), HandSeatIn(2, BOB, 2_000)]


async def _table(db: Database) -> int:
    t = await db.tables.create(G, CH, ALICE, {"variant": "omaha"})
    for user, seat, stack in ((ALICE, 1, 1_000), (BOB, 2, 2_000)):
        await db.tables.buy_in(t.id, user, seat, stack)
    return t.id


def _file_bytes(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in folder.iterdir() if p.name.startswith("test.sqlite"))


async def test_the_root_is_stored_and_the_salts_come_back_only_sealed(
    db: Database, tmp_path: Path
) -> None:
    """The record holds the root of the given deck and salts; the file holds no salt."""
    tid = await _table(db)
    deck = Deck(rng=random.Random(5)).order
    committed = commit(deck)
    hand = await db.hands.start(tid, variant="omaha", settings={}, button=2, seats=SEATS,
                                deck=deck, salts=committed.salts)
    assert hand.commitment == committed.root
    raw = await asyncio.to_thread(_file_bytes, tmp_path)
    assert not any(s in raw or s.hex().encode() in raw for s in committed.salts)
    state = await db.hands.load_unfinished(hand.id)
    assert state.salts == committed.salts
    assert committed.salts[0].hex() not in repr(state)
    with pytest.raises(HandStateError, match="stays sealed"):
        await db.hands.reveal_deal(hand.id)
    await db.hands.cancel(hand.id)
    revealed = await db.hands.reveal_deal(hand.id)
    assert revealed is not None
    assert (revealed.deck, revealed.salts, revealed.commitment) == (
        deck, committed.salts, committed.root)
    assert committed.salts[0].hex() not in repr(revealed)


async def test_a_hand_started_without_salts_gets_fresh_ones(db: Database) -> None:
    tid = await _table(db)
    deck = Deck(rng=random.Random(6)).order
    hand = await db.hands.start(tid, variant="omaha", settings={}, button=2, seats=SEATS,
                                deck=deck)
    await db.hands.cancel(hand.id)
    revealed = await db.hands.reveal_deal(hand.id)
    assert revealed is not None and hand.commitment == commit(deck, revealed.salts).root


async def test_short_salts_are_refused(db: Database) -> None:
    tid = await _table(db)
    with pytest.raises((HandStateError, ValueError)):
        await db.hands.start(tid, variant="omaha", settings={}, button=2, seats=SEATS,
                             deck=Deck().order, salts=[b"s" * 8] * 52)
