"""What the server's Discord events say (issue 34): a scheduled tournament's or a cash
game night's name, description and reminders, in its language, within Discord's limits.

:mod:`bot.adapter.guild_events` keeps the events in step; an entry is either kind
(:data:`Entry`), named in the bot's state by :func:`key_of`.
"""

from __future__ import annotations

from bot.adapter.tournament_text import game
from bot.i18n import Command, translate
from bot.runtime.cash_nights import CashNight
from bot.runtime.tournament.sit_and_go import Status
from bot.runtime.tournament.starts import stamp
from bot.runtime.tournament.table_policy import SitAndGoRuntime

__all__ = ["Entry", "event_text", "key_of", "reminder_dm_text", "reminder_text", "waiting"]

#: Something on the calendar: a scheduled tournament or a cash game night.
Entry = SitAndGoRuntime | CashNight
#: Discord's limits on an event's name and description.
NAME_MAX, DESCRIPTION_MAX = 100, 1000


def key_of(entry: Entry) -> str:
    """``tournament:12`` or ``cash:3``: its event and reminder in the bot's state."""
    if isinstance(entry, CashNight):
        return entry.calendar_key
    return f"tournament:{entry.tournament_id}"


def waiting(entry: Entry) -> bool:
    """Still before its start (a reminder is due only then)."""
    if isinstance(entry, CashNight):
        return entry.waiting
    return entry.sng.status is Status.REGISTERING


def _about(night: CashNight) -> str:
    return f" ({night.about})" if night.about else ""


def event_text(entry: Entry) -> tuple[str, str]:
    """The event's name and description."""
    if isinstance(entry, CashNight):
        lang, number = entry.language, str(entry.night_id)
        name = translate(lang, "event.cash_name", number=number)
        name = f"{name}: {entry.about}" if entry.about else name
        description = translate(lang, "event.cash_description", about=_about(entry),
                                channel=f"<#{entry.channel_id}>",
                                create=Command("table create"), join=Command("table join"))
        return name[:NAME_MAX], description[:DESCRIPTION_MAX]
    lang, s = entry.config.language, entry.sng.settings
    name = translate(lang, "event.name", game=game(lang, s), number=str(entry.tournament_id))
    description = translate(
        lang, "event.description", game=game(lang, s), buy_in=s.buy_in,
        stack=s.starting_stack, min=s.min_entrants, max=s.max_entrants,
        join=Command("tournament join"), channel=f"<#{entry.channel_id}>")
    registered = translate(lang, "event.registered", count=len(entry.sng.entrants),
                           max=s.max_entrants)
    return name[:NAME_MAX], f"{registered}\n{description}"[:DESCRIPTION_MAX]


def _moment(entry: Entry) -> dict[str, str]:
    at = entry.starts_at or 0.0
    number = str(entry.night_id if isinstance(entry, CashNight) else entry.tournament_id)
    return {"number": number, "when": stamp(at, "F"), "relative": stamp(at, "R"),
            "channel": f"<#{entry.channel_id}>"}


def reminder_text(entry: Entry, user_ids: list[int]) -> str:
    """The reminder in the channel, naming each interested member to ping."""
    players = " ".join(f"<@{u}>" for u in user_ids)
    if isinstance(entry, CashNight):
        return translate(entry.language, "event.cash_reminder", players=players,
                         create=Command("table create"), **_moment(entry))
    return translate(entry.config.language, "event.reminder", players=players,
                     join=Command("tournament join"), **_moment(entry))


def reminder_dm_text(entry: Entry) -> str:
    """The reminder by DM, with its channel."""
    if isinstance(entry, CashNight):
        return translate(entry.language, "event.cash_reminder_dm", create=Command("table create"),
                         **_moment(entry))
    return translate(entry.config.language, "event.reminder_dm",
                     join=Command("tournament join"), **_moment(entry))
