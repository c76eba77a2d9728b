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
"""

from __future__ import annotations

from bot.engine.betting import LegalActions
from bot.engine.variants import Structure

__all__ = [
    "cannot_all_in",
    "cannot_check",
    "cannot_raise",
    "options",
    "out_of_range",
    "say_how_much",
]


def _n(chips: int) -> str:
    return f"{chips:,}"


def _head(legal: LegalActions) -> str:
    """``You face a bet of 6`` / ``No bet to you`` / ``Nothing to call``."""
    if legal.can_check:
        return "No bet to you" if legal.is_bet else "Nothing to call"
    return f"You face a bet of {_n(legal.current_bet)}"


def _call(legal: LegalActions) -> str:
    """``call 6``, ``call 4 more`` (with a blind in), ``call all-in for 40``."""
    if legal.call_is_all_in:
        return f"call all-in for {_n(legal.to_call)}"
    return f"call {_n(legal.to_call)}" + (" more" if legal.bet else "")


def _sizes(legal: LegalActions, structure: Structure | None) -> tuple[str, list[str]]:
    """The bet or raise the player may make, and its commands ("" when none)."""
    lo, hi = legal.min_raise_to, legal.max_raise_to
    if lo is None or hi is None:
        return "", []
    bet = legal.is_bet
    if lo == hi == legal.all_in_to:
        return (f"bet all-in for {_n(lo)}" if bet else f"raise all-in to {_n(lo)}"), ["/allin"]
    words = "bet" if bet else "raise to"
    command = "/bet" if bet else "/raise"
    if lo == hi:
        return f"{words} {_n(lo)}", [command]
    note = ""
    if hi == legal.all_in_to:
        note = " (all-in)"
    elif structure is Structure.POT_LIMIT:
        note = " (pot limit)"
    return f"{words} between {_n(lo)} and {_n(hi)}{note}", [command]


def options(legal: LegalActions, structure: Structure | None = None) -> str:
    """The player's options as one sentence and the commands that do them.

    ``You face a bet of 6: call 6, or raise to between 12 and 24 (pot limit).
    Use /call or /raise.`` / ``No bet to you: check, or bet between 2 and 7.
    Use /check or /bet.`` / ``You face a bet of 50: call all-in for 40, or
    fold. Use /call or /fold.``
    """
    first, commands = ("check", ["/check"]) if legal.can_check else (_call(legal), ["/call"])
    sized, more = _sizes(legal, structure)
    if sized:
        choices, commands = f"{first}, or {sized}", commands + more
    else:
        choices, commands = f"{first}, or fold", [*commands, "/fold"]
    use = " or ".join(commands)
    return f"{_head(legal)}: {choices}. Use {use}."


def _what(legal: LegalActions, amount: int) -> str:
    return f"A bet of {_n(amount)}" if legal.is_bet else f"A raise to {_n(amount)}"


def out_of_range(legal: LegalActions, amount: int, structure: Structure | None = None) -> str:
    """A bet or raise outside the range the rules allow (the range is known)."""
    lo, hi = legal.min_raise_to, legal.max_raise_to
    assert lo is not None and hi is not None, "out_of_range needs a range"
    what = _what(legal, amount)
    if structure is Structure.FIXED_LIMIT and lo == hi and hi < legal.all_in_to:
        size = "bet is" if legal.is_bet else "raise is to"
        why = f"{what} is not allowed: in fixed limit the {size} exactly {_n(lo)}."
    elif amount < lo:
        why = f"{what} is too small."
    elif amount > legal.all_in_to:
        why = f"{what} is more than you have."
    elif structure is Structure.POT_LIMIT:
        why = f"{what} is more than the pot limit allows."
    else:
        why = f"{what} is more than the limit allows."
    return f"{why} {options(legal, structure)}"


def _no_raise_reason(legal: LegalActions) -> str:
    if legal.all_in_to <= legal.current_bet:
        return f"you have only {_n(legal.all_in_to - legal.bet)} chips"
    reason = legal.no_raise_reason or "the rules do not allow it now"
    return reason.split(":", 1)[0]


def cannot_raise(legal: LegalActions, structure: Structure | None = None) -> str:
    """A bet or raise (or an all-in for more than a call) when none is allowed, and why."""
    verb = "bet" if legal.is_bet else "raise"
    return f"You cannot {verb}: {_no_raise_reason(legal)}. {options(legal, structure)}"


def cannot_all_in(legal: LegalActions, structure: Structure | None = None) -> str:
    """All-in for more than the limit (pot limit, fixed limit) allows."""
    hi = legal.max_raise_to
    verb = "bet" if legal.is_bet else "raise to"
    limit = f" (the most you can {verb} is {_n(hi)})" if hi is not None else ""
    return (
        f"You cannot go all-in for {_n(legal.all_in_to)} here{limit}. "
        f"{options(legal, structure)}"
    )


def cannot_check(legal: LegalActions, structure: Structure | None = None) -> str:
    """A check facing a bet."""
    return f"You cannot check. {options(legal, structure)}"


def say_how_much(legal: LegalActions, structure: Structure | None = None) -> str:
    """A bet or raise without an amount."""
    return f"Say how much. {options(legal, structure)}"
