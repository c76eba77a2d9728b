"""Card faces and the back drawn by bot.render.cardart."""

from __future__ import annotations

import itertools

import pytest
from PIL import Image

from bot.engine.cards import DECK, card
from bot.render.cardart import (
    FACE,
    _sprite,
    card_image,
    card_width,
    faded_card_image,
    suit_ink,
)
from bot.render.theme import DeckStyle
from tests.render.pixels import mean_diff


def _on_white(img: Image.Image) -> Image.Image:
    base = Image.new("RGB", img.size, (255, 255, 255))
    base.paste(img, (0, 0), img)
    return base


def _ink_pixels(img: Image.Image, ink: tuple[int, int, int]) -> int:
    rgb = _on_white(img)
    return sum(n for n, c in rgb.getcolors(maxcolors=1 << 16) or []
               if all(abs(a - b) <= 12 for a, b in zip(c, ink, strict=True)))


def test_sizes_follow_the_poker_card_aspect() -> None:
    """A card is `height` tall and 2.5/3.5 of that wide, with transparent corners."""
    img = card_image(card("As"), 140)
    assert img.size == (card_width(140), 140) == (100, 140)
    assert img.mode == "RGBA"
    assert img.getpixel((0, 0))[3] == 0  # rounded corner
    assert img.getpixel((50, 70))[3] == 255


@pytest.mark.parametrize("style", list(DeckStyle))
def test_every_face_differs_from_every_other(style: DeckStyle) -> None:
    """All 52 faces and the back are pairwise visibly different."""
    imgs = [_on_white(card_image(c, 84, style)) for c in DECK]
    imgs.append(_on_white(card_image(None, 84, style)))
    for a, b in itertools.combinations(range(len(imgs)), 2):
        assert mean_diff(imgs[a], imgs[b]) > 1.0, (a, b)


def test_four_colour_deck_inks_each_suit_in_its_colour() -> None:
    """Four colours: spades black, hearts red, diamonds blue, clubs green."""
    expected = {"s": (24, 24, 28), "h": (206, 22, 32), "d": (18, 96, 204), "c": (18, 134, 60)}
    for suit, ink in expected.items():
        assert suit_ink(suit, DeckStyle.FOUR_COLOUR) == ink
        img = card_image(card("Q" + suit), 200, DeckStyle.FOUR_COLOUR)
        assert _ink_pixels(img, ink) > 2000, suit
        others = [v for k, v in expected.items() if v != ink]
        assert all(_ink_pixels(img, o) < 50 for o in others), suit


def test_two_colour_deck_has_red_diamonds_and_black_clubs() -> None:
    """The classic deck: diamonds share the hearts' red, clubs the spades' black."""
    red, black = (206, 22, 32), (24, 24, 28)
    assert _ink_pixels(card_image(card("9d"), 200, DeckStyle.TWO_COLOUR), red) > 2000
    assert _ink_pixels(card_image(card("9c"), 200, DeckStyle.TWO_COLOUR), black) > 2000
    assert _ink_pixels(card_image(card("9d"), 200, DeckStyle.TWO_COLOUR), (18, 96, 204)) < 50


def test_large_index_fills_the_top_left_corner() -> None:
    """The rank index is large: it covers a good share of the top-left quarter."""
    img = _on_white(card_image(card("Kh"), 280))
    corner = img.crop((0, 0, img.width // 2, int(img.height * 0.4)))
    ink = sum(n for n, c in corner.getcolors(maxcolors=1 << 16) or [] if c[1] < 120)
    assert ink / (corner.width * corner.height) > 0.12


def test_sprites_are_cached_and_faded_cards_are_translucent() -> None:
    """A size is drawn once; a faded card keeps the shape at 40% opacity."""
    assert card_image(card("2c"), 90) is card_image(card("2c"), 90)
    faded = faded_card_image(card("2c"), 90)
    assert faded.getpixel((30, 45))[3] == 255 * 2 // 5
    assert card_image(card("2c"), 90).getpixel((30, 45))[:3] == faded.getpixel((30, 45))[:3]


def test_face_background_is_the_face_colour() -> None:
    """The card face is the off-white the pixel tests look for."""
    img = card_image(card("5s"), 200)
    assert img.getpixel((img.width // 2, 6))[:3] == FACE


def test_too_small_card_is_refused() -> None:
    """A card too small to read is an error, not a smudge."""
    with pytest.raises(ValueError, match="cannot be read"):
        card_image(card("As"), 10)


def test_preload_draws_the_sprites_the_pictures_use() -> None:
    """After preload, a table render draws no new sprite (the cache only gets hits), and
    preload's sizes are every size the sample pictures draw."""
    from bot.render import preload, samples
    from bot.render.boards import BOARD_H
    from bot.render.hole import draw_hole_cards
    from bot.render.showdown import draw_showdown
    from bot.render.sprites import sprite_heights
    from bot.render.table import MINI_H, draw_table, render_table

    assert preload(("four_colour",), (BOARD_H,)) == 52 + 1
    before = _sprite.cache_info()
    render_table(samples.full_table())
    after = _sprite.cache_info()
    assert after.misses == before.misses
    assert after.hits > before.hits
    drawn: set[tuple[bool, int]] = set()
    for cv in (draw_table(samples.full_table()), draw_table(samples.finished_table()),
               draw_showdown(samples.showdown()), draw_showdown(samples.crowded_showdown()),
               draw_showdown(samples.crowded_showdown(7, 6)),
               draw_showdown(samples.crowded_showdown(9, 5)),
               draw_hole_cards(samples.hole_cards()), draw_hole_cards(samples.hole_cards_six())):
        drawn |= {(p.card is None, p.extent[3] - p.extent[1]) for p in cv.placed
                  if p.kind == "card"}
    assert {h for back, h in drawn if not back} <= set(sprite_heights())
    assert {h for back, h in drawn if back} == {MINI_H}
