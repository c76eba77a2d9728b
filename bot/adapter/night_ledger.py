"""The night's ledger on Discord: its text, its CSV file, and its post when a table closes.

The figures are :class:`bot.storage.SessionLedger`'s (read from the chip ledger,
:mod:`bot.storage.sessions`); here they get the players' display names and words. Play
chips only: the ledger says who won and lost how many chips at the table, never who owes
whom money, and links to no payment.

The CSV (``/table ledger export``) is RFC 4180: a header row (English column names: a data
format, as the hand histories), comma-separated, CRLF line ends, a field quoted when it
holds a comma, a quote or a line break (quotes doubled), UTF-8. A name a spreadsheet
would read as a formula (it begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return: "CSV injection") gets a leading ``'``, which spreadsheets show as text.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import TYPE_CHECKING

import discord

from bot.adapter.limits import CONTENT, fit_message
from bot.i18n import Command, Name, number, translate
from bot.storage import SessionLedger, TableRecordError

if TYPE_CHECKING:
    from bot.client import OmahaDealer
    from bot.runtime.table.views import TableSnapshot

__all__ = ["CSV_HEADER", "closing_text", "guarded", "ledger_csv", "ledger_file", "ledger_names",
           "ledger_text"]

CSV_HEADER = ("player", "user_id", "buy_ins", "top_ups", "cash_outs", "stack", "net")
#: What a spreadsheet reads as the start of a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _moment(at: float, style: str = "f") -> str:
    """A Discord timestamp: each reader's client words it in their language."""
    return f"<t:{int(at)}:{style}>"


def _signed(locale: object, n: int) -> str:
    return ("+" if n > 0 else "") + number(locale, n)


def ledger_text(
    ledger: SessionLedger, names: Mapping[int, str], locale: object, *, lead: str = "",
) -> str:
    """The session in ``locale``: ``lead`` (a line before, if any), a head line, a line per
    player (best net first) and the total, within one message (the players' lines cut
    first, never the total)."""
    if ledger.ended_at is None:
        head = translate(locale, "ledger.head", table=str(ledger.table_id),
                         number=ledger.number, since=_moment(ledger.started_at))
    else:
        head = translate(locale, "ledger.head_closed", table=str(ledger.table_id),
                         number=ledger.number, since=_moment(ledger.started_at),
                         until=_moment(ledger.ended_at))
    total = translate(locale, "ledger.total", total=_signed(locale, ledger.total))
    lines = [
        translate(locale, "ledger.line", rank=str(i), name=Name(names.get(x.user_id, "?")),
                  net=_signed(locale, x.net), buy_ins=x.buy_ins, top_ups=x.top_ups,
                  cash_outs=x.cash_outs, stack=x.stack)
        for i, x in enumerate(ledger.lines, 1)
    ] or [translate(locale, "ledger.empty", join=Command("table join"))]
    if lead:
        head = lead + "\n" + head
    room = CONTENT - len(head) - len(total) - 2
    return "\n".join((head, fit_message(lines, room, locale=locale), total))


def guarded(text: str) -> str:
    """``text`` as a spreadsheet shows it rather than runs it (see the module docstring)."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def ledger_csv(ledger: SessionLedger, names: Mapping[int, str]) -> bytes:
    """The session as RFC 4180 CSV, best net first (see the module docstring)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_HEADER)
    for x in ledger.lines:
        writer.writerow((guarded(names.get(x.user_id, "")), str(x.user_id), x.buy_ins,
                         x.top_ups, x.cash_outs, x.stack, x.net))
    return out.getvalue().encode("utf-8")


def ledger_file(ledger: SessionLedger, names: Mapping[int, str], locale: object) -> discord.File:
    """The CSV as an attachment, described in ``locale``."""
    return discord.File(io.BytesIO(ledger_csv(ledger, names)),
                        filename=f"ledger-table-{ledger.table_id}-session-{ledger.number}.csv",
                        description=translate(locale, "alt.ledger"))


async def ledger_names(
    client: OmahaDealer, guild: discord.Guild | None, ledger: SessionLedger
) -> dict[int, str]:
    """The display name of every player in the session (the bot's remembered look-up)."""
    return {x.user_id: await client.display_name(guild, x.user_id) for x in ledger.lines}


async def closing_text(client: OmahaDealer, table: TableSnapshot) -> str | None:
    """The closed table's last session in the table's language (None: not a cash table),
    posted by the presenter after the table's closing message."""
    try:
        ledger = await client.app.economy.session_ledger(table.table_id)
    except TableRecordError:  # a tournament's table: its results picture says it all
        return None
    names = await ledger_names(client, client.get_guild(table.guild_id), ledger)
    return ledger_text(ledger, names, table.config.language)
