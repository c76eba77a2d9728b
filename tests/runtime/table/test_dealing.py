"""Dealing waits for the deck commitment to be public (bot/runtime/table/dealing.py)."""

from __future__ import annotations

import asyncio

import pytest

from bot.runtime.table import dealing
from bot.runtime.table.events import CardsDealt, DeckCommitted, HandBegan, Receipt, TurnBegan
from tests.runtime.conftest import PAUSE, World

START = 10_000


async def test_nothing_is_dealt_before_the_commitment_is_posted(world: World) -> None:
    """The commitment comes first, with the root the hand is then dealt and stored with,
    and the posted message's id goes with the hand."""
    table = await world.table()
    await world.seat(table, 2, 3)
    await world.deal(table)
    names = world.observer.names()
    first = names.index("DeckCommitted")
    assert first < min(names.index(n) for n in ("HandBegan", "CardsDealt", "TurnBegan"))
    [committed] = world.observer.of(DeckCommitted)
    assert table.current is not None and committed.root == table.current.commitment
    assert committed.hand_no == table.current.hand_no == 1
    assert world.hands.starts[1].commitment_message == world.observer.posted[-1] == 1


async def test_a_refused_commitment_deals_nothing_and_moves_no_chip(world: World) -> None:
    """The observer cannot post it: no hand is recorded, no card told, no chip moves, and
    the table tries again after twice its pause; once posted, the hand is dealt."""
    world.observer.refuse_commitments = True
    table = await world.table()
    await world.seat(table, 2, 3)
    chips = world.chips(table)
    await world.deal(table)
    assert table.current is None and not world.hands.starts
    assert not world.observer.of(CardsDealt) and not world.observer.of(HandBegan)
    assert world.chips(table) == chips and world.economy.balance(2) == START - 200
    assert [s.stack for s in table.seats.values()] == [200, 200]
    world.observer.refuse_commitments = False
    await world.clock.advance(PAUSE)
    await table.idle()
    assert table.current is None  # the retry waits twice the pause
    await world.clock.advance(PAUSE + 0.1)
    await table.idle()
    assert table.current is not None and len(world.hands.starts) == 1
    assert len(world.observer.of(DeckCommitted)) == 2
    assert world.observer.of(TurnBegan)


async def test_a_commitment_nobody_answers_is_given_up(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An observer that never answers: after the wait the hand is given up, and the
    message is not to be sent any more (its receipt no longer pending)."""
    monkeypatch.setattr(dealing, "COMMITMENT_WAIT", 0.05)
    receipts: list[Receipt] = []

    async def silent(event: object) -> None:
        if isinstance(event, DeckCommitted):
            receipts.append(event.receipt)

    monkeypatch.setattr(world.observer, "observe", silent)
    table = await world.table()
    await world.seat(table, 2, 3)
    await world.clock.advance(PAUSE)
    for _ in range(100):
        if receipts and not receipts[0].pending:
            break
        await asyncio.sleep(0.01)
    await table.idle()
    assert receipts and not receipts[0].pending
    assert table.current is None and not world.hands.starts


async def test_a_receipt_keeps_its_first_answer() -> None:
    receipt = Receipt()
    receipt.posted(7)
    receipt.failed()
    receipt.posted(8)
    assert not receipt.pending and await receipt.wait(0.01) == 7


async def test_a_receipt_taken_is_waited_for_past_the_wait() -> None:
    """A commitment the observer took (queued, or being sent) is not given up when the
    wait runs out: its answer is waited for; one nobody took is given up."""
    taken, ignored = Receipt(), Receipt()
    taken.took()
    waiting = asyncio.create_task(taken.wait(0.01))
    await asyncio.sleep(0.05)
    assert not waiting.done() and taken.pending
    taken.posted(42, 7)
    assert await waiting == 42 and taken.channel_id == 7
    assert await ignored.wait(0.01) is None and not ignored.pending
