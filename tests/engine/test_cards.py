"""Cards, notation, the deck and the draw for the button (RULES.md section 1 and 3)."""

import random

import pytest

from bot.engine.cards import DECK, Card, CardError, Deck, card, draw_for_button, parse_cards


def test_section_1_deck_has_52_distinct_cards() -> None:
    """One standard deck, no jokers."""
    assert len(DECK) == 52 == len(set(DECK))
    assert all(DECK[c.index] is c for c in DECK)


def test_notation_round_trips() -> None:
    """Cards read and write as rank then suit."""
    for c in DECK:
        assert card(str(c)) is c
    assert parse_cards("AsTd 2c") == (card("As"), card("Td"), card("2c"))
    assert parse_cards("10h") == (Card(10, "h"),)


@pytest.mark.parametrize("bad", ["", "1s", "Ax", "AsK", "Zz"])
def test_bad_notation_is_refused(bad: str) -> None:
    """Unreadable cards raise a readable error."""
    with pytest.raises(CardError):
        card(bad)


def test_seeded_deck_is_reproducible_and_fixed_order_deals_in_order() -> None:
    """A seeded deck repeats; a given order deals from the top."""
    a = Deck(rng=random.Random(7)).order
    assert a == Deck(rng=random.Random(7)).order
    assert sorted(a, key=lambda c: c.index) == list(DECK)
    d = Deck(order=a)
    assert d.deal(2) == a[:2] and d.remaining == 50
    assert "s" not in repr(d).replace("left", "").replace("cards", "")


def test_section_3_draw_for_button_breaks_rank_ties_by_suit() -> None:
    """Highest card takes the button; spades > hearts > diamonds > clubs."""
    for seed in range(200):
        winner, drawn = draw_for_button([1, 2, 3, 4, 5], rng=random.Random(seed))
        best = drawn[winner]
        for c in drawn.values():
            assert (c.rank, "cdhs".index(c.suit)) <= (best.rank, "cdhs".index(best.suit))
