"""A table's settings, validated once, with sensible defaults (Pot-Limit Omaha, 6 seats)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any

from bot.engine.variants import VARIANTS, GameConfig, Structure, Variant, game_name
from bot.i18n import Choice, Phrase, resolve
from bot.runtime.errors import TableSettingsError

#: Upper bound for any chip amount in settings: keeps "huge numbers" polite.
MAX_CHIPS = 1_000_000_000
MIN_CLOCK, MAX_CLOCK = 5, 600
MAX_TIME_BANK = 3600

#: The longest bomb pot schedule (every N hands) and the largest bomb ante (big blinds).
MAX_BOMB_POT_EVERY, MAX_BOMB_POT_ANTE = 1000, 100
#: A hand's stored settings carry its own bomb pot under this key (:mod:`bot.runtime.bomb_pots`).
HAND_BOMB_POT = "bomb_pot"

DEFAULT_VARIANT = "omaha"
DEFAULT_STRUCTURE = Structure.POT_LIMIT


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
    def game(self) -> GameConfig:
        return GameConfig(
            variant=self.variant,
            structure=self.structure,
            small_blind=self.small_blind,
            big_blind=self.big_blind,
            ante=self.ante,
            run_it_twice=self.run_it_twice,
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
        data = asdict(self)
        data["structure"] = self.structure.value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableConfig:
        """The settings stored with a table or a hand (a hand's own bomb pot, stored with its
        settings under :data:`HAND_BOMB_POT`, is not a table setting)."""
        return cls.create(**{k: v for k, v in data.items() if k != HAND_BOMB_POT})

    def changed(self, **changes: Any) -> TableConfig:
        """A validated copy with some settings changed (None means unchanged)."""
        kept = {k: v for k, v in changes.items() if v is not None}
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
        bomb_pot_every: int | None = None,
        bomb_pot_ante: int | None = None,
        double_board: bool | None = None,
    ) -> TableConfig:
        """Validate settings; any left out gets a default derived from the others.

        Defaults: Pot-Limit Omaha, blinds 1/2, buy-in 20 to 100 big blinds,
        6 seats (or the variant's maximum if smaller), 30 s per decision and
        a 60 s time bank. Fixed limit: the big blind is the small bet and the
        small blind half of it rounded down (RULES section 3).
        """
        key = _variant_key(variant_key)
        variant = VARIANTS[key]
        struct = _structure(structure)
        sb, bb = _blinds(struct, small_blind, big_blind)
        an = _ante(ante, bb)
        lo, hi = _buyins(min_buyin, max_buyin, bb)
        n = _seats(seats, variant)
        ck = _clock(clock)
        tb = _time_bank(time_bank)
        every, bomb_ante = _bomb_pots(bomb_pot_every, bomb_pot_ante)
        return cls(key, struct, sb, bb, an, lo, hi, n, ck, tb, _language(language),
                   bool(run_it_twice), every, bomb_ante, bool(double_board))

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


def _structure(structure: Structure | str | None) -> Structure:
    try:
        return Structure(structure) if structure is not None else DEFAULT_STRUCTURE
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


def _seats(seats: int | None, variant: Variant) -> int:
    """By default 6, or the variant's maximum if smaller; never more than the deck allows."""
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


def _time_bank(time_bank: int | None) -> int:
    tb = 60 if time_bank is None else time_bank
    if not _whole_in(tb, 0, MAX_TIME_BANK):
        raise TableSettingsError(Phrase("refuse.time_bank_range", high=MAX_TIME_BANK))
    return tb
