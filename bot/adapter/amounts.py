"""Chip amounts as players type them: ``5000``, ``5,000``, ``5 000``, ``5k``, ``2.5m``.

Amounts are typed as text in every command that takes chips (buy-ins, top-ups,
bets, raises, grants, the economy's settings) so that every mistake gets a
clear answer instead of the client's silent refusal: :func:`parse_amount`
refuses the rest (negative, zero, above 10^15, words) with
:class:`bot.storage.InvalidAmount`, which the error handler shows privately.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from bot.i18n import Phrase
from bot.storage import MAX_AMOUNT, InvalidAmount

__all__ = ["parse_amount"]

_SUFFIX = {"": 1, "k": 10**3, "m": 10**6, "b": 10**9, "t": 10**12}
_AMOUNT = re.compile(
    r"^([+-]?)\s*([0-9]+(?:[,_ ][0-9]+)*(?:\.[0-9]+)?)\s*([kmbt]?)$", re.IGNORECASE
)


def parse_amount(text: str, what: str = "amount") -> int:
    """A positive whole number of chips from what a player typed, or InvalidAmount.

    ``5000``, ``5,000``, ``5 000``, ``5_000``, ``5k``, ``2.5m`` are understood;
    negative, zero, fractional chips, more than 10^15 and words are refused
    with a message that says why.
    """
    raw = str(text).strip()
    match = _AMOUNT.match(raw)
    noun = Phrase("what." + re.sub(r"[- ]", "_", what))
    if match is None:
        shown = raw if len(raw) <= 30 else raw[:27] + "..."
        raise InvalidAmount(Phrase("refuse.amount_format", what=noun, shown=repr(shown)))
    sign, digits, suffix = match.groups()
    digits = re.sub(r"[,_ ]", "", digits)
    try:
        value = Decimal(digits) * _SUFFIX[suffix.lower()]
    except InvalidOperation:
        raise InvalidAmount(Phrase("refuse.amount_whole", what=noun)) from None
    if sign == "-" and value != 0:
        raise InvalidAmount(Phrase("refuse.amount_negative", what=noun))
    if value != value.to_integral_value():
        raise InvalidAmount(Phrase("refuse.amount_fraction", what=noun))
    amount = int(value)
    if amount <= 0:
        raise InvalidAmount(Phrase("refuse.amount_zero", what=noun))
    if amount > MAX_AMOUNT:
        raise InvalidAmount(Phrase("refuse.amount_too_large", what=noun, max=MAX_AMOUNT))
    return amount
