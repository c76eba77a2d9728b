"""Colour themes for the images and the two card colourings.

Discord shows images on a dark (#313338) or light (#ffffff) chat background;
each image carries its own opaque background so it reads on both, and the
player (or the table) can choose the palette that matches their client.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

RGB = tuple[int, int, int]


class Theme(StrEnum):
    """Image palette: ``"dark"`` or ``"light"``."""

    DARK = "dark"
    LIGHT = "light"


class DeckStyle(StrEnum):
    """Card colouring: four colours (spades black, hearts red, diamonds blue, clubs green),
    the classic two (black spades and clubs, red hearts and diamonds), or four colours
    that stay apart for colour-blind players (protanopia, deuteranopia, tritanopia: the
    four-colour deck's hearts and clubs turn the same olive under the first two)."""

    FOUR_COLOUR = "four_colour"
    TWO_COLOUR = "two_colour"
    COLOUR_BLIND = "colour_blind"


@dataclass(frozen=True, slots=True)
class Palette:
    background: RGB
    panel: RGB  # boxes drawn on the background (seat boxes, rows)
    panel_edge: RGB
    panel_dim: RGB  # a folded or sitting-out seat
    text: RGB
    text_dim: RGB
    accent: RGB  # whose turn it is; winners
    felt: RGB
    felt_edge: RGB  # the rail around the felt
    felt_text: RGB
    felt_text_dim: RGB
    slot: RGB  # outline of a board card not dealt yet
    money: RGB
    danger: RGB  # all-in, a clock running out
    chip: RGB
    chip_edge: RGB


PALETTES: dict[Theme, Palette] = {
    Theme.DARK: Palette(
        background=(30, 31, 34),
        panel=(49, 51, 56),
        panel_edge=(78, 80, 88),
        panel_dim=(38, 39, 43),
        text=(242, 243, 245),
        text_dim=(148, 155, 164),
        accent=(250, 196, 60),
        felt=(22, 101, 66),
        felt_edge=(66, 44, 30),
        felt_text=(240, 244, 240),
        felt_text_dim=(170, 205, 185),
        slot=(48, 130, 92),
        money=(120, 220, 140),
        danger=(240, 80, 80),
        chip=(214, 52, 52),
        chip_edge=(250, 250, 250),
    ),
    Theme.LIGHT: Palette(
        background=(242, 243, 245),
        panel=(255, 255, 255),
        panel_edge=(196, 201, 206),
        panel_dim=(226, 228, 232),
        text=(30, 31, 34),
        text_dim=(98, 104, 112),
        accent=(214, 140, 0),
        felt=(38, 132, 86),
        felt_edge=(120, 82, 52),
        felt_text=(255, 255, 255),
        felt_text_dim=(205, 235, 215),
        slot=(72, 160, 114),
        money=(20, 128, 60),
        danger=(200, 30, 40),
        chip=(214, 52, 52),
        chip_edge=(250, 250, 250),
    ),
}


def palette(theme: Theme | str) -> Palette:
    return PALETTES[Theme(theme)]


#: Ink for each suit in each deck style.
SUIT_INK: dict[DeckStyle, dict[str, RGB]] = {
    DeckStyle.FOUR_COLOUR: {
        "s": (24, 24, 28), "h": (206, 22, 32), "d": (18, 96, 204), "c": (18, 134, 60),
    },
    DeckStyle.TWO_COLOUR: {
        "s": (24, 24, 28), "h": (206, 22, 32), "d": (206, 22, 32), "c": (24, 24, 28),
    },
    # black, vermilion, blue, mauve: chosen by simulating the three dichromacies
    # (Machado 2009) on the card face; tests/render/test_theme.py checks the distances
    DeckStyle.COLOUR_BLIND: {
        "s": (24, 24, 28), "h": (221, 51, 0), "d": (51, 119, 255), "c": (160, 110, 150),
    },
}
