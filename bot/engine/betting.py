"""One betting round: what a player may do, and doing it (RULES.md section 5).

The round keeps three numbers:

* ``level``: the current bet to match on this street. Preflop it starts at
  the big blind even when the big blind is all-in for less ("a short big
  blind does not lower the bet").
* ``increment``: the minimum raise increment, the largest full bet or raise
  increment so far this round and never less than the big blind (no limit,
  pot limit); in fixed limit the street's fixed bet size.
* ``full_bets``: full bets and raises made (fixed-limit cap of 4; preflop the
  big blind counts as the first).

A bet or raise is *full* when it increases the level by at least
``increment``; an all-in for less is incomplete: it raises the level but
neither the increment nor the count, so the next raise is one increment above
it (blinds 1-2, all-in bet of 1: the minimum raise is to 3; fixed limit 5-10,
bet 5, all-in to 7: the next raise is to 12).

Reopening: every player remembers ``acted_level``, the bet they last faced
(the level right after their own action; a check counts). A player who has
acted may raise again only when the level has since risen by at least a full
increment (bet 10, all-in to 15, all-in to 20: the first bettor may raise).

Betting needs an answer: when every other live player is all-in, nobody may
bet or raise, and the amount to call is capped at the largest bet among them
(more could only come back as an uncalled bet). A player with nothing to call
and nobody who could answer does not act.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.cards import Card
from bot.engine.events import Action, ActionKind, AntePosted
from bot.engine.variants import Structure

__all__ = [
    "FIXED_LIMIT_CAP",
    "Action",
    "ActionKind",
    "BettingRound",
    "IllegalAction",
    "LegalActions",
    "Player",
    "post_antes",
]

#: Fixed limit: at most a bet and three raises per round.
FIXED_LIMIT_CAP = 4


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message is for the player to read."""


@dataclass(frozen=True, slots=True)
class LegalActions:
    """What the player to act may do.

    ``to_call`` is what a call adds (capped by the stack); ``min_raise_to`` and
    ``max_raise_to`` bound a bet or raise (``None``: no bet or raise allowed,
    ``no_raise_reason`` says why); ``is_bet`` when nobody has bet yet this
    round; ``all_in_to`` the player's bet on this street if all-in; ``bet``
    what they have already bet on this street; ``current_bet`` the bet to
    match; ``pot`` every chip in the middle.
    Folding is always allowed.
    """

    seat: int
    can_check: bool
    to_call: int
    min_raise_to: int | None
    max_raise_to: int | None
    is_bet: bool
    all_in_to: int
    current_bet: int = 0
    pot: int = 0
    no_raise_reason: str | None = None
    bet: int = 0

    @property
    def can_call(self) -> bool:
        return self.to_call > 0

    @property
    def can_raise(self) -> bool:
        return self.min_raise_to is not None

    @property
    def call_is_all_in(self) -> bool:
        """Calling takes the player's whole stack."""
        return self.to_call > 0 and self.bet + self.to_call == self.all_in_to


class Player:
    """Mutable state of one dealt-in seat during a hand (internal to the engine)."""

    __slots__ = (
        "acted",
        "acted_level",
        "all_in",
        "bet",
        "committed",
        "folded",
        "hole",
        "newcomer",
        "pos",
        "seat",
        "show_requested",
        "stack",
        "start",
    )

    def __init__(self, seat: int, pos: int, stack: int, newcomer: bool = False) -> None:
        self.seat = seat
        self.pos = pos
        self.start = stack
        self.stack = stack
        self.bet = 0
        self.committed = 0
        self.folded = False
        self.all_in = False
        self.acted = False
        self.acted_level = 0
        self.hole: tuple[Card, ...] = ()
        self.show_requested = False
        self.newcomer = newcomer

    def put_in(self, chips: int, *, live: bool) -> None:
        """Move chips from the stack to the middle (a live bet counts toward calling)."""
        self.stack -= chips
        self.committed += chips
        if live:
            self.bet += chips
        if self.stack == 0:
            self.all_in = True


def post_antes(players: Sequence[Player], ante: int) -> list[AntePosted]:
    """Every player posts a dead ``ante``, in order (clockwise from the first seat after the
    button); one who cannot cover it posts all they have and is all-in (RULES.md 3)."""
    posted = []
    for p in players:
        chips = ante if ante < p.stack else p.stack
        p.put_in(chips, live=False)
        posted.append(AntePosted(p.seat, chips, p.all_in))
    return posted


class BettingRound:
    """The betting state of one street (see the module docstring)."""

    __slots__ = ("fixed", "full_bets", "increment", "level", "structure")

    def __init__(self, structure: Structure, unit: int, level: int, full_bets: int) -> None:
        """``unit``: the big blind (no limit, pot limit) or the street's fixed bet size."""
        self.structure = structure
        self.fixed = structure is Structure.FIXED_LIMIT
        self.increment = unit
        self.level = level
        self.full_bets = full_bets

    # -- queries ---------------------------------------------------------------
    def target(self, players: Sequence[Player], p: Player) -> tuple[int, int]:
        """``(bet p must reach to stay in, how many other live players could still bet)``."""
        others_able = 0
        top_other = 0
        level = self.level
        for q in players:
            if q is p or q.folded:
                continue
            # Only a player whose stack reaches past the current bet could answer a raise;
            # one who can at most call all-in for less is as good as all-in here.
            reach = q.bet if q.all_in else q.bet + q.stack
            if reach > level:
                others_able += 1
            if reach > top_other:
                top_other = reach
        if others_able:
            return level, others_able
        return (level if level < top_other else top_other), 0

    def needs_action(self, players: Sequence[Player], p: Player) -> bool:
        """Whether ``p`` still has a decision to make this round."""
        if p.folded or p.all_in:
            return False
        target, others_able = self.target(players, p)
        return p.bet < target or (not p.acted and others_able > 0)

    def legal(self, players: Sequence[Player], p: Player, pot: int) -> LegalActions:
        """What ``p`` may do; ``pot`` is every chip in the middle, this round's bets included."""
        target, others_able = self.target(players, p)
        owed = target - p.bet if target > p.bet else 0
        all_in_to = p.bet + p.stack
        level = self.level
        reason: str | None = None
        if others_able == 0:
            reason = "nobody left in the hand could call a " + ("bet" if level == 0 else "raise")
        elif all_in_to <= level:
            reason = "you do not have enough chips to raise"
        elif p.acted and level - p.acted_level < self.increment:
            reason = ("the short all-in did not reopen the betting: "
                      "you may only call or fold")
        elif self.fixed and self.full_bets >= FIXED_LIMIT_CAP:
            reason = f"the betting is capped at {FIXED_LIMIT_CAP} bets this round"
        min_to: int | None = None
        max_to: int | None = None
        if reason is None:
            full = level + self.increment
            lo = full if full < all_in_to else all_in_to
            if self.fixed:
                hi = lo
            elif self.structure is Structure.POT_LIMIT:
                cap = level + pot + (level - p.bet)
                hi = cap if cap < all_in_to else all_in_to
                if hi < lo:
                    hi = lo
            else:
                hi = all_in_to
            min_to, max_to = lo, hi
        return LegalActions(
            seat=p.seat,
            can_check=owed == 0,
            to_call=owed if owed < p.stack else p.stack,
            min_raise_to=min_to,
            max_raise_to=max_to,
            is_bet=level == 0,
            all_in_to=all_in_to,
            current_bet=level,
            pot=pot,
            no_raise_reason=reason,
            bet=p.bet,
        )

    # -- validation ------------------------------------------------------------
    @staticmethod
    def resolve(legal: LegalActions, bet: int, action: Action) -> tuple[ActionKind, int]:
        """Check ``action`` against ``legal``; return ``(kind as played, bet after)``.

        Raises :class:`IllegalAction` with a reason a player can read.
        """
        kind = action.kind
        if kind is ActionKind.FOLD:
            return kind, bet
        if kind is ActionKind.CHECK:
            if not legal.can_check:
                raise IllegalAction(f"you cannot check: {legal.to_call} to call")
            return kind, bet
        if kind is ActionKind.CALL:
            if legal.can_check:
                return ActionKind.CHECK, bet
            return kind, bet + legal.to_call
        if kind is ActionKind.ALL_IN:
            return BettingRound._resolve_all_in(legal, bet)
        if kind is ActionKind.BET or kind is ActionKind.RAISE:
            return BettingRound._resolve_bet_or_raise(legal, action.amount)
        raise IllegalAction(f"unknown action {kind!s}")  # pragma: no cover - all handled

    @staticmethod
    def _resolve_all_in(legal: LegalActions, bet: int) -> tuple[ActionKind, int]:
        """All-in is the call when the stack does not cover more; else a bet or raise."""
        if legal.all_in_to <= bet + legal.to_call:
            if legal.to_call == 0:
                raise IllegalAction("you have no chips left to bet")
            return ActionKind.CALL, legal.all_in_to
        if legal.min_raise_to is None or legal.max_raise_to is None:
            raise IllegalAction(f"you cannot go all-in: {legal.no_raise_reason}")
        return BettingRound._sized(legal, legal.all_in_to, legal.min_raise_to, legal.max_raise_to)

    @staticmethod
    def _resolve_bet_or_raise(legal: LegalActions, amount: object) -> tuple[ActionKind, int]:
        if type(amount) is not int:
            raise IllegalAction("the amount must be a whole number of chips")
        if legal.min_raise_to is None or legal.max_raise_to is None:
            verb = "bet" if legal.is_bet else "raise"
            raise IllegalAction(f"you cannot {verb}: {legal.no_raise_reason}")
        return BettingRound._sized(legal, amount, legal.min_raise_to, legal.max_raise_to)

    @staticmethod
    def _sized(legal: LegalActions, to: int, least: int, most: int) -> tuple[ActionKind, int]:
        """A bet or raise to ``to``, checked against its bounds ``least`` and ``most``."""
        is_bet = legal.is_bet
        if to > most:
            if is_bet:
                raise IllegalAction(f"the most you can bet is {most}")
            raise IllegalAction(f"the most you can raise to is {most}")
        if to < least:
            if is_bet:
                raise IllegalAction(f"the minimum bet is {least}")
            raise IllegalAction(f"the minimum raise is to {least}")
        return (ActionKind.BET if is_bet else ActionKind.RAISE), to

    # -- doing -------------------------------------------------------------------
    def apply(self, p: Player, kind: ActionKind, to: int) -> int:
        """Apply a resolved action; return the chips it put in."""
        p.acted = True
        if kind is ActionKind.FOLD:
            p.folded = True
            return 0
        if kind is ActionKind.CHECK:
            p.acted_level = self.level
            return 0
        chips = to - p.bet
        p.put_in(chips, live=True)
        if kind is ActionKind.CALL:
            p.acted_level = self.level
            return chips
        increase = to - self.level
        if increase >= self.increment:
            if not self.fixed:
                self.increment = increase
            self.full_bets += 1
        self.level = to
        p.acted_level = to
        return chips
