"""The dealer's words in the players' languages: English, Portuguese (Brazil),
Spanish (Spain and Latin America) and Italian.

Messages live in gettext catalogs in the repository,
``bot/i18n/locales/<locale>/LC_MESSAGES/messages.po``; ``en`` is the source.
They are read with Babel (:func:`babel.messages.pofile.read_po`) once, on
first use, and compiled in memory to :class:`gettext.GNUTranslations` (no
build step: a fresh clone works as it is). No discord.py here: Discord's
locale strings (``"pt-BR"``, ``"es-419"``) are plain strings.

* :func:`translate` (``_`` for short) words a message: ``translate("pt-BR",
  "balance.yours", chips=1234)``. Message ids are stable dotted keys; the
  ``en`` catalog holds the English. Placeholders are ``str.format`` fields
  (``{chips}``). An ``int`` value is written with the locale's thousands
  separator (``1,234``, ``1.234``); pass a ``str`` for a number that is a name
  (a hand number). A message with a plural (``msgid_plural``) takes its form
  from the ``count`` value, with the language's own plural rule.
* Command names, descriptions and choices (``bot/adapter/translator.py``) are keyed
  by their English text under a message context (``command``, ``description``,
  ``choice``): :func:`translate_text`.
* Locales: :func:`resolve` maps any Discord locale to one we speak:
  ``es-419`` falls back to ``es-ES`` then English, everything else we do not
  speak to English (``en-US``, ``en-GB``, ``fr``, ``None``). The ``es-419``
  catalog holds only what Latin American players say differently (pozo, pagar,
  botar); every other message comes from ``es-ES``.
* :func:`number` and :func:`relative_time`: Babel's ``format_decimal`` and
  ``format_timedelta`` in the locale's style. A moment (a turn's deadline, the next
  daily bonus, a level's end) is shown as Discord's own ``<t:…:R>`` timestamp
  instead: every reader's client words it in its own language, it counts down as
  the reader watches, and one public message serves readers of every language;
  ``format_timedelta`` words lengths of time that are not moments (a level's
  length, a time bank's seconds) and anything outside Discord (logs, pictures).
* :func:`listed` / :class:`Listed`: names or phrases joined as the locale writes a
  list (``a, b e c``), with Babel's ``format_list``.
* :class:`Name` is a name someone chose (a display name): data, never markup. Written
  into a message it is :func:`escaped` (Discord's markdown characters shown as typed,
  mentions, ``@everyone`` and links inert); ``str(name)`` is the name as written (logs,
  pictures). Every display name goes into a message as a ``Name`` value.
* :class:`Phrase` is a message not yet worded: its id and values, worded later in
  the reader's language (``phrase.to("it")``). Refusals (``TableError``,
  ``EconomyError``) and the runtime's notices carry one; ``str(phrase)`` is the
  English (logs, tests). A value may itself be a :class:`Phrase` or a
  :class:`Command` (``/call`` in the reader's language), worded in the same
  language: sentences are composed from messages, never concatenated.

``tests/i18n/test_catalogs.py`` fails when a message of the English catalog is
missing in another language or when a message's placeholders differ between
languages.
"""

from __future__ import annotations

import gettext
import io
import re
import string
import threading
from collections.abc import Iterable, Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any

from babel import Locale
from babel.dates import format_timedelta
from babel.lists import format_list
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

#: Where the catalogs are.
LOCALE_DIR = Path(__file__).with_name("locales")
ENGLISH = "en"
#: The languages the dealer speaks, as Discord names them (English first).
LOCALES = ("en", "pt-BR", "es-ES", "es-419", "it")
#: The catalog that answers when a locale's own catalog lacks a message.
FALLBACK = {"es-419": "es-ES", "es-ES": ENGLISH, "pt-BR": ENGLISH, "it": ENGLISH}
#: A bare language or another region of it: the variant we speak.
_BY_LANGUAGE = {"en": "en", "pt": "pt-BR", "es": "es-ES", "it": "it"}

#: Message contexts of the command tree's strings (``bot/adapter/translator.py``).
COMMAND = "command"
DESCRIPTION = "description"
CHOICE = "choice"

_lock = threading.Lock()
_loaded: dict[str, gettext.GNUTranslations] = {}


def resolve(locale: object) -> str:
    """One of :data:`LOCALES` for a Discord locale (``"pt-BR"``, ``discord.Locale.italian``,
    ``"es-419"``); English for anything else, ``None`` included."""
    text = str(getattr(locale, "value", locale) or "").replace("_", "-")
    for known in LOCALES:
        if text.lower() == known.lower():
            return known
    language = text.split("-", 1)[0].lower()
    if language == "es" and text.lower() != "es":
        return "es-419" if text.lower() != "es-es" else "es-ES"
    return _BY_LANGUAGE.get(language, ENGLISH)


def catalog_path(locale: str) -> Path:
    return LOCALE_DIR / locale.replace("-", "_") / "LC_MESSAGES" / "messages.po"


def read_catalog(locale: str) -> Catalog:
    """The catalog of ``locale`` (one of :data:`LOCALES`) as Babel reads it."""
    with catalog_path(locale).open("rb") as fp:
        return read_po(fp, locale=locale.replace("-", "_"))


def _compile(catalog: Catalog) -> gettext.GNUTranslations:
    buf = io.BytesIO()
    write_mo(buf, catalog)  # untranslated and fuzzy messages are left out
    buf.seek(0)
    return gettext.GNUTranslations(buf)


def translations(locale: object) -> gettext.GNUTranslations:
    """The compiled catalog of ``locale`` with its fallbacks behind it (loaded once)."""
    name = resolve(locale)
    found = _loaded.get(name)
    if found is not None:
        return found
    with _lock:
        chain = [name]
        while chain[-1] in FALLBACK:
            chain.append(FALLBACK[chain[-1]])
        for link in reversed(chain):
            if link not in _loaded:
                compiled = _compile(read_catalog(link))
                if link in FALLBACK:
                    compiled.add_fallback(_loaded[FALLBACK[link]])
                _loaded[link] = compiled
        return _loaded[name]


def babel_locale(locale: object) -> Locale:
    return Locale.parse(resolve(locale).replace("-", "_"))


def number(locale: object, value: int | float) -> str:
    """``1,234`` in English, ``1.234`` in Portuguese, Spanish (Spain) and Italian."""
    return format_decimal(value, locale=babel_locale(locale))


def relative_time(locale: object, seconds: float) -> str:
    """``in 30 seconds`` / ``em 30 segundos`` / ``2 minutes ago`` (negative: in the past)."""
    return format_timedelta(timedelta(seconds=seconds), add_direction=True,
                            locale=babel_locale(locale))


def duration(locale: object, seconds: float) -> str:
    """``30 seconds`` / ``30 segundos`` / ``2 minuti``."""
    return format_timedelta(timedelta(seconds=seconds), locale=babel_locale(locale))


def _shown(locale: object, value: Any) -> Any:
    if isinstance(value, Wording):
        return value.to(locale)
    if isinstance(value, int) and not isinstance(value, bool):
        return number(locale, value)
    return value


def _fill(locale: object, text: str, values: Mapping[str, Any]) -> str:
    if not values:
        return text
    return text.format_map({k: _shown(locale, v) for k, v in values.items()})


class Wording:
    """Words not yet in a language: ``to(locale)`` words them, ``str()`` in English."""

    __slots__ = ()

    def to(self, locale: object) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.to(ENGLISH)


#: Discord's markdown characters: a backslash before each shows it as typed. ``#``, ``-``
#: and ``>`` format only at the start of a line (a heading, a list, a quote), where a name
#: may stand: they are escaped there only (``Jean-Luc`` stays as it is).
_MARKDOWN = re.compile(r"([\\*_~|\[\]()`])|^(\s*)([>#-])")
#: After ``<`` or ``@`` a zero-width space keeps ``<@id>``, ``<@&id>``, ``<#id>``,
#: ``<t:…>``, ``<https://…>``, ``@everyone`` and ``@here`` from being read as such.
_MENTION_START = re.compile(r"([<@])")
_ZERO_WIDTH_SPACE = "\u200b"
#: Bidirectional controls: embeddings and overrides (U+202A-U+202E), isolates
#: (U+2066-U+2069), the left-to-right, right-to-left and Arabic letter marks. An
#: override in a name would reverse the rest of the message's line after it.
BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")


def escaped(text: str) -> str:
    """``text`` as Discord shows it literally: its bidirectional controls removed
    (:data:`BIDI_CONTROLS`), its markdown characters escaped and no mention, role,
    channel, ``@everyone``/``@here`` or link left in it."""
    marked = _MARKDOWN.sub(_backslashed, BIDI_CONTROLS.sub("", text))
    return _MENTION_START.sub(r"\1" + _ZERO_WIDTH_SPACE, marked)


def _backslashed(match: re.Match[str]) -> str:
    if match.group(1):
        return "\\" + match.group(1)
    return match.group(2) + "\\" + match.group(3)


class Name(Wording):
    """A name someone chose (a member's display name): written escaped into a message
    (:func:`escaped`); ``str()`` and :attr:`text` are the name as written (logs, pictures)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = str(text)

    def to(self, locale: object) -> str:
        return escaped(self.text)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Name({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Name) and self.text == other.text

    def __hash__(self) -> int:
        return hash(self.text)


class Phrase(Wording):
    """A message id and its values, worded when the reader's language is known."""

    __slots__ = ("key", "values")

    def __init__(self, key: str, /, **values: Any) -> None:
        self.key = key
        self.values = values

    def to(self, locale: object) -> str:
        return translate(locale, self.key, **self.values)

    def __repr__(self) -> str:
        return f"Phrase({self.key!r}, **{self.values!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Phrase) and (self.key, self.values) == (other.key, other.values)

    def __hash__(self) -> int:
        return hash(self.key)


class Command(Wording):
    """A slash command's name as the reader's Discord shows it: ``/call``, ``/igualar``."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def to(self, locale: object) -> str:
        words = [translate_text(locale, COMMAND, w) or w for w in self.name.split()]
        return "/" + " ".join(words)

    def __str__(self) -> str:
        return "/" + self.name


class Option(Wording):
    """A slash command option's name as the reader's Discord shows it: ``table``, ``mesa``."""

    __slots__ = ("name",)
    #: The catalog context the name is translated in.
    context = COMMAND

    def __init__(self, name: str) -> None:
        self.name = name

    def to(self, locale: object) -> str:
        return translate_text(locale, self.context, self.name) or self.name


class Choice(Option):
    """A command choice's name (a game, a structure) as the reader's Discord shows it."""

    __slots__ = ()
    context = CHOICE


class Ordinal(Wording):
    """A place: ``1st``, ``22nd`` in English; ``1º`` (pt-BR, it), ``1.º`` (es) elsewhere."""

    __slots__ = ("place",)

    def __init__(self, place: int) -> None:
        self.place = place

    def to(self, locale: object) -> str:
        n = self.place
        if resolve(locale) == ENGLISH:
            teens = 10 <= n % 100 <= 20
            return f"{n}" + ("th" if teens else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th"))
        return translate(locale, "ordinal", place=str(n))


class Listed(Wording):
    """Items (each a :class:`Wording` or plain text) in a list as the reader's language
    writes it: ``a, b and c``, ``a, b e c``, ``a, b y c``: see :func:`listed`."""

    __slots__ = ("items",)

    def __init__(self, items: Iterable[str | Wording]) -> None:
        self.items = tuple(items)

    def to(self, locale: object) -> str:
        return listed(locale, self.items)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Listed) and self.items == other.items

    def __hash__(self) -> int:
        return hash(self.items)


def listed(locale: object, items: Iterable[str | Wording]) -> str:
    """``items`` worded in ``locale`` and joined the locale's way (Babel's ``format_list``):
    ``a, b and c`` in English, ``a, b e c`` in Portuguese and Italian, ``a, b y c`` in
    Spanish; one item alone, nothing for none."""
    words = [spoken(item, locale) for item in items]
    return format_list(words, locale=babel_locale(locale)) if words else ""


def spoken(message: str | Wording, locale: object) -> str:
    """``message`` in ``locale`` when it is a :class:`Wording`; a plain string as it is."""
    return message.to(locale) if isinstance(message, Wording) else message


def translate(locale: object, message_id: str, /, **values: Any) -> str:
    """The message ``message_id`` in ``locale``, its placeholders filled from ``values``.

    A plural message picks its form by ``values["count"]``. A message no catalog
    has comes back as its id (a bug the catalog tests catch, never a crash).
    """
    t = translations(locale)
    count = values.get("count")
    if isinstance(count, int) and message_id in plural_ids():
        text = t.ngettext(message_id, message_id, count)
    else:
        text = t.gettext(message_id)
    return _fill(locale, text, values)


_ = translate


def translate_text(locale: object, context: str, english: str) -> str | None:
    """A command tree string (keyed by its English text under ``context``) in ``locale``,
    or None when the catalogs do not have it."""
    if not english or not _has(locale, context, english):
        return None
    return translations(locale).pgettext(context, english)


def _has(locale: object, context: str, english: str) -> bool:
    """Whether ``locale``'s chain translates ``english`` (whose translation may equal it)."""
    name = resolve(locale)
    while (context, english) not in _keys(name):
        if name not in FALLBACK:
            return False
        name = FALLBACK[name]
    return True


_key_cache: dict[str, frozenset[tuple[str | None, str]]] = {}
_plural_cache: list[frozenset[str]] = []


def _keys(locale: str) -> frozenset[tuple[str | None, str]]:
    found = _key_cache.get(locale)
    if found is None:
        found = _key_cache[locale] = frozenset(
            (m.context, m.id if isinstance(m.id, str) else m.id[0])
            for m in read_catalog(locale) if m.id and m.string and not m.fuzzy
        )
    return found


def plural_ids() -> frozenset[str]:
    """The ids of the messages that have plural forms (from the English catalog)."""
    if not _plural_cache:
        _plural_cache.append(frozenset(
            m.id[0] for m in read_catalog(ENGLISH) if isinstance(m.id, tuple)))
    return _plural_cache[0]


def placeholders(text: str) -> frozenset[str]:
    """The ``{name}`` fields of a message text."""
    return frozenset(f for _, f, _, _ in string.Formatter().parse(text) if f)


__all__ = [
    "CHOICE",
    "COMMAND",
    "DESCRIPTION",
    "ENGLISH",
    "LOCALES",
    "Choice",
    "Command",
    "Listed",
    "Name",
    "Option",
    "Ordinal",
    "Phrase",
    "Wording",
    "duration",
    "escaped",
    "listed",
    "number",
    "placeholders",
    "read_catalog",
    "relative_time",
    "resolve",
    "spoken",
    "translate",
    "translate_text",
    "translations",
]
