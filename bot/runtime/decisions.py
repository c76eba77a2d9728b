"""Players' decisions as typed values: requests, automatic decisions and pre-actions (pure).

* :func:`choose_action` turns what a player asked for (an engine
  :class:`~bot.engine.events.ActionKind` and an amount) into the engine's
  :class:`~bot.engine.betting.Action`, or a polite :class:`IllegalMove`.
* :func:`automatic` is the decision made for a player without asking
  (RULES.md section 8 and the pre-actions), with its :class:`Source`.
* :func:`stale_pre_actions` says which pre-actions a bet or a new street
  cancels.
* Strings exist only at the boundaries: :func:`stored_kind` and
  :func:`parse_kind` for the database and ``custom_id`` values.

Pre-actions, as decided here: "check/fold" (check, or fold to a bet) and
"call any" (call whatever stands) answer the situation the player saw, so a
bet or a new street cancels them (the player is told); "fold to any bet" is a
standing order for the rest of the hand. A decision made by a pre-action
counts as the player's own: it breaks a row of timeouts (RULES.md 8).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.engine.betting import Action, LegalActions
from bot.engine.cards import parse_cards
from bot.engine.events import ActionKind
from bot.engine.hand import Hand
from bot.engine.variants import Structure
from bot.i18n import Phrase
from bot.runtime import refusals
from bot.runtime.errors import IllegalMove
from bot.runtime.seating import PreAction, Seat

__all__ = [
    "SHOW",
    "Decision",
    "Source",
    "automatic",
    "choose_action",
    "parse_kind",
    "replay_stored",
    "stale_pre_actions",
    "stored_action",
    "stored_kind",
    "timed_out",
]

#: Stored kinds of the answers to the run-it-twice question (bot.runtime.table.run_twice).
RUN_TWICE, RUN_ONCE = "twice", "once"
#: The stored kind of cards shown after a hand (bot.runtime.table.after_hand).
SHOW = "show"


class Source(StrEnum):
    """Who made a decision (stored with each action; shown after the action's text)."""

    PLAYER = "player"
    TIMEOUT = "timeout"
    LEAVE = "leave"
    PRE_ACTION = "pre-action"
    SIT_OUT = "sitout"

    @property
    def note(self) -> str:
        """What the table is told after the action ("" for the player's own)."""
        return _NOTES[self]

    @classmethod
    def own(cls, source: str) -> bool:
        """Whether an action of ``source`` (as stored) was the player's own decision in the
        hand: made by them now or by a pre-action they chose in it; not a timeout, a
        sitting-out player's or a leaving player's fold (:mod:`bot.runtime.tournament.idle`)."""
        return source in (cls.PLAYER, cls.PRE_ACTION)


_NOTES = {
    Source.PLAYER: "",
    Source.TIMEOUT: " (time ran out)",
    Source.LEAVE: " (leaving)",
    Source.PRE_ACTION: " (pre-action)",
    Source.SIT_OUT: " (sitting out)",
}


@dataclass(frozen=True, slots=True)
class Decision:
    """One action for the engine and who made it."""

    action: Action
    source: Source = Source.PLAYER


# The database and custom ids say "allin"; the engine's kind is ActionKind.ALL_IN.
_STORED = {kind: kind.value for kind in ActionKind} | {ActionKind.ALL_IN: "allin"}
_PARSED = {text: kind for kind, text in _STORED.items()}


def stored_kind(kind: ActionKind) -> str:
    """The kind as the database and ``custom_id`` values write it."""
    return _STORED[kind]


def parse_kind(text: str) -> ActionKind:
    """The kind a stored or ``custom_id`` string names; ``IllegalMove`` for anything else."""
    try:
        return _PARSED[text.strip().lower()]
    except KeyError:
        raise IllegalMove(Phrase("refuse.unknown_action", action=repr(text))) from None


def stored_action(kind: str, amount: int | None) -> Action:
    """The engine's action for a stored ``(kind, amount)`` (``ValueError`` if unreadable)."""
    try:
        parsed = _PARSED[kind]
    except KeyError:
        raise ValueError(f"unknown action {kind!r}") from None
    if parsed in (ActionKind.BET, ActionKind.RAISE) and amount is None:
        raise ValueError(f"{kind} needs an amount")
    return Action(parsed, amount)


def replay_stored(
    hand: Hand, seat: int, kind: str, amount: int | None, cards: Sequence[str] = ()
) -> None:
    """Play one stored action again on ``hand``: a betting action, an answer to the
    run-it-twice question, or ``cards`` shown after the hand (kind :data:`SHOW`)
    (``ValueError``/``IllegalAction`` if it does not fit)."""
    if kind in (RUN_TWICE, RUN_ONCE):
        hand.vote_run_twice(seat, kind == RUN_TWICE)
    elif kind == SHOW:
        hand.show_after(seat, parse_cards(cards))
    else:
        hand.act(seat, stored_action(kind, amount))


def _check_or_fold(legal: LegalActions) -> Action:
    return Action.check() if legal.can_check else Action.fold()


def timed_out(legal: LegalActions) -> Decision:
    """The decision taken when time runs out (RULES.md 8): check if allowed, otherwise fold."""
    return Decision(_check_or_fold(legal), Source.TIMEOUT)


def choose_action(
    kind: ActionKind, amount: int | None, legal: LegalActions, structure: Structure | None = None
) -> Action:
    """What the player means by ``kind`` and ``amount``; polite errors for the impossible.

    Every refusal names the player's real options and range (:mod:`.refusals`);
    ``structure`` only names the limit in them.
    """
    if kind is ActionKind.FOLD:
        return Action.fold()
    if kind is ActionKind.CHECK:
        if not legal.can_check:
            raise IllegalMove(refusals.cannot_check(legal, structure))
        return Action.check()
    if kind is ActionKind.CALL:
        return Action.check() if legal.can_check else Action.call()
    if kind is ActionKind.ALL_IN:
        return _all_in(legal, structure)
    return _sized(amount, legal, structure)


def _all_in(legal: LegalActions, structure: Structure | None) -> Action:
    """``/allin`` means "put in as much as the rules let me" (RULES.md section 5):

    * raising (or betting) is allowed: the largest legal raise, that is the whole
      stack in no limit, or when the stack is within the limit, else the limit's
      most (pot limit: the pot raise; fixed limit: the one fixed raise), never
      more than the rules allow;
    * no raise is allowed (the stack does not cover more than the call, a short
      all-in did not reopen the betting for a player who already acted, the
      fixed-limit cap, nobody left who could call a raise): a call, all-in when
      the call takes the whole stack;
    * nothing to call and no bet allowed: refused, naming the options (the
      rules then let the player put in nothing; a check is not what ``/allin``
      asks for).
    """
    high = legal.max_raise_to
    if high is not None:
        if legal.all_in_to <= high:
            return Action.all_in()
        return Action.bet(high) if legal.is_bet else Action.raise_to(high)
    if legal.to_call == 0:
        raise IllegalMove(refusals.cannot_raise(legal, structure))
    return Action.all_in() if legal.call_is_all_in else Action.call()


def _sized(amount: int | None, legal: LegalActions, structure: Structure | None) -> Action:
    """A bet or raise to ``amount`` (the whole stack is an all-in)."""
    if amount is None:
        if legal.min_raise_to is None:
            raise IllegalMove(refusals.cannot_raise(legal, structure))
        raise IllegalMove(refusals.say_how_much(legal, structure))
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise IllegalMove(Phrase("refuse.amount_whole", what=Phrase("what.amount")))
    if amount <= 0:
        raise IllegalMove(Phrase("refuse.amount_positive"))
    low, high = legal.min_raise_to, legal.max_raise_to
    call_only = legal.all_in_to <= legal.bet + legal.to_call
    if amount == legal.all_in_to and (call_only or (high is not None and amount <= high)):
        return Action.all_in()
    if low is None or high is None:
        raise IllegalMove(refusals.cannot_raise(legal, structure))
    if not low <= amount <= high:
        raise IllegalMove(refusals.out_of_range(legal, amount, structure))
    return Action.bet(amount) if legal.is_bet else Action.raise_to(amount)


def automatic(seat: Seat, legal: LegalActions, *, blinded_off: bool = False) -> Decision | None:
    """The decision made for ``seat`` without asking, or None when the player decides.

    ``blinded_off``: a sitting-out player is checked or folded at once (tournaments).
    A one-shot pre-action is used up here.
    """
    if seat.leaving:
        return Decision(Action.fold(), Source.LEAVE)
    if seat.clock_sat_out or (blinded_off and seat.sitting_out):
        return Decision(_check_or_fold(legal), Source.SIT_OUT)
    pre = seat.pre_action
    if pre is None:
        return None
    if pre is not PreAction.FOLD_TO_BET:
        seat.pre_action = None
    if pre is PreAction.CALL_ANY:
        return Decision(Action.check() if legal.can_check else Action.call(), Source.PRE_ACTION)
    return Decision(_check_or_fold(legal), Source.PRE_ACTION)


def stale_pre_actions(seats: Iterable[Seat], actor: int | None) -> list[Seat]:
    """Seats whose one-shot pre-action a bet by ``actor`` (None: a new street) cancels."""
    return [
        s
        for s in seats
        if s.number != actor and s.pre_action in (PreAction.CHECK_FOLD, PreAction.CALL_ANY)
    ]
