"""Chip amounts as players type them (bot.adapter.amounts)."""

from __future__ import annotations

import pytest

from bot.adapter.amounts import parse_amount
from bot.storage import MAX_AMOUNT, InvalidAmount


@pytest.mark.parametrize(
    ("text", "value"),
    [("5000", 5000), ("5,000", 5000), ("5 000", 5000), ("5_000", 5000), ("5k", 5000),
     ("2.5m", 2_500_000), ("1K", 1000), ("+7", 7), (" 12 ", 12), ("1000000000000000", MAX_AMOUNT)],
)
def test_parse_amount_understands_common_forms(text: str, value: int) -> None:
    """Players can type chips the way they write them."""
    assert parse_amount(text) == value


@pytest.mark.parametrize(
    ("text", "needle"),
    [("-5", "more than zero"), ("0", "more than zero"), ("0k", "more than zero"),
     ("1000000000000001", "too large"), ("2000t", "too large"), ("lots", "whole number"),
     ("1.5", "no fractions"), ("5e3", "whole number"), ("", "whole number"),
     ("12 chips", "whole number"), ("1,,", "whole number")],
)
def test_parse_amount_refuses_bad_input_with_a_reason(text: str, needle: str) -> None:
    """Negative, zero, absurd, fractional and wordy amounts are refused, saying why."""
    with pytest.raises(InvalidAmount, match=needle):
        parse_amount(text)
