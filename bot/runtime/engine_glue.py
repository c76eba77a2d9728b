"""Reading a hand for the table: per-seat state, pots, texts and results from the events.

The engine's events are the hand's history; this module folds them into what
the table shows (each seat's stack, bet and status, the pot, the current bet)
and turns them into sentences ("alice raises to 12", "bob wins 40 with a
flush, ace high"). It needs nothing from the engine's internals beyond the
events, the board and whose turn it is.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from bot.engine.cards import Card
from bot.engine.evaluate import best_high, best_low, hand_label
from bot.engine.events import (
    ActionKind,
    AntePosted,
    BetReturned,
    BlindPosted,
    BoardDealt,
    Event,
    HandEnded,
    HandMucked,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    PlayerActed,
    PotAwarded,
    Street,
)

from .decisions import Source
from .seating import Seat
from .views import ActionView, HandResultView, PotResultView, PotView, PotWinnerView, ShownHandView


@dataclass
class SeatState:
    seat: int
    start: int
    committed: int = 0
    bet: int = 0
    won: int = 0
    folded: bool = False
    all_in: bool = False
    hole: tuple[Card, ...] = ()
    shown: tuple[Card, ...] = ()
    mucked: bool = False

    @property
    def stack(self) -> int:
        return self.start - self.committed + self.won


@dataclass
class HandLedger:
    """Per-seat state folded from a hand's events, in order."""

    seats: dict[int, SeatState] = field(default_factory=dict)
    street: Street = Street.PREFLOP
    board: list[Card] = field(default_factory=list)
    pots: list[PotAwarded] = field(default_factory=list)
    final: dict[int, int] | None = None
    button: int | None = None
    hi_lo: bool = False

    def feed(self, events: Iterable[Event]) -> None:
        for ev in events:
            self._one(ev)

    def _one(self, ev: Event) -> None:
        if isinstance(ev, HandStarted):
            self.button = ev.button
            self.seats = {s: SeatState(s, stack) for s, stack in ev.seats}
        elif isinstance(ev, AntePosted):
            st = self.seats[ev.seat]
            st.committed += ev.amount
            st.all_in = st.all_in or ev.all_in
        elif isinstance(ev, BlindPosted):
            st = self.seats[ev.seat]
            st.committed += ev.amount
            st.bet += ev.amount
            st.all_in = st.all_in or ev.all_in
        elif isinstance(ev, HoleCardsDealt):
            self.seats[ev.seat].hole = tuple(ev.cards)
        elif isinstance(ev, BoardDealt):
            if ev.street is not Street.PREFLOP and ev.street is not self.street:
                for st in self.seats.values():
                    st.bet = 0
            self.street = ev.street
            self.board.extend(ev.cards)
        elif isinstance(ev, PlayerActed):
            if ev.street is not self.street:
                for st in self.seats.values():
                    st.bet = 0
                self.street = ev.street
            st = self.seats[ev.seat]
            if ev.kind is ActionKind.FOLD:
                st.folded = True
            elif ev.kind is not ActionKind.CHECK:
                st.committed += ev.amount
                st.bet = ev.to
            st.all_in = st.all_in or ev.all_in
        elif isinstance(ev, BetReturned):
            st = self.seats[ev.seat]
            st.committed -= ev.amount
            st.bet -= ev.amount
        elif isinstance(ev, HandShown):
            self.seats[ev.seat].shown = tuple(ev.cards)
        elif isinstance(ev, HandMucked):
            self.seats[ev.seat].mucked = True
        elif isinstance(ev, PotAwarded):
            # The betting is over: every bet has gone into the pots being awarded.
            for st in self.seats.values():
                st.bet = 0
            self.pots.append(ev)
            for seat, amount in (*ev.high, *ev.low):
                self.seats[seat].won += amount
        elif isinstance(ev, HandEnded):
            self.final = dict(ev.stacks)

    @property
    def pot_total(self) -> int:
        """Every chip in the middle, this round's bets included (0 once awarded)."""
        awarded = sum(p.amount for p in self.pots)
        return sum(st.committed for st in self.seats.values()) - awarded

    @property
    def current_bet(self) -> int:
        return max((st.bet for st in self.seats.values()), default=0)

    def live_pots(self) -> tuple[PotView, ...]:
        """Main and side pots as they stand (cut at the all-in amounts of live players)."""
        levels = sorted({st.committed for st in self.seats.values() if st.all_in and not st.folded})
        top = max((st.committed for st in self.seats.values()), default=0)
        if not levels or levels[-1] < top:
            levels.append(top)
        out: list[PotView] = []
        floor = 0
        for level in levels:
            amount = sum(max(0, min(st.committed, level) - floor) for st in self.seats.values())
            eligible = tuple(
                s for s, st in sorted(self.seats.items()) if not st.folded and st.committed >= level
            )
            if amount > 0:
                out.append(PotView(amount=amount, seats=eligible))
            floor = level
        return tuple(out)


def action_text(name: str, ev: PlayerActed) -> tuple[str, ActionKind, int | None]:
    """A sentence for an action, and the (kind, amount) shown with it."""
    allin = " and is all-in" if ev.all_in else ""
    if ev.kind is ActionKind.FOLD:
        return f"{name} folds", ev.kind, None
    if ev.kind is ActionKind.CHECK:
        return f"{name} checks", ev.kind, None
    if ev.kind is ActionKind.CALL:
        return f"{name} calls {ev.amount:,}{allin}", ev.kind, ev.amount
    if ev.kind is ActionKind.BET:
        return f"{name} bets {ev.to:,}{allin}", ev.kind, ev.to
    return f"{name} raises to {ev.to:,}{allin}", ev.kind, ev.to


def result_view(
    ledger: HandLedger,
    hand_no: int,
    names: Mapping[int, str],
    users: Mapping[int, int],
    hi_lo: bool,
) -> HandResultView:
    """Who won what, with the labels of the hands shown."""
    board = tuple(ledger.board)
    many = len(ledger.pots) > 1
    return HandResultView(
        hand_no=hand_no,
        board=board,
        lines=tuple(line for pot in ledger.pots for line in _pot_lines(ledger, pot, names, many)),
        payouts={s: st.won for s, st in ledger.seats.items() if st.won},
        net={s: st.won - st.committed for s, st in ledger.seats.items()},
        shown=_shown_hands(ledger, names, users, hi_lo),
        mucked=tuple(s for s, st in sorted(ledger.seats.items()) if st.mucked),
        uncontested=bool(ledger.pots) and all(p.uncontested for p in ledger.pots),
        pots=tuple(_pot_view(pot, names, many) for pot in ledger.pots),
    )


def _name(names: Mapping[int, str], seat: int) -> str:
    return names.get(seat, f"seat {seat}")


def _where(pot: PotAwarded, many: bool) -> str:
    """"main pot", "side pot 2", or "" when the hand had one pot."""
    if not many:
        return ""
    return "main pot" if pot.index == 0 else f"side pot {pot.index}"


def _shown_hands(
    ledger: HandLedger, names: Mapping[int, str], users: Mapping[int, int], hi_lo: bool
) -> tuple[ShownHandView, ...]:
    board = tuple(ledger.board)
    return tuple(
        ShownHandView(
            seat,
            users.get(seat, 0),
            _name(names, seat),
            st.shown,
            hand_label(st.shown, board, hi_lo) if len(board) >= 3 else "",
        )
        for seat, st in sorted(ledger.seats.items())
        if st.shown
    )


def _pot_view(pot: PotAwarded, names: Mapping[int, str], many: bool) -> PotResultView:
    return PotResultView(
        label=_where(pot, many).capitalize() or "Pot",
        amount=pot.amount,
        winners=tuple(
            PotWinnerView(seat, _name(names, seat), amount, half if pot.low else "")
            for half, pairs in (("high", pot.high), ("low", pot.low))
            for seat, amount in pairs
        ),
        uncontested=pot.uncontested,
    )


def _pot_lines(
    ledger: HandLedger, pot: PotAwarded, names: Mapping[int, str], many: bool
) -> list[str]:
    """"alice wins 40 high with a flush, ace high (main pot)", one line a share."""
    where, board, lines = _where(pot, many), ledger.board, []
    for part, pairs in (("high", pot.high), ("low", pot.low)):
        for seat, amount in pairs:
            bits = [f"{_name(names, seat)} wins {amount:,}"]
            if pot.low:
                bits.append(part)
            what = "" if pot.uncontested else _made(ledger.seats[seat], board, part == "low")
            if what:
                bits.append(f"with {what}")
            if where:
                bits.append(f"({where})")
            lines.append(" ".join(bits))
    return lines


def _made(st: SeatState, board: Sequence[Card], low: bool) -> str:
    if not st.shown or len(board) < 3:
        return ""
    if low:
        made = best_low(st.shown, board)
        return made.description if made else ""
    return best_high(st.shown, board).description.lower()


def action_view(seat: Seat, acted: PlayerActed, source: Source) -> ActionView:
    """What the table is told of ``seat``'s action (its text notes who decided)."""
    text, kind, amount = action_text(seat.name, acted)
    return ActionView(
        seat=seat.number,
        user_id=seat.user_id,
        name=seat.name,
        kind=kind,
        amount=amount,
        text=text + source.note,
        source=source,
        all_in=acted.all_in,
    )
