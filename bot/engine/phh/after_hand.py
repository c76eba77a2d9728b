"""What happens after a hand's pots in PHH (RULES.md 10): three user-defined fields.

PHH has no 7-2 bounty and no showing of cards once a hand is over, so
:func:`~bot.engine.phh.history_of` writes them as fields of our own (PHH allows any
field whose name starts with ``_``; PokerKit's loader keeps them aside and ignores
them, so its finishing stacks leave a bounty out):

* ``_seven_deuce = 5``: the hand was dealt at a table playing the 7-2 bounty, in big
  blinds (:mod:`bot.engine.after_hand`); :func:`~bot.engine.phh.replay` plays it so;
* ``_bounties = ["p1 pays p3 10", "p2 pays p3 10"]``: what the bounty moved between
  the stacks (a player who had nothing left pays nothing and is not listed); the
  replay must pay exactly that;
* ``_shown_after = ["p3 sm 7c2d", "p2 sm Kd??"]``: the cards shown after the hand, in
  PHH's show notation (``??`` for a card kept hidden): the winning 7-2 of a hand won
  without a showdown, and what players chose to show. The ``d dh`` line of a public
  record shows those cards too (every other hidden card stays ``??``), which is what
  the deal proof reveals of that hand.

A hand with cards unknown to the record (``??``) is replayed on the weakest cards
left (:func:`~bot.engine.phh.deck.weak_filler`); at a 7-2 table those never make a
7-2 (:func:`keep_off_seven_deuce`), which the record would have shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.engine.after_hand import is_seven_deuce
from bot.engine.cards import DECK, Card
from bot.engine.events import BountyPaid, CardsShown, Event, HandStarted
from bot.engine.phh.actions import format_cards, label
from bot.engine.phh.deck import DealtCards
from bot.engine.phh.records import HandError, HandHistory, TomlValue

__all__ = [
    "BOUNTIES_FIELD", "SEVEN_DEUCE_FIELD", "SHOWN_AFTER_FIELD", "after_hand_fields",
    "blank_slots", "bounty_lines", "check_bounties", "keep_off_seven_deuce", "seven_deuce_of",
    "shown_after",
]

SEVEN_DEUCE_FIELD = "_seven_deuce"
BOUNTIES_FIELD = "_bounties"
SHOWN_AFTER_FIELD = "_shown_after"


def shown_after(events: Sequence[Event]) -> dict[int, set[Card]]:
    """The cards shown after the hand, by seat."""
    out: dict[int, set[Card]] = {}
    for e in events:
        if isinstance(e, CardsShown):
            out.setdefault(e.seat, set()).update(e.cards)
    return out


def bounty_lines(events: Sequence[Event], player_of: Mapping[int, int]) -> list[str]:
    """``"p1 pays p3 10"`` for every chip a 7-2 bounty moved."""
    return [f"{label(player_of[payer])} pays {label(player_of[e.seat])} {chips}"
            for e in events if isinstance(e, BountyPaid) for payer, chips in e.payers if chips]


def after_hand_fields(
    events: Sequence[Event], player_of: Mapping[int, int], holes: Mapping[int, tuple[Card, ...]]
) -> list[tuple[str, TomlValue]]:
    """The user fields of a finished hand's record (none for a hand without any of it);
    ``holes``: each seat's hole cards."""
    started = next(e for e in events if isinstance(e, HandStarted))
    out: list[tuple[str, TomlValue]] = []
    if started.seven_deuce:
        out.append((SEVEN_DEUCE_FIELD, started.seven_deuce))
        bounties: list[TomlValue] = list(bounty_lines(events, player_of))
        if bounties:
            out.append((BOUNTIES_FIELD, bounties))
    shows: list[TomlValue] = [
        f"{label(player_of[seat])} sm "
        + format_cards([c if c in cards else None for c in holes[seat]])
        for seat, cards in shown_after(events).items()
    ]
    if shows:
        out.append((SHOWN_AFTER_FIELD, shows))
    return out


def seven_deuce_of(hh: HandHistory) -> int:
    """The record's 7-2 bounty in big blinds (0: none); :class:`HandError` if unreadable."""
    value = dict(hh.extra).get(SEVEN_DEUCE_FIELD, 0)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise HandError(f"{SEVEN_DEUCE_FIELD} must be a whole number of big blinds")
    return value


def check_bounties(hh: HandHistory, events: Sequence[Event], seat_of: Sequence[int]) -> None:
    """The replayed hand paid the bounties the record lists (``_bounties``, none when
    absent); :class:`HandError` otherwise."""
    written = dict(hh.extra).get(BOUNTIES_FIELD, [])
    if not isinstance(written, list) or not all(isinstance(v, str) for v in written):
        raise HandError(f"{BOUNTIES_FIELD} is not a list of payments")
    player_of = {seat: p for p, seat in enumerate(seat_of)}
    paid = bounty_lines(events, player_of)
    if sorted(paid) != sorted(str(v) for v in written):
        raise HandError(f"{BOUNTIES_FIELD} does not list the 7-2 bounty the hand pays")


def blank_slots(dealt: DealtCards, hole_cards: int) -> dict[int, list[int]]:
    """Where each player's hole cards are unknown to the record (``??`` or not dealt), by
    player: taken before :func:`~bot.engine.phh.deck.fill_unknown_holes` fills them."""
    out: dict[int, list[int]] = {}
    for p, hole in enumerate(dealt.holes):
        slots = [i for i in range(hole_cards) if i >= len(hole) or hole[i] is None]
        if slots:
            out[p] = slots
    return out


def keep_off_seven_deuce(dealt: DealtCards, blanks: Mapping[int, list[int]]) -> None:
    """Change a filled card of every player whose filled hand (``blanks``: the slots that
    were unknown) makes a 7-2: that hand was no winning 7-2, or the record would show
    it, so it must not collect a bounty on replay."""
    for p, slots in sorted(blanks.items()):
        hole = dealt.holes[p]
        if not is_seven_deuce([c for c in hole if c is not None]):
            continue
        spare = next(c for c in DECK if c not in dealt.seen and c.rank not in (2, 7))
        old = hole[slots[-1]]
        if old is not None:
            dealt.seen.discard(old)
        hole[slots[-1]] = spare
        dealt.seen.add(spare)
