"""Imported once by the render processes' fork server: the default deck's sprites drawn.

Every render process is forked from that server (:func:`bot.render.use_processes`)
and so starts with the card sprites of the default four-colour deck already drawn
(shared with the server until written), instead of drawing them again in each
process on its first pictures, which is when a burst of players sits down.
"""

from __future__ import annotations

from bot.render.sprites import preload
from bot.render.theme import DeckStyle

SPRITES = preload((DeckStyle.FOUR_COLOUR,))
