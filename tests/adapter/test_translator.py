"""The command tree synced to Discord in every language the dealer speaks, within
Discord's limits; and the offline Discord refusing a tree Discord would refuse."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.adapter.translator import LOCALIZED, CommandTranslator
from bot.i18n import FALLBACK, read_catalog, resolve
from bot.offline.commands import command_problems, valid_name
from tests.conftest import Harness

LANGUAGES = [locale.value for locale in LOCALIZED]
SUBCOMMANDS = (1, 2)


def _synced(h: Harness) -> list[dict[str, Any]]:
    """What the offline Discord stored from the bot's sync (its backend's own copy)."""
    return [dict(c) for scope in h.env.backend.commands.values() for c in scope.values()]


def _items(command: Mapping[str, Any], path: str = "") -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Every command, subcommand, group and option of ``command`` with its path."""
    here = f"{path} {command['name']}".strip()
    yield here, command
    for option in command.get("options") or []:
        yield from _items(option, here)


def _choices(items: list[tuple[str, Mapping[str, Any]]]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    for path, item in items:
        for choice in item.get("choices") or []:
            yield f"{path}={choice['name']}", choice


async def test_every_command_option_and_choice_is_localized(harness: Harness) -> None:
    commands = _synced(harness)
    assert len(commands) >= 15
    items = [pair for c in commands for pair in _items(c)]
    assert len(items) > 80
    for path, item in items:
        assert set(item.get("name_localizations") or {}) == set(LANGUAGES), path
        assert set(item.get("description_localizations") or {}) == set(LANGUAGES), path
    choices = list(_choices(items))
    assert len(choices) > 25
    for path, choice in choices:
        assert set(choice.get("name_localizations") or {}) == set(LANGUAGES), path


async def test_localized_names_and_descriptions_fit_discord_rules(harness: Harness) -> None:
    commands = _synced(harness)
    items = [pair for c in commands for pair in _items(c)]
    for path, item in items:
        for language in LANGUAGES:
            name = item["name_localizations"][language]
            assert valid_name(name), (path, language, name)
            assert 1 <= len(item["description_localizations"][language]) <= 100, (path, language)
    for path, choice in _choices(items):
        for language in LANGUAGES:
            assert 1 <= len(choice["name_localizations"][language]) <= 100, (path, language)
    assert command_problems(commands) == []


async def test_no_two_commands_or_options_share_a_name_in_a_language(harness: Harness) -> None:
    def clashes(siblings: list[Mapping[str, Any]]) -> list[str]:
        found = []
        for language in LANGUAGES:
            names = [s["name_localizations"][language] for s in siblings]
            found += [f"{language}:{n}" for n in set(names) if names.count(n) > 1]
        for s in siblings:
            if s.get("type") in SUBCOMMANDS:
                found += clashes(s.get("options") or [])
        return found

    commands = _synced(harness)
    assert clashes(commands) == []
    for command in commands:
        assert clashes(command.get("options") or []) == [], command["name"]


#: The commands a player types on their turn.
ACTIONS = ("fold", "check", "call", "bet", "raise", "allin")


async def test_no_name_in_the_tree_is_an_action_in_the_same_language(harness: Harness) -> None:
    """A player who types a localized name meant to look at something (es-ES `/mano ver`,
    it `/mano vedi`) never gets an action by mistake: no command, group, subcommand or
    option anywhere in the tree is named like an action command in that language."""
    commands = _synced(harness)
    by_name = {c["name"]: c for c in commands}
    for language in LANGUAGES:
        actions = {by_name[a]["name_localizations"][language] for a in ACTIONS}
        assert len(actions) == len(ACTIONS), language
        named = [(path, item["name_localizations"][language])
                 for c in commands if c["name"] not in ACTIONS for path, item in _items(c)]
        assert len(named) > 80
        assert [(path, n) for path, n in named if n in actions] == [], language
    show = next(o for o in by_name["hand"]["options"] if o["name"] == "show")
    assert (show["name_localizations"]["es-ES"], show["name_localizations"]["it"]) == (
        "mostrar", "mostra")


def _plain(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", word) if unicodedata.category(c) != "Mn")


async def test_names_keep_the_accents_their_words_have_in_the_messages(
        harness: Harness) -> None:
    """Discord allows any lowercase letter in a name, so a command spells a word as the
    language does ("mão", "número", "últimas"): no name word is the accentless copy of a
    word the same language's messages write with accents."""
    items = [item for c in _synced(harness) for _, item in _items(c)]
    for language in LANGUAGES:
        accented = {_plain(w): w for text in _message_texts(language)
                    for w in re.findall(r"\w+", text.lower()) if _plain(w) != w}
        words = {w for item in items
                 for w in re.split(r"[-_]", item["name_localizations"][language])}
        assert sorted(f"{w}->{accented[w]}" for w in words if w in accented) == [], language
    hand = next(c for c in _synced(harness) if c["name"] == "hand")
    assert hand["name_localizations"]["pt-BR"] == "mão"


def _message_texts(language: str) -> list[str]:
    texts = []
    for locale in dict.fromkeys((language, FALLBACK.get(language, language))):
        for m in read_catalog(resolve(locale)):
            if m.id and m.context is None:
                texts += list(m.string) if isinstance(m.string, (list, tuple)) else [m.string]
    return texts


async def test_players_see_the_poker_words_of_their_language(harness: Harness) -> None:
    """The seed documents' words: tirarse/ver/subir in Spain, botar/pagar in Latin America,
    abbandona/vedi/rilancia in Italy, desistir/igualar/aumentar in Brazil."""
    by_name = {c["name"]: c for c in _synced(harness)}
    assert by_name["fold"]["name_localizations"] == {
        "pt-BR": "desistir", "es-ES": "tirarse", "es-419": "botar", "it": "abbandona"}
    assert by_name["call"]["name_localizations"]["es-419"] == "pagar"
    assert by_name["raise"]["name_localizations"]["it"] == "rilancia"
    assert by_name["table"]["name_localizations"]["pt-BR"] == "mesa"
    create = next(o for o in by_name["table"]["options"] if o["name"] == "create")
    small = next(o for o in create["options"] if o["name"] == "small_blind")
    assert small["name_localizations"]["es-ES"] == "ciega_pequeña"
    assert small["name_localizations"]["it"] == "piccolo_buio"


async def test_a_real_command_invoked_by_its_english_name_still_runs(harness: Harness) -> None:
    """Discord sends the default (English) name back whatever the user's language."""
    reply = await harness.slash(harness.alice, "balance")
    assert reply.ephemeral
    assert "10,000" in reply.text


class _Rename(app_commands.Translator):
    def __init__(self, names: Mapping[str, str]) -> None:
        self.names = names

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        if locale is not discord.Locale.italian:
            return None
        if context.location is app_commands.TranslationContextLocation.command_name:
            return self.names.get(string.message)
        return None


@pytest.mark.parametrize(("names", "why"), [
    ({"fold": "Abbandona"}, "Command name is invalid"),
    ({"fold": "abbandona la mano"}, "Command name is invalid"),
    ({"fold": "a" * 33}, "Command name is invalid"),
    ({"fold": "carte", "cards": "carte"}, "Application command names must be unique"),
])
@pytest.mark.off_contract("an invalid command tree (a 33-character name), sent to see it refused")
async def test_the_offline_discord_refuses_an_invalid_localization(
        harness: Harness, names: dict[str, str], why: str) -> None:
    """As Discord: 400 Invalid Form Body (50035), and the tree synced before stays."""
    tree = harness.bot.tree
    before = _synced(harness)
    await tree.set_translator(_Rename(names))
    try:
        with pytest.raises(discord.HTTPException) as refused:
            await tree.sync()
    finally:
        await tree.set_translator(CommandTranslator())
    assert refused.value.status == 400
    assert refused.value.code == 50035
    assert why in str(refused.value)
    assert _synced(harness) == before


@pytest.mark.parametrize(("name", "ok"), [
    ("mesa", True), ("ciega_pequeña", True), ("pré-ação", True), ("velocità", True),
    ("all-in", True), ("दिखाएं", True), ("ดู", True), ("x" * 32, True), ("x" * 33, False),
    ("", False), ("Mesa", False), ("all in", False), ("check/fold", False),
    ("pot!", False), ("½", True),
])
def test_discords_name_rule(name: str, ok: bool) -> None:
    assert valid_name(name) is ok


def test_a_description_over_100_characters_in_one_language_is_refused() -> None:
    command = {"name": "fold", "description": "Fold", "type": 1,
               "name_localizations": {"it": "abbandona"},
               "description_localizations": {"it": "x" * 101}}
    assert command_problems([command]) == [(
        "0.description_localizations.it", "BASE_TYPE_BAD_LENGTH",
        "Must be between 1 and 100 in length.")]
    command["description_localizations"] = {"xx": "ok"}
    assert command_problems([command])[0][1] == "LOCALE_INVALID"


async def test_allin_is_described_as_what_it_does(harness: Harness) -> None:
    """/allin puts in the most the limit allows (the pot at pot limit), not always every
    chip: its description says so in every language."""
    allin = next(c for c in _synced(harness) if c["name"] == "allin")
    assert "pot limit" in allin["description"] and "all your chips" in allin["description"]
    pot = {"pt-BR": "o pote", "es-ES": "el bote", "es-419": "el pozo", "it": "il piatto"}
    for language, said in pot.items():
        assert said in allin["description_localizations"][language], language
