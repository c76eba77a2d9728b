"""Every card sprite the pictures draw, drawn ahead of their first use.

The sizes live with the layouts that draw them (:mod:`.boards`, :mod:`.hole`,
:mod:`.showdown`, :mod:`.table`), so this module sits above them; the sprites
themselves are :mod:`.cardart`'s, cached per process.
"""

from __future__ import annotations

from bot.engine.cards import DECK
from bot.render import boards, front, hole, showdown, table
from bot.render.cardart import card_image
from bot.render.theme import DeckStyle


def sprite_heights() -> tuple[int, ...]:
    """Every card face height the pictures draw (:func:`preload`'s default)."""
    return tuple(sorted({
        *(hole.card_height(n) for n in (4, 5, 6)), hole.BOARD_H, boards.BOARD_H,
        front.SHOWN_H, showdown.BOARD_H, *(showdown.hole_height(n) for n in (4, 5, 6)),
        showdown.BEST_H}))


def preload(styles: tuple[DeckStyle | str, ...] = tuple(DeckStyle),
            heights: tuple[int, ...] = ()) -> int:
    """Draw every sprite the pictures use now rather than on first use; returns how many.

    Optional (sprites are drawn lazily and cached anyway): a bot can run it in a
    worker thread at start-up so that no player waits for a cold card
    (about 2 seconds per deck style on one core).
    """
    count = 0
    for style in styles:
        for height in heights or sprite_heights():
            for c in DECK:
                card_image(c, height, style)
                count += 1
    card_image(None, table.MINI_H)
    return count + 1
