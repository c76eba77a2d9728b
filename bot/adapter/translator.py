"""Slash commands in the players' languages: discord.py's ``app_commands.Translator``.

Set once in :meth:`bot.client.OmahaDealer.setup_hook` (``tree.set_translator``)
before the sync, so every command, subcommand, option and choice is synced with
``name_localizations`` and ``description_localizations`` for the languages of
:mod:`bot.i18n` (pt-BR, es-ES, es-419, it). Discord shows each user the command
tree in the language of their client and still sends the English names back,
so nothing else in the cogs changes.

The strings are keyed by their English text, as written in the cogs, under a
gettext message context: ``command`` for command, group and option names,
``description`` for descriptions and ``choice`` for choice names. A string no
catalog has stays English (Discord falls back to the default);
``tests/adapter/test_translator.py`` fails for any string of the tree without a
translation in every language, for a name outside Discord's rule (1 to 32
lowercase letters, digits, ``-`` or ``_``), a description over 100 characters
and two commands or options that end up with the same name in one language.
Dynamic choices (a table or a hand offered by autocomplete) are worded per reader from
the message catalogs instead (``choice.table``, ``hand.choice``).
"""

from __future__ import annotations

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation

from bot import i18n

#: The Discord locales the tree is localized for (English is the default).
LOCALIZED = (Locale.brazil_portuguese, Locale.spain_spanish, Locale.latin_american_spanish,
             Locale.italian)

_CONTEXT = {
    TranslationContextLocation.command_name: i18n.COMMAND,
    TranslationContextLocation.group_name: i18n.COMMAND,
    TranslationContextLocation.parameter_name: i18n.COMMAND,
    TranslationContextLocation.command_description: i18n.DESCRIPTION,
    TranslationContextLocation.group_description: i18n.DESCRIPTION,
    TranslationContextLocation.parameter_description: i18n.DESCRIPTION,
    TranslationContextLocation.choice_name: i18n.CHOICE,
}


def context_of(location: TranslationContextLocation) -> str | None:
    """The message context of a tree string at ``location`` (None: not translated)."""
    return _CONTEXT.get(location)


class CommandTranslator(app_commands.Translator):
    """Words the command tree from the catalogs of :mod:`bot.i18n`."""

    async def translate(self, string: app_commands.locale_str, locale: Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        where = context_of(context.location)
        if where is None or locale not in LOCALIZED:
            return None
        return i18n.translate_text(locale.value, where, string.message)


__all__ = ["LOCALIZED", "CommandTranslator", "context_of"]
