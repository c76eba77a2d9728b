"""The hand state machine (RULES.md sections 2 to 6).

Usage::

    hand = Hand(config, [SeatIn(1, 200), SeatIn(4, 150), SeatIn(7, 90)], button=4, deck=Deck())
    events = hand.start()                 # antes, blinds, hole cards (may run to the end)
    legal = hand.legal_actions()          # the query
    hand.check(hand.to_act, Action.raise_to(7))   # the check: IllegalAction(reason)
    events = hand.act(hand.to_act, Action.raise_to(7))  # the action: frozen events

Seats are table seat numbers, clockwise in ascending order (wrapping). The
players of a hand are kept in *positions* 0..n-1 clockwise from the first
seat after the button (the button is last), which is also PHH's player order.

A hand is fully defined by its config, seats, button, deck order and inputs
(actions and show requests): :meth:`Hand.replay` rebuilds it exactly.

Decisions where RULES.md is silent (also pinned by tests):

* The button must be one of the dealt-in seats (the runtime moves it to the
  next player dealt in).
* Heads-up the button is the small blind; with three or more players the
  small blind is the first seat after the button and the big blind the next.
* Antes are posted first (clockwise from the first seat after the button),
  then the small blind, the big blind, then newcomers' big blinds.
* A newcomer posting a big blind out of position (``SeatIn.posts_big_blind``)
  posts a live big blind and acts in normal turn order; when action reaches
  them with nothing to call they have the option, like the big blind. The
  flag is ignored on the big blind's own seat; on the small blind's seat the
  player posts the big blind instead of the small blind.
* A player all-in on the ante posts no blind.
* Courchevel: the one burn before the flop is made before the face-up first
  flop card (dealt after the hole cards, before preflop betting); the other
  two flop cards follow the preflop betting without another burn, so the
  hand still burns 3 cards.
* "When one or no player can still bet and two or more are in the hand ...
  all live hands are shown": this holds whenever the betting ends that way,
  on the river too (river bet, all-in call: both hands are shown, no muck).
  They are shown in showdown order (the last river bettor first, else from
  the first seat after the button), before any remaining board cards. When
  two or more players bet on to the river past an all-in player, it is a
  normal showdown and the all-in player's beaten hand may be mucked.
* When everyone else folded, the winner takes every chip in one uncontested
  award (no pots are shown: there is nothing to split).
* :meth:`request_show` may be called any time before the showdown, on a seat
  still in the hand. A sole survivor wins without showing even if asked.
* Inputs are read kindly: ``Action.bet`` and ``Action.raise_to`` stand for
  one another (the event says which it was), ``Action.call`` with nothing to
  call is a check, ``Action.all_in`` becomes the call, bet or raise it is.
* When every other live player is all-in, the amount to call is capped at
  the largest of their bets (a short big blind heads-up: the button only
  matches it), since more could only come back as an uncalled bet.
* Fixed limit knows no "half a bet reopens" rule: only full bets and raises
  count, reopen and count toward the cap (RULES.md section 5 as written).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from bot.engine.betting import (
    Action,
    ActionKind,
    BettingRound,
    IllegalAction,
    LegalActions,
    Player,
)
from bot.engine.cards import Card, Deck
from bot.engine.evaluate import best_high, best_low, high_value, low_value
from bot.engine.events import (
    AntePosted,
    BetReturned,
    BlindPosted,
    BoardDealt,
    CardBurned,
    Event,
    HandEnded,
    HandMucked,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    PlayerActed,
    PotAwarded,
    ShowRequested,
    Street,
)
from bot.engine.pots import Pot, build_pots, split_evenly, split_hi_lo
from bot.engine.variants import VARIANTS, GameConfig, Structure, Variant

__all__ = [
    "VARIANTS",
    "Action",
    "ActionKind",
    "GameConfig",
    "Hand",
    "HandResult",
    "IllegalAction",
    "LegalActions",
    "Pot",
    "PotResult",
    "SeatIn",
    "SeatState",
    "ShownHand",
    "Street",
    "Structure",
    "Variant",
    "deal_positions",
    "deck_order_for",
    "next_button",
]

_NEXT_STREET = {Street.PREFLOP: Street.FLOP, Street.FLOP: Street.TURN, Street.TURN: Street.RIVER}


@dataclass(frozen=True, slots=True)
class SeatIn:
    """A player dealt into a hand: table seat number and stack.

    ``posts_big_blind``: a newcomer (or a player back after missing their
    big blind) posts a live big blind out of position.
    """

    seat: int
    stack: int
    posts_big_blind: bool = False


@dataclass(frozen=True, slots=True)
class SeatState:
    """A snapshot of one seat in the hand. ``hole`` is private to the seat's owner
    (kept out of the repr so it never reaches a log line)."""

    seat: int
    starting_stack: int
    stack: int
    bet: int
    committed: int
    folded: bool
    all_in: bool
    hole: tuple[Card, ...] = field(default=(), repr=False)


@dataclass(frozen=True, slots=True)
class ShownHand:
    """A hand shown at showdown, with the players' labels of what it makes."""

    seat: int
    cards: tuple[Card, ...]
    high: str
    low: str | None = None


@dataclass(frozen=True, slots=True)
class PotResult:
    """One pot's award: ``(seat, chips)`` for the high and the low halves."""

    index: int
    amount: int
    eligible: tuple[int, ...]
    high: tuple[tuple[int, int], ...]
    low: tuple[tuple[int, int], ...] = ()
    uncontested: bool = False


@dataclass(frozen=True)
class HandResult:
    """Everything a finished hand settled. Dicts are keyed by seat number."""

    starting_stacks: dict[int, int]
    final_stacks: dict[int, int]
    payouts: dict[int, int]
    net: dict[int, int]
    returned: dict[int, int]
    pots: tuple[PotResult, ...]
    shown: dict[int, ShownHand] = field(default_factory=dict)
    mucked: tuple[int, ...] = ()
    board: tuple[Card, ...] = ()


def next_button(seats: Iterable[int], button: int) -> int:
    """The seat that takes the button after ``button``: the next dealt-in seat clockwise
    (seat numbers ascend clockwise and wrap). ``seats`` are the seats dealt into the
    next hand; ``button`` need not be one of them."""
    ordered = sorted(set(seats))
    if not ordered:
        raise ValueError("nobody is dealt in")
    for s in ordered:
        if s > button:
            return s
    return ordered[0]


def deal_positions(n_players: int, variant: Variant) -> dict[str, list[int]]:
    """Where each card comes from in the deck, for ``n_players`` in deal order.

    Returns ``{"hole:K": [...], "burn": [...], "board": [...]}``: ``hole:K``
    lists the deck indexes of the K-th player's hole cards in deal order
    (dealt one at a time, clockwise from the small blind).
    """
    h = variant.hole_cards
    out: dict[str, list[int]] = {f"hole:{k}": [r * n_players + k for r in range(h)]
                                 for k in range(n_players)}
    pos = n_players * h
    burns: list[int] = []
    board: list[int] = []
    if variant.courchevel:
        burns.append(pos)
        board.append(pos + 1)
        board.extend((pos + 2, pos + 3))
        pos += 4
    else:
        burns.append(pos)
        board.extend((pos + 1, pos + 2, pos + 3))
        pos += 4
    for _ in range(2):
        burns.append(pos)
        board.append(pos + 1)
        pos += 2
    out["burn"] = burns
    out["board"] = board
    return out


def deck_order_for(
    variant: Variant,
    holes: Sequence[Sequence[Card]],
    board: Sequence[Card] = (),
    burns: Sequence[Card] = (),
) -> tuple[Card, ...]:
    """A full deck order that deals ``holes`` (in deal order, from the small blind;
    heads-up from the button) and ``board``; unknown cards are filled from the
    unused ones. For replaying a history whose deck is not stored (PHH).
    """
    from bot.engine.cards import DECK

    plan = deal_positions(len(holes), variant)
    slots: dict[int, Card] = {}
    for k, cards in enumerate(holes):
        for idx, c in zip(plan[f"hole:{k}"], cards, strict=False):
            slots[idx] = c
    for idx, c in zip(plan["board"], board, strict=False):
        slots[idx] = c
    for idx, c in zip(plan["burn"], burns, strict=False):
        slots[idx] = c
    used = set(slots.values())
    if len(used) != len(slots):
        raise ValueError("a card appears twice")
    spare = iter(c for c in DECK if c not in used)
    return tuple(slots[i] if i in slots else next(spare) for i in range(len(DECK)))


class Hand:
    """One hand of Omaha: the query / check / act state machine."""

    __slots__ = (
        "_bb_pos",
        "_board",
        "_by_seat",
        "_deal_order",
        "_events",
        "_hi",
        "_lo",
        "_mucked",
        "_n",
        "_over",
        "_paid",
        "_players",
        "_pot_results",
        "_result",
        "_returned",
        "_river_aggressor",
        "_round",
        "_sb_pos",
        "_shown",
        "_started",
        "_street",
        "_to_act",
        "button",
        "config",
        "deck",
    )

    def __init__(self, config: GameConfig, seats: Sequence[SeatIn], button: int,
                 deck: Deck) -> None:
        n = len(seats)
        if n < 2:
            raise ValueError("a hand needs at least 2 players")
        if n > config.max_seats:
            raise ValueError(
                f"{config.variant.name} seats at most {config.max_seats} players"
            )
        numbers = [s.seat for s in seats]
        if len(set(numbers)) != n:
            raise ValueError("a seat number appears twice")
        if button not in numbers:
            raise ValueError("the button must be on a seat dealt into the hand")
        for s in seats:
            if s.stack < 1:
                raise ValueError(f"seat {s.seat} has no chips")
        needed = n * config.variant.hole_cards + 8
        if deck.remaining < needed:
            raise ValueError("the deck does not hold enough cards for this hand")
        ordered = sorted(seats, key=lambda s: s.seat)
        b = next(i for i, s in enumerate(ordered) if s.seat == button)
        ordered = ordered[b + 1:] + ordered[: b + 1]
        self.config = config
        self.button = button
        self.deck = deck
        self._board: list[Card] = []
        self._n = n
        self._players = [Player(s.seat, i, s.stack, s.posts_big_blind)
                         for i, s in enumerate(ordered)]
        self._by_seat = {p.seat: p for p in self._players}
        if n == 2:
            self._sb_pos, self._bb_pos = 1, 0
        else:
            self._sb_pos, self._bb_pos = 0, 1
        self._deal_order = [(self._sb_pos + k) % n for k in range(n)]
        self._events: list[Event] = []
        self._street = Street.PREFLOP
        bb = config.big_blind
        self._round = BettingRound(config.structure, bb, bb, 1)
        self._to_act: int | None = None
        self._started = False
        self._over = False
        self._river_aggressor: int | None = None
        self._paid = 0
        self._returned: dict[int, int] = {}
        self._shown: dict[int, bool] = {}
        self._mucked: list[int] = []
        self._pot_results: list[PotAwarded] = []
        self._hi: dict[int, int] = {}
        self._lo: dict[int, int | None] = {}
        self._result: HandResult | None = None

    def __repr__(self) -> str:
        return (f"<Hand {self.config.variant.key} {self.config.structure.value} "
                f"{self._n} players, {self._street.value}, to act: {self.to_act}>")

    # -- public state ------------------------------------------------------------
    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    @property
    def board(self) -> tuple[Card, ...]:
        """The board cards dealt so far."""
        return tuple(self._board)

    @property
    def street(self) -> Street:
        return self._street

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def started(self) -> bool:
        return self._started

    @property
    def to_act(self) -> int | None:
        """The seat number whose decision it is, or ``None``."""
        return None if self._to_act is None else self._players[self._to_act].seat

    @property
    def seat_order(self) -> tuple[int, ...]:
        """Seats clockwise from the first after the button (PHH player order: p1 ... button)."""
        return tuple(p.seat for p in self._players)

    @property
    def deal_order(self) -> tuple[int, ...]:
        """Seats in the order hole cards are dealt (from the small blind; heads-up the button)."""
        return tuple(self._players[i].seat for i in self._deal_order)

    @property
    def small_blind_seat(self) -> int:
        return self._players[self._sb_pos].seat

    @property
    def big_blind_seat(self) -> int:
        return self._players[self._bb_pos].seat

    @property
    def starting_stacks(self) -> dict[int, int]:
        return {p.seat: p.start for p in self._players}

    @property
    def players(self) -> tuple[SeatState, ...]:
        """Public snapshots of every seat, clockwise from the first after the button."""
        return tuple(self._snapshot(p) for p in self._players)

    def player(self, seat: int) -> SeatState:
        return self._snapshot(self._get(seat))

    @staticmethod
    def _snapshot(p: Player) -> SeatState:
        return SeatState(p.seat, p.start, p.stack, p.bet, p.committed, p.folded, p.all_in,
                         p.hole)

    def hole(self, seat: int) -> tuple[Card, ...]:
        """The seat's hole cards: private to its owner until the rules reveal them."""
        return self._get(seat).hole

    @property
    def pot_total(self) -> int:
        """Every chip in the middle (this round's bets included), not yet awarded."""
        return sum(p.committed for p in self._players) - self._paid

    @property
    def pots(self) -> tuple[Pot, ...]:
        """The main pot and side pots as they stand (eligible: seat numbers); once the
        hand is over, the pots as awarded."""
        if self._over:
            return tuple(Pot(a.amount, a.eligible) for a in self._pot_results)
        ps = self._players
        raw = build_pots([p.committed for p in ps], [not p.folded for p in ps],
                         [p.all_in for p in ps])
        return tuple(Pot(x.amount, tuple(ps[i].seat for i in x.eligible)) for x in raw)

    @property
    def inputs(self) -> tuple[Event, ...]:
        """The players' inputs so far (actions and show requests), for :meth:`replay`."""
        return tuple(e for e in self._events if isinstance(e, PlayerActed | ShowRequested))

    @property
    def actions(self) -> tuple[tuple[int, Action], ...]:
        """Each betting action as ``(seat, action)``, bets and raises as "raise to" totals."""
        return tuple((e.seat, e.action) for e in self._events if isinstance(e, PlayerActed))

    def _get(self, seat: int) -> Player:
        try:
            return self._by_seat[seat]
        except KeyError:
            raise IllegalAction("you are not in this hand") from None

    # -- the three verbs -----------------------------------------------------------
    def legal_actions(self) -> LegalActions | None:
        """What the player to act may do, or ``None`` when nobody is to act."""
        if self._to_act is None:
            return None
        return self._round.legal(self._players, self._players[self._to_act], self._pot())

    def check(self, seat: int, action: Action) -> None:
        """Raise :class:`IllegalAction` if ``seat`` may not do ``action`` now."""
        self._resolve(seat, action)

    def act(self, seat: int, action: Action) -> tuple[Event, ...]:
        """Do ``action`` for ``seat``; return the events it caused (the action and what follows)."""
        kind, to = self._resolve(seat, action)
        mark = len(self._events)
        pos = self._to_act
        assert pos is not None
        p = self._players[pos]
        rnd = self._round
        chips = rnd.apply(p, kind, to)
        self._events.append(PlayerActed(p.seat, self._street, kind, chips, p.bet, p.all_in))
        if self._street is Street.RIVER and (kind is ActionKind.BET or kind is ActionKind.RAISE):
            self._river_aggressor = pos
        self._advance(pos + 1)
        return tuple(self._events[mark:])

    def can_raise_to(self, seat: int, to: int) -> bool:
        """Whether ``seat`` may bet or raise to ``to`` now."""
        try:
            self._resolve(seat, Action.raise_to(to))
        except IllegalAction:
            return False
        return True

    def _resolve(self, seat: int, action: Action) -> tuple[ActionKind, int]:
        if not self._started:
            raise IllegalAction("the hand has not started")
        if self._over:
            raise IllegalAction("the hand is over")
        p = self._get(seat)
        if self._to_act is None or self._players[self._to_act] is not p:
            if p.folded:
                raise IllegalAction("you have folded")
            raise IllegalAction("it is not your turn")
        legal = self._round.legal(self._players, p, self._pot())
        return BettingRound.resolve(legal, p.bet, action)

    def request_show(self, seat: int) -> tuple[Event, ...]:
        """The owner of ``seat`` asks to show at showdown even a hand the bot would muck."""
        if not self._started:
            raise IllegalAction("the hand has not started")
        if self._over:
            raise IllegalAction("the hand is over")
        p = self._get(seat)
        if p.folded:
            raise IllegalAction("you have folded")
        if p.show_requested:
            return ()
        p.show_requested = True
        ev = ShowRequested(seat)
        self._events.append(ev)
        return (ev,)

    # -- start -------------------------------------------------------------------
    def start(self) -> tuple[Event, ...]:
        """Post antes and blinds, deal; may run the hand to its end when all are all-in."""
        if self._started:
            raise IllegalAction("the hand has already started")
        self._started = True
        cfg = self.config
        ps = self._players
        ev = self._events
        ev.append(HandStarted(
            cfg.variant.key, cfg.structure.value, cfg.small_blind, cfg.big_blind, cfg.ante,
            self.button, tuple((p.seat, p.start) for p in ps),
            tuple(p.seat for p in ps if p.newcomer),
        ))
        if cfg.ante:
            for p in ps:
                chips = cfg.ante if cfg.ante < p.stack else p.stack
                p.put_in(chips, live=False)
                ev.append(AntePosted(p.seat, chips, p.all_in))
        sb, bb = ps[self._sb_pos], ps[self._bb_pos]
        if sb.newcomer:
            self._post(sb, cfg.big_blind, "newcomer")
        else:
            self._post(sb, cfg.small_blind, "small")
        self._post(bb, cfg.big_blind, "big")
        for p in ps:
            if p.newcomer and p is not sb and p is not bb:
                self._post(p, cfg.big_blind, "newcomer")
        h = cfg.variant.hole_cards
        n = self._n
        cards = self.deck.deal(n * h)
        for k, i in enumerate(self._deal_order):
            p = ps[i]
            p.hole = cards[k::n]
            ev.append(HoleCardsDealt(p.seat, p.hole))
        if cfg.variant.courchevel:
            ev.append(CardBurned(Street.PREFLOP))
            self.deck.deal(1)
            first = self.deck.deal(1)
            self._board.extend(first)
            ev.append(BoardDealt(Street.PREFLOP, first))
        self._advance(self._bb_pos + 1)
        return tuple(ev)

    def _post(self, p: Player, amount: int, blind: str) -> None:
        if p.stack == 0:
            return
        chips = amount if amount < p.stack else p.stack
        p.put_in(chips, live=True)
        self._events.append(BlindPosted(p.seat, chips, blind, p.all_in))

    # -- flow ----------------------------------------------------------------------
    def _pot(self) -> int:
        return sum(p.committed for p in self._players)

    def _advance(self, start: int) -> None:
        """Find the next player to act from position ``start``, or end the round."""
        ps = self._players
        n = self._n
        live = 0
        for p in ps:
            if not p.folded:
                live += 1
        if live > 1:
            rnd = self._round
            for k in range(n):
                i = (start + k) % n
                if rnd.needs_action(ps, ps[i]):
                    self._to_act = i
                    return
        self._to_act = None
        self._end_round()

    def _end_round(self) -> None:
        ps = self._players
        top = second = 0
        top_p: Player | None = None
        for p in ps:
            if p.bet > top:
                second, top, top_p = top, p.bet, p
            elif p.bet > second:
                second = p.bet
        if top_p is not None and top > second:
            back = top - second
            top_p.stack += back
            top_p.bet -= back
            top_p.committed -= back
            top_p.all_in = False
            self._returned[top_p.seat] = self._returned.get(top_p.seat, 0) + back
            self._events.append(BetReturned(top_p.seat, back))
        for p in ps:
            p.bet = 0
            p.acted = False
            p.acted_level = 0
        live = [p for p in ps if not p.folded]
        if len(live) == 1:
            self._finish_uncontested(live[0])
            return
        able = sum(1 for p in live if not p.all_in)
        if able <= 1:
            self._runout()
            return
        if self._street is Street.RIVER:
            self._showdown()
            return
        street = _NEXT_STREET[self._street]
        self._deal_street(street)
        cfg = self.config
        unit = cfg.big_bet if (cfg.structure is Structure.FIXED_LIMIT
                               and street in (Street.TURN, Street.RIVER)) else cfg.big_blind
        self._round = BettingRound(cfg.structure, unit, 0, 0)
        self._advance(0)

    def _deal_street(self, street: Street) -> None:
        self._street = street
        deck = self.deck
        if street is Street.FLOP and self.config.variant.courchevel:
            cards = deck.deal(2)
        else:
            self._events.append(CardBurned(street))
            deck.deal(1)
            cards = deck.deal(3 if street is Street.FLOP else 1)
        self._board.extend(cards)
        self._events.append(BoardDealt(street, cards))

    def _runout(self) -> None:
        """Betting is over with all but at most one player all-in: every live hand is
        shown face up (in showdown order), then the rest of the board is dealt."""
        ps = self._players
        for i in self._showdown_order():
            p = ps[i]
            self._shown[i] = True
            self._events.append(HandShown(p.seat, p.hole, True))
        while self._street is not Street.RIVER:
            self._deal_street(_NEXT_STREET[self._street])
        self._showdown()

    # -- showdown ------------------------------------------------------------------
    def _showdown_order(self) -> list[int]:
        """Live positions in showdown order: the last river bettor or raiser first,
        else the first live player after the button; then clockwise."""
        ps = self._players
        n = self._n
        if self._river_aggressor is not None:
            first = self._river_aggressor
        else:
            first = next(p.pos for p in ps if not p.folded)
        return [i for k in range(n) if not ps[i := (first + k) % n].folded]

    def _showdown(self) -> None:
        self._street = Street.SHOWDOWN
        ps = self._players
        board = self._board
        hi_lo = self.config.variant.hi_lo
        hi = self._hi
        lo = self._lo
        for p in ps:
            if not p.folded:
                hi[p.pos] = high_value(p.hole, board)
                if hi_lo:
                    lo[p.pos] = low_value(p.hole, board)
        pots = build_pots([p.committed for p in ps], [not p.folded for p in ps],
                          [p.all_in for p in ps])
        best_hi: list[int | None] = [None] * len(pots)
        best_lo: list[int | None] = [None] * len(pots)
        for i in self._showdown_order():
            p = ps[i]
            mine = [k for k, pot in enumerate(pots) if i in pot.eligible]
            if i not in self._shown:
                can_win = False
                for k in mine:
                    bh = best_hi[k]
                    if bh is None or hi[i] >= bh:
                        can_win = True
                        break
                    if hi_lo:
                        mylo = lo[i]
                        bl = best_lo[k]
                        if mylo is not None and (bl is None or mylo >= bl):
                            can_win = True
                            break
                if can_win or p.show_requested:
                    self._shown[i] = False
                    self._events.append(HandShown(p.seat, p.hole, False))
                else:
                    self._mucked.append(i)
                    self._events.append(HandMucked(p.seat))
                    continue
            for k in mine:
                bh = best_hi[k]
                if bh is None or hi[i] > bh:
                    best_hi[k] = hi[i]
                if hi_lo:
                    mylo = lo[i]
                    bl = best_lo[k]
                    if mylo is not None and (bl is None or mylo > bl):
                        best_lo[k] = mylo
        mucked = set(self._mucked)
        for k, pot in enumerate(pots):
            contenders = [i for i in pot.eligible if i not in mucked]
            self._award(k, pot, contenders)
        self._finish()

    def _award(self, index: int, pot: Pot, contenders: list[int]) -> None:
        ps = self._players
        hi = self._hi
        top = max(hi[i] for i in contenders)
        high_w = [i for i in contenders if hi[i] == top]
        low_w: list[int] = []
        if self.config.variant.hi_lo:
            lows = [(v, i) for i in contenders if (v := self._lo[i]) is not None]
            if lows:
                best = max(v for v, _ in lows)
                low_w = [i for v, i in lows if v == best]
        if low_w:
            high_amt, low_amt = split_hi_lo(pot.amount)
        else:
            high_amt, low_amt = pot.amount, 0
        high = split_evenly(high_amt, high_w)
        low = split_evenly(low_amt, low_w) if low_w else []
        for i, chips in high:
            ps[i].stack += chips
        for i, chips in low:
            ps[i].stack += chips
        self._paid += pot.amount
        award = PotAwarded(
            index, pot.amount, tuple(ps[i].seat for i in pot.eligible),
            tuple((ps[i].seat, c) for i, c in high), tuple((ps[i].seat, c) for i, c in low),
        )
        self._pot_results.append(award)
        self._events.append(award)

    def _finish_uncontested(self, winner: Player) -> None:
        total = self._pot()
        winner.stack += total
        self._paid += total
        award = PotAwarded(0, total, (winner.seat,), ((winner.seat, total),), (), True)
        self._pot_results.append(award)
        self._events.append(award)
        self._finish()

    def _finish(self) -> None:
        self._over = True
        self._to_act = None
        self._events.append(HandEnded(tuple((p.seat, p.stack) for p in self._players)))

    # -- results -----------------------------------------------------------------------
    @property
    def result(self) -> HandResult:
        """What the finished hand settled (raises ``ValueError`` before the end)."""
        if not self._over:
            raise ValueError("the hand is not over")
        if self._result is None:
            ps = self._players
            payouts = {p.seat: 0 for p in ps}
            for a in self._pot_results:
                for seat, chips in a.high + a.low:
                    payouts[seat] += chips
            shown: dict[int, ShownHand] = {}
            board = tuple(self._board)
            hi_lo = self.config.variant.hi_lo
            for i in self._shown:
                p = ps[i]
                low = best_low(p.hole, board) if hi_lo else None
                shown[p.seat] = ShownHand(p.seat, p.hole, best_high(p.hole, board).description,
                                          None if low is None else low.description)
            self._result = HandResult(
                starting_stacks={p.seat: p.start for p in ps},
                final_stacks={p.seat: p.stack for p in ps},
                payouts=payouts,
                net={p.seat: p.stack - p.start for p in ps},
                returned=dict(self._returned),
                pots=tuple(PotResult(a.index, a.amount, a.eligible, a.high, a.low, a.uncontested)
                           for a in self._pot_results),
                shown=shown,
                mucked=tuple(ps[i].seat for i in self._mucked),
                board=board,
            )
        return self._result

    # -- replay --------------------------------------------------------------------------
    @classmethod
    def replay(cls, config: GameConfig, seats: Sequence[SeatIn], button: int,
               deck: Deck | Sequence[Card], inputs: Iterable[Event]) -> Hand:
        """Rebuild a hand from its deck order and inputs (``PlayerActed`` and
        ``ShowRequested`` events; any other events are skipped, so a whole
        event list will do)."""
        if not isinstance(deck, Deck):
            deck = Deck(order=deck)
        hand = cls(config, seats, button, deck)
        hand.start()
        for e in inputs:
            if isinstance(e, PlayerActed):
                hand.act(e.seat, e.action)
            elif isinstance(e, ShowRequested):
                hand.request_show(e.seat)
        return hand

    # -- invariants ---------------------------------------------------------------------
    def invariant_violations(self) -> list[str]:
        """Broken invariants (empty when all is well); tests call it after every action."""
        bad: list[str] = []
        ps = self._players
        start_total = sum(p.start for p in ps)
        now = sum(p.stack for p in ps) + sum(p.committed for p in ps) - self._paid
        if now != start_total:
            bad.append(f"chips not conserved: {now} != {start_total}")
        for p in ps:
            if p.stack < 0 or p.bet < 0 or p.committed < p.bet:
                bad.append(f"seat {p.seat}: negative stack or bet")
            if not self._over and not p.folded and p.all_in != (p.stack == 0):
                bad.append(f"seat {p.seat}: all-in flag does not match the stack")
        cards = [c for p in ps for c in p.hole] + self._board
        if len(set(cards)) != len(cards):
            bad.append("a card appears twice")
        if self._started:
            if any(len(p.hole) != self.config.variant.hole_cards for p in ps):
                bad.append("a player has the wrong number of hole cards")
            expected = {Street.PREFLOP: 1 if self.config.variant.courchevel else 0,
                        Street.FLOP: 3, Street.TURN: 4, Street.RIVER: 5, Street.SHOWDOWN: 5}
            if not self._over and len(self._board) != expected[self._street]:
                bad.append("the board does not match the street")
        if self._to_act is not None:
            p = ps[self._to_act]
            if p.folded or p.all_in:
                bad.append("the player to act cannot act")
            if not self._round.needs_action(ps, p):
                bad.append("the player to act has nothing to decide")
        elif self._started and not self._over:
            bad.append("nobody is to act in a hand that is not over")
        if self._over:
            if self._paid != sum(p.committed for p in ps):
                bad.append("not every chip in the middle was awarded")
        else:
            level = self._round.level
            if any(p.bet > level for p in ps):
                bad.append("a bet is above the current bet")
        return bad
