"""A live cash table: seats, the hand loop, the turn clock and pre-actions.

Concurrency: every request (join, act, leave, a timeout firing...) takes the
table's one :class:`asyncio.Lock` and re-checks the state it needs under it,
so of two clicks at once, or a click racing the clock, exactly one thing
happens and the other gets a :class:`~bot.runtime.errors.TableError` with a
polite message.

Durability: an action is written through the :class:`HandStore` port before
it is applied and before the caller acknowledges it; a hand is recorded with
its deck before the first card is dealt. After a restart the registry hands
each unfinished hand to :meth:`Table.resume`, which replays it on the same
deck, or cancels it (stacks as before the hand) if that fails.

Observers are told what happened through a per-table queue worked off by one
task, in order, outside the lock: rendering never delays play or an
acknowledgement.

Rules decided here (RULES.md sections 3, 7, 8 and where they are silent):

* Seats are numbered 1..N clockwise. The first hand's button is drawn
  (``draw_for_button``); afterwards it moves to the next player dealt in.
* A player who sits down once the game has begun, or comes back after the
  big blind passed them while sitting out, either posts a live big blind out
  of position (``post_big_blind=True``) or waits until the big blind reaches
  them: they are dealt in on the hand where the big blind would pass their
  seat, as the big blind. When fewer than two players could be dealt in
  without them, everyone is dealt in and nobody owes anything (the game starts
  afresh). A poster who lands on the small or big blind just posts that blind.
* Leaving during a hand folds the hand when the turn reaches the player (at
  once if it is theirs) and cashes the stack out when the hand ends. Sitting
  out during a hand takes effect from the next hand.
* The clock: ``clock`` seconds per decision, then the player's time bank is
  spent; a reminder comes ``REMINDER_LEAD`` seconds (at most half the time)
  before time runs out; then the bot checks if it may, else folds. Two
  timeouts in a row sit the player out: their remaining decisions in that
  hand are checked or folded at once. The time bank is not refilled.
* Pre-actions: "check/fold" (check, or fold to a bet) and "call any" (call
  whatever stands) answer the situation the player saw: they are cancelled
  when the bet changes or the street ends, and the player is told. "fold to
  any bet" is a standing order for the rest of the hand: check when
  possible, fold as soon as there is a bet.
* Top-ups only when the player is not in a hand, never past the maximum
  buy-in. A player left with no chips is sat out until they top up.
* Closing during a hand closes the table when the hand ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.engine.betting import IllegalAction, LegalActions
from bot.engine.cards import Card, Deck, draw_for_button
from bot.engine.events import Action, ActionKind, PlayerActed
from bot.engine.hand import Hand, SeatIn
from bot.engine.variants import GameConfig

from .clock import Clock, LoopClock
from .config import TableConfig
from .engine_glue import HandLedger, action_text, presets, result_view
from .errors import (
    IllegalMove,
    NotAllowed,
    NotSeated,
    NotYourTurn,
    SettingsError,
    TableError,
)
from .ports import (
    ChipBank,
    HandStart,
    HandStore,
    StoredAction,
    StoredSeat,
    TableObserver,
    TableStore,
    UnfinishedHand,
)
from .views import ActionView, SeatView, TableSnapshot, TurnView

log = logging.getLogger(__name__)

#: Seconds between the end of a hand and the next deal.
DEFAULT_PAUSE = 5.0
#: Seconds before time runs out when the player is reminded.
REMINDER_LEAD = 10.0
#: Consecutive timeouts that sit a player out (RULES section 8).
TIMEOUTS_TO_SIT_OUT = 2


class PreAction(StrEnum):
    CHECK_FOLD = "check/fold"
    CALL_ANY = "call any"
    FOLD_TO_BET = "fold to any bet"


ACTION_KINDS = ("fold", "check", "call", "bet", "raise", "allin")


@dataclass
class Seat:
    number: int
    user_id: int
    name: str
    stack: int
    time_bank: float
    sitting_out: bool = False
    needs_big_blind: bool = False  # owes a big blind: posts it or waits for it
    post_big_blind: bool = False  # chose to post rather than wait
    leaving: bool = False
    timeouts: int = 0  # consecutive
    clock_sat_out: bool = False  # sat out by the clock during the current hand
    pre_action: PreAction | None = None
    pre_action_bet: int = 0  # the bet to call when the pre-action was set
    pre_action_street: str | None = None


@dataclass
class _Turn:
    token: str
    seat: int
    started: float
    clock: float
    bank: float


@dataclass
class _HandState:
    hand: Hand
    hand_id: int
    hand_no: int
    dealt: tuple[int, ...]
    start_stacks: dict[int, int]
    ledger: HandLedger = field(default_factory=HandLedger)
    seq: int = 0
    turn: _Turn | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class Table:
    """One cash table. Build through :class:`bot.runtime.registry.TableRegistry`."""

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
        clock: Clock | None = None,
        rng: random.Random | None = None,
        pause: float = DEFAULT_PAUSE,
        hands_dealt: int = 0,
        on_closed: Callable[[Table], None] | None = None,
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
        self.clock: Clock = clock or LoopClock()
        self.rng = rng  # None: secrets.SystemRandom (real play)
        self.pause = pause
        self.lock = asyncio.Lock()
        self.seats: dict[int, Seat] = {}
        self.button: int | None = None
        self.last_big_blind: int | None = None
        self.hands_dealt = hands_dealt
        self.current: _HandState | None = None
        self.closing = False
        self.closed = False
        self._on_closed = on_closed
        self._start_task: asyncio.Task[None] | None = None
        self._timer: asyncio.Task[None] | None = None
        self._outbox: deque[tuple[Callable[..., Awaitable[None]], tuple[Any, ...]]] = deque()
        self._worker: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ queries

    def __repr__(self) -> str:
        return f"<Table {self.table_id} {self.config.title} seats={len(self.seats)}>"

    @property
    def hand(self) -> Hand | None:
        return self.current.hand if self.current else None

    @property
    def in_hand(self) -> bool:
        return self.current is not None

    def seat_of(self, user_id: int) -> Seat | None:
        return next((s for s in self.seats.values() if s.user_id == user_id), None)

    def require_seat(self, user_id: int) -> Seat:
        seat = self.seat_of(user_id)
        if seat is None:
            raise NotSeated("You are not seated at this table: use /table join.")
        return seat

    @property
    def pending_deal(self) -> bool:
        """A next hand is scheduled (in the pause, or being recorded)."""
        return self._start_task is not None and not self._start_task.done()

    @property
    def turn_token(self) -> str | None:
        cur = self.current
        return cur.turn.token if cur and cur.turn else None

    def snapshot(self) -> TableSnapshot:
        """An immutable picture of the table right now (no hidden cards)."""
        cur = self.current
        hand = cur.hand if cur else None
        views = []
        for n in sorted(self.seats):
            s = self.seats[n]
            dealt = bool(cur and n in cur.dealt)
            if cur is not None and dealt:
                st = cur.ledger.seats[n]
                views.append(
                    SeatView(
                        seat=n,
                        user_id=s.user_id,
                        name=s.name,
                        stack=st.stack,
                        bet=st.bet,
                        committed=st.committed,
                        in_hand=not st.folded,
                        dealt_in=True,
                        folded=st.folded,
                        all_in=st.all_in,
                        sitting_out=s.sitting_out,
                        leaving=s.leaving,
                        time_bank=int(s.time_bank),
                        shown=st.shown,
                    )
                )
            else:
                views.append(
                    SeatView(
                        seat=n,
                        user_id=s.user_id,
                        name=s.name,
                        stack=s.stack,
                        sitting_out=s.sitting_out,
                        waiting_for_big_blind=s.needs_big_blind and not s.sitting_out,
                        leaving=s.leaving,
                        time_bank=int(s.time_bank),
                    )
                )
        return TableSnapshot(
            table_id=self.table_id,
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            creator_id=self.creator_id,
            config=self.config,
            seats=tuple(views),
            button=self.button,
            hand_no=cur.hand_no if cur else self.hands_dealt,
            hand_id=cur.hand_id if cur else None,
            street=cur.ledger.street.value if cur else None,
            board=tuple(cur.ledger.board) if cur else (),
            pot=cur.ledger.pot_total if cur else 0,
            pots=cur.ledger.live_pots() if cur else (),
            to_act=hand.to_act if hand and not hand.is_over else None,
            closed=self.closed,
        )

    def hole_cards(self, user_id: int) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        """The player's own hole cards and the board (for /cards)."""
        seat = self.require_seat(user_id)
        cur = self.current
        if cur is None or seat.number not in cur.dealt:
            raise TableError("You are not in a hand right now.")
        return cur.ledger.seats[seat.number].hole, tuple(cur.ledger.board)

    def legal_for(self, user_id: int) -> LegalActions:
        seat = self.require_seat(user_id)
        cur = self.current
        if cur is None or cur.hand.to_act != seat.number:
            raise NotYourTurn(self._not_your_turn_text())
        legal = cur.hand.legal_actions()
        assert legal is not None
        return legal

    def turn_view(self) -> TurnView | None:
        cur = self.current
        if cur is None or cur.turn is None:
            return None
        return self._turn_view(cur, cur.turn)

    # ------------------------------------------------------------ seating

    async def join(
        self,
        user_id: int,
        name: str,
        buyin: int | None = None,
        seat: int | None = None,
        *,
        post_big_blind: bool = False,
    ) -> SeatView:
        """Sit down with ``buyin`` chips (default: the maximum) from the balance."""
        async with self.lock:
            self._check_open()
            mine = self.seat_of(user_id)
            if mine is not None:
                raise TableError(f"You are already seated at seat {mine.number}.")
            cfg = self.config
            amount = cfg.max_buyin if buyin is None else buyin
            if isinstance(amount, bool) or not isinstance(amount, int):
                raise TableError("The buy-in must be a whole number of chips.")
            if not cfg.min_buyin <= amount <= cfg.max_buyin:
                raise TableError(
                    f"The buy-in here is {cfg.min_buyin:,} to {cfg.max_buyin:,} chips."
                )
            free = [n for n in range(1, cfg.seats + 1) if n not in self.seats]
            if not free:
                raise TableError("The table is full.")
            if seat is None:
                number = free[0]
            else:
                if (
                    isinstance(seat, bool)
                    or not isinstance(seat, int)
                    or not (1 <= seat <= cfg.seats)
                ):
                    raise TableError(f"Seats here are numbered 1 to {cfg.seats}.")
                if seat in self.seats:
                    raise TableError(
                        f"Seat {seat} is taken; free seats: {', '.join(map(str, free))}."
                    )
                number = seat
            await self.economy.buy_in(
                guild_id=self.guild_id,
                table_id=self.table_id,
                user_id=user_id,
                seat=number,
                amount=amount,
            )
            new = Seat(
                number=number,
                user_id=user_id,
                name=name,
                stack=amount,
                time_bank=float(cfg.time_bank),
                needs_big_blind=self.button is not None,
                post_big_blind=post_big_blind,
            )
            self.seats[number] = new
            snap = self.snapshot()
            self._emit(
                self.observer.notice,
                snap,
                f"{name} sits down at seat {number} with {amount:,} chips.",
            )
            self._kick()
            view = snap.at(number)
            assert view is not None
            return view

    def restore_seat(
        self, number: int, user_id: int, name: str, stack: int, sitting_out: bool = False
    ) -> None:
        """Put back a seat remembered by storage (start-up only, before any play)."""
        self.seats[number] = Seat(
            number=number,
            user_id=user_id,
            name=name,
            stack=stack,
            time_bank=float(self.config.time_bank),
            sitting_out=sitting_out or stack == 0,
        )

    async def leave(self, user_id: int) -> str:
        """Leave now, or at the end of the hand (folding when the turn comes)."""
        async with self.lock:
            seat = self.require_seat(user_id)
            cur = self.current
            if cur is not None and seat.number in cur.dealt and not cur.hand.is_over:
                if seat.leaving:
                    return "You are already leaving at the end of this hand."
                seat.leaving = True
                seat.pre_action = None
                st = cur.ledger.seats[seat.number]
                if cur.hand.to_act == seat.number:
                    await self._apply(cur, seat, "fold", None, "leave")
                    await self._advance(cur)
                    return "You folded and will leave when this hand ends; your chips go back then."
                if st.folded or st.all_in:
                    return "You will leave when this hand ends; your chips go back then."
                return (
                    "Your hand will be folded when the turn reaches you; "
                    "you leave and your chips go back when the hand ends."
                )
            amount = await self._cash_out(seat)
            self._emit(self.observer.notice, self.snapshot(), f"{seat.name} leaves the table.")
            self._kick()
            return f"You left the table; {amount:,} chips went back to your balance."

    async def sit_out(self, user_id: int) -> str:
        async with self.lock:
            seat = self.require_seat(user_id)
            if seat.sitting_out:
                return "You are already sitting out."
            seat.sitting_out = True
            await self.economy.set_sitting_out(
                table_id=self.table_id, user_id=user_id, sitting_out=True
            )
            self._emit(self.observer.notice, self.snapshot(), f"{seat.name} sits out.")
            if self.current and seat.number in self.current.dealt:
                return "You will sit out from the next hand; play this one out."
            return "You are sitting out; /table sitin when you want to play again."

    async def sit_in(self, user_id: int, *, post_big_blind: bool = False) -> str:
        async with self.lock:
            seat = self.require_seat(user_id)
            if seat.stack <= 0:
                raise TableError("You have no chips at the table: /table topup first.")
            if not seat.sitting_out:
                if post_big_blind and seat.needs_big_blind:
                    seat.post_big_blind = True
                    return "You will post a big blind to be dealt in next hand."
                return "You are already in the game."
            seat.sitting_out = False
            seat.timeouts = 0
            seat.post_big_blind = post_big_blind
            await self.economy.set_sitting_out(
                table_id=self.table_id, user_id=user_id, sitting_out=False
            )
            self._emit(self.observer.notice, self.snapshot(), f"{seat.name} is back.")
            self._kick()
            if seat.needs_big_blind and not post_big_blind:
                return "Welcome back: you will be dealt in when the big blind reaches you."
            return "Welcome back: you will be dealt in next hand."

    async def top_up(self, user_id: int, amount: int) -> int:
        """Add chips from the balance between hands; returns the new stack."""
        async with self.lock:
            seat = self.require_seat(user_id)
            if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
                raise TableError("Top up by a positive whole number of chips.")
            cur = self.current
            if cur is not None and seat.number in cur.dealt:
                raise TableError("You can top up between hands, not while you are in one.")
            room = self.config.max_buyin - seat.stack
            if room <= 0:
                raise TableError(
                    f"Your stack is already at the maximum buy-in ({self.config.max_buyin:,})."
                )
            if amount > room:
                raise TableError(
                    f"That would pass the maximum buy-in ({self.config.max_buyin:,}): "
                    f"you can add at most {room:,}."
                )
            await self.economy.top_up(
                guild_id=self.guild_id, table_id=self.table_id, user_id=user_id, amount=amount
            )
            seat.stack += amount
            self._emit(
                self.observer.notice,
                self.snapshot(),
                f"{seat.name} tops up {amount:,} (stack {seat.stack:,}).",
            )
            self._kick()
            return seat.stack

    async def set_pre_action(self, user_id: int, pre: PreAction | None) -> str:
        async with self.lock:
            seat = self.require_seat(user_id)
            cur = self.current
            if pre is None:
                seat.pre_action = None
                return "Pre-action cleared."
            if cur is None or seat.number not in cur.dealt or cur.hand.is_over:
                raise TableError("Pre-actions are for a hand you are playing.")
            st = cur.ledger.seats[seat.number]
            if st.folded or st.all_in:
                raise TableError("You have no more decisions in this hand.")
            if cur.hand.to_act == seat.number:
                raise TableError("It is your turn now: act directly.")
            seat.pre_action = pre
            seat.pre_action_bet = cur.ledger.current_bet
            seat.pre_action_street = cur.ledger.street.value
            return f"Pre-action set: {pre.value}."

    async def close(self, user_id: int, *, is_manager: bool = False) -> str:
        async with self.lock:
            self._check_open()
            if user_id != self.creator_id and not is_manager:
                raise NotAllowed("Only the table's creator or a server manager can close it.")
            if self.current is not None:
                self.closing = True
                self._emit(
                    self.observer.notice,
                    self.snapshot(),
                    "The table will close when this hand ends.",
                )
                return "The table will close when this hand ends."
            await self._close_now()
            return "The table is closed; every stack went back to its owner's balance."

    async def update_settings(
        self, user_id: int, *, is_manager: bool = False, **changes: Any
    ) -> TableConfig:
        async with self.lock:
            self._check_open()
            if user_id != self.creator_id and not is_manager:
                raise NotAllowed(
                    "Only the table's creator or a server manager can change settings."
                )
            if self.current is not None:
                raise NotAllowed(
                    "Settings can change only between hands; try again after this one."
                )
            if changes.get("variant_key") is not None or changes.get("structure") is not None:
                pass  # allowed: the next hand uses the new game
            new = self.config.changed(**changes)
            if new.seats < max(self.seats, default=0):
                raise SettingsError(
                    f"Seat {max(self.seats)} is taken: the table cannot shrink below that."
                )
            await self.tables.update_table(self.table_id, new.to_dict())
            old, self.config = self.config, new
            for s in self.seats.values():
                if new.time_bank != old.time_bank:
                    s.time_bank = float(new.time_bank)
            self._emit(self.observer.notice, self.snapshot(), f"New settings: {new.title}.")
            self._kick()
            return new

    # ------------------------------------------------------------ actions

    async def act(
        self, user_id: int, kind: str, amount: int | None = None, *, token: str | None = None
    ) -> ActionView:
        """Apply a player's decision. ``token`` (from a button) must match the current turn."""
        async with self.lock:
            seat = self.require_seat(user_id)
            cur = self.current
            if cur is None or cur.hand.is_over:
                raise NotYourTurn("There is no hand in progress.")
            if token is not None and token != (cur.turn.token if cur.turn else None):
                raise NotYourTurn(
                    "Those buttons belong to an earlier decision; the game has moved on."
                )
            if cur.hand.to_act != seat.number:
                raise NotYourTurn(self._not_your_turn_text(seat))
            legal = cur.hand.legal_actions()
            assert legal is not None
            kind, amount = self._build_action(kind, amount, legal)
            seat.timeouts = 0
            seat.pre_action = None
            view = await self._apply(cur, seat, kind, amount, "player")
            await self._advance(cur)
            return view

    def _build_action(
        self, kind: str, amount: int | None, legal: LegalActions
    ) -> tuple[str, int | None]:
        """Turn a request into (kind, amount); polite errors for what cannot be meant."""
        kind = kind.lower()
        if kind not in ACTION_KINDS:
            raise IllegalMove(f"Unknown action {kind!r}.")
        if kind == "fold":
            return "fold", None
        if kind == "check":
            if not legal.can_check:
                raise IllegalMove(f"You cannot check: it is {legal.to_call:,} to call.")
            return "check", None
        if kind == "call":
            return ("check", None) if legal.can_check else ("call", None)
        if kind == "allin":
            return "allin", None
        if amount is None:
            raise IllegalMove("Say how much: /bet amount or /raise to.")
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise IllegalMove("The amount must be a whole number of chips.")
        if amount <= 0:
            raise IllegalMove("The amount must be positive.")
        if legal.max_raise_to is None or legal.min_raise_to is None:
            if amount == legal.all_in_to:
                return "allin", None
            what = "bet" if legal.is_bet else "raise"
            why = f" ({legal.no_raise_reason})" if legal.no_raise_reason else ""
            raise IllegalMove(
                f"You cannot {what} now{why}: "
                + ("check or fold." if legal.can_check else "call or fold.")
            )
        if amount == legal.all_in_to:
            return "allin", None
        return ("bet" if legal.is_bet else "raise"), amount

    # ------------------------------------------------------------ the hand loop

    def _kick(self) -> None:
        """Schedule the next hand if one can start (call under the lock)."""
        if self.closed or self.closing or self.current is not None:
            return
        task = self._start_task
        if task is not None and not task.done() and task is not asyncio.current_task():
            return
        if len(self._ready()) < 2:
            return
        self._start_task = asyncio.get_running_loop().create_task(
            self._start_after_pause(), name=f"table-{self.table_id}-deal"
        )

    def _game(self) -> GameConfig:
        """The engine settings for the hand being dealt (a tournament's level overrides)."""
        return self.config.game

    def _hand_config(self) -> dict[str, Any]:
        """The settings stored with a hand (enough to replay it)."""
        return self.config.to_dict()

    def _ready(self) -> list[Seat]:
        return [
            s
            for n, s in sorted(self.seats.items())
            if not s.sitting_out and not s.leaving and s.stack > 0
        ]

    async def _start_after_pause(self) -> None:
        await self.clock.sleep(self.pause)
        async with self.lock:
            if self.closed or self.closing or self.current is not None:
                return
            if len(self._ready()) < 2:
                return
            try:
                await self._start_hand()
            except Exception:
                log.exception("table %s: could not start a hand", self.table_id)
                self.current = None

    def _plan(self) -> tuple[int, list[Seat], set[int]]:
        """Choose the button and who is dealt in; returns (button, dealt seats, posting seats)."""
        ready = self._ready()
        numbers = [s.number for s in ready]
        assert self.button is not None
        regular = [s for s in ready if not s.needs_big_blind]
        posting = [s for s in ready if s.needs_big_blind and s.post_big_blind]
        waiting = [s for s in ready if s.needs_big_blind and not s.post_big_blind]
        dealt = sorted(regular + posting, key=lambda s: s.number)
        if len(dealt) < 2:
            dealt = ready  # the game starts afresh: nobody owes a blind
            for s in dealt:
                s.needs_big_blind = False
            posting = []
            waiting = []
        button = _next_clockwise(self.button, [s.number for s in dealt])
        if len(dealt) == 2 and waiting:
            # only two would play: the waiting newcomers make it a real game at once
            dealt = sorted(dealt + waiting, key=lambda s: s.number)
            for s in waiting:
                s.needs_big_blind = False
            waiting = []
        order = _clockwise_from(button, [s.number for s in dealt])
        if len(order) == 2:
            sb, bb = order[0], order[1]
        else:
            sb, bb = order[1], order[2]
        passed = [w for w in waiting if _strictly_between(sb, w.number, bb, numbers)]
        if passed:
            first = min(passed, key=lambda w: _distance(sb, w.number))
            dealt = sorted([*dealt, first], key=lambda s: s.number)
            bb = first.number
        posts = {s.number for s in dealt if s.needs_big_blind and s.number not in (sb, bb)}
        # seats sitting out that the big blind passed owe one when they come back
        everyone = sorted(self.seats)
        prev_bb = self.last_big_blind
        for s in self.seats.values():
            if (
                s.sitting_out
                and s.stack > 0
                and prev_bb is not None
                and (_strictly_between(prev_bb, s.number, bb, everyone) or s.number == bb)
            ):
                s.needs_big_blind = True
        self.last_big_blind = bb
        for s in dealt:
            s.needs_big_blind = False
            s.post_big_blind = False
        return button, dealt, posts

    async def _start_hand(self) -> None:
        if self.button is None:
            ready = self._ready()
            button, drawn = draw_for_button([s.number for s in ready], rng=self.rng)
            self.button = button
            dealt, posts = ready, set[int]()
            for s in ready:
                s.needs_big_blind = False
            order = _clockwise_from(button, [s.number for s in dealt])
            self.last_big_blind = order[1] if len(order) == 2 else order[2]
            self._emit(self.observer.button_drawn, self.snapshot(), dict(drawn), button)
        else:
            button, dealt, posts = self._plan()
            self.button = button
        deck = Deck(rng=self.rng)
        seats_in = [
            SeatIn(seat=s.number, stack=s.stack, posts_big_blind=s.number in posts) for s in dealt
        ]
        hand_no = self.hands_dealt + 1
        start = HandStart(
            table_id=self.table_id,
            hand_no=hand_no,
            config=self._hand_config(),
            seats=tuple(StoredSeat(s.number, s.user_id, s.stack, s.number in posts) for s in dealt),
            button=button,
            deck=deck.order,
        )
        hand = Hand(self._game(), seats_in, button, deck)
        hand_id = await self.hands.start_hand(start)
        self.hands_dealt = hand_no
        for s in self.seats.values():
            s.clock_sat_out = False
            if s.pre_action is not None:
                s.pre_action = None
        cur = _HandState(
            hand=hand,
            hand_id=hand_id,
            hand_no=hand_no,
            dealt=tuple(s.number for s in dealt),
            start_stacks={s.number: s.stack for s in dealt},
        )
        self.current = cur
        cur.ledger.feed(hand.start())
        await self._announce_start(cur)
        await self._advance(cur)

    async def _announce_start(self, cur: _HandState) -> None:
        snap = self.snapshot()
        self._emit(self.observer.hand_started, snap)
        for n in cur.dealt:
            self._emit(
                self.observer.hole_cards, snap, self.seats[n].user_id, cur.ledger.seats[n].hole
            )
        if cur.ledger.board:
            self._emit(self.observer.street_dealt, snap, cur.ledger.street.value)

    async def _apply(
        self, cur: _HandState, seat: Seat, kind: str, amount: int | None, source: str
    ) -> ActionView:
        """Check, store, then apply one action (under the lock)."""
        hand = cur.hand
        action = engine_action(kind, amount)
        try:
            hand.check(seat.number, action)
        except IllegalAction as exc:
            raise IllegalMove(str(exc)) from None
        await self.hands.append_action(
            cur.hand_id, StoredAction(cur.seq, seat.number, kind, amount, source)
        )
        ledger = cur.ledger
        street_before = ledger.street
        board_before = len(ledger.board)
        events = hand.act(seat.number, action)
        ledger.feed(events)
        cur.seq += 1
        self._spend_time(cur, seat)
        self._cancel_timer()
        cur.turn = None
        acted = next(
            (e for e in events if isinstance(e, PlayerActed) and e.seat == seat.number), None
        )
        text, shown_kind, shown_amount = action_text(seat.name, acted, kind)
        if source == "timeout":
            text += " (time ran out)"
        elif source == "leave":
            text += " (leaving)"
        elif source == "pre-action":
            text += " (pre-action)"
        elif source == "sitout":
            text += " (sitting out)"
        view = ActionView(
            seat=seat.number,
            user_id=seat.user_id,
            name=seat.name,
            kind=shown_kind,
            amount=shown_amount,
            text=text,
            source=source,
        )
        snap = self.snapshot()
        self._emit(self.observer.action, snap, view)
        if not hand.is_over and ledger.street is not street_before:
            self._street_changed()
        elif acted is not None and acted.kind in (ActionKind.BET, ActionKind.RAISE):
            self._bet_changed(seat.number)
        if len(ledger.board) != board_before:
            self._emit(self.observer.street_dealt, snap, ledger.street.value)
        return view

    def _street_changed(self) -> None:
        for s in self.seats.values():
            if s.pre_action in (PreAction.CHECK_FOLD, PreAction.CALL_ANY):
                s.pre_action = None

    def _bet_changed(self, actor: int) -> None:
        for s in self.seats.values():
            if s.number == actor or s.pre_action not in (PreAction.CHECK_FOLD, PreAction.CALL_ANY):
                continue
            what = s.pre_action.value
            s.pre_action = None
            self._emit(
                self.observer.notice,
                self.snapshot(),
                f"The bet changed: your pre-action ({what}) is cancelled.",
                s.user_id,
            )

    def _auto_action(self, cur: _HandState, seat: Seat) -> tuple[str, str] | None:
        """The decision made for a player without asking: (kind, source) or None."""
        legal = cur.hand.legal_actions()
        assert legal is not None
        check_or_fold = "check" if legal.can_check else "fold"
        if seat.leaving:
            return "fold", "leave"
        if seat.clock_sat_out:
            return check_or_fold, "sitout"
        pre = seat.pre_action
        if pre is None:
            return None
        if pre is not PreAction.FOLD_TO_BET:
            seat.pre_action = None
        if pre is PreAction.CALL_ANY:
            return ("check" if legal.can_check else "call"), "pre-action"
        return check_or_fold, "pre-action"

    async def _advance(self, cur: _HandState) -> None:
        """After an action: play automatic decisions, then end the hand or start the next turn."""
        hand = cur.hand
        while not hand.is_over:
            n = hand.to_act
            if n is None:  # pragma: no cover - the engine always names someone until the end
                raise RuntimeError("hand is not over but nobody is to act")
            seat = self.seats[n]
            auto = self._auto_action(cur, seat)
            if auto is None:
                break
            await self._apply(cur, seat, auto[0], None, auto[1])
        if hand.is_over:
            await self._finish_hand(cur)
        else:
            self._start_turn(cur)

    def _start_turn(self, cur: _HandState) -> None:
        n = cur.hand.to_act
        assert n is not None
        seat = self.seats[n]
        turn = _Turn(
            token=f"{cur.hand_no}.{cur.seq}",
            seat=n,
            started=self.clock.now(),
            clock=float(self.config.clock),
            bank=max(0.0, seat.time_bank),
        )
        cur.turn = turn
        self._emit(self.observer.turn, self.snapshot(), self._turn_view(cur, turn))
        self._timer = asyncio.get_running_loop().create_task(
            self._run_clock(turn), name=f"table-{self.table_id}-clock"
        )

    def _turn_view(self, cur: _HandState, turn: _Turn) -> TurnView:
        legal = cur.hand.legal_actions()
        assert legal is not None
        seat = self.seats[turn.seat]
        pot = legal.pot
        current = legal.current_bet
        return TurnView(
            token=turn.token,
            seat=turn.seat,
            user_id=seat.user_id,
            name=seat.name,
            can_check=legal.can_check,
            to_call=legal.to_call,
            min_raise_to=legal.min_raise_to,
            max_raise_to=legal.max_raise_to,
            is_bet=legal.is_bet,
            all_in_to=legal.all_in_to,
            current_bet=current,
            pot=pot,
            clock=turn.clock,
            time_bank=turn.bank,
            deadline=turn.started + turn.clock + turn.bank,
            presets=presets(
                legal.min_raise_to,
                legal.max_raise_to,
                legal.all_in_to,
                pot,
                current,
                legal.to_call,
                self.config.structure,
            ),
        )

    def _spend_time(self, cur: _HandState, seat: Seat) -> None:
        turn = cur.turn
        if turn is None or turn.seat != seat.number:
            return
        used = self.clock.now() - turn.started
        if used > turn.clock:
            seat.time_bank = max(0.0, seat.time_bank - (used - turn.clock))

    def _cancel_timer(self) -> None:
        timer = self._timer
        self._timer = None
        if timer is not None and timer is not asyncio.current_task() and not timer.done():
            timer.cancel()

    async def _run_clock(self, turn: _Turn) -> None:
        total = turn.clock + turn.bank
        lead = min(REMINDER_LEAD, total / 2)
        marks: list[tuple[float, str]] = [(total - lead, "reminder"), (total, "timeout")]
        if turn.bank > 0 and turn.clock < total - lead:
            marks.insert(0, (turn.clock, "bank"))
        elapsed = 0.0
        for at, what in marks:
            await self.clock.sleep(at - elapsed)
            elapsed = at
            async with self.lock:
                cur = self.current
                if cur is None or cur.turn is None or cur.turn.token != turn.token:
                    return
                seat = self.seats[turn.seat]
                if what == "bank":
                    self._emit(
                        self.observer.notice,
                        self.snapshot(),
                        f"{seat.name} is using their time bank ({int(turn.bank)} s).",
                    )
                elif what == "reminder":
                    self._emit(
                        self.observer.reminder,
                        self.snapshot(),
                        self._turn_view(cur, turn),
                        round(lead),
                    )
                else:
                    await self._timeout(cur, seat)

    async def _timeout(self, cur: _HandState, seat: Seat) -> None:
        legal = cur.hand.legal_actions()
        assert legal is not None
        seat.time_bank = 0.0
        cur.turn = None  # the bank is spent in full: nothing more to deduct
        seat.timeouts += 1
        await self._apply(cur, seat, "check" if legal.can_check else "fold", None, "timeout")
        if seat.timeouts >= TIMEOUTS_TO_SIT_OUT and not seat.sitting_out:
            seat.sitting_out = True
            seat.clock_sat_out = True
            seat.pre_action = None
            await self.economy.set_sitting_out(
                table_id=self.table_id, user_id=seat.user_id, sitting_out=True
            )
            self._emit(
                self.observer.notice,
                self.snapshot(),
                f"{seat.name} timed out twice in a row and is sitting out "
                "(/table sitin to come back).",
            )
        await self._advance(cur)

    async def _finish_hand(self, cur: _HandState) -> None:
        self._cancel_timer()
        finals = cur.ledger.final or {}
        before = sum(cur.start_stacks.values())
        if sum(finals.values()) != before or set(finals) != set(cur.dealt):
            # chips are never created or lost: refuse to settle a hand that says otherwise
            raise RuntimeError(f"hand {cur.hand_id}: stacks do not add up; not settled")
        result = result_view(
            cur.ledger,
            cur.hand_no,
            {n: self.seats[n].name for n in cur.dealt},
            {n: self.seats[n].user_id for n in cur.dealt},
            self.config.variant.hi_lo,
        )
        await self.hands.settle(
            cur.hand_id,
            table_id=self.table_id,
            variant=self.config.variant_key,
            events=cur.hand.events,
            seat_users={n: self.seats[n].user_id for n in cur.dealt},
            result={"hand_no": cur.hand_no, "lines": list(result.lines)},
        )
        for n, stack in finals.items():
            self.seats[n].stack = stack
        snap = self.snapshot()
        self.current = None
        self._emit(self.observer.hand_ended, snap, result)
        await self._after_hand(cur)
        if self.closing:
            await self._close_now()
        else:
            self._kick()

    async def _after_hand(self, cur: _HandState) -> None:
        """Between settlement and the next deal: cash out leavers, sit out empty stacks."""
        for s in list(self.seats.values()):
            s.pre_action = None
            s.clock_sat_out = False
            if s.leaving:
                amount = await self._cash_out(s)
                self._emit(
                    self.observer.notice,
                    self.snapshot(),
                    f"{s.name} leaves the table with {amount:,} chips.",
                )
            elif s.stack == 0 and not s.sitting_out:
                s.sitting_out = True
                await self.economy.set_sitting_out(
                    table_id=self.table_id, user_id=s.user_id, sitting_out=True
                )
                self._emit(
                    self.observer.notice,
                    self.snapshot(),
                    f"{s.name} is out of chips: /table topup to play on, or /table leave.",
                )

    async def _cash_out(self, seat: Seat) -> int:
        amount = seat.stack
        await self.economy.cash_out(
            guild_id=self.guild_id, table_id=self.table_id, user_id=seat.user_id, amount=amount
        )
        del self.seats[seat.number]
        return amount

    async def _close_now(self) -> None:
        returned: dict[int, int] = {}
        for seat in list(self.seats.values()):
            returned[seat.user_id] = await self._cash_out(seat)
        await self.tables.close_table(self.table_id)
        self.closed = True
        self._cancel_timer()
        if self._start_task is not None and self._start_task is not asyncio.current_task():
            self._start_task.cancel()
        self._emit(self.observer.table_closed, self.snapshot(), returned)
        if self._on_closed is not None:
            self._on_closed(self)

    # ------------------------------------------------------------ recovery

    async def resume(self, unfinished: UnfinishedHand) -> bool:
        """Continue a hand interrupted by a restart on its own deck; cancel it if that fails.

        Returns True when the hand was resumed.
        """
        async with self.lock:
            start = unfinished.start
            try:
                config = TableConfig.from_dict(dict(start.config))
                if any(
                    self.seats.get(s.seat) is None or self.seats[s.seat].user_id != s.user_id
                    for s in start.seats
                ):
                    raise ValueError("the seats changed since the hand began")
                hand = Hand(
                    config.game,
                    [SeatIn(s.seat, s.stack, s.posts_big_blind) for s in start.seats],
                    start.button,
                    Deck(order=start.deck),
                )
                ledger = HandLedger()
                ledger.feed(hand.start())
                for a in sorted(unfinished.actions, key=lambda a: a.seq):
                    ledger.feed(hand.act(a.seat, engine_action(a.kind, a.amount)))
            except Exception as exc:  # a record we cannot replay: give everyone their chips back
                log.warning(
                    "table %s: cancelling hand %s: %s", self.table_id, unfinished.hand_id, exc
                )
                await self.hands.cancel_hand(unfinished.hand_id)
                self.hands_dealt = max(self.hands_dealt, start.hand_no)
                self._emit(
                    self.observer.notice,
                    self.snapshot(),
                    f"Hand #{start.hand_no} was interrupted and is cancelled; "
                    "stacks are as before it.",
                )
                self._kick()
                return False
            self.button = start.button
            self.hands_dealt = max(self.hands_dealt, start.hand_no)
            for s in start.seats:
                self.seats[s.seat].stack = s.stack
                self.seats[s.seat].needs_big_blind = False
            cur = _HandState(
                hand=hand,
                hand_id=unfinished.hand_id,
                hand_no=start.hand_no,
                dealt=tuple(s.seat for s in start.seats),
                start_stacks={s.seat: s.stack for s in start.seats},
                seq=len(unfinished.actions),
                ledger=ledger,
            )
            self.current = cur
            order = _clockwise_from(start.button, list(cur.dealt))
            self.last_big_blind = order[1] if len(order) == 2 else order[2]
            await self._announce_start(cur)
            self._emit(self.observer.notice, self.snapshot(), f"Hand #{start.hand_no} resumes.")
            await self._advance(cur)
            return True

    def start(self) -> None:
        """Begin dealing if enough players are seated (after a restart)."""
        self._kick()

    async def shutdown(self) -> None:
        """Stop timers and tasks without moving chips (the bot is stopping)."""
        self._cancel_timer()
        for task in (self._start_task, self._worker):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    # ------------------------------------------------------------ helpers

    def _check_open(self) -> None:
        if self.closed:
            raise TableError("This table is closed.")
        if self.closing:
            raise TableError("This table is closing.")

    def _not_your_turn_text(self, seat: Seat | None = None) -> str:
        cur = self.current
        if cur is None or cur.hand.is_over:
            return "There is no hand in progress."
        if seat is not None and seat.number not in cur.dealt:
            return "You are not in this hand."
        if seat is not None:
            st = cur.ledger.seats[seat.number]
            if st.folded:
                return "You have folded this hand."
            if st.all_in:
                return "You are all-in: no more decisions for you this hand."
        n = cur.hand.to_act
        who = self.seats[n].name if n is not None and n in self.seats else "someone else"
        return f"It is not your turn: waiting for {who}."

    def _emit(self, method: Callable[..., Awaitable[None]], *args: Any) -> None:
        """Queue one observer call; a drain task delivers them in order, then ends."""
        self._outbox.append((method, args))
        if self._worker is None or self._worker.done():
            self._worker = asyncio.get_running_loop().create_task(
                self._drain(), name=f"table-{self.table_id}-presenter"
            )

    async def _drain(self) -> None:
        while self._outbox:
            method, args = self._outbox.popleft()
            try:
                await method(*args)
            except Exception:
                log.exception("table %s: the observer failed", self.table_id)

    async def idle(self) -> None:
        """Wait until the observer has been told everything so far (tests, demo)."""
        while self._worker is not None and not self._worker.done():
            await asyncio.shield(self._worker)



def engine_action(kind: str, amount: int | None) -> Action:
    """The engine's action for a stored (kind, amount)."""
    if kind == "fold":
        return Action.fold()
    if kind == "check":
        return Action.check()
    if kind == "call":
        return Action.call()
    if kind == "allin":
        return Action.all_in()
    if amount is None:
        raise ValueError(f"{kind} needs an amount")
    if kind == "bet":
        return Action.bet(amount)
    if kind == "raise":
        return Action.raise_to(amount)
    raise ValueError(f"unknown action {kind!r}")


def _clockwise_from(start: int, seats: list[int]) -> list[int]:
    """``seats`` in clockwise order beginning with ``start`` (which must be among them)."""
    ordered = sorted(seats)
    i = ordered.index(start)
    return ordered[i:] + ordered[:i]


def _next_clockwise(after: int, seats: list[int]) -> int:
    """The first of ``seats`` strictly clockwise after seat ``after``."""
    ordered = sorted(seats)
    return next((n for n in ordered if n > after), ordered[0])


def _distance(a: int, b: int) -> int:
    return (b - a) % 1000


def _strictly_between(a: int, x: int, b: int, _seats: list[int]) -> bool:
    """Whether seat ``x`` lies strictly between ``a`` and ``b`` going clockwise."""
    da, dx = _distance(a, b), _distance(a, x)
    return 0 < dx < da


__all__ = ["ACTION_KINDS", "PreAction", "Seat", "Table", "engine_action"]
