"""Cards in text: rank and suit symbol in every language (issue 31)."""

from __future__ import annotations

from bot.engine.cards import DECK, parse_cards
from bot.i18n.cards import written


def test_cards_are_written_with_rank_and_suit_symbols_in_the_given_order() -> None:
    assert written(parse_cards("Ks 7h Td 2c As")) == "K\u2660 7\u2665 10\u2666 2\u2663 A\u2660"
    assert written(()) == ""


def test_every_card_is_written_differently_and_reads_back() -> None:
    texts = {written([c]) for c in DECK}
    assert len(texts) == 52
    back = {t[:-1].replace("10", "T") + "shdc"["\u2660\u2665\u2666\u2663".index(t[-1])]
            for t in texts}
    assert back == {str(c) for c in DECK}
