"""The deck's colours seen by colour-blind players (issue 31).

Each dichromacy is simulated with the matrices of Machado, Oliveira and Fernandes (2009,
"A physiologically-based model for simulation of color vision deficiency", severity 1.0,
applied to linear RGB), then the suit inks are compared in CIELAB (D65): the
colour-blind deck keeps every pair of suits at least :data:`APART` apart for normal
vision, protanopia, deuteranopia and tritanopia. The four-colour deck does not: its
hearts and clubs fall to about 19 (protanopia) and 23 (deuteranopia), the "same olive".
"""

from __future__ import annotations

import itertools

import pytest

from bot.render.cardart import FACE
from bot.render.theme import SUIT_INK, DeckStyle

RGB = tuple[float, float, float]
MACHADO = {
    "normal": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
#: The smallest CIELAB distance (ΔE*ab) between two suits, in every vision.
APART = 35.0


def _linear(rgb: tuple[int, int, int]) -> RGB:
    def one(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = rgb
    return one(r), one(g), one(b)


def _seen(rgb: tuple[int, int, int], vision: str) -> RGB:
    """Linear RGB as a dichromat sees it (clipped to the screen's gamut)."""
    lin = _linear(rgb)
    rows = MACHADO[vision]
    r, g, b = (min(1.0, max(0.0, sum(m * c for m, c in zip(row, lin, strict=True))))
               for row in rows)
    return r, g, b


def _lab(lin: RGB) -> RGB:
    r, g, b = lin
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def closest(style: DeckStyle, vision: str) -> tuple[float, str, str]:
    """The two suits nearest each other in ``vision``, and their distance."""
    lab = {suit: _lab(_seen(ink, vision)) for suit, ink in SUIT_INK[style].items()}
    return min((sum((p - q) ** 2 for p, q in zip(lab[a], lab[b], strict=True)) ** 0.5, a, b)
               for a, b in itertools.combinations(lab, 2))


@pytest.mark.parametrize("vision", list(MACHADO))
def test_the_colour_blind_deck_keeps_all_four_suits_apart(vision: str) -> None:
    distance, a, b = closest(DeckStyle.COLOUR_BLIND, vision)
    assert distance >= APART, (vision, a, b, distance)


@pytest.mark.parametrize("vision", ["protanopia", "deuteranopia"])
def test_the_four_colour_deck_loses_hearts_from_clubs_as_reported(vision: str) -> None:
    """What issue 31 saw: the simulation and threshold tell the failing deck apart."""
    distance, a, b = closest(DeckStyle.FOUR_COLOUR, vision)
    assert {a, b} == {"h", "c"} and distance < APART, (distance, a, b)


def test_every_suit_of_the_colour_blind_deck_reads_on_the_card_face() -> None:
    """WCAG contrast of each ink on the card's face: at least 3:1 (large text, the indices)."""
    def luminance(rgb: tuple[int, int, int]) -> float:
        r, g, b = _linear(rgb)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    face = luminance(FACE)
    for suit, ink in SUIT_INK[DeckStyle.COLOUR_BLIND].items():
        assert (face + 0.05) / (luminance(ink) + 0.05) >= 3.0, suit
