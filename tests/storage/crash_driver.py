"""Child process of the SIGKILL test: plays hands through storage until it is killed.

    python -m tests.storage.crash_driver DB SEED run [KEY]     play forever (the test kills it)
    python -m tests.storage.crash_driver DB SEED finish [KEY]  recover, play a few hands, exit 0

DB is a SQLite path or a PostgreSQL URL; KEY the deck key file (default: DB's).

On start it recovers every unfinished hand: it rebuilds the engine Hand from
the stored settings, seats, button and deck order, replays the stored actions
and plays on (one hand in four is cancelled instead, as a record that cannot
be resumed would be). Three tables play at once, so writes share commits.
Between hands players leave and buy in again, top up, take grants.

After each acknowledged write it prints ``ack HAND SEQ`` (an action) or
``done HAND`` (a settlement): the test checks that all of them are on disk.
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.economy import Economy, summarize_hand
from bot.engine.cards import Deck
from bot.engine.events import Action, ActionKind
from bot.engine.hand import Hand, SeatIn
from bot.engine.variants import VARIANTS, GameConfig, Structure
from bot.storage import Database, EconomyError, HandSeatIn

GUILD = 1
GAMES = {
    1001: GameConfig(VARIANTS["omaha"], Structure.POT_LIMIT, 5, 10),
    1002: GameConfig.fixed_limit(VARIANTS["omaha_hilo"], 10),
    1003: GameConfig(VARIANTS["big_o"], Structure.NO_LIMIT, 5, 10, ante=1),
}
PLAYERS_PER_TABLE = 4


def say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def users_of(channel: int) -> list[int]:
    return [channel * 10 + k for k in range(PLAYERS_PER_TABLE)]


def random_action(hand: Hand, rng: random.Random) -> Action:
    legal = hand.legal_actions()
    assert legal is not None
    choices: list[Action] = [Action.fold()] if not legal.can_check else [Action.check()]
    if not legal.can_check:
        choices += [Action.call()] * 3
    else:
        choices += [Action.check()] * 2
    if legal.min_raise_to is not None and legal.max_raise_to is not None:
        to = rng.randint(legal.min_raise_to, legal.max_raise_to)
        choices += [Action.raise_to(legal.min_raise_to), Action.raise_to(to)]
        if rng.random() < 0.1:
            choices.append(Action.raise_to(legal.max_raise_to))
    return rng.choice(choices)


async def seat_players(db: Database, econ: Economy, table_id: int, channel: int,
                       rng: random.Random) -> None:
    seated = {s.user_id: s for s in await db.tables.seats(table_id)}
    for k, user in enumerate(users_of(channel)):
        seat = seated.get(user)
        try:
            if seat is None:
                if await econ.balance(GUILD, user) < 400:
                    await econ.grant(GUILD, user, 5_000, actor_id=1, reason="crash test refill")
                # within the hour of leaving, at least the stack left with (RULES.md 7)
                least = await db.tables.return_minimum(table_id, user)
                if await econ.balance(GUILD, user) < least:
                    await econ.grant(GUILD, user, least, actor_id=1, reason="crash test refill")
                await econ.buy_in(table_id, user, k + 1, max(least, rng.randint(200, 400)))
            elif seat.stack == 0 or rng.random() < 0.05:
                await econ.cash_out(table_id, user)
            elif seat.stack < 100:
                await econ.top_up(table_id, user, 100)
        except EconomyError:
            pass  # refused moves change nothing; the audit checks that


async def play(db: Database, hand_id: int, hand: Hand, seq: int, users: dict[int, int],
               rng: random.Random) -> None:
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        action = random_action(hand, rng)
        hand.check(seat, action)
        await db.hands.append_action(
            hand_id, {"seat": seat, "kind": action.kind.value, "amount": action.amount}, seq=seq
        )
        say(f"ack {hand_id} {seq}")
        hand.act(seat, action)
        seq += 1
        await asyncio.sleep(0)
    summary = summarize_hand(hand, users)
    await db.hands.finish(hand_id, summary, {"board": [str(c) for c in hand.board]})
    say(f"done {hand_id}")


def rebuild(settings: dict[str, object], seats: list[SeatIn], button: int, deck: Deck,
            actions: list[dict[str, object]]) -> Hand:
    hand = Hand(GameConfig.from_dict(settings), seats, button, deck)
    hand.start()
    for a in actions:
        amount = a.get("amount")
        hand.act(int(a["seat"]), Action(ActionKind(str(a["kind"])),  # type: ignore[call-overload]
                                        None if amount is None else int(amount)))
    return hand


async def recover(db: Database, rng: random.Random) -> None:
    for record in await db.hands.list_unfinished():
        if record.id % 4 == 0:
            await db.hands.cancel(record.id, "crash test: not resumed")
            say(f"cancelled {record.id}")
            continue
        state = await db.hands.load_unfinished(record.id)
        seats = [SeatIn(s.seat_no, s.start_stack, s.posts_big_blind) for s in state.seats]
        try:
            hand = rebuild(dict(state.hand.settings), seats, state.hand.button,
                           Deck(order=state.deck), [dict(a) for a in state.actions])
        except Exception as exc:  # a record that cannot be replayed is cancelled
            await db.hands.cancel(record.id, f"cannot resume: {exc}")
            say(f"cancelled {record.id}")
            continue
        await db.hands.mark_resumed(record.id)
        say(f"resumed {record.id}")
        users = {s.seat_no: s.user_id for s in state.seats}
        await play(db, record.id, hand, len(state.actions), users, rng)


async def table_loop(db: Database, econ: Economy, channel: int, rng: random.Random,
                     hands: int | None) -> None:
    table = await db.tables.by_channel(channel)
    if table is None:
        try:
            table = await db.tables.create(GUILD, channel, 1, GAMES[channel].to_dict())
        except EconomyError:
            table = await db.tables.by_channel(channel)
            assert table is not None
    played = 0
    while hands is None or played < hands:
        await seat_players(db, econ, table.id, channel, rng)
        ready = [s for s in await db.tables.seats(table.id) if s.stack > 0]
        if len(ready) < 2:
            continue
        button = rng.choice(ready).seat_no
        deck = Deck(rng=rng)
        record = await db.hands.start(
            table.id, variant=GAMES[channel].variant.key, settings=GAMES[channel].to_dict(),
            button=button, seats=[HandSeatIn(s.seat_no, s.user_id, s.stack) for s in ready],
            deck=deck.order,
        )
        hand = Hand(GAMES[channel], [SeatIn(s.seat_no, s.stack) for s in ready], button, deck)
        hand.start()
        await play(db, record.id, hand, 0, {s.seat_no: s.user_id for s in ready}, rng)
        played += 1


async def main(path: str, seed: int, mode: str, key: str | None = None) -> int:
    rng = random.Random(seed)
    db = await Database.open(path, key_path=key)
    econ = Economy(db)
    try:
        await recover(db, rng)
        hands = 2 if mode == "finish" else None
        await asyncio.gather(*(table_loop(db, econ, ch, random.Random(rng.random()), hands)
                               for ch in GAMES))
    finally:
        await db.close()
    return 0


if __name__ == "__main__":
    db_path, seed_text, run_mode, *key_path = sys.argv[1:]
    sys.exit(asyncio.run(main(db_path, int(seed_text), run_mode, *key_path)))
