"""What the player to act may do, in the words players use (pure).

A refusal names what was wrong, then the player's real options in poker
terms with the allowed range, then the commands that do them::

    A raise to 30 is more than the pot limit allows. You face a bet of 6:
    call 6, or raise to between 12 and 24 (pot limit). Use /call or /raise.

    You cannot raise: the betting is capped at 4 bets this round. You face a
    bet of 8: call 4, or fold. Use /call or /fold.

Everything is read from the engine's :class:`~bot.engine.betting.LegalActions`
(the range is the rules' range, never the stack as if it were the limit); the
structure only names the limit ("pot limit", "fixed limit"). A call that
takes the player's last chip says "all-in".

Each function returns a :class:`~bot.i18n.Phrase` composed of whole messages
(``opt.*``, ``refuse.*``, ``reason.*`` in the catalogs), worded in the reader's
language by the cogs; ``str()`` of it is the English above. The commands are
:class:`~bot.i18n.Command` names, so a Portuguese player reads ``/igualar``.
The engine's reason for refusing a raise is English (standard library only):
:func:`_no_raise_reason` maps each of its reasons to a message.
"""

from __future__ import annotations

from bot.engine.betting import FIXED_LIMIT_CAP, LegalActions
from bot.engine.variants import Structure
from bot.i18n import Command, Phrase

__all__ = [
    "cannot_check",
    "cannot_raise",
    "options",
    "out_of_range",
    "say_how_much",
]


def _head(legal: LegalActions) -> Phrase:
    """``You face a bet of 6`` / ``No bet to you`` / ``Nothing to call``."""
    if legal.can_check:
        return Phrase("opt.no_bet" if legal.is_bet else "opt.nothing_to_call")
    return Phrase("opt.facing", amount=legal.current_bet)


def _call(legal: LegalActions) -> Phrase:
    """``call 6``, ``call 4 more`` (with a blind in), ``call all-in for 40``."""
    if legal.call_is_all_in:
        return Phrase("opt.call_all_in", amount=legal.to_call)
    return Phrase("opt.call_more" if legal.bet else "opt.call", amount=legal.to_call)


def _sizes(legal: LegalActions, structure: Structure | None) -> tuple[Phrase | None, str]:
    """The bet or raise the player may make and its command (None when there is none)."""
    lo, hi = legal.min_raise_to, legal.max_raise_to
    if lo is None or hi is None:
        return None, ""
    verb = "bet" if legal.is_bet else "raise"
    if lo == hi == legal.all_in_to:
        return Phrase(f"opt.{verb}_all_in", amount=lo), "allin"
    if lo == hi:
        return Phrase(f"opt.{verb}", amount=lo), verb
    note = ""
    if hi == legal.all_in_to:
        note = "_all_in"
    elif structure is Structure.POT_LIMIT:
        note = "_pot_limit"
    return Phrase(f"opt.{verb}_range{note}", low=lo, high=hi), verb


def options(legal: LegalActions, structure: Structure | None = None) -> Phrase:
    """The player's options as one sentence and the commands that do them.

    ``You face a bet of 6: call 6, or raise to between 12 and 24 (pot limit).
    Use /call or /raise.`` / ``No bet to you: check, or bet between 2 and 7.
    Use /check or /bet.`` / ``You face a bet of 50: call all-in for 40, or
    fold. Use /call or /fold.``
    """
    first, command = (Phrase("opt.check"), "check") if legal.can_check else (_call(legal), "call")
    sized, other = _sizes(legal, structure)
    if sized is not None:
        choices = Phrase("opt.or_sized", first=first, sized=sized)
    else:
        choices, other = Phrase("opt.or_fold", first=first), "fold"
    use = Phrase("opt.either", a=Command(command), b=Command(other))
    return Phrase("opt.line", head=_head(legal), choices=choices, commands=use)


def _why(key: str, legal: LegalActions, structure: Structure | None, **values: object) -> Phrase:
    return Phrase("refuse.then_options", why=Phrase(key, **values),
                  options=options(legal, structure))


def out_of_range(legal: LegalActions, amount: int,
                 structure: Structure | None = None) -> Phrase:
    """A bet or raise outside the range the rules allow (the range is known)."""
    lo, hi = legal.min_raise_to, legal.max_raise_to
    assert lo is not None and hi is not None, "out_of_range needs a range"
    verb = "bet" if legal.is_bet else "raise"
    if structure is Structure.FIXED_LIMIT and lo == hi and hi < legal.all_in_to:
        return _why(f"refuse.{verb}_fixed", legal, structure, amount=amount, size=lo)
    if amount < lo:
        why = "too_small"
    elif amount > legal.all_in_to:
        why = "more_than_stack"
    elif structure is Structure.POT_LIMIT:
        why = "over_pot_limit"
    else:
        why = "over_limit"
    return _why(f"refuse.{verb}_{why}", legal, structure, amount=amount)


#: The engine's reasons for refusing a raise (English, standard library only), by their start.
_REASONS = (
    ("nobody left in the hand could call a bet", "reason.nobody_calls_bet"),
    ("nobody left in the hand could call a raise", "reason.nobody_calls_raise"),
    ("you do not have enough chips", "reason.not_enough_chips"),
    ("the short all-in did not reopen", "reason.not_reopened"),
    ("the betting is capped", "reason.capped"),
)


def _no_raise_reason(legal: LegalActions) -> Phrase:
    if legal.all_in_to <= legal.current_bet:
        return Phrase("reason.only_chips", count=legal.all_in_to - legal.bet)
    reason = legal.no_raise_reason or ""
    for start, key in _REASONS:
        if reason.startswith(start):
            return Phrase(key, count=FIXED_LIMIT_CAP)
    return Phrase("reason.not_now")


def cannot_raise(legal: LegalActions, structure: Structure | None = None) -> Phrase:
    """A bet or raise (or an all-in for more than a call) when none is allowed, and why."""
    key = "refuse.cannot_bet" if legal.is_bet else "refuse.cannot_raise"
    return Phrase(key, reason=_no_raise_reason(legal), options=options(legal, structure))


def cannot_check(legal: LegalActions, structure: Structure | None = None) -> Phrase:
    """A check facing a bet."""
    return _why("refuse.cannot_check", legal, structure)


def say_how_much(legal: LegalActions, structure: Structure | None = None) -> Phrase:
    """A bet or raise without an amount."""
    return _why("refuse.say_how_much", legal, structure)
