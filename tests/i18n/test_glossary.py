"""The catalogs follow each language's glossary (bot/i18n/glossaries): for every concept,
no message a player of that language reads uses a variant the glossary rules out."""

from __future__ import annotations

import pytest

from bot.i18n import ENGLISH, FALLBACK, LOCALES, read_catalog
from bot.i18n.glossary import offences, terms


def read_by(locale: str) -> dict[tuple[str | None, str], tuple[str, ...]]:
    """Every message a player of ``locale`` reads, by (context, id): its own, else the
    one of the catalog it falls back to (es-419 reads Spain's where it has none)."""
    chain = [locale]
    while chain[-1] in FALLBACK:
        chain.append(FALLBACK[chain[-1]])
    found: dict[tuple[str | None, str], tuple[str, ...]] = {}
    for link in chain:
        for m in read_catalog(link):
            key = (m.context, m.id if isinstance(m.id, str) else m.id[0])
            texts = tuple(m.string) if isinstance(m.string, (list, tuple)) else (m.string,)
            if m.id and all(texts) and key not in found:
                found[key] = texts
    return found


@pytest.mark.parametrize("locale", LOCALES)
def test_every_message_follows_the_glossary(locale: str) -> None:
    concepts = {t.concept for t in terms(locale)}
    assert {"pot", "side_pot", "all_in", "time_bank", "hi_lo", "prize_pool"} <= concepts
    english = read_by(ENGLISH)
    found = [f"{ctx or ''}|{key}: {concept} '{variant}'"
             for (ctx, key), texts in read_by(locale).items() for i, text in enumerate(texts)
             for concept, variant in offences(
                 locale, text, english[ctx, key][min(i, len(english[ctx, key]) - 1)])]
    assert found == []


def test_the_glossary_catches_a_variant() -> None:
    """A variant is found as a word, in any case, outside placeholders."""
    assert offences("es-419", "El bote es tuyo") == [("pot", "bote")]
    assert offences("es-419", "Ganas el pozo {bote}") == []
    assert offences("it", "Puoi chiamare o abbandonare") == [("call", "chiamare")]
    assert ("time_bank", "tiempo extra") in offences("es-ES", "Usa su tiempo extra")


def test_the_glossary_asks_for_its_word_where_the_english_names_the_concept() -> None:
    """es-419 reads Spain's message where it has none of its own: "ver" for call would
    pass every ``avoid``, the English "calls" asks for "pagar"."""
    assert offences("es-419", "{name} ve {amount}", "{name} calls {amount}") == [
        ("call", "no pagar")]
    assert offences("es-419", "{name} paga {amount}", "{name} calls {amount}") == []
    assert offences("es-419", "la mesa", "the board") == [("board", "no tablero")]


def test_es_419_decisions_are_written_down() -> None:
    words = {t.concept: t.word for t in terms("es-419")}
    assert (words["board"], words["pot"], words["hi_lo"], words["table"]) == (
        "tablero", "pozo", "Alto-Bajo", "mesa")
