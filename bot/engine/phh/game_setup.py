"""From a PHH record to our game: :func:`setup_of` reads everything but the actions.

The conventions it reads (variant codes, player order, blinds of newcomers,
``_small_blind``, a straddle) are listed in the :mod:`bot.engine.phh` docstring; a record with
``_run_twice`` (:mod:`bot.engine.phh.second_run`) is played at a table that runs it twice,
one with ``_seven_deuce`` (:mod:`bot.engine.phh.after_hand`) at a table paying the 7-2
bounty, one with ``_bomb_pot`` (:mod:`bot.engine.phh.bomb_pot`) as a bomb pot.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.hand import BombPot, SeatIn
from bot.engine.phh.after_hand import seven_deuce_of
from bot.engine.phh.bomb_pot import bomb_pot_of
from bot.engine.phh.records import IMPLIED_HOLE_CARDS, HandError, HandHistory
from bot.engine.straddle import UNDER_THE_GUN, straddler
from bot.engine.variants import VARIANTS, GameConfig, HandRule, Structure, Variant

__all__ = ["Setup", "setup_of"]

_STRUCTURES = {"P": "pot limit", "N": "no limit", "F": "fixed limit"}


@dataclass(frozen=True)
class Setup:
    """What a PHH record says about the game: everything but the actions."""

    config: GameConfig
    seats: tuple[SeatIn, ...]
    button: int
    bomb_pot: BombPot | None = None


def setup_of(hh: HandHistory) -> Setup:
    """The game, seats and button a record describes; :class:`HandError` if none of ours."""
    if hh.problem:
        raise HandError(hh.problem)
    n = hh.player_count
    if not 2 <= n <= 10:
        raise HandError(f"a hand has 2 to 10 players, not {n}")
    variant, structure = _game_of(hh)
    bomb = bomb_pot_of(hh)
    if bomb is None:
        ante = _ante_of(hh)
        small, big, newcomers, straddle = _blinds_of(hh)
    else:  # antes only: the big blind is the minimum bet (bot.engine.phh.bomb_pot)
        ante, newcomers, straddle = 0, [], False
        big = (hh.small_bet if structure is Structure.FIXED_LIMIT else hh.min_bet) or 0
        small = max(1, big // 2)
    _check_bet_sizes(hh, structure, big)
    try:
        config = GameConfig(variant, structure, small, big, ante,
                            run_it_twice="_run_twice" in dict(hh.extra),
                            seven_deuce=seven_deuce_of(hh))
    except ValueError as exc:
        raise HandError(str(exc)) from None
    seats, button = _seats_of(hh, newcomers, straddle)
    if straddle and straddler(config, seats) is None:
        raise HandError(
            "a straddle is posted only under the gun, by a player who covers it, at a "
            "no-limit or pot-limit game of 3 or more players"
        )
    return Setup(config, seats, button, bomb)


def _game_of(hh: HandHistory) -> tuple[Variant, Structure]:
    """The variant and betting structure: ``PO/8`` and friends, ``_hole_cards``, ``_courchevel``;
    Texas Hold'em ``NT``, ``PT``, ``FT``."""
    code = hh.variant
    hi_lo = code.endswith("/8")
    base = code[:-2] if hi_lo else code
    rules = {rule.letter: rule for rule in HandRule}
    if len(base) != 2 or base[1] not in rules or base[0] not in _STRUCTURES:
        raise HandError(
            f"variant {code!r} is not a game of ours (PO, NO, FO, PO/8, NO/8, FO/8, NT, PT or FT)"
        )
    structure = Structure(_STRUCTURES[base[0]])
    rule = rules[base[1]]
    implied = 5 if hh.courchevel else IMPLIED_HOLE_CARDS[base[1]]
    hole = hh.hole_cards if hh.hole_cards is not None else implied
    variant = next(
        (
            v
            for v in VARIANTS.values()
            if v.rule is rule and v.hole_cards == hole and v.hi_lo == hi_lo
            and v.courchevel == hh.courchevel
        ),
        None,
    )
    if variant is None:
        kind = "Texas Hold'em" if rule is HandRule.HOLDEM else (
            "Courchevel" if hh.courchevel else "Omaha")
        split = " hi-lo" if hi_lo else ""
        raise HandError(f"there is no {hole}-card {kind}{split} game")
    return variant, structure


def _ante_of(hh: HandHistory) -> int:
    n = hh.player_count
    antes = hh.antes + (0,) * (n - len(hh.antes))  # missing entries are 0, as in PokerKit
    if len(antes) != n or len(set(antes)) != 1:
        raise HandError("every player posts the same ante (antes must list one per player)")
    return antes[0]


def _blinds_of(hh: HandHistory) -> tuple[int, int, list[int], bool]:
    """The small blind, the big blind, the players (0-based) posting a late big blind and
    whether p3 straddles.

    A big blind entry after p2 is a newcomer's live big blind; ``_small_blind``
    marks the small blind's seat as a newcomer posting the big blind. Twice the
    big blind for p3 (under the gun) is a straddle (RULES.md 10).
    """
    n = hh.player_count
    blinds = hh.blinds_or_straddles + (0,) * (n - len(hh.blinds_or_straddles))
    if len(blinds) != n or len(blinds) < 2:
        raise HandError("blinds_or_straddles lists more players than the hand has")
    big = blinds[1]
    small = blinds[0]
    straddle = n > UNDER_THE_GUN and big > 0 and blinds[UNDER_THE_GUN] == 2 * big
    newcomers = [i for i in range(2, n) if blinds[i] and not (straddle and i == UNDER_THE_GUN)]
    written_small = dict(hh.extra).get("_small_blind")
    if written_small is not None:
        if isinstance(written_small, bool) or not isinstance(written_small, int):
            raise HandError("_small_blind must be a whole number of chips")
        if blinds[0] != big:
            raise HandError(
                "_small_blind is written only when the small blind's seat posts a late big blind"
            )
        small = written_small
        newcomers.insert(0, 1 if n == 2 else 0)
    if any(blinds[i] != big for i in newcomers):
        raise HandError("the only straddle played here is twice the big blind, under the gun"
                        " (and only a big blind may be posted late)")
    if small > big or small < 0:
        raise HandError("blinds_or_straddles must start with the small blind, then the big blind")
    return small, big, newcomers, straddle


def _check_bet_sizes(hh: HandHistory, structure: Structure, big: int) -> None:
    """``small_bet`` and ``big_bet`` (fixed limit) or ``min_bet`` agree with the big blind."""
    if structure is Structure.FIXED_LIMIT:
        if hh.small_bet != big or hh.big_bet != 2 * big:
            raise HandError(
                "fixed limit needs small_bet equal to the big blind and big_bet twice that"
            )
    elif hh.min_bet is not None and hh.min_bet != big:
        raise HandError("min_bet must equal the big blind")


def _seats_of(
    hh: HandHistory, newcomers: list[int], straddle: bool
) -> tuple[tuple[SeatIn, ...], int]:
    """The seats in PHH order (clockwise from the seat after the button) and the button."""
    n = hh.player_count
    numbers = hh.seats if hh.seats is not None else tuple(range(1, n + 1))
    if len(numbers) != n or len(set(numbers)) != n or min(numbers) < 1:
        raise HandError("seats must list one distinct seat number per player")
    button = numbers[-1]
    clockwise = sorted(numbers, key=lambda s: (s <= button, s))
    if tuple(clockwise) != numbers:
        raise HandError("seats must go clockwise from the seat after the button")
    seats = tuple(
        SeatIn(seat, stack, posts_big_blind=i in newcomers,
               straddle=straddle and i == UNDER_THE_GUN)
        for i, (seat, stack) in enumerate(zip(numbers, hh.starting_stacks, strict=True))
    )
    if min(hh.starting_stacks) <= 0:
        raise HandError("every player starts with chips")
    return seats, button
