"""The middle of the table picture: the pot line, the board (two boards for a hand
run twice), each pot under it, and after the hand who won each pot.

The table picture (:mod:`bot.render.table`) gives this module its band of felt
(:func:`bot.render.table.centre_band`); everything here is placed inside it,
from its top down: the pot line, the board, then :data:`POT_ROWS` rows of pots.
After the hand the board moves up to the pot line's place and up to
:data:`RESULT_ROWS` rows of results follow it.
"""

from __future__ import annotations

from bot.engine.cards import Card
from bot.render import pots, words
from bot.render.canvas import Box, Canvas, chips, row_width
from bot.render.cardart import card_width
from bot.render.theme import Palette
from bot.render.views import TableView

TEXT = 26  # names, stacks, amounts (the table's size of letters)
POT_LINE = 36
BOARD_H, BOARD_GAP = 90, 8
PILL_H, PILL_GAP = pots.PILL_H, 6
POT_ROWS = 2  # rows of pots under the board
RESULT_ROWS = 3  # rows of results under the board (moved up) after the hand
ROW_STEP = PILL_H + 4
POT_COLUMNS = 5  # pots side by side under the board (2 rows hold 10: a full table's most)
BOARD_OFFSET = POT_LINE + 6  # from the band's top to the board's (during the hand)
ROWS_OFFSET = BOARD_OFFSET + BOARD_H + 8  # from the band's top to the first row of pots
HEIGHT = ROWS_OFFSET + POT_ROWS * ROW_STEP  # the pot line, the board and the rows of pots
TWO_BOARDS_H, TWO_BOARDS_GAP = 74, 5  # each board of a hand run twice
TWO_BOARDS_LABEL = 30  # the board's number, left of its cards


# -- the hand's outcome -------------------------------------------------------------------

def hand_ended(view: TableView) -> bool:
    """A view with winners in any pot shows a finished hand."""
    return any(p.winners for p in view.pots)


def winnings(view: TableView) -> dict[int, int]:
    """Chips each seat won, all pots together (a winner without a seat number is found
    by name)."""
    by_name = {s.name: s.seat for s in view.seats}
    won: dict[int, int] = {}
    for pot in view.pots:
        for w in pot.winners:
            seat = w.seat or by_name.get(w.name, 0)
            if seat:
                won[seat] = won.get(seat, 0) + w.amount
    return won


# -- the middle: pot, board, pots, results -------------------------------------------------

def _middle(band: Box) -> int:
    """The x at the middle of ``band``."""
    return (band[0] + band[2]) // 2


def board_box(band: Box, over: bool = False) -> Box:
    """Where the board goes in ``band``; after the hand it moves up to the pot line's
    place."""
    w = row_width(5, BOARD_H, BOARD_GAP)
    x = _middle(band) - w // 2
    top = band[1] + 4 if over else band[1] + BOARD_OFFSET
    return (x, top, x + w, top + BOARD_H)


def draw_centre(cv: Canvas, view: TableView, band: Box) -> None:
    """During the hand: the pot line, the board, then each pot under it. After the hand:
    the board moved up, and under it who won each pot."""
    if hand_ended(view):
        board = board_box(band, over=True)
        _draw_boards(cv, view, board, _middle(band))
        rows = (band[0], board[3] + 8, band[2], band[3])
        used = _draw_results(cv, view, rows, RESULT_ROWS)
        free = RESULT_ROWS - used
    else:
        board = board_box(band)
        _draw_boards(cv, view, board, _middle(band))
        total = sum(p.amount for p in view.pots) + sum(s.bet for s in view.seats)
        if total:  # everything in the middle, this round's bets included
            cv.text((_middle(band), band[1] + POT_LINE // 2),
                    words.say("pot.total", amount=chips(total)), 30,
                    cv.pal.felt_text, bold=True, anchor="mm",
                    limit=(band[0], band[1], band[2], band[1] + POT_LINE), tag="pot")
        rows = (band[0], band[1] + ROWS_OFFSET, band[2], band[3])
        used = _draw_pots(cv, view, rows)
        free = POT_ROWS - used
    if view.note and free > 0:
        y = rows[1] + used * ROW_STEP + PILL_H // 2
        cv.text((_middle(band), y), view.note, TEXT, cv.pal.accent, bold=True, anchor="mm",
                limit=(rows[0], y - PILL_H // 2, rows[2], y + PILL_H // 2), tag="note")


def _draw_boards(cv: Canvas, view: TableView, board: Box, middle: int) -> None:
    """The board; a hand run twice draws its two boards side by side in its place."""
    if view.second_board:
        _draw_two_boards(cv, view, board, middle)
    else:
        _draw_board_slots(cv, view.board, board[0], board[1], BOARD_H, BOARD_GAP, view.lit)


def _draw_two_boards(cv: Canvas, view: TableView, board: Box, middle: int) -> None:
    """Run it twice: "1" and the first board, "2" and the second, side by side, centred
    on the board's place (the cards both boards share are drawn on both)."""
    w = row_width(5, TWO_BOARDS_H, TWO_BOARDS_GAP)
    between = 24
    total = 2 * (TWO_BOARDS_LABEL + w) + between
    x = middle - total // 2
    y = board[1] + (BOARD_H - TWO_BOARDS_H) // 2
    for number, cards in ((1, view.board), (2, view.second_board)):
        cv.text((x + TWO_BOARDS_LABEL // 2, y + TWO_BOARDS_H // 2), str(number), TEXT,
                cv.pal.felt_text_dim, bold=True, anchor="mm", tag="board",
                limit=(x, y, x + TWO_BOARDS_LABEL, y + TWO_BOARDS_H))
        _draw_board_slots(cv, cards, x + TWO_BOARDS_LABEL, y, TWO_BOARDS_H, TWO_BOARDS_GAP,
                          view.lit)
        x += TWO_BOARDS_LABEL + w + between


def _draw_board_slots(cv: Canvas, cards: tuple[Card, ...], x0: int, y0: int, height: int,
                      gap: int, lit: tuple[Card, ...] = ()) -> None:
    """Five card slots: the dealt board cards, an empty outline for each one to come;
    with ``lit`` cards (a pot being awarded), the board cards not among them faded."""
    step = card_width(height) + gap
    for i in range(5):
        x = x0 + i * step
        if i < len(cards):
            cv.card(cards[i], x, y0, height, faded=bool(lit) and cards[i] not in lit,
                    tag="board")
        else:
            cv.draw.rounded_rectangle((x, y0, x + card_width(height), y0 + height), radius=8,
                                      outline=cv.pal.slot, width=3)


def _inks(pal: Palette) -> pots.Inks:
    return pots.Inks(pill=pal.felt_edge, label=pal.felt_text_dim, amount=pal.felt_text,
                     name=pal.felt_text, share=pal.accent)


def _draw_pots(cv: Canvas, view: TableView, rows: Box) -> int:
    """Each pot on its own pill (once there are two or more), up to five a row; returns
    the rows used."""
    count = len(view.pots)
    if count < 2:
        return 0
    items = [(pots.pot_label(p.label, i, count), p.amount) for i, p in enumerate(view.pots)]
    limit = POT_COLUMNS * POT_ROWS
    if count > limit:  # more pots than a table can make: the rest share one pill
        rest = sum(amount for _, amount in items[limit - 1:])
        items = [*items[:limit - 1], (words.say("pot.more", count=count - limit + 1), rest)]
    per_row = min(POT_COLUMNS, len(items))
    width = rows[2] - rows[0]
    cell = min(230, (width - (per_row - 1) * PILL_GAP) // per_row)
    for r in range(0, len(items), per_row):
        line = items[r:r + per_row]
        y = rows[1] + (r // per_row) * ROW_STEP
        x = (rows[0] + rows[2]) // 2 - (len(line) * cell + (len(line) - 1) * PILL_GAP) // 2
        for label, amount in line:
            pots.draw_pill(cv, (x, y, x + cell, y + PILL_H),
                           *pots.fit_pill(label, amount, cell), _inks(cv.pal), "pots")
            x += cell + PILL_GAP
    return (len(items) + per_row - 1) // per_row


def _draw_results(cv: Canvas, view: TableView, rows: Box, most: int) -> int:
    """After the hand: each pot's pill, then who took it ("Ann 450 high"), over at most
    ``most`` rows, each row centred; pots that do not fit end as "+N more" (their winners'
    seats still show what they won). Returns the rows used."""
    won = [[pots.Unit("pill", (pots.pot_label(p.label, i, len(view.pots)), chips(p.amount))),
            *pots.winner_units(p.winners)]
           for i, p in enumerate(view.pots) if p.winners]
    width = rows[2] - rows[0]
    lines: list[pots.Row] = []
    for shown in range(len(won), -1, -1):
        note = pots.Unit("note", (words.say("pot.more", count=len(won) - shown),))
        more = [[note]] if shown < len(won) else []
        lines = pots.flow(won[:shown] + more, width)
        if len(lines) <= most:
            break
    for r, line in enumerate(lines):
        left = rows[0] + (width - pots.row_width(line)) // 2
        pots.draw_row(cv, line, left, rows[1] + r * ROW_STEP, rows[2], _inks(cv.pal), "result")
    return len(lines)
