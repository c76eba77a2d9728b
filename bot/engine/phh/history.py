"""From a finished hand's events to its PHH record: :func:`history_of`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.engine.events import (
    ActionKind,
    BlindPosted,
    BoardDealt,
    Event,
    HandEnded,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    PlayerActed,
)
from bot.engine.phh.actions import format_cards, label
from bot.engine.phh.after_hand import after_hand_fields, shown_after
from bot.engine.phh.records import IMPLIED_HOLE_CARDS, HandHistory, TomlValue
from bot.engine.straddle import STRADDLE
from bot.engine.variants import VARIANTS, GameConfig, Structure

__all__ = ["BOMB_POT_FIELD", "DOUBLE_BOARD_FIELD", "RUN_TWICE_FIELD", "history_of"]

#: The user field holding the second run's board deals of a hand run twice.
RUN_TWICE_FIELD = "_run_twice"
#: A bomb pot (no preflop betting), and board 2's deals of a double board
#: (:mod:`bot.engine.phh.bomb_pot`).
BOMB_POT_FIELD = "_bomb_pot"
DOUBLE_BOARD_FIELD = "_double_board"


def history_of(
    events: Sequence[Event],
    *,
    players: Sequence[str] | None = None,
    extra: Sequence[tuple[str, TomlValue]] = (),
    public: bool = False,
    viewer: int | None = None,
) -> HandHistory:
    """The PHH record of a finished hand, from its events (:attr:`Hand.events`).

    ``public=True`` writes the hole cards of every hand that was never shown
    (folded or mucked) as ``??``, as the rules keep them hidden from the other
    players; such a record still replays to the same final stacks (see
    :func:`~bot.engine.phh.replay` on unknown cards).

    A hand run twice writes its first board in ``actions`` and the second
    run's own board deals in the user field ``_run_twice`` (``["d db QcJh5s",
    "d db 4h", "d db 8d"]``): PHH actions have no second board. The 7-2 bounty and the
    cards shown after the hand are user fields too (:mod:`bot.engine.phh.after_hand`);
    with ``public=True`` a card shown after the hand is written in its ``d dh`` line. A
    bomb pot writes its antes, no blinds and ``_bomb_pot`` (a double board:
    ``_double_board``), as :mod:`bot.engine.phh.bomb_pot` says.
    """
    started = next((e for e in events if isinstance(e, HandStarted)), None)
    ended = next((e for e in events if isinstance(e, HandEnded)), None)
    if started is None or ended is None:
        raise ValueError("only a finished hand (from its start to its end) can be written")
    variant = VARIANTS[started.variant]
    structure = Structure(started.structure)
    config = GameConfig(
        variant, structure, started.small_blind, started.big_blind, started.ante
    )
    seat_order = [seat for seat, _ in started.seats]
    player_of = {seat: p for p, seat in enumerate(seat_order)}
    n = len(seat_order)
    notes: list[tuple[str, TomlValue]]
    if started.bomb_ante:  # antes only (bot.engine.phh.bomb_pot)
        blinds, notes = (0,) * n, [(BOMB_POT_FIELD, True)]
    else:
        straddles = {player_of[e.seat]: e.amount for e in events
                     if isinstance(e, BlindPosted) and e.blind == STRADDLE}
        blinds, notes = _blinds(config, player_of, started.posts_big_blind, straddles)
    final = dict(ended.stacks)
    fixed = structure is Structure.FIXED_LIMIT
    holes = {e.seat: e.cards for e in events if isinstance(e, HoleCardsDealt)}
    return HandHistory(
        variant=config.phh_variant,
        antes=(started.bomb_ante or config.ante,) * n,
        blinds_or_straddles=blinds,
        starting_stacks=tuple(stack for _, stack in started.seats),
        actions=tuple(_actions(events, player_of, public, viewer)),
        min_bet=None if fixed else config.big_blind,
        small_bet=config.small_bet if fixed else None,
        big_bet=config.big_bet if fixed else None,
        finishing_stacks=tuple(final[s] for s in seat_order),
        seats=tuple(seat_order),
        players=tuple(players) if players is not None else None,
        hole_cards=(None if variant.hole_cards == IMPLIED_HOLE_CARDS[variant.rule.letter]
                    else variant.hole_cards),
        courchevel=variant.courchevel,
        extra=(*extra, *notes, *_second_board(events, started.double_board),
               *after_hand_fields(events, player_of, holes)),
    )


def _second_board(events: Sequence[Event], double: bool) -> list[tuple[str, TomlValue]]:
    """The second board's deals: ``_run_twice`` when the hand was run twice,
    ``_double_board`` for a double board."""
    deals: list[TomlValue] = [
        f"d db {format_cards(e.cards)}" for e in events if isinstance(e, BoardDealt) and e.run
    ]
    if not deals:
        return []
    return [(DOUBLE_BOARD_FIELD if double else RUN_TWICE_FIELD, deals)]


def _blinds(
    config: GameConfig, player_of: Mapping[int, int], newcomers: Sequence[int],
    straddles: Mapping[int, int],
) -> tuple[tuple[int, ...], list[tuple[str, TomlValue]]]:
    """``blinds_or_straddles`` and the user fields it needs (``_small_blind``).

    A newcomer's late big blind is written at their place; when the small
    blind's seat is a newcomer it posts the big blind, and ``_small_blind``
    keeps the game's small blind. A straddle (``straddles``: player -> amount)
    is written at the straddler's place, as PokerKit reads one.
    """
    n = len(player_of)
    blinds = [0] * n
    blinds[0], blinds[1] = config.small_blind, config.big_blind
    for pos, amount in straddles.items():
        blinds[pos] = amount
    small_pos, big_pos = (1, 0) if n == 2 else (0, 1)
    notes: list[tuple[str, TomlValue]] = []
    for seat in set(newcomers):
        pos = player_of[seat]
        if pos == small_pos:  # the small blind's seat posts a late big blind instead
            blinds[0] = config.big_blind
            notes.append(("_small_blind", config.small_blind))
        elif pos != big_pos:
            blinds[pos] = config.big_blind
    return tuple(blinds), notes


def _actions(
    events: Sequence[Event], player_of: Mapping[int, int], public: bool, viewer: int | None
) -> list[str]:
    """The record's actions: every player's hole cards first (by player), then the rest;
    ``public``: a hand never shown is ``??``, but for the cards shown after the hand."""
    shown = {e.seat for e in events if isinstance(e, HandShown)} | {viewer}
    after = shown_after(events)
    dealt = sorted(
        (player_of[e.seat], e.cards if e.seat in shown or not public
         else tuple(c if c in after.get(e.seat, ()) else None for c in e.cards))
        for e in events
        if isinstance(e, HoleCardsDealt)
    )  # one deal per player: sorted by player
    actions = [f"d dh {label(p)} {format_cards(cards)}" for p, cards in dealt]
    for e in events:
        line = _action_line(e, player_of)
        if line is not None:
            actions.append(line)
    return actions


def _action_line(e: Event, player_of: Mapping[int, int]) -> str | None:
    """The PHH action for one event after the hole cards; ``None`` if it writes none."""
    if isinstance(e, BoardDealt):
        return None if e.run else f"d db {format_cards(e.cards)}"
    if isinstance(e, PlayerActed):
        who = label(player_of[e.seat])
        if e.kind is ActionKind.FOLD:
            return f"{who} f"
        if e.kind in (ActionKind.CHECK, ActionKind.CALL):
            return f"{who} cc"
        return f"{who} cbr {e.to}"
    if isinstance(e, HandShown):
        return f"{label(player_of[e.seat])} sm {format_cards(e.cards)}"
    return None
