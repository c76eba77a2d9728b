"""The catalogs: complete in every language, the same placeholders everywhere, plurals,
fallbacks, and numbers and times in each locale's style."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Message

from bot import i18n
from bot.i18n import ENGLISH, FALLBACK, LOCALES, placeholders, read_catalog, resolve, translate

OTHERS = [loc for loc in LOCALES if loc != ENGLISH]


def _messages(locale: str) -> dict[tuple[str | None, str], Message]:
    return {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m
            for m in read_catalog(locale) if m.id}


def _texts(message: Message) -> tuple[str, ...]:
    return tuple(message.string) if isinstance(message.string, (list, tuple)) else (
        message.string,)


def _chain(locale: str) -> list[str]:
    chain = [locale]
    while chain[-1] in FALLBACK and FALLBACK[chain[-1]] != ENGLISH:
        chain.append(FALLBACK[chain[-1]])
    return chain


def _missing(locale: str) -> list[str]:
    english = _messages(ENGLISH)
    have: set[tuple[str | None, str]] = set()
    for link in _chain(locale):
        have |= {k for k, m in _messages(link).items() if all(_texts(m)) and not m.fuzzy}
    return sorted(f"{ctx or ''}|{key}" for ctx, key in english.keys() - have)


@pytest.mark.parametrize("locale", OTHERS)
def test_every_english_message_is_translated(locale: str) -> None:
    assert len(_messages(ENGLISH)) > 2
    missing = _missing(locale)
    assert not missing, f"{locale} lacks {len(missing)} messages: {missing[:20]}"


@pytest.mark.parametrize("locale", OTHERS)
def test_no_message_unknown_to_english(locale: str) -> None:
    extra = _messages(locale).keys() - _messages(ENGLISH).keys()
    assert not extra


@pytest.mark.parametrize("locale", OTHERS)
def test_placeholders_are_the_same_in_every_language(locale: str) -> None:
    english = _messages(ENGLISH)
    wrong = []
    for key, message in _messages(locale).items():
        source = english.get(key)
        if source is None:
            continue
        want = frozenset().union(*map(placeholders, _texts(source)))
        got = frozenset().union(*map(placeholders, _texts(message)))
        if got != want:
            wrong.append((key, sorted(want), sorted(got)))
        if isinstance(source.id, tuple) != isinstance(message.id, tuple):
            wrong.append((key, "plural", "not plural"))
    assert not wrong


def test_english_texts_are_complete() -> None:
    """Every English message has a text (no empty msgstr: English is the source)."""
    empty = [k for k, m in _messages(ENGLISH).items() if not all(_texts(m))]
    assert not empty


def test_a_message_missing_in_a_language_is_found(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The completeness check really reads the files: drop one message from a copy of the
    Italian catalog and it is reported."""
    for locale in LOCALES:
        copy = tmp_path / i18n.catalog_path(locale).relative_to(i18n.LOCALE_DIR)
        copy.parent.mkdir(parents=True)
        text = i18n.catalog_path(locale).read_text(encoding="utf-8")
        if locale == "it":
            cut = text.replace('msgid "language.name"\nmsgstr "Italiano"\n', "")
            assert cut != text
            text = cut
        copy.write_text(text, encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    assert _missing("it") == ["|language.name"]
    assert _missing("pt-BR") == []


@pytest.mark.parametrize(("asked", "spoken"), [
    ("pt-BR", "pt-BR"), ("es-ES", "es-ES"), ("es-419", "es-419"), ("it", "it"),
    ("en-US", "en"), ("en-GB", "en"), ("fr", "en"), ("de", "en"), ("ja", "en"),
    (None, "en"), ("", "en"), ("pt_BR", "pt-BR"), ("es", "es-ES"),
])
def test_resolve(asked: str | None, spoken: str) -> None:
    assert resolve(asked) == spoken


def test_plurals_follow_each_language() -> None:
    assert translate("en", "chips.count", count=1) == "1 chip"
    assert translate("en", "chips.count", count=0) == "0 chips"
    assert translate("pt-BR", "chips.count", count=0) == "0 fichas"  # zero takes the plural
    assert translate("pt-BR", "chips.count", count=1) == "1 ficha"
    assert translate("pt-BR", "reply.topped_up", count=0) == "Feito: você tem 0 fichas na mesa."
    assert translate("es-ES", "chips.count", count=0) == "0 fichas"
    assert translate("it", "players.count", count=1) == "1 giocatore"
    assert translate("it", "players.count", count=2) == "2 giocatori"


def test_numbers_and_times_in_the_locale_style() -> None:
    assert translate("en", "chips.count", count=1234567) == "1,234,567 chips"
    assert translate("pt-BR", "chips.count", count=1234567) == "1.234.567 fichas"
    assert translate("it", "chips.count", count=2500) == "2.500 fiches"
    assert i18n.relative_time("en", 30) == "in 30 seconds"
    assert i18n.relative_time("pt-BR", 30) == "em 30 segundos"
    assert i18n.relative_time("es-ES", 120) == "dentro de 2 minutos"
    assert i18n.relative_time("it", -120) == "2 minuti fa"
    assert i18n.duration("es-419", 3600) == "1 hora"


def test_fallbacks() -> None:
    """es-419 answers with es-ES where it has no word of its own; other locales in English."""
    assert translate("es-419", "players.count", count=3) == translate("es-ES", "players.count",
                                                                      count=3)
    assert translate("es-419", "language.name") != translate("es-ES", "language.name")
    assert translate("fr", "language.name") == "English"
    assert translate("pt-BR", "no.such.message") == "no.such.message"


@pytest.mark.parametrize("locale", LOCALES)
def test_amounts_of_chips_agree_with_their_number(locale: str) -> None:
    """One chip is one, zero and two are plural, in the messages whose amount can be 1."""
    from bot.i18n import Phrase

    one = Phrase("loss.refund", count=1).to(locale)
    two = Phrase("loss.refund", count=2).to(locale)
    assert one != two and "1" in one and "2" in two
    assert translate(locale, "refuse.return_stack", count=0) == translate(
        locale, "refuse.return_stack", count=2).replace("2", "0")
    if locale == ENGLISH:
        assert one == "Your 1 chip is back in your balance."
        assert two == "Your 2 chips are back in your balance."
