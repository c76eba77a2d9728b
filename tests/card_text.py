"""Expected texts written with the cards as the notation tests type them (``Ah Kc``), read
the way players see cards in text (``A♥ K♣``: :func:`bot.i18n.cards.written`)."""

from __future__ import annotations

import re

from bot.engine.cards import Card
from bot.i18n.cards import written

_CARD = re.compile(r"\b[2-9TJQKA][shdc]\b")


def symbols(text: str) -> str:
    """``"bob (Ad Ks 8s 8d) wins"`` as the bot writes it: ``"bob (A♦ K♠ 8♠ 8♦) wins"``."""
    return _CARD.sub(lambda m: written([Card.parse(m.group(0))]), text)


def all_symbols(texts: list[str]) -> list[str]:
    return [symbols(t) for t in texts]
