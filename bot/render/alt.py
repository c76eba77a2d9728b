"""What each picture shows, in words: its description (Discord's alt text).

A screen reader reads an attachment's ``description`` where a sighted player sees the
picture, so every picture the bot sends carries one, in the picture's language (the
view's ``locale``): the hole cards name every card, the table says its street, board,
pot and whose turn it is (after the hand, who won what), a showdown says who showed what
and won what; graphs, leaderboards and results say what their lines and rows say.

Cards are named in words ("king of spades", "re di picche"), not with the suit symbols:
screen readers speak ``♠`` as "black spade suit" in the reader's voice whatever the
picture's language, and some skip it. Discord refuses a description over
:data:`LIMIT` characters; :func:`fit` keeps every description within it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.engine.cards import Card
from bot.i18n import hands, listed, number, translate
from bot.render import words
from bot.render.after_hand import CardRowsView
from bot.render.hole import sort_hole
from bot.render.views import (
    GraphView,
    HoleCardsView,
    LeaderboardView,
    PotView,
    ReplayView,
    ResultsView,
    SeatStatus,
    SeatView,
    ShowdownView,
    TableView,
)

__all__ = ["LIMIT", "card_rows", "card_words", "fit", "graphs", "hole_cards", "leaderboard",
           "replay_ending", "results", "showdown", "table"]

#: Discord's limit on an attachment's description (attachments[].description).
LIMIT = 1024
_STATUS = {SeatStatus.FOLDED: "render.folded", SeatStatus.ALL_IN: "render.all_in",
           SeatStatus.SITTING_OUT: "render.sitting_out", SeatStatus.WAITING: "render.waiting"}


def fit(text: str) -> str:
    """``text`` within Discord's :data:`LIMIT` (cut with an ellipsis when longer)."""
    return text if len(text) <= LIMIT else text[: LIMIT - 1] + "\u2026"


def _sentences(parts: Iterable[str]) -> str:
    return fit(". ".join(p for p in parts if p) + ".")


def card_words(locale: str, card: Card) -> str:
    """``king of spades`` / ``re di picche`` (the rank in lower case, as inside a sentence)."""
    rank = translate(locale, f"rank.{card.rank}")
    return translate(locale, "card.name", rank=rank[:1].lower() + rank[1:],
                     suit=translate(locale, f"suit.{card.suit}"))


def _cards(locale: str, cards: Iterable[Card | None]) -> str:
    return listed(locale, [card_words(locale, c) if c is not None
                           else translate(locale, "alt.face_down") for c in cards])


def _board(locale: str, cards: Sequence[Card], label: str = "") -> str:
    if not cards:
        return ""
    return f"{label or translate(locale, 'render.board')}: {_cards(locale, cards)}"


def _head(locale: str, table_name: str, hand_number: int, game: str) -> str:
    hand = translate(locale, "render.hand_number", number=str(hand_number))
    return " · ".join(p for p in (table_name, hand, game) if p)


def hole_cards(view: HoleCardsView) -> str:
    """The player's cards in the picture's order, the board and what they have (two
    boards: each, and what they have on it)."""
    lang = view.locale
    mine = translate(lang, "cards.yours", cards=_cards(lang, sort_hole(view.cards)))
    parts = [_head(lang, view.table_name, view.hand_number, view.game), mine]
    two = bool(view.second_board)
    for i, (board, label) in enumerate(((view.board, view.label),
                                        (view.second_board, view.second_label))):
        name = translate(lang, "render.board_number", number=str(i + 1)) if two else ""
        parts += [_board(lang, board, name), f"{translate(lang, 'render.you_have')} "
                  f"{hands.label(lang, label)}" if label and board else ""]
    return _sentences(parts)


def _pot_total(view: TableView) -> int:
    return sum(p.amount for p in view.pots) + sum(s.bet for s in view.seats)


def _winners(locale: str, pots: Sequence[PotView]) -> list[str]:
    won: dict[str, int] = {}
    for pot in pots:
        for w in pot.winners:
            won[w.name] = won.get(w.name, 0) + w.amount
    return [translate(locale, "alt.wins", player=name, amount=amount)
            for name, amount in won.items()]


def _seat(locale: str, seat: SeatView) -> str:
    text = f"{seat.name} {number(locale, seat.stack)}"
    if seat.shown:
        text += f" ({_cards(locale, seat.shown)})"
    status = _STATUS.get(seat.status)
    return f"{text} ({translate(locale, status)})" if status else text


def table(view: TableView) -> str:
    """The table: street, board, pot, whose turn (after the hand: who won), the seats."""
    lang = view.locale
    with words.speaking(lang):
        street = words.street(view.street) if view.street else ""
    finished = any(p.winners for p in view.pots)
    to_act = next((s.name for s in view.seats if s.seat == view.to_act), None)
    parts = [_head(lang, view.table_name, view.hand_number, view.game), street,
             _board(lang, view.board),
             _board(lang, view.second_board, translate(lang, "pot.board", number="2"))]
    if finished:
        parts.extend(_winners(lang, view.pots))
    else:
        parts.append(translate(lang, "pot.total", amount=_pot_total(view)))
        if to_act is not None:
            parts.append(translate(lang, "alt.to_act", player=to_act))
    seats = "; ".join(_seat(lang, s) for s in view.seats)
    parts.append(translate(lang, "alt.seats", seats=seats) if seats else "")
    return _sentences(parts)


def showdown(view: ShowdownView) -> str:
    """Each hand shown (cards and what it makes; on two boards, on each) and what each
    player won."""
    lang = view.locale
    board2 = translate(lang, "pot.board", number="2")
    parts = [_head(lang, view.table_name, view.hand_number, view.game),
             _board(lang, view.board), _board(lang, view.second_board, board2)]
    for h in view.hands:
        made = [hands.label(lang, m.description) for m in (h.high, h.low) if m is not None]
        second = [hands.label(lang, m.description) for m in (h.second_high, h.second_low)
                  if m is not None and view.second_board]
        line = translate(lang, "alt.shows", player=h.name, cards=_cards(lang, h.hole))
        if made:
            line += f" ({', '.join(made)}" + (f"; {board2}: {', '.join(second)})" if second
                                              else ")")
        parts.append(line)
    won = {h.name: h.won for h in view.hands if h.won}
    for pot in view.pots:
        for w in pot.winners:
            if w.name not in won:
                won[w.name] = won.get(w.name, 0) + w.amount
    parts.extend(translate(lang, "alt.wins", player=n, amount=a) for n, a in won.items())
    return _sentences(parts)


def card_rows(view: CardRowsView) -> str:
    """Cards shown after a hand or a rabbit hunt: each row's label and cards."""
    lang = view.locale
    rows = [f"{row.label}: {_cards(lang, row.cards)}" for row in view.rows]
    return _sentences([view.title, _head(lang, "", view.hand_number, view.game), *rows])


def replay_ending(view: ReplayView) -> str:
    """How a replayed hand ends: its award and end frames' captions."""
    ends = [f.caption for f in view.frames if f.kind in ("award", "end") and f.caption]
    return _sentences(dict.fromkeys(ends)) if ends else ""


def leaderboard(view: LeaderboardView) -> str:
    """The title and every row: ``1. alice 1,200``."""
    lang = view.locale

    def value(v: int | str) -> str:
        return number(lang, v) if isinstance(v, int) else v

    rows = "; ".join(f"{r.rank}. {r.name} {value(r.value)}" for r in view.rows)
    return _sentences([view.title, view.subtitle, f"{view.value_label}: {rows}" if rows
                       else translate(lang, "render.nobody")])


def graphs(view: GraphView) -> str:
    """Each graph: its title and where each line ends, after how many steps."""
    lang = view.locale
    parts = [view.title]
    for panel in view.panels:
        ends = ", ".join(f"{line.label} {'+' if (line.points or (0,))[-1] > 0 else ''}"
                         f"{number(lang, (line.points or (0,))[-1])}" for line in panel.lines)
        steps = max((len(line.points) for line in panel.lines), default=0)
        parts.append(f"{panel.title}: {ends} ({panel.x_label}: {number(lang, steps)})")
    return _sentences(parts)


def results(view: ResultsView) -> str:
    """A tournament's places, names and prizes."""
    lang = view.locale
    rows = "; ".join(f"{r.place}. {r.name} {number(lang, r.prize)}" if r.place is not None
                     else f"{r.name} {number(lang, r.prize)}" for r in view.rows)
    return _sentences([view.title, view.subtitle, f"{translate(lang, 'render.prize')}: {rows}"])
