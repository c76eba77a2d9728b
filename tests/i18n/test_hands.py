"""Hand descriptions worded per language from the engine's English, exactly."""

from __future__ import annotations

import itertools
import re

import pytest

from bot.engine.cards import parse_cards
from bot.engine.evaluate import describe_high, describe_low, hand_label, low_value
from bot.engine.variants import VARIANTS
from bot.i18n import LOCALES, hands, translate

CATEGORIES = range(9)


def _every_high() -> list[str]:
    return sorted({describe_high(c << 20 | a << 16 | b << 12)
                   for c in CATEGORIES for a in range(2, 15) for b in range(2, 15)})


def test_english_is_the_engines_own_wording() -> None:
    """Worded back in English, every description the engine can make is unchanged."""
    highs = _every_high()
    assert len(highs) > 100
    for text in highs:
        assert hands.high("en", text) == text


@pytest.mark.parametrize("locale", [loc for loc in LOCALES if loc != "en"])
def test_every_description_is_worded_in_every_language(locale: str) -> None:
    """No English left, no message id, and two different hands never read the same."""
    worded = {text: hands.high(locale, text) for text in _every_high()}
    for english, text in worded.items():
        assert "rank." not in text and "hand." not in text, text
        assert not any(w in text for w in (" high", "full of", "Pair of", "Three of")), text
        assert text != english
    assert len(set(worded.values())) == len(worded)


@pytest.mark.parametrize(("locale", "english", "worded"), [
    # from the seed documents: Sequência, Trinca, Quadra, Dois Pares (pt); Color,
    # Escalera (es); Colore, Scala, Tris (it); the low: mão baixa / baja / Low
    ("pt-BR", "Straight, ace high", "Sequência, Ás alto"),
    ("pt-BR", "Three of a kind, queens", "Trinca de Damas"),
    ("pt-BR", "Four of a kind, kings", "Quadra de Reis"),
    ("pt-BR", "Two pair, aces and tens", "Dois Pares, Ases e Dezes"),
    ("es-ES", "Flush, ace high", "Color al As"),
    ("es-ES", "Straight flush, queen high", "Escalera de color a la Reina"),
    ("es-419", "Full house, kings full of sevens", "Full de Reyes y Sietes"),
    ("it", "Flush, ace high", "Colore all'Asso"),
    ("it", "Straight, eight high", "Scala all'Otto"),
    ("it", "Three of a kind, kings", "Tris di Re"),
    ("it", "Royal flush", "Scala reale"),
    ("es-ES", "Royal flush", "Escalera real"),
    ("fr", "Pair of jacks", "Pair of jacks"),
])
def test_the_words_players_use(locale: str, english: str, worded: str) -> None:
    assert hands.high(locale, english) == worded


def test_hi_lo_labels_and_the_low() -> None:
    hole, board = parse_cards("Ah2hKsQs"), parse_cards("3h4h7h9cTd")
    label = hand_label(hole, board, VARIANTS["omaha_hilo"])
    assert label == "Flush, ace high; Low 7-4-3-2-A"
    assert hands.label("pt-BR", label) == "Flush, Ás alto; Baixa 7-4-3-2-A"
    assert hands.label("es-ES", label) == "Color al As; Baja 7-4-3-2-A"
    assert hands.label("it", label) == "Colore all'Asso; Low 7-4-3-2-A"
    assert hands.label("es-419", "Pair of nines; no low") == "Pareja de Nueves; sin baja"
    value = low_value(hole, board)
    assert value is not None
    assert hands.label("pt-BR", describe_low(value)) == "Baixa 7-4-3-2-A"
    assert hands.label("it", "") == ""
    assert hands.label("it", "Something else") == "Something else"


def test_every_low_is_worded() -> None:
    for ranks in itertools.combinations("A2345678", 5):
        text = "Low " + "-".join(reversed(ranks))
        assert hands.low("es-ES", text) == "Baja " + "-".join(reversed(ranks))


def test_kickers_and_sentences_in_every_language() -> None:
    """The engine's kickers are worded back exactly in English and with each language's
    rank names; inside a sentence a hand reads in lower case, a low by its cards."""
    assert hands.high("en", "Pair of kings, kicker ace") == "Pair of kings, kicker ace"
    assert hands.high("pt-BR", "Pair of kings, kicker ace") == "Par de Reis, kicker Ás"
    assert hands.high("it", "Flush, ace high, kickers king-nine") == (
        "Colore all'Asso, kicker Re-Nove")
    assert hands.in_sentence("pt-BR", "Two pair, aces and fives") == "dois pares, ases e cincos"
    assert hands.in_sentence("pt-BR", "Two pair, threes and twos") == "dois pares, três e dois"
    assert hands.in_sentence("es-ES", "Pair of kings; Low 6-5-4-2-A") == (
        "pareja de reyes; baja 6-5-4-2-A")
    assert hands.low_cards("Low 6-5-4-2-A") == "6-5-4-2-A"
    assert hands.high("pt-BR", "Full house, threes full of twos") == "Full House, Três com Dois"


@pytest.mark.parametrize("locale", LOCALES)
def test_one_capitalisation_of_hand_names_inside_a_sentence(locale: str) -> None:
    """Every hand the engine can describe, with a low or without, reads inside a sentence
    in lower case, but for the language's names of the halves, which read as the result
    writes them everywhere else ("vince 2 Low" and "nessun Low" in Italian, issue 31)."""
    halves = {translate(locale, "half.high"), translate(locale, "half.low")}
    lows = ("", "; no low", "; Low 8-7-6-4-A", "; Low 5-4-3-2-A")
    for high, low in itertools.product(_every_high(), lows):
        text = hands.in_sentence(locale, high + low)
        for word in re.findall(r"[^\W\d_]{2,}", text):
            assert word == word.lower() or word in halves, (locale, high + low, text)
        for half in halves:
            assert half.lower() not in text.split() or half == half.lower(), text
