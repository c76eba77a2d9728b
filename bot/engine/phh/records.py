"""The PHH hand history record (:class:`HandHistory`) and the two errors of this package."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

__all__ = ["IMPLIED_HOLE_CARDS", "KNOWN_FIELDS", "HandError", "HandHistory", "PHHError",
           "TomlValue"]


class PHHError(ValueError):
    """The text is not readable PHH (bad TOML, missing or mistyped fields)."""


class HandError(ValueError):
    """One hand cannot be replayed; the message names the action and the reason."""


#: The fields this package reads into :class:`HandHistory` attributes; every other
#: field is kept in :attr:`HandHistory.extra`.
KNOWN_FIELDS = (
    "variant",
    "ante_trimming_status",
    "antes",
    "blinds_or_straddles",
    "min_bet",
    "small_bet",
    "big_bet",
    "starting_stacks",
    "actions",
    "finishing_stacks",
    "seats",
    "players",
    "_hole_cards",
    "_courchevel",
)

#: The hole cards a variant code's game letter stands for (``PO``: 4, ``NT``: 2); a
#: variant dealing another number writes ``_hole_cards``.
IMPLIED_HOLE_CARDS = {"O": 4, "T": 2}

TomlValue = (
    str
    | int
    | float
    | bool
    | datetime.datetime
    | datetime.date
    | datetime.time
    | list["TomlValue"]
    | dict[str, "TomlValue"]
)


@dataclass(frozen=True)
class HandHistory:
    """One hand as PHH describes it (amounts in whole chips).

    ``problem`` is set when the record was readable but cannot describe a
    hand of ours (for example chip amounts with fractions); replaying it then
    reports the problem as that hand's error.
    """

    variant: str
    antes: tuple[int, ...]
    blinds_or_straddles: tuple[int, ...]
    starting_stacks: tuple[int, ...]
    actions: tuple[str, ...]
    min_bet: int | None = None
    small_bet: int | None = None
    big_bet: int | None = None
    finishing_stacks: tuple[int, ...] | None = None
    seats: tuple[int, ...] | None = None
    players: tuple[str, ...] | None = None
    hole_cards: int | None = None
    courchevel: bool = False
    #: Every other field of the record, in file order, written back unchanged.
    extra: tuple[tuple[str, TomlValue], ...] = field(default=(), compare=False)
    problem: str | None = None

    @property
    def player_count(self) -> int:
        return len(self.starting_stacks)

    def __repr__(self) -> str:  # the actions hold hole cards: never in a repr or a log line
        return (
            f"<HandHistory {self.variant} {self.player_count} players, "
            f"{len(self.actions)} actions>"
        )
