"""A table's settings, validated once, with sensible defaults (Pot-Limit Omaha, 6 seats;
Texas Hold'em no limit when no structure is named).

A mixed table (RULES.md 11) holds its list of games in ``mix``
(:class:`~bot.runtime.mix.Mix`); its ``variant_key`` and ``structure`` are the game being
dealt, or last dealt (:meth:`TableConfig.playing`). Its seats fit every game of the list,
and its blinds serve every game: when the list holds a fixed-limit game the small blind
must be half the big blind rounded down (RULES.md 3), so every game posts the same blinds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from bot.engine.variants import (
    VARIANTS,
    GameConfig,
    HandRule,
    Structure,
    Variant,
    game_key,
    game_name,
)
from bot.i18n import Choice, Option, Phrase, resolve
from bot.runtime.errors import TableSettingsError
from bot.runtime.game_list import parse_games
from bot.runtime.mix import MAX_EVERY, MAX_GAMES, MIN_GAMES, Game, Mix, Mode

#: Upper bound for any chip amount in settings: keeps "huge numbers" polite.
MAX_CHIPS = 1_000_000_000
MIN_CLOCK, MAX_CLOCK = 5, 600
MAX_TIME_BANK = 3600
#: The largest 7-2 bounty, in big blinds (RULES.md 10).
MAX_SEVEN_DEUCE = 100

#: The longest bomb pot schedule (every N hands) and the largest bomb ante (big blinds).
MAX_BOMB_POT_EVERY, MAX_BOMB_POT_ANTE = 1000, 100
#: A hand's stored settings carry its own bomb pot under this key (:mod:`bot.runtime.bomb_pots`).
HAND_BOMB_POT = "bomb_pot"

DEFAULT_VARIANT = "omaha"
DEFAULT_STRUCTURE = Structure.POT_LIMIT


def default_structure(variant: Variant) -> Structure:
    """The structure a game is dealt in when none is named: no limit for Texas Hold'em
    (what "Hold'em" means to most players, and the game of every Hold'em table they
    know), pot limit for every Omaha game."""
    return Structure.NO_LIMIT if variant.rule is HandRule.HOLDEM else DEFAULT_STRUCTURE


@dataclass(frozen=True)
class TableConfig:
    """Everything a table creator chooses. Build with :meth:`create`, which validates."""

    variant_key: str = DEFAULT_VARIANT
    structure: Structure = DEFAULT_STRUCTURE
    small_blind: int = 1
    big_blind: int = 2
    ante: int = 0
    min_buyin: int = 40
    max_buyin: int = 200
    seats: int = 6
    clock: int = 30
    time_bank: int = 60
    #: The table's language (public messages and pictures): one of ``bot.i18n.LOCALES``.
    #: Configs stored before it existed load as English.
    language: str = "en"
    #: All-in players may run the rest of the board twice when they all agree
    #: (:mod:`bot.engine.run_twice`). Off by default; older stored configs load as off.
    run_it_twice: bool = False
    #: A mixed table's games and how they follow each other (RULES.md 11); None: one game.
    mix: Mix | None = None
    #: Players may choose to straddle when under the gun (RULES.md 10: no limit and pot
    #: limit only; :mod:`bot.engine.straddle`). Off by default; older configs load as off.
    straddle: bool = False
    #: Home-game options (RULES.md 10), off by default (older stored configs load so):
    #: the 7-2 bounty in big blinds (Texas Hold'em only; :mod:`bot.engine.after_hand`),
    #: the rabbit hunt and showing cards after a hand (:mod:`bot.runtime.table.after_hand`).
    seven_deuce: int = 0
    rabbit_hunt: bool = False
    showing: bool = False
    #: Bomb pots (RULES.md 10, :mod:`bot.runtime.bomb_pots`): one every N hands (0: never),
    #: the ante in big blinds (0: the default, :data:`~bot.runtime.bomb_pots.DEFAULT_ANTE`),
    #: on two boards. Bomb pots are on when either number is set (a table with an ante and
    #: no schedule deals them only when proposed). Off by default.
    bomb_pot_every: int = 0
    bomb_pot_ante: int = 0
    double_board: bool = False

    @property
    def variant(self) -> Variant:
        return VARIANTS[self.variant_key]

    @property
    def current_game(self) -> Game:
        """The game being dealt (a mixed table's: the last hand's)."""
        return Game(self.variant_key, self.structure)

    @property
    def games(self) -> tuple[Game, ...]:
        """The table's list of games (one game: itself)."""
        return self.mix.games if self.mix is not None else (self.current_game,)

    @property
    def game_key(self) -> str:
        """The return rule's key of the table's game, or its list of games in order, and
        blinds (RULES.md 7 and 11: :func:`bot.engine.variants.game_key`)."""
        return game_key([(g.variant_key, g.structure.value) for g in self.games],
                        self.small_blind, self.big_blind)

    def playing(self, game: Game) -> TableConfig:
        """The same table dealing ``game`` (one of its list's)."""
        return replace(self, variant_key=game.variant_key, structure=game.structure)

    def alone(self) -> TableConfig:
        """The game being dealt as a one-game table's settings (what a hand stores): a
        fixed-limit hand of a mixed table has no straddle, and the 7-2 bounty is paid only
        when that game is Texas Hold'em."""
        fixed = self.structure is Structure.FIXED_LIMIT
        holdem = self.variant.rule is HandRule.HOLDEM
        return replace(self, mix=None, straddle=self.straddle and not fixed,
                       seven_deuce=self.seven_deuce if holdem else 0)

    @property
    def game(self) -> GameConfig:
        return GameConfig(
            variant=self.variant,
            structure=self.structure,
            small_blind=self.small_blind,
            big_blind=self.big_blind,
            ante=self.ante,
            run_it_twice=self.run_it_twice,
            seven_deuce=self.seven_deuce,
        )

    @property
    def stakes(self) -> str:
        """``"1/2"`` or ``"1/2 ante 1"``."""
        text = f"{self.small_blind}/{self.big_blind}"
        return text + (f" ante {self.ante}" if self.ante else "")

    @property
    def title(self) -> str:
        """``"Pot Limit Omaha 1/2"``."""
        return f"{game_name(self.variant, self.structure)} {self.stakes}"

    def to_dict(self) -> dict[str, Any]:
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["structure"] = self.structure.value
        mix = data.pop("mix")
        if mix is not None:  # one-game tables' dicts read as before
            data["mix"] = mix.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableConfig:
        """The settings stored with a table or a hand (a hand's own bomb pot, stored with its
        settings under :data:`HAND_BOMB_POT`, is not a table setting)."""
        return cls.create(**{k: v for k, v in data.items() if k != HAND_BOMB_POT})

    def changed(self, **changes: Any) -> TableConfig:
        """A validated copy with some settings changed (None means unchanged)."""
        kept = {k: v for k, v in changes.items() if v is not None}
        kept.update(_mix_changes(self, kept))
        if "big_blind" in kept and "small_blind" not in kept:
            kept["small_blind"] = None  # re-derive from the new big blind
        merged = self.to_dict() | kept
        if merged.get("small_blind") is None:
            merged.pop("small_blind", None)
        if "big_blind" in kept and "min_buyin" not in kept and "max_buyin" not in kept:
            merged.pop("min_buyin")
            merged.pop("max_buyin")
        return TableConfig.create(**merged)

    @classmethod
    def create(
        cls,
        variant_key: str | None = None,
        structure: Structure | str | None = None,
        small_blind: int | None = None,
        big_blind: int | None = None,
        ante: int | None = None,
        min_buyin: int | None = None,
        max_buyin: int | None = None,
        seats: int | None = None,
        clock: int | None = None,
        time_bank: int | None = None,
        language: str | None = None,
        run_it_twice: bool | None = None,
        games: str | Sequence[Game] | None = None,
        mode: Mode | str | None = None,
        every: int | None = None,
        mix: Mix | Mapping[str, Any] | None = None,
        straddle: bool | None = None,
        seven_deuce: int | None = None,
        rabbit_hunt: bool | None = None,
        showing: bool | None = None,
        bomb_pot_every: int | None = None,
        bomb_pot_ante: int | None = None,
        double_board: bool | None = None,
    ) -> TableConfig:
        """Validate settings; any left out gets a default derived from the others.

        Defaults: Pot-Limit Omaha (no limit for Texas Hold'em, :func:`default_structure`),
        blinds 1/2, buy-in 20 to 100 big blinds,
        6 seats (or the variant's maximum if smaller), 30 s per decision and
        a 60 s time bank. Fixed limit: the big blind is the small bet and the
        small blind half of it rounded down (RULES section 3).

        A mixed table: ``games`` (typed, :mod:`bot.runtime.game_list`, or games), ``mode``
        and ``every`` (a rotation's hands per game, by default one per seat); or ``mix``,
        as stored. A list of one game is that game's table.

        The home-game options are off; the 7-2 bounty is refused but at a table dealing
        Texas Hold'em (a mixed table: among its games; only its Hold'em hands pay it).
        """
        listed = _games(games, mode, every, mix)
        if listed is not None and len(listed[0]) == 1:
            [only] = listed[0]
            variant_key, structure, listed = only.variant_key, only.structure, None
        key = _variant_key(variant_key)
        struct = _structure(structure, VARIANTS[key])
        dealt = listed[0] if listed is not None else (Game(key, struct),)
        if variant_key is None or Game(key, struct) not in dealt:  # a new list: its first
            key, struct = dealt[0].variant_key, dealt[0].structure
        limit = Structure.FIXED_LIMIT if any(
            g.structure is Structure.FIXED_LIMIT for g in dealt) else struct
        sb, bb = _blinds(limit, small_blind, big_blind)
        an = _ante(ante, bb)
        lo, hi = _buyins(min_buyin, max_buyin, bb)
        n = _seats(seats, [g.variant for g in dealt])
        ck = _clock(clock)
        tb = _time_bank(time_bank)
        bomb_every, bomb_ante = _bomb_pots(bomb_pot_every, bomb_pot_ante)
        return cls(key, struct, sb, bb, an, lo, hi, n, ck, tb, _language(language),
                   bool(run_it_twice), _made_mix(listed, n), _straddle(straddle, dealt),
                   _seven_deuce(seven_deuce, [g.variant for g in dealt]), bool(rabbit_hunt),
                   bool(showing), bomb_every, bomb_ante, bool(double_board))

    def with_seats(self, seats: int) -> TableConfig:
        return replace(self, seats=seats)


# -- validation phases of TableConfig.create, in the order it runs them ---------------------


def _language(language: str | None) -> str:
    """One of the languages the dealer speaks (English by default, and for any other)."""
    return resolve(language or "en")


def _variant_key(variant_key: str | None) -> str:
    """The variant's key, normalised; an unknown variant lists the known ones."""
    key = (variant_key or DEFAULT_VARIANT).strip().lower()
    if key not in VARIANTS:
        names = ", ".join(v.name for v in VARIANTS.values())
        raise TableSettingsError(
            Phrase("refuse.unknown_variant", value=repr(variant_key), names=names))
    return key


def _structure(structure: Structure | str | None, variant: Variant) -> Structure:
    try:
        return Structure(structure) if structure is not None else default_structure(variant)
    except ValueError:
        choices = ", ".join(s.value for s in Structure)
        raise TableSettingsError(Phrase("refuse.unknown_structure", value=repr(structure),
                                   names=choices)) from None


def _chips(name: str, value: int | None, default: int, low: int = 0) -> int:
    """A chip amount between ``low`` and :data:`MAX_CHIPS`, or ``default`` when None."""
    if value is None:
        return default
    what = Phrase("what." + name.replace(" ", "_").replace("-", "_"))
    if isinstance(value, bool) or not isinstance(value, int):
        raise TableSettingsError(Phrase("refuse.amount_whole", what=what))
    if value < low:
        raise TableSettingsError(Phrase("refuse.amount_at_least", what=what, low=low))
    if value > MAX_CHIPS:
        raise TableSettingsError(Phrase("refuse.amount_at_most", what=what, max=MAX_CHIPS))
    return value


def _blinds(struct: Structure, small_blind: int | None, big_blind: int | None) -> tuple[int, int]:
    """``(small, big)``: the big blind first, then the small blind the structure allows."""
    bb = _chips("big blind", big_blind, 2, low=1)
    if struct is Structure.FIXED_LIMIT:
        return _fixed_limit_small_blind(small_blind, bb), bb
    sb = _chips("small blind", small_blind, max(1, bb // 2), low=1)
    if sb > bb:
        raise TableSettingsError(Phrase("refuse.small_over_big"))
    return sb, bb


def _fixed_limit_small_blind(small_blind: int | None, bb: int) -> int:
    """Fixed limit: the big blind is the small bet and the small blind half of it."""
    if bb < 2:
        raise TableSettingsError(Phrase("refuse.fixed_big_blind"))
    default_sb = bb // 2
    sb = _chips("small blind", small_blind, default_sb, low=1)
    if sb != default_sb:
        raise TableSettingsError(Phrase("refuse.fixed_small_blind", amount=default_sb))
    return sb


def _ante(ante: int | None, bb: int) -> int:
    an = _chips("ante", ante, 0)
    if an > bb:
        raise TableSettingsError(Phrase("refuse.ante_over_big"))
    return an


def _buyins(min_buyin: int | None, max_buyin: int | None, bb: int) -> tuple[int, int]:
    """``(minimum, maximum)`` buy-in; by default 20 and 100 big blinds."""
    lo = _chips("minimum buy-in", min_buyin, 20 * bb, low=1)
    hi = _chips("maximum buy-in", max_buyin, max(100 * bb, lo), low=1)
    if lo < bb:
        raise TableSettingsError(Phrase("refuse.min_buy_in", amount=bb))
    if hi < lo:
        raise TableSettingsError(Phrase("refuse.max_below_min"))
    return lo, hi


def _whole_in(value: object, low: int, high: int) -> bool:
    """``value`` is an int (not a bool) from ``low`` to ``high``."""
    return not isinstance(value, bool) and isinstance(value, int) and low <= value <= high


def _seats(seats: int | None, variants: Sequence[Variant]) -> int:
    """By default 6, or the most the deck allows if fewer; never more than the deck allows
    any of the ``variants`` (RULES.md 2 and 11: the refusal names the game that limits)."""
    variant = min(variants, key=lambda v: v.max_seats)
    n = min(6, variant.max_seats) if seats is None else seats
    if not _whole_in(n, 2, variant.max_seats):
        raise TableSettingsError(Phrase("refuse.seats_range", game=Choice(variant.name),
                                   count=variant.max_seats))
    return n


def _clock(clock: int | None) -> int:
    ck = 30 if clock is None else clock
    if not _whole_in(ck, MIN_CLOCK, MAX_CLOCK):
        raise TableSettingsError(Phrase("refuse.clock_range", low=MIN_CLOCK, high=MAX_CLOCK))
    return ck


def _bomb_pots(every: int | None, ante: int | None) -> tuple[int, int]:
    """``(every N hands, ante in big blinds)`` of the bomb pots, 0 for unset."""
    n = every or 0
    if not _whole_in(n, 0, MAX_BOMB_POT_EVERY):
        raise TableSettingsError(Phrase("refuse.bomb_pot_every_range", high=MAX_BOMB_POT_EVERY))
    bbs = ante or 0
    if not _whole_in(bbs, 0, MAX_BOMB_POT_ANTE):
        raise TableSettingsError(Phrase("refuse.bomb_pot_ante_range", high=MAX_BOMB_POT_ANTE))
    return n, bbs


def _seven_deuce(seven_deuce: int | None, variants: Sequence[Variant]) -> int:
    """The 7-2 bounty in big blinds: 0 (off) to :data:`MAX_SEVEN_DEUCE`, at Texas Hold'em
    tables only (RULES.md 10; a mixed table deals Hold'em among its ``variants``)."""
    blinds = 0 if seven_deuce is None else seven_deuce
    if not _whole_in(blinds, 0, MAX_SEVEN_DEUCE):
        raise TableSettingsError(Phrase("refuse.seven_deuce_range", high=MAX_SEVEN_DEUCE))
    if blinds and all(v.rule is not HandRule.HOLDEM for v in variants):
        raise TableSettingsError(Phrase("refuse.seven_deuce_holdem",
                                        game=Choice(variants[0].name)))
    return blinds


def _time_bank(time_bank: int | None) -> int:
    tb = 60 if time_bank is None else time_bank
    if not _whole_in(tb, 0, MAX_TIME_BANK):
        raise TableSettingsError(Phrase("refuse.time_bank_range", high=MAX_TIME_BANK))
    return tb


# -- a mixed table's list of games (RULES.md 11) ---------------------------------------------

#: A list being made: its games, mode, hands per game (None: one per seat) and start.
_Listed = tuple[tuple[Game, ...], Mode, int | None, int]


def _games(
    games: str | Sequence[Game] | None, mode: Mode | str | None, every: int | None,
    mix: Mix | Mapping[str, Any] | None,
) -> _Listed | None:
    """The list of games asked for (typed, given, or stored as ``mix``), its mode, hands per
    game and start; None for a one-game table. Refuses a mode or rotation length without
    a list, an unknown mode, and a list too short or too long."""
    if isinstance(mix, Mapping):
        mix = Mix.from_dict(mix)
    if games is None and mix is None:
        if mode is not None or every is not None:
            raise TableSettingsError(Phrase("refuse.games.no_list"))
        return None
    if games is None:
        assert mix is not None
        listed, since = mix.games, mix.since
        mode, every = mode or mix.mode, every or mix.every
    else:
        listed, since = (parse_games(games) if isinstance(games, str) else tuple(games)), 0
    if not 1 <= len(listed) <= MAX_GAMES:
        raise TableSettingsError(Phrase("refuse.games.count", low=MIN_GAMES, high=MAX_GAMES))
    try:
        how = Mode(mode) if mode is not None else Mode.ROTATION
    except ValueError:
        raise TableSettingsError(Phrase("refuse.games.mode", value=repr(mode))) from None
    if every is not None and not _whole_in(every, 1, MAX_EVERY):
        raise TableSettingsError(Phrase("refuse.games.every", high=MAX_EVERY))
    return listed, how, every, since


def _made_mix(listed: _Listed | None, seats: int) -> Mix | None:
    """The table's mix: a rotation deals each game for as many hands as it has seats
    unless told otherwise (RULES.md 11)."""
    if listed is None:
        return None
    games, mode, every, since = listed
    return Mix(games, mode, every or seats, since)


def _mix_changes(config: TableConfig, kept: Mapping[str, Any]) -> dict[str, Any]:
    """What a settings change does to the list of games: a new list (a mode or a rotation
    length changes the table's list), or one game given (``variant_key``, ``structure``)
    makes a mixed table a one-game table."""
    mix = config.mix
    if any(k in kept for k in ("games", "mode", "every")):
        if mix is None:
            return {"mix": None}
        out: dict[str, Any] = {"mix": None, "games": kept.get("games", mix.games),
                               "mode": kept.get("mode", mix.mode)}
        out["every"] = kept.get("every", mix.every)
        return out
    if mix is not None and ("variant_key" in kept or "structure" in kept):
        return {"mix": None}
    return {}


def _straddle(straddle: bool | None, dealt: Sequence[Game]) -> bool:
    """Straddles are played at no-limit and pot-limit tables only (RULES.md 10); a mixed
    table needs one such game in its list (its fixed-limit hands have none)."""
    if straddle and all(g.structure is Structure.FIXED_LIMIT for g in dealt):
        raise TableSettingsError(Phrase("refuse.straddle_fixed_limit", option=Option("straddle")))
    return bool(straddle)
