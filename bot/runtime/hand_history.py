"""A finished hand, played again from its record, as one player may see it.

:func:`rebuild` plays a stored hand again on the engine from its settings,
seats, button, deck and actions (the same way a restart resumes one), so the
history is the engine's own hand, not a second account of it. What a player
may see of it (:func:`visible_holes`): their own hole cards and the hands
shown down; a folded or mucked hand of anyone else never. Words per street:
:func:`street_lines`; the reader's PHH file with its deal proof:
:func:`export_phh`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.engine import phh
from bot.engine.cards import Card, Deck
from bot.engine.commitment import commit
from bot.engine.events import (
    AntePosted,
    BetReturned,
    BlindPosted,
    BoardDealt,
    CardsShown,
    Event,
    HandShown,
    PlayerActed,
    RunTwiceVoted,
    Street,
)
from bot.engine.hand import Hand, SeatIn
from bot.engine.phh.proof import with_proof
from bot.i18n import ENGLISH, Name, listed, resolve, translate
from bot.i18n.cards import written
from bot.runtime.bomb_pots import stored_bomb_pot
from bot.runtime.config import TableConfig
from bot.runtime.decisions import replay_stored
from bot.runtime.table import wording
from bot.runtime.table.hand_views import action_text, result_view
from bot.runtime.table.views import HandResultView

if TYPE_CHECKING:
    from bot.storage import Database, HandRecord

__all__ = [
    "PastHand", "export_phh", "game_of", "history_for", "load_past", "rebuild", "shared_cards",
    "street_lines", "visible_holes",
]


@dataclass(frozen=True)
class PastHand:
    """A finished hand played again, with what identifies it and its deal proof."""

    hand_id: int
    table_id: int
    number: int
    ended_at: float | None
    config: TableConfig
    hand: Hand
    users: Mapping[int, int]  # seat -> user id
    commitment: str | None = None
    salts: tuple[bytes, ...] = field(default=(), repr=False)

    def seat_of(self, user_id: int) -> int | None:
        return next((s for s, u in self.users.items() if u == user_id), None)


def rebuild(
    *, hand_id: int, table_id: int, number: int, ended_at: float | None,
    settings: Mapping[str, Any], button: int, seats: Sequence[tuple[int, int, int, bool]],
    actions: Sequence[Mapping[str, Any]], deck: Sequence[Card],
    salts: Sequence[bytes] = (), commitment: str | None = None, straddles: Collection[int] = (),
) -> PastHand:
    """Play the stored hand again; ``seats`` are ``(seat, user_id, start stack, posts bb)``,
    ``straddles`` the seats whose players chose to straddle (RULES.md 10).

    ``ValueError`` when the record does not play to its end (it never should).
    """
    config = TableConfig.from_dict(dict(settings))
    hand = Hand(config.game, [SeatIn(s, stack, bb, s in straddles) for s, _, stack, bb in seats],
                button, Deck(order=deck), stored_bomb_pot(settings))
    hand.start()
    for a in actions:
        replay_stored(hand, int(a["seat"]), str(a["kind"]), a.get("amount"), a.get("cards", ()))
    if not hand.is_over:
        raise ValueError(f"hand {hand_id} does not play to its end from its record")
    if commitment is not None and salts and commit(deck, salts).root != commitment:
        raise ValueError(f"hand {hand_id}: its deck does not match its commitment")
    return PastHand(hand_id, table_id, number, ended_at, config, hand,
                    {s: u for s, u, _, _ in seats}, commitment, tuple(salts))


def game_of(past: PastHand, locale: object = ENGLISH) -> str:
    """The hand's game in ``locale``: its table's title, and ``"... · bomb pot"`` for a bomb
    pot (:func:`bot.runtime.table.wording.hand_game`)."""
    bomb = past.hand.bomb_pot
    return wording.hand_game(locale, past.config, bomb.ante if bomb else 0,
                             past.hand.double_board)


def visible_holes(past: PastHand, viewer: int | None) -> dict[int, tuple[Card, ...]]:
    """The hole cards ``viewer`` (a seat, or ``None`` for a railbird) may see, by seat: a
    hand shown after it was over (RULES.md 10) as far as it was shown."""
    out = dict(past.hand.shown_after)
    out.update({e.seat: e.cards for e in past.hand.events if isinstance(e, HandShown)})
    if viewer is not None and viewer in past.users:
        out[viewer] = past.hand.hole(viewer)
    return out


def _cards(cards: Sequence[Card]) -> str:
    return written(cards)


_BLINDS = {"small": "history.small_blind", "big": "history.big_blind",
           "straddle": "history.straddle"}


def _line(e: Event, names: Mapping[int, str], lang: str) -> str | None:
    """One event in words in ``lang``, or ``None`` for events the history does not list."""
    if isinstance(e, AntePosted):
        return translate(lang, "history.ante", name=Name(names[e.seat]), amount=e.amount)
    if isinstance(e, BlindPosted):
        key = _BLINDS.get(e.blind, "history.a_big_blind")
        return translate(lang, key, name=Name(names[e.seat]), amount=e.amount)
    if isinstance(e, PlayerActed):
        _, kind, amount = action_text(names[e.seat], e)
        return wording.acted(lang, names[e.seat], kind, amount, e.all_in)
    if isinstance(e, BetReturned):
        return translate(lang, "history.returned", name=Name(names[e.seat]), amount=e.amount)
    if isinstance(e, HandShown):
        return translate(lang, "history.shows", name=Name(names[e.seat]), cards=_cards(e.cards))
    if isinstance(e, RunTwiceVoted):
        key = "history.run_twice" if e.agree else "history.run_once"
        return translate(lang, key, name=Name(names[e.seat]))
    return None


def _board_head(lang: str, e: BoardDealt, cards: Sequence[Card], twice: bool) -> str:
    """``**Flop** Ah Kd 2c``; run twice, ``**Turn (board 2)** ...``, in ``lang``."""
    title = translate(lang, "render.board" if e.street is Street.PREFLOP
                      else f"street.{e.street.value}")
    if twice:
        title += f" ({translate(lang, 'pot.board', number=str(e.run + 1))})"
    return f"**{title}** {_cards(cards)}"


def street_lines(
    past: PastHand, names: Mapping[int, str], viewer: int | None, locale: object = ENGLISH
) -> list[str]:
    """The whole hand in words, street by street, with only what ``viewer`` may see, in
    ``locale`` (the reader's language; English by default)."""
    hand, lang = past.hand, resolve(locale)
    lines = [translate(lang, "history.preflop", street=translate(lang, "street.preflop"),
                       name=Name(names[hand.button]))]
    if viewer is not None and viewer in past.users:
        lines.append(translate(lang, "history.your_cards", cards=_cards(hand.hole(viewer))))
    boards: list[list[Card]] = [[], list(hand.second_board[:shared_cards(hand)])]
    twice = bool(hand.second_board)
    for e in hand.events:
        if isinstance(e, BoardDealt):
            boards[e.run].extend(e.cards)
            lines.append(_board_head(lang, e, boards[e.run], twice))
            continue
        text = _line(e, names, lang)
        if text:
            lines.append(text)
    lines.append(translate(lang, "history.result"))
    lines.extend(wording.result_lines(lang, result_of(past, names)))
    mucked = sorted(hand.result.mucked)
    if mucked:
        lines.append(translate(lang, "history.mucked",
                               names=listed(lang, [Name(names[s]) for s in mucked])))
    lines.extend(translate(lang, "history.shows_after", name=Name(names[e.seat]),
                           cards=_cards(e.cards))
                 for e in hand.events if isinstance(e, CardsShown) and not e.bounty)
    return lines


def shared_cards(hand: Hand) -> int:
    """How many board cards both boards of a hand run twice share (0 when dealt once)."""
    second = [c for e in hand.events if isinstance(e, BoardDealt) and e.run for c in e.cards]
    return len(hand.second_board) - len(second)


def result_of(past: PastHand, names: Mapping[int, str]) -> HandResultView:
    return result_view(past.hand, past.number, names, past.users)


def export_phh(past: PastHand, names: Mapping[int, str], viewer: int | None) -> str:
    """The hand as ``viewer`` may see it, in PHH text (:func:`history_for`)."""
    return phh.dumps(history_for(past, names, viewer))


def history_for(
    past: PastHand, names: Mapping[int, str], viewer: int | None
) -> phh.HandHistory:
    """The hand as ``viewer`` may see it, as a PHH record with the deal proof when it has one:
    the board, ``viewer``'s hole cards and the hands shown; every other hand is ``??``."""
    hand = past.hand
    order = hand.seat_order
    hh = phh.history_of(
        hand.events, players=[names[s] for s in order], public=True,
        viewer=viewer if viewer in past.users else -1,
        extra=(("_table", past.table_id), ("_hand", past.number)),
    )
    if past.commitment and past.salts:
        hh = with_proof(hh, hand.deck.order, commit(hand.deck.order, past.salts))
    return hh


async def load_past(db: Database, record: HandRecord) -> PastHand:
    """A finished hand of the database, played again (see :func:`rebuild`)."""
    seats = await db.hands.seats(record.id)
    actions = await db.hands.actions(record.id)
    deal = await db.hands.reveal_deal(record.id)
    deck = deal.deck if deal is not None else await db.hands.reveal_deck(record.id)
    return rebuild(
        hand_id=record.id, table_id=record.table_id, number=record.number,
        ended_at=record.ended_at, settings=record.settings, button=record.button,
        seats=[(s.seat_no, s.user_id, s.start_stack, s.posts_big_blind) for s in seats],
        straddles=[s.seat_no for s in seats if s.straddle], actions=actions, deck=deck,
        salts=deal.salts if deal is not None else (),
        commitment=deal.commitment if deal is not None else None,
    )
