"""The /tournament texts in a reader's language: ``describe`` (``/tournament info`` and the
registration message), the payout and level lines, the start and cancellation replies.

Which language (decision, as the table cogs do): a public text (the registration
message, a join or start announced in the channel, a cancellation before the start)
speaks the tournament's language, ``rt.config.language`` (its tables'; the server's
preferred locale when it was created); a private one (``/tournament info``, a
cancellation after the start) the reader's ``interaction.locale``. Numbers take the
locale's thousands separator; places are :class:`~bot.i18n.Ordinal`; commands are named
as the reader's Discord shows them. Blind levels: ``1.000/2.000 ante 100`` in the locale's style.
"""

from __future__ import annotations

from bot.adapter.limits import fit_message
from bot.engine.variants import structure_name
from bot.i18n import CHOICE, Command, Ordinal, Phrase, listed, number, translate, translate_text
from bot.runtime.mix import named
from bot.runtime.tournament.blinds import BlindLevel, Blinds, LevelUnit
from bot.runtime.tournament.control import Cancelling
from bot.runtime.tournament.mtt import MttRuntime
from bot.runtime.tournament.payouts import PayoutTable
from bot.runtime.tournament.settings import TournamentSettings
from bot.runtime.tournament.sit_and_go import Status
from bot.runtime.tournament.starts import stamp
from bot.runtime.tournament.table_policy import SitAndGoRuntime

__all__ = [
    "cancel_text", "describe", "payout_lines", "registers_text", "started_text",
    "starts_line", "tables_text",
]

#: Levels shown after the schedule's head in ``describe`` (then ``…``).
SHOWN_LEVELS = 6


def _choice(locale: object, english: str) -> str:
    return translate_text(locale, CHOICE, english) or english


def game(locale: object, s: TournamentSettings) -> str:
    """``Pot Limit Omaha``; ``Omaha Pot Limit`` in Portuguese; a rotation's games
    (RULES.md 11): ``No Limit Texas Hold'em and Pot Limit Omaha, rotating every 6 hands``."""
    if s.games:
        return translate(locale, "tournament.games", games=listed(locale, map(named, s.games)),
                         count=s.every)
    return translate(locale, "tournament.game", game=_choice(locale, s.variant.name),
                     structure=_choice(locale, structure_name(s.structure)))


def blinds(locale: object, level: BlindLevel) -> str:
    """``1,000/2,000 ante 100``; ``1.000/2.000 ante 100`` in Portuguese."""
    return Blinds(level).to(locale)


def payout_lines(locale: object, table: PayoutTable, pool: int) -> str:
    """``1st: 650 chips (65%); 2nd: 350 chips (35%)`` in ``locale``."""
    return "; ".join(
        translate(locale, "tournament.payout", place=Ordinal(i),
                  amount=Phrase("chips.count", count=amount), pct=str(pct))
        for i, (amount, pct) in enumerate(
            zip(table.amounts(pool), table.percentages, strict=True), start=1))


def _field_lines(locale: object, s: TournamentSettings) -> str:
    """``2-3 players: 100%; 4-6 players: 65% / 35%`` (see ``payout_spans``)."""
    return "; ".join(
        translate(locale, "tournament.field_line", span=span, count=count, pcts=pcts)
        for span, count, pcts in s.payout_spans())


def _schedule(locale: object, s: TournamentSettings) -> str:
    """``Regular: 10 minutes per level · 10/20, 15/30, …``."""
    sched = s.schedule
    key = "tournament.per_level_" + ("hands" if sched.unit is LevelUnit.HANDS else "minutes")
    levels = ", ".join(blinds(locale, lv) for lv in sched.levels[:SHOWN_LEVELS])
    return translate(locale, "tournament.schedule", name=_choice(locale, sched.name).title(),
                     per_level=Phrase(key, count=sched.duration),
                     levels=levels + (" …" if len(sched.levels) > SHOWN_LEVELS else ""))


def _head(locale: object, rt: SitAndGoRuntime) -> str:
    sng, s = rt.sng, rt.sng.settings
    number_ = str(rt.tournament_id)
    kind = (Phrase("tournament.kind_mtt", number=number_, size=s.table_size)
            if s.multi_table else Phrase("tournament.kind_sng", number=number_))
    return translate(locale, "tournament.head", kind=kind, game=game(locale, s),
                     buy_in=s.buy_in, stack=s.starting_stack, count=len(sng.entrants),
                     max=s.max_entrants, clock=rt.config.clock)


def _registering(locale: object, rt: SitAndGoRuntime) -> list[str]:
    sng = rt.sng
    s = sng.settings
    lines = [translate(locale, "tournament.pool", pool=Phrase("chips.count", count=sng.pool),
                       payouts=payout_lines(locale, sng.payout_table(), sng.pool))]
    if s.payouts is None:
        lines.append(translate(locale, "tournament.by_field", lines=_field_lines(locale, s)))
    if s.late_levels:
        lines.append(translate(locale, "tournament.late", count=s.late_levels))
    lines.append(translate(locale, "tournament.cancel_rule"))
    lines.append(starts_line(locale, rt))
    return lines


def starts_line(locale: object, rt: SitAndGoRuntime) -> str:
    """When it starts: at its scheduled time (Discord timestamps, each reader's own
    form), or when full / at ``/tournament start``."""
    count = rt.sng.settings.min_entrants
    if rt.starts_at is not None:
        return translate(locale, "tournament.starts_at", when=stamp(rt.starts_at, "F"),
                         relative=stamp(rt.starts_at, "R"), count=count,
                         join=Command("tournament join"))
    return translate(locale, "tournament.starts_when", count=count,
                     start=Command("tournament start"), join=Command("tournament join"))


def _running(locale: object, rt: SitAndGoRuntime) -> list[str]:
    sng = rt.sng
    lines = [translate(locale, "tournament.level_now", number=sng.level_index + 1,
                       level=blinds(locale, sng.level))]
    if tables := tables_text(locale, rt).strip():
        lines.append(tables)
    if sng.late_open:
        lines.append(translate(locale, "tournament.late_open", join=Command("tournament join")))
    standings = ", ".join(f"<@{u}> {number(locale, stack)}" for u, stack in sng.standings())
    if standings:
        lines.append(translate(locale, "tournament.standings", standings=standings))
    placed = sorted(sng.placements.values(), key=lambda p: p.place)
    if placed:
        lines.append(translate(locale, "tournament.places", places=", ".join(
            f"{Ordinal(p.place).to(locale)} <@{p.user_id}>"
            + (f" ({number(locale, p.prize)})" if p.prize else "") for p in placed)))
    return lines


def describe(rt: SitAndGoRuntime, locale: object = None) -> str:
    """The tournament as /tournament info shows it, in ``locale``."""
    lines = [_head(locale, rt)]
    if rt.sng.status is Status.REGISTERING:
        lines += _registering(locale, rt)
    else:
        lines += _running(locale, rt)
    lines.append(_schedule(locale, rt.sng.settings))
    return fit_message(lines, locale=locale)


def tables_text(locale: object, rt: SitAndGoRuntime) -> str:
    """Where a multi-table tournament's tables play (their threads), or nothing."""
    if not isinstance(rt, MttRuntime) or not rt.tables:
        return ""
    return "\n" + translate(locale, "tournament.tables", tables=", ".join(
        f"{n}: <#{t.channel_id}>" for n, t in sorted(rt.tables.items())))


def registers_text(locale: object, rt: SitAndGoRuntime, user_id: int, started: bool) -> str:
    """``@alice registers (3/6); prize pool 300 chips.`` and, when it filled, the start."""
    sng = rt.sng
    text = translate(locale, "tournament.registers", player=f"<@{user_id}>",
                     count=len(sng.entrants), max=sng.settings.max_entrants,
                     pool=Phrase("chips.count", count=sng.pool))
    if started:
        text += "\n" + translate(locale, "tournament.full_starts",
                                 payouts=payout_lines(locale, sng.payout_table(), sng.pool),
                                 level=blinds(locale, sng.level)) + tables_text(locale, rt)
    return text


def started_text(locale: object, rt: SitAndGoRuntime) -> str:
    sng = rt.sng
    return translate(locale, "tournament.starts_now", count=len(sng.entrants),
                     payouts=payout_lines(locale, sng.payout_table(), sng.pool),
                     level=blinds(locale, sng.level)) + tables_text(locale, rt)


def cancel_text(
    locale: object, rt: SitAndGoRuntime, registering: bool, done: Cancelling
) -> str:
    """Before the start (public): refunded; after it (private): now, once the hands end, or
    the player's agreement counted (RULES.md 7)."""
    if registering:
        return translate(locale, "tournament.cancelled_refunded",
                         amount=Phrase("chips.count", count=rt.sng.settings.buy_in))
    if done is Cancelling.AGREED:
        return translate(locale, "tournament.cancel_agreed")
    if done is Cancelling.DONE:
        return translate(locale, "tournament.cancelled_paid")
    key = "notice.mtt_cancel_after_hands" if rt.sng.settings.multi_table else (
        "notice.sng_cancel_after_hand")
    return translate(locale, key)
