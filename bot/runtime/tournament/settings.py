"""What a sit-and-go's creator chooses (RULES.md section 7), validated once.

:class:`TournamentSettings` holds the buy-in, the starting stack, the
entrant bounds, the game, the blind schedule (:mod:`bot.runtime.tournament.blinds`) and
the payout table (:mod:`bot.runtime.tournament.payouts`) and the late registration
(``late_levels``: registration stays open after the start during the first
N levels, until the first player is out or the table is full) and a rotation of
games (``games``, each for ``every`` hands, RULES.md 11: a tournament rotates, it never
deals dealer's choice); :mod:`bot.runtime.tournament.sit_and_go`
runs a sit-and-go with them and re-exports every name here. Every refusal
is a :class:`TournamentRuleError` a player can read. The starting stack is
at least 10 big blinds of the first level.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.variants import VARIANTS, HandRule, Structure, Variant
from bot.i18n import Choice, Phrase, Wording
from bot.runtime.config import default_structure
from bot.runtime.errors import TableError
from bot.runtime.game_list import parse_games
from bot.runtime.mix import MAX_EVERY, MAX_GAMES, MIN_GAMES, Game
from bot.runtime.tournament.blinds import (
    PRESETS,
    BlindSchedule,
    LevelUnit,
    ScheduleError,
    default_speed,
    for_stack,
    preset,
)
from bot.runtime.tournament.payouts import (
    MAX_ENTRANTS,
    MAX_MTT_ENTRANTS,
    MIN_ENTRANTS,
    PayoutError,
    PayoutTable,
    mtt_payouts,
    parse_percentages,
    standard_payouts,
)

__all__ = [
    "MAX_CHIPS",
    "MIN_STARTING_BIG_BLINDS",
    "TournamentRuleError",
    "TournamentSettings",
    "payouts_from_text",
]

#: The starting stack must be at least this many big blinds of the first level.
MIN_STARTING_BIG_BLINDS = 10
MAX_CHIPS = 1_000_000_000
#: Late registration can stay open for at most this many levels.
MAX_LATE_LEVELS = 10


class TournamentRuleError(TableError):
    """A request the tournament refuses, or settings that do not make one (readable)."""


def _whole(value: object, what: str, low: int, high: int = MAX_CHIPS) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise TournamentRuleError(Phrase("refuse.tournament.whole", what=Phrase("what." + what),
                                         low=low, high=high))
    return value


@dataclass(frozen=True)
class TournamentSettings:
    """What a sit-and-go's creator chooses. Build with :meth:`create` (validates)."""

    buy_in: int
    starting_stack: int = 1_500
    min_entrants: int = 2
    max_entrants: int = 6
    variant_key: str = "omaha"
    structure: Structure = Structure.POT_LIMIT
    schedule: BlindSchedule = PRESETS["regular"]
    payouts: PayoutTable | None = None  # None: the standard table for the number of entrants
    late_levels: int = 0  # late registration during the first N levels (until someone is out)
    table_size: int = 0  # 0: one table (a sit-and-go); else seats per table of a multi-table one
    games: tuple[Game, ...] = ()  # a rotation's games (the first is variant_key/structure)
    every: int = 0  # a rotation's hands of each game

    @property
    def multi_table(self) -> bool:
        """A multi-table tournament (:mod:`bot.runtime.tournament.mtt`): several tables of
        ``table_size`` seats, up to 60 players, blinds on a clock in minutes."""
        return self.table_size > 0

    @property
    def most_tables(self) -> int:
        """The most tables it can have open at once (what the caps count while it
        registers, :mod:`bot.runtime.caps`): one, or its largest field over its table size."""
        return -(-self.max_entrants // self.table_size) if self.multi_table else 1

    @classmethod
    def create(
        cls,
        *,
        buy_in: int,
        starting_stack: int = 1_500,
        min_entrants: int = 2,
        max_entrants: int = 6,
        variant_key: str = "omaha",
        structure: Structure | str | None = None,
        schedule: BlindSchedule | str | None = None,
        payouts: PayoutTable | Sequence[int] | None = None,
        late_levels: int = 0,
        table_size: int = 0,
        games: str | Sequence[Game] | None = None,
        every: int | None = None,
    ) -> TournamentSettings:
        """Validated settings; raises :class:`TournamentRuleError` with a readable reason.

        ``structure`` None: the game's own (no limit for Texas Hold'em, else pot limit);
        ``schedule`` None: the game's preset (:func:`~bot.runtime.tournament.blinds.
        default_speed`). A preset named for Texas Hold'em is played relative to the
        starting stack (:func:`~bot.runtime.tournament.blinds.for_stack`).
        ``table_size`` > 0 makes a multi-table tournament: up to 60 players at tables of
        that many seats, a blind schedule in minutes (one clock for every table) and no
        late registration (players are seated once, at the start).

        ``games`` (typed as at a table, :mod:`bot.runtime.game_list`) makes a rotation,
        each game for ``every`` hands (default one per seat); a list of one game is that
        game. Every game must seat the table and suit the schedule and the stack."""
        cap = MAX_MTT_ENTRANTS if table_size else MAX_ENTRANTS
        _check_amounts_and_entrants(buy_in, starting_stack, min_entrants, max_entrants, cap)
        _whole(late_levels, "late_levels", 0, MAX_LATE_LEVELS)
        if table_size:
            # 3 at least: tables of two could each be left with one player, never broken
            _whole(table_size, "table_size", 3, MAX_ENTRANTS)
            if late_levels:
                raise TournamentRuleError(Phrase("refuse.tournament.mtt_no_late"))
        seats = table_size or max_entrants
        rotation = _rotation(games, every)
        if rotation:
            variant_key, structure = rotation[0].variant_key, rotation[0].structure
            rotation = rotation if len(rotation) > 1 else ()
        variant = _check_variant(variant_key, seats)
        structure = default_structure(variant) if structure is None else _structure(structure)
        played = rotation or (Game(variant_key, structure),)
        for game in played:
            _check_variant(game.variant_key, seats)
        schedule = _for_game(schedule, variant, structure, starting_stack)
        sched, table = _schedule_and_payouts(schedule, structure, payouts, min_entrants)
        if table_size and sched.unit is not LevelUnit.MINUTES:
            raise TournamentRuleError(Phrase("refuse.tournament.mtt_minutes"))
        for s in dict.fromkeys(g.structure for g in played):
            _schedule_and_payouts(sched, s, None, min_entrants)
            _check_starting_stack(starting_stack, sched, s)
        return cls(buy_in, starting_stack, min_entrants, max_entrants, variant_key, structure,
                   sched, table, late_levels, table_size, rotation,
                   (every or seats) if rotation else 0)

    @property
    def variant(self) -> Variant:
        return VARIANTS[self.variant_key]

    @property
    def played(self) -> tuple[Game, ...]:
        """Every game it deals: a rotation's list, else its one game."""
        return self.games or (Game(self.variant_key, self.structure),)

    @property
    def blinds_structure(self) -> Structure:
        """The structure a level's blinds are set for at its tables: fixed limit when a
        game of the rotation is (its small blind is half the big blind for every game)."""
        if any(g.structure is Structure.FIXED_LIMIT for g in self.games):
            return Structure.FIXED_LIMIT
        return self.structure

    def payout_table(self, entrants: int) -> PayoutTable:
        """The creator's table, or the standard one for ``entrants`` players."""
        if self.payouts is not None:
            return self.payouts
        return mtt_payouts(entrants) if self.multi_table else standard_payouts(entrants)

    def payout_spans(self) -> tuple[tuple[str, int, str], ...]:
        """Which places are paid for each possible number of players: one
        ``(span, last count, percentages)`` per run of field sizes paying alike, e.g.
        ``("2-3", 3, "100%")``, ``("4-6", 6, "65% / 35%")``."""
        spans: list[tuple[str, int, str]] = []
        first = self.min_entrants
        for count in range(self.min_entrants, self.max_entrants + 1):
            table = self.payout_table(count)
            if count == self.max_entrants or self.payout_table(count + 1) != table:
                span = f"{first}" if first == count else f"{first}-{count}"
                spans.append((span, count, " / ".join(f"{p}%" for p in table.percentages)))
                first = count + 1
        return tuple(spans)

    def payout_summary(self) -> tuple[str, ...]:
        """:meth:`payout_spans` in English: ``2-3 players: 100%``, ``4-6 players: 65% / 35%``."""
        return tuple(f"{span} players: {pcts}" for span, _, pcts in self.payout_spans())

    def storage_settings(self) -> dict[str, Any]:
        """The JSON-able ``settings`` for ``TournamentRepo.create`` (buy-in and stack are
        columns of their own there)."""
        rotation = {"games": [g.key for g in self.games], "every": self.every} if self.games else {}
        return rotation | {
            "min_entrants": self.min_entrants,
            "max_entrants": self.max_entrants,
            "variant": self.variant_key,
            "structure": self.structure.value,
            "schedule": self.schedule.to_dict(),
            "payouts": None if self.payouts is None else list(self.payouts.percentages),
            "late_levels": self.late_levels,
            "table_size": self.table_size,
        }

    @classmethod
    def from_storage(
        cls, buy_in: int, starting_stack: int, settings: Mapping[str, Any]
    ) -> TournamentSettings:
        """Rebuild (and re-validate) settings written by :meth:`storage_settings`.

        ``schedule`` may also be a preset's name; missing keys take the defaults."""
        raw = settings.get("schedule", "regular")
        try:
            schedule = preset(raw) if isinstance(raw, str) else BlindSchedule.from_dict(raw)
            payouts = settings.get("payouts")
            return cls.create(
                buy_in=buy_in,
                starting_stack=starting_stack,
                min_entrants=int(settings.get("min_entrants", MIN_ENTRANTS)),
                max_entrants=int(settings.get("max_entrants", 6)),
                variant_key=str(settings.get("variant", "omaha")),
                structure=str(settings.get("structure", Structure.POT_LIMIT.value)),
                schedule=schedule,
                payouts=None if payouts is None else tuple(payouts),
                late_levels=int(settings.get("late_levels", 0)),
                table_size=int(settings.get("table_size", 0)),
                games=tuple(Game.from_key(str(k)) for k in settings.get("games", ())),
                every=int(settings.get("every", 0)) or None,
            )
        except (ScheduleError, PayoutError) as exc:
            raise TournamentRuleError(_reason(exc)) from None
        except (TypeError, ValueError, AttributeError):
            raise TournamentRuleError("This tournament's stored settings are unreadable.") from None


def payouts_from_text(text: str, max_entrants: int) -> PayoutTable:
    """A creator's payout table (``50/30/20``): percentages adding up to 100, highest
    first, paying no more places than the tournament seats. The tournament then needs
    one player per paid place to start."""
    try:
        table = parse_percentages(text)
    except PayoutError as exc:
        raise TournamentRuleError(_reason(exc)) from None
    if table.places > max_entrants:
        raise TournamentRuleError(Phrase("refuse.tournament.places_over_seats",
                                         places=table.places, count=max_entrants))
    return table


# -- validation phases of TournamentSettings.create, in the order it runs them -------------


def _check_amounts_and_entrants(
    buy_in: int, starting_stack: int, min_entrants: int, max_entrants: int,
    cap: int = MAX_ENTRANTS,
) -> None:
    """Whole numbers in range, and a minimum number of players no more than the maximum."""
    _whole(buy_in, "buy_in", 1)
    _whole(starting_stack, "starting_stack", 1)
    _whole(min_entrants, "min_entrants", MIN_ENTRANTS, cap)
    _whole(max_entrants, "max_entrants", MIN_ENTRANTS, cap)
    if min_entrants > max_entrants:
        raise TournamentRuleError(Phrase("refuse.tournament.min_over_max"))


def _check_variant(variant_key: str, max_entrants: int) -> Variant:
    """A known variant whose deck deals to ``max_entrants`` players at one table."""
    variant = VARIANTS.get(variant_key)
    if variant is None:
        raise TournamentRuleError(Phrase("refuse.tournament.no_variant", name=repr(variant_key),
                                         names=", ".join(VARIANTS)))
    if max_entrants > variant.max_seats:
        raise TournamentRuleError(Phrase("refuse.tournament.variant_seats",
                                         game=Choice(variant.name), count=variant.max_seats))
    return variant


def _for_game(schedule: BlindSchedule | str | None, variant: Variant, structure: Structure,
              starting_stack: int) -> BlindSchedule | str:
    """The schedule asked for, the game's preset when none was; a preset of Texas Hold'em
    scaled to the starting stack. A schedule given whole (stored, custom) is kept as it is."""
    name = default_speed(variant, structure) if schedule is None else schedule
    if not isinstance(name, str) or variant.rule is not HandRule.HOLDEM:
        return name
    try:
        return for_stack(preset(name), starting_stack)
    except ScheduleError as exc:
        raise TournamentRuleError(_reason(exc)) from None


def _rotation(games: str | Sequence[Game] | None, every: int | None) -> tuple[Game, ...]:
    """The games listed (none: the variant and structure given; one: that game), at most
    8, a rotation's each dealt 1 to :data:`MAX_EVERY` hands (RULES.md 11)."""
    try:
        listed = parse_games(games) if isinstance(games, str) else tuple(games or ())
    except TableError as exc:  # the part not understood, named
        raise TournamentRuleError(exc.phrase or exc.message) from None
    if len(listed) > MAX_GAMES:
        raise TournamentRuleError(Phrase("refuse.games.count", low=MIN_GAMES, high=MAX_GAMES))
    if every is not None and (isinstance(every, bool) or not 1 <= every <= MAX_EVERY):
        raise TournamentRuleError(Phrase("refuse.games.every", high=MAX_EVERY))
    if len(listed) < 2 and every is not None:
        raise TournamentRuleError(Phrase("refuse.games.no_list"))
    return listed


def _structure(structure: Structure | str) -> Structure:
    try:
        return Structure(structure)
    except ValueError:
        raise TournamentRuleError(Phrase(
            "refuse.tournament.no_structure", name=repr(structure),
            names=", ".join(s.value for s in Structure))) from None


def _schedule_and_payouts(
    schedule: BlindSchedule | str,
    structure: Structure,
    payouts: PayoutTable | Sequence[int] | None,
    min_entrants: int,
) -> tuple[BlindSchedule, PayoutTable | None]:
    """The blind schedule (a preset's name or a schedule) checked against the structure,
    and the creator's payout table (None: the standard one) checked against the minimum
    number of players."""
    try:
        sched = preset(schedule) if isinstance(schedule, str) else schedule
        sched.check_structure(structure)
        table = None
        if payouts is not None:
            table = payouts if isinstance(payouts, PayoutTable) else PayoutTable(
                tuple(payouts)
            )
            table.check_entrants(min_entrants)
    except (ScheduleError, PayoutError) as exc:
        raise TournamentRuleError(_reason(exc)) from None
    return sched, table


def _check_starting_stack(starting_stack: int, sched: BlindSchedule, structure: Structure) -> None:
    first = sched.levels[0].for_structure(structure)
    if starting_stack < MIN_STARTING_BIG_BLINDS * first.big_blind:
        raise TournamentRuleError(Phrase(
            "refuse.tournament.short_stack", count=MIN_STARTING_BIG_BLINDS,
            chips=Phrase("chips.count", count=MIN_STARTING_BIG_BLINDS * first.big_blind)))


def _reason(exc: ScheduleError | PayoutError) -> str | Wording:
    """The error's phrase (a player's mistake, in any language), else its English."""
    return exc.phrase if exc.phrase is not None else _sentence(str(exc))


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
