"""Hands: start, actions on disk, settlement in one transaction, cancel, recovery."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.engine.cards import Deck
from bot.storage import (
    Database,
    DeckKeyError,
    HandSeatIn,
    HandStateError,
    HandSummary,
    SeatResult,
    TableRecordError,
)

from .helpers import FakeClock, read_elsewhere

G, CH, ALICE, BOB, CAROL = 1, 500, 101, 102, 103


async def _table(db: Database) -> int:
    t = await db.tables.create(G, CH, ALICE, {"variant": "omaha"})
    for user, seat, stack in ((ALICE, 1, 1_000), (BOB, 2, 2_000), (CAROL, 3, 500)):
        await db.tables.buy_in(t.id, user, seat, stack)
    return t.id


SEATS = [HandSeatIn(1, ALICE, 1_000), HandSeatIn(2, BOB, 2_000), HandSeatIn(3, CAROL, 500)]


async def test_start_checks_the_stored_stacks(db: Database) -> None:
    """A hand whose starting stacks or seats differ from the table's is refused."""
    tid = await _table(db)
    with pytest.raises(HandStateError):
        await db.hands.start(tid, variant="omaha", settings={}, button=1,
                             seats=[HandSeatIn(1, ALICE, 999), HandSeatIn(2, BOB, 2_000)],
                             deck=Deck().order)
    with pytest.raises(TableRecordError):
        await db.hands.start(tid, variant="omaha", settings={}, button=1,
                             seats=[HandSeatIn(2, ALICE, 1_000), HandSeatIn(1, BOB, 2_000)],
                             deck=Deck().order)
    hand = await db.hands.start(tid, variant="omaha", settings={"bb": 20}, button=3,
                                seats=SEATS, deck=Deck().order)
    assert (hand.number, hand.status, hand.button, hand.settings) == (1, "running", 3, {"bb": 20})
    with pytest.raises(HandStateError, match="already has a hand"):
        await db.hands.start(tid, variant="omaha", settings={}, button=1, seats=SEATS,
                             deck=Deck().order)
    await db.hands.cancel(hand.id)


async def test_actions_are_numbered_and_on_disk_when_acknowledged(
    db: Database, tmp_path: Path
) -> None:
    """After append_action returns, another connection reads the action from the disk."""
    tid = await _table(db)
    hand = await db.hands.start(tid, variant="omaha", settings={}, button=1, seats=SEATS,
                                deck=Deck().order)
    assert await db.hands.append_action(hand.id, {"seat": 2, "action": "call"}) == 0
    assert await db.hands.append_action(hand.id, {"seat": 3, "action": "fold"}, seq=1) == 1
    with pytest.raises(HandStateError, match="action 1 given, 2 expected"):
        await db.hands.append_action(hand.id, {"seat": 1, "action": "check"}, seq=1)
    rows = await read_elsewhere(
        db, "SELECT seq, action FROM hand_actions WHERE hand_id = ? ORDER BY seq", (hand.id,)
    )
    assert rows == [(0, '{"action":"call","seat":2}'), (1, '{"action":"fold","seat":3}')]
    await db.hands.cancel(hand.id)
    with pytest.raises(HandStateError):
        await db.hands.append_action(hand.id, {"seat": 1})


async def test_load_unfinished_gives_back_the_same_deck_and_actions(db: Database) -> None:
    """Recovery data: settings, seats, the exact deck order and the actions in order."""
    tid = await _table(db)
    deck = Deck(rng=random.Random(7)).order
    hand = await db.hands.start(tid, variant="omaha_hilo", settings={"x": 1}, button=2,
                                seats=SEATS, deck=deck)
    await db.hands.append_action(hand.id, {"a": 1})
    await db.hands.append_action(hand.id, {"a": 2})
    assert [h.id for h in await db.hands.list_unfinished()] == [hand.id]
    state = await db.hands.load_unfinished(hand.id)
    assert state.deck == deck
    assert state.actions == ({"a": 1}, {"a": 2})
    assert [(s.seat_no, s.user_id, s.start_stack) for s in state.seats] == [
        (1, ALICE, 1_000), (2, BOB, 2_000), (3, CAROL, 500)]
    assert state.hand.variant == "omaha_hilo" and state.hand.button == 2
    assert "deck" not in repr(state) and "Card(" not in repr(state)
    assert (await db.hands.mark_resumed(hand.id)).resumed == 1
    with pytest.raises(HandStateError, match="stays sealed"):
        await db.hands.reveal_deck(hand.id)
    await db.hands.cancel(hand.id, "test")
    assert await db.hands.reveal_deck(hand.id) == deck
    assert await db.hands.list_unfinished() == []


def _file_bytes(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in folder.iterdir() if p.name.startswith("test.sqlite"))


async def test_the_deck_order_is_not_readable_in_the_file(db: Database, tmp_path: Path) -> None:
    """Neither card indices nor card names of the deck appear in the database file."""
    tid = await _table(db)
    deck = Deck(rng=random.Random(3)).order
    await db.hands.start(tid, variant="omaha", settings={}, button=1, seats=SEATS, deck=deck)
    raw = await asyncio.to_thread(_file_bytes, tmp_path)
    assert bytes(c.index for c in deck[:12]) not in raw
    assert "".join(str(c) for c in deck[:4]).encode() not in raw
    hand = (await db.hands.list_unfinished())[0]
    await db.hands.cancel(hand.id)


async def test_cancel_leaves_every_stack_as_before(db: Database) -> None:
    """A cancelled hand moves no chip: stacks and ledger are as before it started."""
    tid = await _table(db)
    before = await db.tables.seats(tid)
    hand = await db.hands.start(tid, variant="omaha", settings={}, button=1, seats=SEATS,
                                deck=Deck().order)
    await db.hands.append_action(hand.id, {"seat": 2, "action": "raise", "to": 600})
    cancelled = await db.hands.cancel(hand.id, "could not resume")
    assert (cancelled.status, cancelled.cancel_reason) == ("cancelled", "could not resume")
    assert await db.tables.seats(tid) == before
    with pytest.raises(HandStateError):
        await db.hands.cancel(hand.id)


def _summary(**lines: tuple[int, int]) -> HandSummary:
    users = {"alice": (1, ALICE), "bob": (2, BOB), "carol": (3, CAROL)}
    return HandSummary("omaha", tuple(
        SeatResult(users[name][0], users[name][1], won=won, net=net, vpip=won > 0,
                   showdown=won > 0, won_showdown=won > 0)
        for name, (won, net) in lines.items()
    ))


async def test_settlement_moves_stacks_ledger_and_stats_at_once(db: Database) -> None:
    """Alice wins 1,000 (net +500), Bob loses 300, Carol 200: stacks, ledger, stats agree."""
    tid = await _table(db)
    hand = await db.hands.start(tid, variant="omaha", settings={}, button=1, seats=SEATS,
                                deck=Deck().order)
    done = await db.hands.finish(
        hand.id, _summary(alice=(1_000, 500), bob=(0, -300), carol=(0, -200)), {"board": "x"}
    )
    assert (done.status, done.result) == ("finished", {"board": "x"})
    assert {s.user_id: s.stack for s in await db.tables.seats(tid)} == {
        ALICE: 1_500, BOB: 1_700, CAROL: 300}
    finals = {s.seat_no: (s.final_stack, s.won, s.net) for s in await db.hands.seats(hand.id)}
    assert finals == {1: (1_500, 1_000, 500), 2: (1_700, 0, -300), 3: (300, 0, -200)}
    alice = await db.stats.player(G, ALICE, variant="omaha")
    assert (alice.hands_played, alice.hands_won, alice.net, alice.biggest_pot) == (1, 1, 500, 1_000)
    history = await db.wallets.history(G, ALICE, limit=2)
    assert sorted((e.src, e.dst, e.amount) for e in history) == [
        (f"hand:{hand.id}", f"seat:{tid}:{ALICE}", 1_000),
        (f"seat:{tid}:{ALICE}", f"hand:{hand.id}", 500),
    ]
    with pytest.raises(HandStateError):
        await db.hands.finish(hand.id, _summary(alice=(0, 0), bob=(0, 0), carol=(0, 0)))


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ({"alice": (600, 600), "bob": (0, -300), "carol": (0, -200)}, "sum to zero"),
        ({"alice": (1_000, 500), "bob": (0, -500)}, "does not list its seats"),
        ({"alice": (3_000, 700), "bob": (0, -200), "carol": (0, -500)}, "does not add up"),
        ({"alice": (0, 2_000), "bob": (0, -2_000), "carol": (0, 0)}, "does not add up"),
    ],
)
async def test_a_settlement_that_does_not_add_up_changes_nothing(
    db: Database, lines: dict[str, tuple[int, int]], message: str
) -> None:
    """Nets not summing to zero, missing seats, more put in than the stack: refused."""
    tid = await _table(db)
    hand = await db.hands.start(tid, variant="omaha", settings={}, button=1, seats=SEATS,
                                deck=Deck().order)
    before = await db.tables.seats(tid)
    with pytest.raises(HandStateError, match=message):
        await db.hands.finish(hand.id, _summary(**lines))
    assert await db.tables.seats(tid) == before
    assert (await db.hands.get(hand.id)).status == "running"
    assert (await db.stats.player(G, ALICE)).hands_played == 0
    await db.hands.cancel(hand.id)


async def test_hand_numbers_follow_each_other_per_table(db: Database, clock: FakeClock) -> None:
    """Hands at a table are numbered 1, 2, 3 whether finished or cancelled."""
    tid = await _table(db)
    numbers = []
    for _ in range(3):
        hand = await db.hands.start(tid, variant="omaha", settings={}, button=1, seats=SEATS,
                                    deck=Deck().order)
        numbers.append(hand.number)
        await db.hands.cancel(hand.id)
        clock.advance(1)
    assert numbers == [1, 2, 3]


async def test_a_hand_sealed_with_another_key_can_still_be_cancelled(
    tmp_path: Path, clock: FakeClock
) -> None:
    """Reopened with a different deck key, the deck will not open; cancel returns every chip."""
    path = tmp_path / "key.sqlite3"
    db = await Database.open(path, clock=clock, deck_key="11" * 32)
    try:
        tid = await _table(db)
        before = await db.tables.seats(tid)
        hand = await db.hands.start(tid, variant="omaha", settings={}, button=1, seats=SEATS,
                                    deck=Deck().order)
    finally:
        await db.close()
    db = await Database.open(path, clock=clock, deck_key="22" * 32)
    try:
        with pytest.raises(DeckKeyError):
            await db.hands.load_unfinished(hand.id)
        await db.hands.cancel(hand.id, "deck key lost")
        assert await db.tables.seats(tid) == before
        assert all(line.ok for line in await db.audit())
    finally:
        await db.close()


async def test_a_result_with_cards_is_stored_as_text(db: Database) -> None:
    """Cards in the display result are kept as their text; the settlement goes through."""
    tid = await _table(db)
    deck = Deck(rng=random.Random(9)).order
    hand = await db.hands.start(tid, variant="omaha", settings={}, button=1, seats=SEATS,
                                deck=deck)
    done = await db.hands.finish(hand.id, _summary(alice=(0, 0), bob=(0, 0), carol=(0, 0)),
                                 {"board": list(deck[:5])})
    assert done.result == {"board": [str(c) for c in deck[:5]]}


async def test_a_seven_deuce_bounty_goes_through_the_hands_pot(db: Database) -> None:
    """Carol's 7-2 wins the main pot (1,500) alone, Bob the side pot (1,000) from Alice; the
    bounty of 100 goes Bob -> hand -> Carol (Alice has nothing left to pay): stacks and
    statistics agree, the hand's pot nets to zero (the audit), Bob's pots stay apart from
    the bounty he paid."""
    tid = await _table(db)
    hand = await db.hands.start(tid, variant="holdem", settings={}, button=1, seats=SEATS,
                                deck=Deck().order)
    users = {"alice": (1, ALICE), "bob": (2, BOB), "carol": (3, CAROL)}
    lines = {"alice": (0, -1_000, 0), "bob": (1_000, -100, -100), "carol": (1_500, 1_100, 100)}
    summary = HandSummary("holdem", tuple(
        SeatResult(users[n][0], users[n][1], won=won, net=net, bounty=bounty)
        for n, (won, net, bounty) in lines.items()))
    await db.hands.finish(hand.id, summary)
    assert {s.user_id: s.stack for s in await db.tables.seats(tid)} == {
        ALICE: 0, BOB: 1_900, CAROL: 1_600}
    bob = await db.wallets.history(G, BOB, limit=10)
    assert sorted((e.src, e.dst, e.amount) for e in bob if e.hand_id == hand.id) == [
        (f"hand:{hand.id}", f"seat:{tid}:{BOB}", 1_000),
        (f"seat:{tid}:{BOB}", f"hand:{hand.id}", 100),
        (f"seat:{tid}:{BOB}", f"hand:{hand.id}", 1_000),
    ]
    carol = await db.stats.player(G, CAROL, variant="holdem")
    assert (carol.net, carol.biggest_pot) == (1_100, 1_500)


async def test_bounties_that_do_not_sum_to_zero_are_refused(db: Database) -> None:
    tid = await _table(db)
    hand = await db.hands.start(tid, variant="holdem", settings={}, button=1, seats=SEATS,
                                deck=Deck().order)
    summary = HandSummary("holdem", (
        SeatResult(1, ALICE, won=0, net=-100, bounty=-100),
        SeatResult(2, BOB, won=0, net=0, bounty=0),
        SeatResult(3, CAROL, won=0, net=100, bounty=50)))
    with pytest.raises(HandStateError, match="bounties do not sum to zero"):
        await db.hands.finish(hand.id, summary)
    await db.hands.cancel(hand.id)


async def test_cards_shown_after_a_finished_hand_are_its_next_actions(db: Database) -> None:
    """RULES.md 10 "showing": only once the hand is finished, only a seat of it."""
    tid = await _table(db)
    hand = await db.hands.start(tid, variant="omaha", settings={}, button=1, seats=SEATS,
                                deck=Deck(rng=random.Random(3)).order)
    await db.hands.append_action(hand.id, {"seat": 2, "kind": "fold"})
    with pytest.raises(HandStateError, match="not finished"):
        await db.hands.append_shown(hand.id, 2, Deck().order[:1])
    await db.hands.finish(hand.id, _summary(alice=(0, 0), bob=(0, 0), carol=(0, 0)))
    shown = Deck(rng=random.Random(3)).order[:2]
    assert await db.hands.append_shown(hand.id, 2, shown) == 1
    with pytest.raises(HandStateError, match="no seat 4"):
        await db.hands.append_shown(hand.id, 4, shown)
    assert (await db.hands.actions(hand.id))[1] == {
        "seat": 2, "kind": "show", "amount": None, "cards": [str(c) for c in shown],
        "source": "player"}
