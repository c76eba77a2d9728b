"""The README's "Your first night" is true of the bot it describes.

Every slash command it writes (``/table create variant:Omaha Hi-Lo ...``) exists in the
real command tree with those options and choices; its worked example, run through the
offline Discord, answers word for word what the README quotes; the defaults it states
(table, chips, caps) are the code's. The service section is checked against
``deploy/omaha-dealer.service`` by ``tests/deploy/test_service.py``.
"""

from __future__ import annotations

import re
from typing import Any

from discord import AppCommandOptionType, app_commands

from bot.runtime.config import TableConfig
from bot.settings import DEFAULT_TABLES_PER_MEMBER, DEFAULT_TABLES_PER_SERVER
from bot.storage.models import EconomySettings
from tests.conftest import Harness
from tests.fakediscord.process import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")

Command = app_commands.Command[Any, ..., Any] | app_commands.Group


def section(title: str) -> str:
    """The README's ``## title`` section, up to the next ``## ``."""
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start:end if end > 0 else None]


FIRST_NIGHT = section("Your first night")


def flat(text: str) -> str:
    return " ".join(text.split())


def usages(text: str) -> list[str]:
    """Every slash command written: in backticks (a span may break across lines) and
    on the lines of code blocks."""
    spans = re.findall(r"`(/[^`]+)`", flat(text))
    lines = re.findall(r"^ {4,}(/\S.*)$", text, re.M)
    return [flat(u) for u in spans + lines]


def resolve(tree: app_commands.CommandTree[Any], usage: str) -> tuple[Command, dict[str, str]]:
    """The command ``usage`` names and its ``option:value`` pairs."""
    words = usage.lstrip("/").split(" ")
    found: Command | None = tree.get_command(words[0])
    assert found is not None, f"README names /{words[0]}, which the bot does not have"
    rest = words[1:]
    while isinstance(found, app_commands.Group) and rest and ":" not in rest[0]:
        sub = found.get_command(rest[0])
        assert sub is not None, f"README names /{found.qualified_name} {rest[0]}: no such command"
        found, rest = sub, rest[1:]
    parts = re.split(r"(?:^|\s)(\w+):", " ".join(rest))
    assert parts[0] == "", f"{usage!r}: {parts[0]!r} is not an option:value"
    return found, dict(zip(parts[1::2], (v.strip() for v in parts[2::2]), strict=True))


def arguments(command: Command, options: dict[str, str]) -> dict[str, Any]:
    """The options as the command takes them: choices by their shown name, numbers, and
    True/False; each checked to be one of the command's."""
    assert isinstance(command, app_commands.Command), f"/{command.qualified_name} takes no options"
    params = {p.name: p for p in command.parameters}
    values: dict[str, Any] = {}
    for name, shown in options.items():
        assert name in params, f"/{command.qualified_name} has no option {name!r}"
        param = params[name]
        if param.choices:
            names = {c.name: c.value for c in param.choices}
            assert shown in names, f"/{command.qualified_name} {name}: {shown!r} not in {names}"
            values[name] = names[shown]
        elif param.type is AppCommandOptionType.integer:
            values[name] = int(shown)
        elif param.type is AppCommandOptionType.boolean:
            assert shown in ("True", "False"), shown
            values[name] = shown == "True"
        else:
            values[name] = shown
    return values


def worked_example() -> tuple[str, str]:
    """The example's command line and the answer the README quotes under it."""
    lines = FIRST_NIGHT.splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip().startswith("/table create "))
    answer_at = next(i for i in range(at, len(lines)) if "The bot answers" in lines[i]) + 2
    answer = []
    for line in lines[answer_at:]:
        if not line.startswith(" " * 7):
            break
        answer.append(line.strip())
    return lines[at].strip(), "\n".join(answer)


async def test_every_command_written_exists_with_its_options(harness: Harness) -> None:
    tree = harness.bot.tree
    written = usages(FIRST_NIGHT)
    assert len(written) >= 20, written
    for usage in written:
        command, options = resolve(tree, usage)
        if options:
            arguments(command, options)
    named = {resolve(tree, u)[0].qualified_name for u in written}
    assert {"table create", "table settings", "table limits", "economy settings",
            "tournament cancel", "daily"} <= named


async def test_the_worked_example_answers_what_the_readme_quotes(harness: Harness) -> None:
    h = harness
    line, quoted = worked_example()
    command, options = resolve(h.bot.tree, line)
    reply = await h.slash(h.alice, command.qualified_name, **arguments(command, options))
    assert not reply.ephemeral  # in the channel, for everyone
    assert reply.text == quoted


def test_the_defaults_written_are_the_codes() -> None:
    text = flat(FIRST_NIGHT)
    table = TableConfig.create()
    bb = table.big_blind
    assert (f"blinds {table.small_blind}/{bb}, {table.seats} seats, buy-ins from "
            f"{table.min_buyin // bb} to {table.max_buyin // bb} big blinds, {table.clock} "
            f"seconds per decision plus a {table.time_bank}-second time bank") in text
    chips = EconomySettings(guild_id=0)
    top = chips.daily_base + chips.daily_step * (chips.daily_max_streak - 1)
    assert f"starts with **{chips.starting_balance:,} chips**" in text
    assert (f"adds **{chips.daily_base:,} chips** once every 24 hours, {chips.daily_step} "
            "more for each day of a streak") in text
    assert f"up to {top:,} chips from day {chips.daily_max_streak}" in text
    assert (f"({DEFAULT_TABLES_PER_MEMBER} per member, {DEFAULT_TABLES_PER_SERVER} in the "
            "server") in text
