"""The hole-card picture (bot.render.hole)."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from bot.engine.cards import parse_cards
from bot.render import render_hole_cards, sort_hole
from bot.render.canvas import inside, overlaps
from bot.render.hole import CARD_H, HEAD_H, PAD, WIDTH, draw_hole_cards
from bot.render.samples import hole_cards
from bot.render.theme import Theme, palette
from bot.render.views import HoleCardsView
from tests.render.pixels import border_is_plain, count_cards, load, mean_diff


def test_sorted_by_suit_then_rank() -> None:
    """Spades, hearts, clubs, diamonds; highest rank first within a suit."""
    cards = parse_cards("2d7hAc9sKhTs5c")
    assert [str(c) for c in sort_hole(cards)] == ["Ts", "9s", "Kh", "7h", "Ac", "5c", "2d"]


@pytest.mark.parametrize("hole", ["AsKs7h2d", "AsKs7h2d9c", "AsKs7h2d9cQh"])
def test_draws_the_right_number_of_distinct_cards(hole: str) -> None:
    """4, 5 or 6 cards are drawn, counted from the pixels, each region different."""
    view = HoleCardsView("Table", 3, parse_cards(hole))
    img = load(render_hole_cards(view))
    y = PAD + HEAD_H + 3
    assert count_cards(img, y) == len(view.cards)
    cv = draw_hole_cards(view)
    boxes = [p.extent for p in cv.placed if p.kind == "card"]
    assert len(boxes) == len(view.cards)
    crops = [img.crop(b) for b in boxes]
    for a, b in itertools.combinations(crops, 2):
        assert mean_diff(a, b) > 2
    for a, b in itertools.combinations(boxes, 2):
        assert not overlaps(a, b)


def test_cards_appear_in_sorted_order() -> None:
    """The drawn cards, left to right, are the sorted hand."""
    view = HoleCardsView("Table", 3, parse_cards("2d7hAcKh"))
    cv = draw_hole_cards(view)
    drawn = [p.card for p in sorted((p for p in cv.placed if p.kind == "card"),
                                    key=lambda p: p.extent[0])]
    assert drawn == list(sort_hole(view.cards))


def test_board_and_label_only_when_the_board_is_out() -> None:
    """Preflop: no board row, no label; with a board: both, and the picture grows."""
    pre = draw_hole_cards(HoleCardsView("T", 1, parse_cards("AsKs7h2d"), label="ignored"))
    post = draw_hole_cards(hole_cards())
    assert not any("You have" in p.text for p in pre.placed)
    assert [p.text for p in post.placed if p.kind == "text"][-1] == hole_cards().label
    assert sum(p.kind == "card" for p in post.placed) == 4 + 3
    assert post.img.height > pre.img.height >= CARD_H


def test_two_boards_each_with_what_the_player_has_on_it() -> None:
    """A double board: "Board 1" and its cards, what the player has on it, then "Board 2"
    the same, each inside the picture and none overlapping; one board stays "Board"."""
    one = hole_cards()
    two = replace(one, second_board=parse_cards("2c 2d 9h"), second_label="Three of a kind, twos")
    cv = draw_hole_cards(two)
    named = [(p.tag, p.text) for p in cv.placed if p.tag in ("board-label", "label")]
    assert named == [("board-label", "Board 1"), ("label", one.label),
                     ("board-label", "Board 2"), ("label", two.second_label)], named
    rows = [p.extent for p in cv.placed if p.tag in ("board", "board-label", "label")]
    assert len([p for p in cv.placed if p.kind == "card"]) == 4 + 3 + 3
    assert all(inside(b, (0, 0, WIDTH, cv.img.height)) for b in rows)
    assert not any(overlaps(a, b) for a, b in itertools.combinations(rows, 2))
    assert cv.img.height > draw_hole_cards(one).img.height
    assert "Board" in [p.text for p in draw_hole_cards(one).placed if p.kind == "text"]


@pytest.mark.parametrize("theme", list(Theme))
def test_text_stays_in_its_box_and_off_the_edges(theme: Theme) -> None:
    """Every text (even a very long table name or hand) is inside its box, whole (wrapped,
    never cut); the frame is empty."""
    view = HoleCardsView("A table with a very very long name that goes on and on and on " * 2,
                         123456789, parse_cards("AhKs7hQs5d6c"), parse_cards("2c3c4c5c6c"),
                         label="Straight flush, six high, and a description far too long " * 2,
                         game="Pot-limit six-card Omaha \u00b7 5/10")
    cv = draw_hole_cards(view, theme)
    texts = [p for p in cv.placed if p.kind == "text"]
    for p in texts:
        assert inside(p.extent, p.limit), p.text
        assert inside(p.extent, (0, 0, cv.img.width, cv.img.height)), p.text
        assert not p.cut and "\u2026" not in p.text
    for tag, whole in (("title", view.table_name), ("label", view.label)):
        lines = [p.text for p in texts if p.tag == tag]
        assert len(lines) > 1 and " ".join(lines) == " ".join(whole.split())
    img = load(cv.png())
    assert border_is_plain(img, 12, palette(theme).background)


def test_cards_fill_the_width_a_phone_shows() -> None:
    """Four, five or six cards: the picture stays WIDTH wide (what a phone shrinks to
    400) and the row of cards fills it, margins aside; fewer cards are taller."""
    heights = []
    for hole in ("AsKs7h2d", "AsKs7h2d9c", "AsKs7h2d9cQh"):
        cv = draw_hole_cards(HoleCardsView("T", 1, parse_cards(hole)))
        img = load(cv.png())
        assert img.width == WIDTH
        assert count_cards(img, PAD + HEAD_H + 3) == len(hole) // 2
        cards = [p.extent for p in cv.placed if p.kind == "card"]
        heights.append(cards[0][3] - cards[0][1])
        span = max(b[2] for b in cards) - min(b[0] for b in cards)
        assert span >= WIDTH - 2 * PAD - 100 or heights[-1] == CARD_H
    assert heights[0] == CARD_H and heights[0] > heights[1] > heights[2]


def test_refuses_an_impossible_hand() -> None:
    """Seven hole cards is not an Omaha hand."""
    with pytest.raises(ValueError):
        render_hole_cards(HoleCardsView("T", 1, parse_cards("AsKsQsJsTs9s8s")))


def test_sample_label_is_the_evaluators_label() -> None:
    """The 'you have' text is the caller's evaluate.hand_label, drawn as given."""
    from bot.engine.evaluate import hand_label
    from bot.engine.variants import VARIANTS

    view = hole_cards()
    assert view.label == hand_label(view.cards, view.board, VARIANTS["omaha_hilo"])
    texts = [p.text for p in draw_hole_cards(view).placed]
    assert view.label in texts
