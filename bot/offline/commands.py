"""Discord's refusal of a command tree it cannot show; applied once, on import.

simcord 3.2.1 stores whatever ``PUT .../commands`` sends, for any server. Discord
answers 403 Missing Access (50001) for a server the bot is not in, and refuses the
whole bulk overwrite with 400 Invalid Form Body (code 50035), naming the field,
when (checked here for every command, subcommand, group and option, and for
each of their ``name_localizations``/``description_localizations``):

* a name is not 1 to 32 characters of ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]``
  or has an upper-case letter (``APPLICATION_COMMAND_INVALID_NAME``);
* a description is empty or over 100 characters (``BASE_TYPE_BAD_LENGTH``);
* a choice name is empty or over 100 characters;
* a localization is keyed by a locale Discord does not know;
* two commands, or two options of one command, have the same name in one
  language, the default or a localized one
  (``APPLICATION_COMMANDS_DUPLICATE_NAME``).

:func:`command_problems` is a plain function so that the process-level fake
Discord (``tests/fakediscord``) refuses exactly the same trees.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import discord
from simcord.backend import errors as _errors
from simcord.http.routes import commands as _commands

from bot.offline.routes import replace_route

Problem = tuple[str, str, str]  # (path, code, message), as tests/fakediscord/limits.py

#: The locales Discord accepts as localization keys.
DISCORD_LOCALES = frozenset(locale.value for locale in discord.Locale)
NAME_MAX = 32
DESCRIPTION_MAX = 100
CHOICE_MAX = 100
_SUBCOMMANDS = (1, 2)  # option types SUB_COMMAND and SUB_COMMAND_GROUP
_CHAT_INPUT = 1


def _script_ok(ch: str) -> bool:
    """Devanagari (U+0900-097F, U+A8E0-A8FF) or Thai (U+0E00-0E7F): any character of them."""
    code = ord(ch)
    return 0x0900 <= code <= 0x097F or 0xA8E0 <= code <= 0xA8FF or 0x0E00 <= code <= 0x0E7F


def valid_name(name: Any) -> bool:
    """Discord's rule for a chat-input command or option name, in any language."""
    if not isinstance(name, str) or not 1 <= len(name) <= NAME_MAX or name != name.lower():
        return False
    return all(ch in "-_" or unicodedata.category(ch)[0] in "LN" or _script_ok(ch)
               for ch in name)


def _length(path: str, value: Any, most: int) -> list[Problem]:
    if isinstance(value, str) and 1 <= len(value) <= most:
        return []
    return [(path, "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {most} in length.")]


def _localized(path: str, item: Mapping[str, Any], key: str) -> Iterator[tuple[str, Any]]:
    """``(path, text)`` of ``item[key]`` and of each of its localizations."""
    yield f"{path}.{key}", item.get(key)
    for locale, text in (item.get(f"{key}_localizations") or {}).items():
        yield f"{path}.{key}_localizations.{locale}", text


def _locale_problems(path: str, item: Mapping[str, Any]) -> list[Problem]:
    found: list[Problem] = []
    for key in ("name_localizations", "description_localizations"):
        for locale in item.get(key) or {}:
            if locale not in DISCORD_LOCALES:
                found.append((f"{path}.{key}.{locale}", "LOCALE_INVALID", "Invalid locale"))
    return found


def _item_problems(path: str, item: Mapping[str, Any], chat_input: bool) -> list[Problem]:
    found = _locale_problems(path, item)
    for where, name in _localized(path, item, "name"):
        if chat_input and not valid_name(name):
            found.append((where, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid"))
    if chat_input:
        for where, text in _localized(path, item, "description"):
            found += _length(where, text, DESCRIPTION_MAX)
    for i, choice in enumerate(item.get("choices") or []):
        found += _locale_problems(f"{path}.choices.{i}", choice)
        for where, text in _localized(f"{path}.choices.{i}", choice, "name"):
            found += _length(where, text, CHOICE_MAX)
    return found


def _names_by_language(item: Mapping[str, Any]) -> dict[str, str]:
    return {"": str(item.get("name")), **dict(item.get("name_localizations") or {})}


def _duplicates(path: str, siblings: Sequence[Mapping[str, Any]], *,
                by_type: bool = False) -> list[Problem]:
    """Two siblings with one name in a language (a language without a localization of
    its own shows the default name, so that counts too). Commands of different types
    (``by_type``: a slash command and a context menu) may share a name; options never."""
    languages = {lang for s in siblings for lang in _names_by_language(s)}
    found: list[Problem] = []
    for lang in sorted(languages):
        seen: dict[tuple[Any, str], int] = {}
        for i, sibling in enumerate(siblings):
            names = _names_by_language(sibling)
            kind = sibling.get("type", _CHAT_INPUT) if by_type else None
            key = (kind, names.get(lang, names[""]))
            if key in seen:
                where = f"{path}{i}.name" + (f"_localizations.{lang}" if lang else "")
                found.append((where, "APPLICATION_COMMANDS_DUPLICATE_NAME",
                              "Application command names must be unique"))
            seen[key] = i
    return found


def _option_problems(path: str, options: Sequence[Mapping[str, Any]]) -> list[Problem]:
    found = _duplicates(f"{path}.options.", options)
    for i, option in enumerate(options):
        where = f"{path}.options.{i}"
        found += _item_problems(where, option, chat_input=True)
        if option.get("type") in _SUBCOMMANDS:
            found += _option_problems(where, option.get("options") or [])
    return found


def command_problems(payloads: Any) -> list[Problem]:
    """Everything Discord refuses in a bulk overwrite of application commands."""
    if not isinstance(payloads, list):
        return [("", "BASE_TYPE_ARRAY", "Must be an array")]
    commands = [c for c in payloads if isinstance(c, Mapping)]
    found = _duplicates("", commands, by_type=True)
    for i, command in enumerate(commands):
        chat_input = command.get("type", _CHAT_INPUT) == _CHAT_INPUT
        found += _item_problems(str(i), command, chat_input)
        if chat_input:
            found += _option_problems(str(i), command.get("options") or [])
    return found


def error_tree(problems: list[Problem]) -> dict[str, Any]:
    """Discord's nested ``errors`` object naming each bad field."""
    tree: dict[str, Any] = {}
    for path, code, message in problems:
        node = tree
        for part in path.split("."):
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return tree


# -- the patch: simcord's bulk overwrite routes refuse what Discord refuses ------------------

def _checked(handler: Any) -> Any:
    def route(ctx: Any) -> Any:
        problems = command_problems(ctx.json)
        if problems:
            raise _errors.invalid_form_body(errors=error_tree(problems))
        return handler(ctx)

    route.__name__ = handler.__name__
    return route


def _in_guild(handler: Any) -> Any:
    """A server's commands only where the bot is a member: Discord answers 403 Missing
    Access (50001) for a server the bot is not in (a wrong ``DEV_GUILD_ID``, or
    ``python -m bot sync --guild ID`` after the bot was removed from it)."""

    def route(ctx: Any) -> Any:
        guild = ctx.backend.guilds.get(ctx.int_arg("guild_id"))
        if guild is None or ctx.backend.bot_user.id not in guild.members:
            raise _errors.missing_access()
        return handler(ctx)

    route.__name__ = handler.__name__
    return route


def _install() -> None:
    replace_route("PUT", _commands.bulk_upsert_global_commands,
                  _checked(_commands.bulk_upsert_global_commands))
    replace_route("PUT", _commands.bulk_upsert_guild_commands,
                  _in_guild(_checked(_commands.bulk_upsert_guild_commands)))


_install()

__all__ = ["DISCORD_LOCALES", "Problem", "command_problems", "error_tree", "valid_name"]
