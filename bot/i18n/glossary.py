"""One word per poker concept in each language: the glossaries the catalogs follow.

``bot/i18n/glossaries/<locale>.toml`` (package data) holds, per concept (pot, side pot,
board, deck, call, check, raise, fold, all-in, time bank, Hi-Lo, prize pool, ...), the
word the players of that language use, from the seed documents where they say it (a
comment names the line), the variants that must not appear (``avoid``), and for the
concepts a message may not leave out, ``english`` (the concept in the English message)
and ``uses`` (the word that must then be in the translation): regular expressions,
case-insensitive. The decisions where a language has two words live there too (es-419:
"tablero" for the board, "pozo" for the pot, "Alto-Bajo" for Hi-Lo).

``tests/i18n/test_glossary.py`` checks every message a player of the language reads
against it (es-419 with the es-ES messages it falls back to).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

GLOSSARIES = Path(__file__).resolve().parent / "glossaries"
#: A message's placeholders (``{name}``) are not words of the language.
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


@dataclass(frozen=True, slots=True)
class Term:
    """A concept's word in one language and the variants it replaces."""

    concept: str
    word: str
    avoid: tuple[re.Pattern[str], ...]
    english: re.Pattern[str] | None = None  # the English message names the concept...
    uses: re.Pattern[str] | None = None  # ...so the translation says it this way


def _pattern(text: str | None) -> re.Pattern[str] | None:
    return re.compile(text, re.IGNORECASE) if text else None


@lru_cache(maxsize=8)
def terms(locale: str) -> tuple[Term, ...]:
    """The glossary of ``locale`` (``"pt-BR"``, ``"es-419"``...)."""
    path = GLOSSARIES / f"{locale.replace('-', '_')}.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return tuple(Term(concept, entry["word"],
                      tuple(re.compile(p, re.IGNORECASE) for p in entry.get("avoid", ())),
                      _pattern(entry.get("english")), _pattern(entry.get("uses")))
                 for concept, entry in data.items())


def offences(locale: str, text: str, english: str = "") -> list[tuple[str, str]]:
    """What the glossary rules out in ``text`` (the translation of ``english``): a
    ``(concept, variant found)`` pair for each variant, ``(concept, "no <word>")`` when the
    English names a concept the translation does not say in the glossary's word."""
    words = _PLACEHOLDER.sub(" ", text)
    source = _PLACEHOLDER.sub(" ", english)
    found = [(term.concept, m.group(0)) for term in terms(locale) for pattern in term.avoid
             for m in pattern.finditer(words)]
    found += [(term.concept, f"no {term.word}") for term in terms(locale)
              if term.english and term.uses and term.english.search(source)
              and not term.uses.search(words)]
    return found


__all__ = ["GLOSSARIES", "Term", "offences", "terms"]
