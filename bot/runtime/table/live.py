"""A live table: the async shell around the seating core, the engine's hand and the clock.

What is decided where:

* who is dealt in, the button and the blinds: :mod:`bot.runtime.seating` (pure);
* what a request means and the decisions made without asking (timeouts,
  pre-actions, leaving, sitting out): :mod:`bot.runtime.decisions` (pure);
* the clock's marks and what the player to act is shown: :mod:`bot.runtime.turns`;
* what a cash table and a tournament table do differently: the
  :class:`~bot.runtime.table.policy.TablePolicy` the table is given;
* resuming a hand after a restart: :mod:`bot.runtime.table.recovery`;
* no clock and no deal while the dealer cannot hear the table: :mod:`bot.runtime.table.waiting`;
* settling a finished hand, cashing out and closing: :mod:`bot.runtime.table.settle`;
* stopping for good when the channel is lost (the hand played out by the clock's
  rule, then every chip back): :mod:`bot.runtime.table.abandon`.

This module holds the lock, runs the clock, stores, and tells the observer.

Concurrency: every request (join, act, leave, a timeout firing...) takes the
table's one :class:`asyncio.Lock` and re-checks the state it needs under it,
so of two clicks at once, or a click racing the clock, exactly one thing
happens and the other gets a :class:`~bot.runtime.errors.TableError` with a
polite message.

Durability: an action is written through the :class:`HandStore` port before
it is applied and before the caller acknowledges it; a hand is recorded with
its deck before the first card is dealt.

Observers are told what happened through the table's :class:`Outbox`, in
order, outside the lock: rendering never delays play or an acknowledgement.

The rules of the seat requests (leaving mid-hand, sitting out, top-ups,
closing) are in :mod:`bot.runtime.table.requests`; when fewer than two players are
ready between hands the table stops and the next hand draws for the button.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from bot import crashpoint
from bot.engine.betting import IllegalAction, LegalActions
from bot.engine.events import ActionKind, BoardDealt, Event, HandShown, PlayerActed, RunTwiceVoted
from bot.i18n import Command, Phrase, Wording
from bot.runtime.clock import Clock, LoopClock
from bot.runtime.config import TableConfig
from bot.runtime.decisions import (
    Decision,
    Source,
    automatic,
    choose_action,
    stale_pre_actions,
    stored_kind,
)
from bot.runtime.errors import (
    IllegalMove,
    NotAllowed,
    NotSeated,
    NotYourTurn,
    StoreUnavailable,
    TableError,
)
from bot.runtime.hearing import Hearing
from bot.runtime.ports import (
    ChipBank,
    HandStore,
    StoredAction,
    TableObserver,
    TableStore,
    UnfinishedHand,
)
from bot.runtime.seating import Dealer, PreAction, Seat, ready_to_deal
from bot.runtime.table import (
    abandon,
    bomb_vote,
    dealing,
    recovery,
    run_twice,
    settle,
    time_banks,
    turn_clock,
    turn_refusal,
)
from bot.runtime.table import requests as requests
from bot.runtime.table.after_hand import Finished
from bot.runtime.table.events import ActionTaken, Notice, StreetDealt
from bot.runtime.table.hand_views import action_view, private_cards
from bot.runtime.table.live_hand import LiveHand
from bot.runtime.table.outbox import Outbox
from bot.runtime.table.policy import CashPolicy, TablePolicy
from bot.runtime.table.snapshot import snapshot_of
from bot.runtime.table.views import ActionView, PrivateCards, TableSnapshot, TurnView, Way
from bot.runtime.turns import Turn, view_of

__all__ = ["DEFAULT_PAUSE", "LiveHand", "PreAction", "Seat", "Table"]

#: Seconds between the end of a hand and the next deal.
DEFAULT_PAUSE = 5.0


class Table:
    """One table. Build through :class:`bot.runtime.registry.TableRegistry`."""

    def __init__(
        self,
        table_id: int,
        config: TableConfig,
        *,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        economy: ChipBank,
        hands: HandStore,
        tables: TableStore,
        observer: TableObserver,
        policy: TablePolicy | None = None,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        pause: float = DEFAULT_PAUSE,
        hands_dealt: int = 0,
        on_closed: Callable[[Table], None] | None = None,
        hearing: Hearing | None = None,
    ) -> None:
        self.table_id = table_id
        self.config = config
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.creator_id = creator_id
        self.economy = economy
        self.hands = hands
        self.tables = tables
        self.observer = observer
        self.policy: TablePolicy = policy or CashPolicy()
        self.clock: Clock = clock or LoopClock()
        self.hearing = hearing or Hearing()  # its clocks run, and it deals, only if heard
        self.rng = rng  # None: secrets.SystemRandom (real play)
        self.pause = pause
        self.lock = asyncio.Lock()
        self.seats: dict[int, Seat] = {}
        self.dealer = Dealer()
        self.hands_dealt = hands_dealt
        self.current: LiveHand | None = None
        #: The last hand settled, until the next deal (RULES.md 10: rabbit hunt, showing).
        self.finished: Finished | None = None
        #: A hand settled whose policy's turn (places, prizes) could not be written yet:
        #: done again, before any deal, once the dealer can write (:mod:`.waiting`).
        self.unfinished: LiveHand | None = None
        self.closing = False
        self.closed = False
        #: No next hand until released (a multi-table tournament between hands).
        self.held = False
        #: Bomb pots proposed and agreed to (:mod:`bot.runtime.table.bomb_vote`).
        self.bomb_vote = bomb_vote.BombVote()
        self._on_closed = on_closed
        self._start_task: asyncio.Task[None] | None = None
        self._timer: asyncio.Task[None] | None = None
        self.outbox = Outbox(f"table-{table_id}", observer)

    # ------------------------------------------------------------------ queries

    def __repr__(self) -> str:
        return f"<Table {self.table_id} {self.config.title} seats={len(self.seats)}>"

    @property
    def button(self) -> int | None:
        """The button's seat, or None when the next hand draws for it."""
        return self.dealer.button

    @property
    def pending_deal(self) -> bool:
        """A next hand is scheduled (in the pause, or being recorded)."""
        return self._start_task is not None and not self._start_task.done()

    @property
    def turn_token(self) -> str | None:
        """The current turn's token (a button from another turn is refused), or None."""
        cur = self.current
        return cur.turn.token if cur and cur.turn else None

    def snapshot(self) -> TableSnapshot:
        """An immutable picture of the table right now (no hidden cards)."""
        return snapshot_of(self)

    def hole_cards(self, user_id: int) -> PrivateCards:
        """The player's own hole cards, the board and what they make (for /cards)."""
        seat = self.require_seat(user_id)
        cur = self.current
        if cur is None or seat.number not in cur.dealt:
            raise TableError(Phrase("refuse.not_in_hand"))
        return private_cards(cur.hand, seat.number)

    def legal_for(self, user_id: int) -> LegalActions:
        """What ``user_id`` may do now; refuses politely when it is not their turn."""
        seat = self.require_seat(user_id)
        cur = self.current
        if cur is None or cur.hand.to_act != seat.number:
            raise NotYourTurn(turn_refusal.not_your_turn(self))
        return self.legal(cur)

    def turn_view(self) -> TurnView | None:
        """What the player to act is shown now, or None between turns."""
        cur = self.current
        if cur is None or cur.turn is None:
            return None
        return self.turn_view_of(cur, cur.turn)

    # ------------------------------------------------------------ telling the observer

    def tell(
        self, text: str | Wording, user_id: int | None = None, *, transient: bool = False,
        pings: tuple[int, ...] = (), ways: tuple[Way, ...] = (), logged: bool = False,
    ) -> None:
        """A notice to the table (or to one player) with the table as it is now; a
        :class:`~bot.i18n.Wording` is worded by the presenter in the reader's language.
        ``pings``: the users its mentions notify (a player moved to this table); ``ways``:
        the steps offered with a notice to one player (:mod:`bot.runtime.table.ways`);
        ``logged``: a line of the hand, shown with its actions (:class:`Notice`)."""
        phrase = text if isinstance(text, Wording) else None
        self.outbox.send(Notice(self.snapshot(), str(text), user_id, transient, phrase=phrase,
                                pings=pings, ways=ways, logged=logged))

    async def idle(self) -> None:
        """Wait until the observer has been told everything so far (tests, demo)."""
        await self.outbox.idle()

    # ------------------------------------------------------------ requests (.requests)

    join = requests.join
    restore_seat = requests.restore_seat
    leave = requests.leave
    sit_out = requests.sit_out
    sit_in = requests.sit_in
    top_up = requests.top_up
    set_pre_action = requests.set_pre_action
    close = requests.close
    update_settings = requests.update_settings
    abandon = abandon.abandon  # the channel is lost: the hand played out, every chip back
    answer_run_twice = run_twice.answer  # "run it twice" or "once" (bot.runtime.table.run_twice)
    check_run_twice = run_twice.check_answer

    # ------------------------------------------------------------ actions

    async def act(
        self,
        user_id: int,
        kind: ActionKind,
        amount: int | None = None,
        *,
        token: str | None = None,
    ) -> ActionView:
        """Apply a player's decision. ``token`` (from a button) must match the current turn."""
        async with self.lock:
            seat, cur = self.check_turn(user_id, token)
            action = choose_action(kind, amount, self.legal(cur), self.config.structure)
            seat.timeouts = 0
            seat.pre_action = None
            view = await self.apply(cur, seat, Decision(action))
            await self.advance(cur)
            return view

    def check_action(
        self, user_id: int, kind: ActionKind, amount: int | None, token: str | None = None
    ) -> None:
        """Refuse, without waiting for anything, what :meth:`act` would refuse now (a
        click is then answered at once; :meth:`act` checks again under the lock)."""
        _, cur = self.check_turn(user_id, token)
        choose_action(kind, amount, self.legal(cur), self.config.structure)

    def check_turn(self, user_id: int, token: str | None = None) -> tuple[Seat, LiveHand]:
        """The player's seat and the hand when it is their decision (``token``, from a
        button, must be the current turn's); raises the polite refusal otherwise."""
        seat = self.require_seat(user_id)
        cur = self.current
        if cur is None or cur.hand.is_over:
            raise NotYourTurn(Phrase("refuse.no_hand"))
        if token is not None and token != (cur.turn.token if cur.turn else None):
            raise NotYourTurn(Phrase("refuse.stale_buttons"))
        if cur.hand.to_act != seat.number:
            raise NotYourTurn(turn_refusal.not_your_turn(self, seat))
        return seat, cur

    # ------------------------------------------------------------ the hand loop

    def schedule_deal(self, wait: float | None = None) -> None:
        """Schedule the next hand after the pause (or ``wait`` seconds) if one can start
        (call under the lock); when fewer than two players are ready the table stops
        (RULES.md 3)."""
        if not dealing.may_deal(self):
            return
        task = self._start_task
        if task is not None and not task.done() and task is not asyncio.current_task():
            return
        if not ready_to_deal(self.seats, self.dealer, self.policy.ready):
            return  # the table stopped: the next hand draws for the button
        self._start_task = asyncio.get_running_loop().create_task(
            dealing.after_pause(self, self.pause if wait is None else wait),
            name=f"table-{self.table_id}-deal",
        )

    async def apply(self, cur: LiveHand, seat: Seat, decision: Decision) -> ActionView:
        """Check, store, then apply one action (under the lock)."""
        hand, action = cur.hand, decision.action
        try:
            hand.check(seat.number, action)
        except IllegalAction as exc:
            raise IllegalMove(str(exc)) from None
        stored = StoredAction(
            cur.seq, seat.number, stored_kind(action.kind), action.amount, decision.source.value
        )
        await self.hands.append_action(cur.hand_id, stored)
        crashpoint.reached("action.stored")
        street_before, board_before = hand.street, len(hand.board)
        events = hand.act(seat.number, action)
        cur.seq += 1
        cur.decided = cur.decided or Source.own(decision.source)
        await time_banks.spend(self, cur, seat)
        self.cancel_timer()
        cur.turn = None
        acted = next(e for e in events if isinstance(e, PlayerActed) and e.seat == seat.number)
        view = action_view(seat, acted, decision.source)
        snap = self.snapshot()
        self.outbox.send(ActionTaken(snap, view))
        if not hand.is_over and hand.street is not street_before:
            self._cancel_pre_actions(None)
        elif acted.kind in (ActionKind.BET, ActionKind.RAISE):
            self._cancel_pre_actions(seat.number)
        self.tell_streets(snap, events, board_before)
        return view

    def tell_streets(self, snap: TableSnapshot, events: Sequence[Event], board: int) -> None:
        """One StreetDealt for each street an action dealt (a run-out deals several; an
        answer to the run-it-twice question deals the run-out, maybe on two boards)."""
        run_out = any((isinstance(e, HandShown) and e.all_in) or isinstance(e, RunTwiceVoted)
                      for e in events)
        if run_out:
            snap = snapshot_of(self, before_awards=True)
        dealt = [board, board]
        for e in events:
            if isinstance(e, BoardDealt):
                dealt[e.run] += len(e.cards)
                cards = (snap.second_board if e.run else snap.board)[:dealt[e.run]]
                self.outbox.send(StreetDealt(snap, e.street, cards, run_out, e.run))

    def _cancel_pre_actions(self, bettor: int | None) -> None:
        """A bet (or a new street) cancels pre-actions that answered the old situation."""
        for s in stale_pre_actions(self.seats.values(), bettor):
            what = Phrase(f"pre_action.{s.pre_action.name.lower()}") if s.pre_action else ""
            s.pre_action = None
            if bettor is not None:
                self.tell(Phrase("notice.pre_action_cancelled", action=what), s.user_id)

    async def advance(self, cur: LiveHand) -> None:
        """After an action: play automatic decisions, then end the hand or start the next
        turn. A write the dealer cannot make stops it there, the action before it stored:
        it goes on once the dealer can write (:func:`.waiting.heard`)."""
        hand = cur.hand
        while not hand.is_over:
            n = hand.to_act
            if n is None:
                if hand.run_twice_voters:
                    break  # the players are asked whether to run it twice
                raise RuntimeError("hand is not over but nobody is to act")
            seat = self.seats[n]
            pre = seat.pre_action
            decision = automatic(seat, self.legal(cur), blinded_off=self.policy.blinds_off)
            if decision is None:
                break
            try:
                await self.apply(cur, seat, decision)
            except StoreUnavailable:
                seat.pre_action = pre  # not used up: played once the dealer can write
                return
            if decision.source is Source.PRE_ACTION:
                seat.timeouts = 0  # the player's own decision breaks a row of timeouts
        if hand.is_over:
            with contextlib.suppress(StoreUnavailable):  # settled once the dealer can write
                await settle.finish_hand(self, cur)
        elif hand.to_act is None:
            if cur.question is None:
                run_twice.ask(self, cur)
        else:
            turn_clock.start_turn(self, cur)  # the prompt, and the clock

    # ------------------------------------------------------------ the clock

    def turn_view_of(self, cur: LiveHand, turn: Turn) -> TurnView:
        """What the player to act in ``cur`` is shown for ``turn`` now."""
        return view_of(turn, self.seats[turn.seat], self.legal(cur), self.config.structure,
                       self.clock.now())

    @staticmethod
    def legal(cur: LiveHand) -> LegalActions:
        """The actions the engine allows the player to act in ``cur`` (someone must be)."""
        legal = cur.hand.legal_actions()
        assert legal is not None, "nobody is to act"
        return legal

    def start_timer(self, clock: Coroutine[Any, Any, None], what: str) -> None:
        """Run ``clock`` (a turn's, or the run-it-twice question's) as the table's one timer
        task, until it ends or :meth:`cancel_timer`."""
        self._timer = asyncio.get_running_loop().create_task(
            clock, name=f"table-{self.table_id}-{what}"
        )

    def cancel_timer(self) -> None:
        """Stop the running timer task, unless it is the caller (a timeout acting)."""
        timer, self._timer = self._timer, None
        if timer is not None and timer is not asyncio.current_task() and not timer.done():
            timer.cancel()

    def _cancel_deal(self) -> asyncio.Task[None] | None:
        """Cancel the scheduled next deal, unless it is the caller; the task, if any."""
        task = self._start_task
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()
            return task
        return None

    # ------------------------------------------------------------ chips out, closing

    close_now = settle.close_now  # every stack back to its owner, the table stopped

    # ------------------------------------------------------------ start-up and shutdown

    def start(self) -> None:
        """Begin dealing if enough players are seated (after a restart)."""
        self.schedule_deal()

    async def resume(self, unfinished: UnfinishedHand) -> bool:
        """Continue a hand interrupted by a restart on its own deck; cancel it if that fails."""
        return await recovery.resume(self, unfinished)

    async def shutdown(self) -> None:
        """Stop timers and tasks without moving chips (the bot is stopping)."""
        self.cancel_timer()
        await bomb_vote.stopped(self)
        task = self._cancel_deal()
        if task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.outbox.stop()

    def stop(self) -> None:
        """Stop for good (under the lock), once the chips have gone where they go (cashed
        out, abandoned, or the tournament's): no clock, no next deal, no hand; the table
        is closed and its registry forgets it. The one way a table ends."""
        self.cancel_timer()
        bomb_vote.cancel(self)
        self._cancel_deal()
        self.current = None
        self.closed = True
        if self._on_closed is not None:
            self._on_closed(self)

    def close_after_hand(self) -> None:
        """Close when the hand in progress ends, dealing no other (a closing table)."""
        self.closing = True

    def hold(self) -> None:
        """Deal no next hand until :meth:`release` (a multi-table tournament between hands)."""
        self.held = True

    def release(self) -> None:
        """Let the next hand be dealt again, scheduling it if it can start (under the lock)."""
        self.held = False
        self.schedule_deal()

    # ------------------------------------------------------------ helpers

    def check_open(self) -> None:
        """Refuse a request at a closed or closing table."""
        if self.closed:
            raise TableError(Phrase("refuse.table_closed"))
        if self.closing:
            raise TableError(Phrase("refuse.table_closing"))

    def require_seat(self, user_id: int) -> Seat:
        """The seat of ``user_id``; refuses politely when they have none."""
        seat = self.seat_of(user_id)
        if seat is None:
            raise NotSeated(Phrase("refuse.not_seated", join=Command("table join")))
        return seat

    def seat_of(self, user_id: int) -> Seat | None:
        """The seat of ``user_id``, or None."""
        return next((s for s in self.seats.values() if s.user_id == user_id), None)

    def check_allowed(self, user_id: int, is_manager: bool, what: str) -> None:
        """``what``: ``close`` or ``settings`` (the refusal ``refuse.creator_only.<what>``)."""
        if user_id != self.creator_id and not is_manager:
            raise NotAllowed(Phrase(f"refuse.creator_only.{what}"))

