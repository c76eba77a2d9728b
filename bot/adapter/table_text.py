"""What ``/table`` says about a table: its settings (a mixed table's list of games
included), ``/table info`` and the caps of ``/table limits``, in the reader's language; and
the options a mixed table is created or changed with (RULES.md 11)."""

from __future__ import annotations

from typing import Any

from discord import app_commands

from bot.adapter.limits import fit_message
from bot.i18n import Command, Name, Phrase, translate
from bot.runtime.config import TableConfig
from bot.runtime.errors import TableSettingsError
from bot.runtime.game_list import suggestions
from bot.runtime.registry import TableRegistry
from bot.runtime.table import wording
from bot.runtime.table.live import Table

__all__ = ["caps_text", "game_choices", "info_text", "mix_options", "settings_text"]


def settings_text(config: TableConfig, locale: object = None) -> str:
    """``**Pot Limit Omaha 1/2** · 6 seats · buy-in 40 to 200 · 30 s per decision + 60 s
    time bank`` (`` · run it twice allowed`` when it is, then the home-game options it
    plays; a mixed table's games on a line of their own), in ``locale`` (numbers with its
    thousands separator)."""
    text = translate(locale, "table.settings", title=wording.title(locale, config),
                     seats=config.seats, low=config.min_buyin, high=config.max_buyin,
                     clock=config.clock, bank=config.time_bank)
    text += translate(locale, "table.settings_twice") if config.run_it_twice else ""
    text += "".join(f" · {option}" for option in wording.options(locale, config))
    return text if config.mix is None else f"{text}\n{wording.games(locale, config.mix)}"


def info_text(table: Table, locale: object = None) -> str:
    """/table info: the settings, each seat, the hand (in the reader's language)."""
    snap = table.snapshot()
    lines = [translate(locale, "info.head", table=str(snap.table_id),
                       channel=f"<#{snap.channel_id}>",
                       settings=settings_text(snap.config, locale))]
    if not snap.seats:
        lines.append(translate(locale, "info.empty", join=Command("table join")))
    for s in snap.seats:
        status = translate(locale, "status." + s.status.replace(" ", "_").replace("-", "_"))
        lines.append(translate(locale, "info.seat", seat=s.seat, name=Name(s.name), count=s.stack,
                               status=status))
    if snap.hand_no:
        key = "info.hand_in_progress" if table.current is not None else "info.hand_last"
        lines.append(translate(locale, key, number=str(snap.hand_no)))
    return fit_message(lines, locale=locale)


def caps_text(registry: TableRegistry, guild_id: int, locale: object = None) -> str:
    """/table limits: the server's caps on open tables (cash tables and tournaments) and
    how many tables are open."""
    caps = registry.caps.of(guild_id)
    return translate(locale, "table.caps", member=caps.per_member or Phrase("table.caps.none"),
                     server=caps.per_server or Phrase("table.caps.none"),
                     open=registry.open_tables(guild_id))


def mix_options(
    games: str | None, mode: app_commands.Choice[str] | None, every: int | None,
    variant: object, structure: object,
) -> dict[str, Any]:
    """A mixed table's options for :class:`TableConfig` (``games`` typed as players write
    them: :mod:`bot.runtime.game_list`); a list given with a variant or a structure is
    refused, as it could not mean both."""
    if games is not None and (variant is not None or structure is not None):
        raise TableSettingsError(Phrase("refuse.games.both"))
    return {"games": games, "mode": mode.value if mode else None, "every": every}


async def game_choices(current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete of a list of games: the list so far with the game being typed
    completed (``NLHE, pl`` -> ``NLHE, PLO``, ``NLHE, PLO8``...)."""
    return [app_commands.Choice(name=s, value=s) for s in suggestions(current)]
