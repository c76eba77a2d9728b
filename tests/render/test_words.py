"""The pictures' words in the view's language (read from the canvas record, not OCR)."""

from __future__ import annotations

import dataclasses

from bot.render import samples
from bot.render.canvas import Canvas
from bot.render.fonts import drawable
from bot.render.hole import draw_hole_cards
from bot.render.leaderboard import draw_leaderboard
from bot.render.showdown import draw_showdown
from bot.render.table import draw_table
from bot.render.views import LeaderboardView


def texts(cv: Canvas) -> list[str]:
    """What was drawn, as the view asked for it (the font draws letters without their
    accents: ``drawable``, so "Mão" is drawn "Mao")."""
    return [p.text for p in cv.placed if p.kind == "text"]


def d(text: str) -> str:
    return drawable(text)


def test_the_live_table_in_portuguese() -> None:
    view = dataclasses.replace(samples.full_table(), locale="pt-BR")
    drawn = texts(draw_table(view))
    assert d("Mão #1234") in drawn  # a hand number is a name, not a quantity: no separator
    assert "FLOP" in drawn  # the seed document keeps the street names
    assert "Pote 1.252.757" in drawn  # every chip in the middle, Portuguese separators
    assert "Desistiu" in drawn and "Folded" not in drawn
    assert not any("Pot " in t for t in drawn)


def test_the_finished_table_in_latin_american_spanish() -> None:
    view = dataclasses.replace(samples.finished_table(), locale="es-419")
    drawn = " | ".join(texts(draw_table(view)))
    assert "Pozo principal" in drawn
    assert "Pozo secundario 1" in drawn or "Secundario 1" in drawn
    assert " alta" in drawn and " baja" in drawn  # the high and low halves
    assert "Main pot" not in drawn and " high" not in drawn


def test_the_showdown_in_italian() -> None:
    view = dataclasses.replace(samples.showdown(), locale="it")
    drawn = texts(draw_showdown(view))
    english = texts(draw_showdown(samples.showdown()))
    assert "SHOWDOWN" in drawn
    assert any(t.startswith("vince ") for t in drawn)
    assert not any(t.startswith("wins ") for t in drawn)
    assert "Piatto principale" in drawn
    descriptions = [t for t in english if t.startswith(("Flush", "Straight", "Two pair", "Pair",
                                                        "Three", "Full", "Low"))]
    assert descriptions
    for text in descriptions:
        assert text not in drawn or text.startswith("Low "), text


def test_hole_cards_in_spanish() -> None:
    view = dataclasses.replace(samples.hole_cards(), locale="es-ES")
    drawn = texts(draw_hole_cards(view))
    assert "Mesa" in drawn
    assert "Tienes:" in drawn
    assert "Pareja de Reyes; sin baja" in drawn
    six = dataclasses.replace(samples.hole_cards_six(), game="", locale="it")
    assert "6 carte coperte" in texts(draw_hole_cards(six))


def test_leaderboard_and_english_by_default() -> None:
    empty = LeaderboardView("Top", (), locale="pt-BR")
    assert d("Ninguém aqui ainda") in texts(draw_leaderboard(empty))
    assert "Nobody here yet" in texts(draw_leaderboard(dataclasses.replace(empty, locale="fr")))
    assert "Pot 1,252,757" in texts(draw_table(samples.full_table()))
