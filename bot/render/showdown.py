"""The showdown picture: every shown hand, its best five cards, and who won what.

Made for a phone like the table picture: 800 pixels wide, no letter under 24
pixels (12 once Discord shows it 400 wide). Under the header and the board,
the shown hands sit in panels two a row. A panel has the player's name and
what they won, which pots and halves that was ("Main pot high, Side pot 1"),
the hole cards (cards the hand does not use are faded), then the best high
five and, in hi-lo, the best low five, each with its description; the cards
of a five that come from the hand are underlined. Under the panels, each pot
on its own row: a pill with its label and amount, then who took it and which
half ("Ann 450 high  Bob 450 low").
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.cards import Card
from bot.render import pots, words
from bot.render.canvas import Box, Canvas, chips, row_width
from bot.render.cardart import card_width
from bot.render.fonts import display_name
from bot.render.theme import DeckStyle, Palette, Theme, palette
from bot.render.views import MadeHandLike, ShowdownHand, ShowdownView

WIDTH = 800
PAD = 16
HEADER = 64
BOARD_H, BOARD_GAP = 96, 8
COLUMN_GAP, ROW_GAP = 12, 12
PANEL_PAD = 12
PANEL_W = (WIDTH - 2 * PAD - COLUMN_GAP) // 2
INNER_W = PANEL_W - 2 * PANEL_PAD
HOLE_GAP = 6
HOLE_H = 76  # six hole cards fill a panel's width; "10" indices stay >= 24 px
BEST_H, BEST_GAP = 74, 4
LINE = 32  # a line of text in a panel
TEXT, SMALL = 26, pots.SIZE
POT_ROW = pots.PILL_H + 6


def _used(hand: MadeHandLike | None) -> frozenset[Card]:
    return frozenset(hand.cards) if hand is not None else frozenset()


@dataclass(frozen=True, slots=True)
class _Layout:
    """The picture's size and the geometry every panel shares."""

    hole_h: int
    panel_h: int
    board_top: int
    panels_top: int
    pots_top: int
    pot_rows: tuple[tuple[pots.Row, ...], ...]  # per pot: its winners' rows
    pill_w: int  # the pots' pills share one width, so the winners line up
    height: int

    @property
    def page(self) -> Box:
        return (PAD, 0, WIDTH - PAD, self.height)


def hole_height(most: int) -> int:
    """The hole cards' height when the longest hand has ``most`` cards: as large as fits
    a panel's width, at most HOLE_H + 20."""
    height = HOLE_H + 20
    while row_width(most, height, HOLE_GAP) > INNER_W:
        height -= 1
    return height


def _pot_label(view: ShowdownView, i: int) -> str:
    return pots.pot_label(view.pots[i].label, i, len(view.pots))


def _layout(view: ShowdownView) -> _Layout:
    hole_h = hole_height(max(len(h.hole) for h in view.hands))
    best = BEST_H + 8 + LINE  # a five, its underline and its description
    lines = 2 if view.hi_lo else 1
    panel_h = PANEL_PAD + 2 * LINE + 6 + hole_h + 10 + lines * best + (lines - 1) * 8 + PANEL_PAD
    board_top = HEADER + 8
    panels_top = board_top + BOARD_H + 16
    grid_rows = (len(view.hands) + 1) // 2
    pots_top = panels_top + grid_rows * (panel_h + ROW_GAP) + 4
    pill_w = max((pots.pill_width(_pot_label(view, i), chips(p.amount))
                  for i, p in enumerate(view.pots)), default=0)
    room = WIDTH - 2 * PAD - pill_w - pots.UNIT_GAP
    pot_rows = tuple(tuple(pots.flow([pots.winner_units(p.winners)], room, indent=0) or [[]])
                     for p in view.pots)
    height = pots_top + sum(len(r) for r in pot_rows) * POT_ROW + PAD
    return _Layout(hole_h, panel_h, board_top, panels_top, pots_top, pot_rows, pill_w, height)


def draw_showdown(view: ShowdownView, theme: Theme | str = Theme.DARK,
                  style: DeckStyle | str = DeckStyle.FOUR_COLOUR) -> Canvas:
    """Lay out and draw the showdown in ``view.locale``; the canvas keeps the record of what
    went where."""
    with words.speaking(view.locale):
        return _draw_showdown(view, theme, style)


def _draw_showdown(view: ShowdownView, theme: Theme | str, style: DeckStyle | str) -> Canvas:
    if not view.hands:
        raise ValueError("a showdown needs at least one shown hand")
    lay = _layout(view)
    cv = Canvas(WIDTH, lay.height, palette(theme), DeckStyle(style))
    _draw_header(cv, view)
    _draw_board(cv, view, lay)
    for i, hand in enumerate(view.hands):
        x = PAD + (i % 2) * (PANEL_W + COLUMN_GAP)
        if i == len(view.hands) - 1 and i % 2 == 0 and i:  # an odd last hand: centred
            x = (WIDTH - PANEL_W) // 2
        y = lay.panels_top + (i // 2) * (lay.panel_h + ROW_GAP)
        _draw_panel(cv, view, lay, i, hand, (x, y, x + PANEL_W, y + lay.panel_h))
    _draw_pots(cv, view, lay)
    return cv


def _draw_header(cv: Canvas, view: ShowdownView) -> None:
    """The table name and the hand number; the game."""
    pal = cv.pal
    right = WIDTH - PAD
    hb = cv.text((right, 21), words.say("render.hand_number", number=str(view.hand_number)), SMALL,
                 pal.text_dim, anchor="rm",
                 limit=(PAD, 2, right, 40))
    cv.text((PAD, 21), view.table_name, 28, pal.text, bold=True, anchor="lm",
            limit=(PAD, 2, hb[0] - 16, 40), tag="title")
    sd = cv.text((right, 51), words.say("street.showdown").upper(), SMALL, pal.accent,
                 bold=True, anchor="rm", limit=(PAD + 200, 38, right, HEADER), tag="street")
    if view.game:
        cv.text((PAD, 51), view.game, SMALL, pal.text_dim, anchor="lm",
                limit=(PAD, 38, sd[0] - 16, HEADER), tag="game")


def _draw_board(cv: Canvas, view: ShowdownView, lay: _Layout) -> None:
    """The board, centred, with its label on the left."""
    top = lay.board_top
    w = row_width(len(view.board), BOARD_H, BOARD_GAP)
    x = (WIDTH - w) // 2
    cv.text((PAD, top + BOARD_H // 2), "Board", SMALL, cv.pal.text_dim, anchor="lm",
            limit=(PAD, top, max(PAD + 1, x - 12), top + BOARD_H), tag="board-label")
    cv.card_row(tuple(view.board), x, top, BOARD_H, BOARD_GAP, tag="board")


def _same_player(hand: ShowdownHand, seat: int, name: str) -> bool:
    """A pot's winner is this hand: the same seat when both are known, else the same name."""
    if hand.seat and seat:
        return hand.seat == seat
    return hand.name == name


def won_where(view: ShowdownView, hand: ShowdownHand) -> str:
    """Which pots, and which halves, ``hand`` took: "Main pot high, Side pot 1" (nothing
    for the whole of a hand's only pot: "wins N" says it all)."""
    parts = []
    for i, pot in enumerate(view.pots):
        halves = [w.half.lower() for w in pot.winners
                  if _same_player(hand, w.seat, w.name)]
        if not halves:
            continue
        label = _pot_label(view, i)
        if {"high", "low"} <= set(halves):
            parts.append(f"{label} {words.say('half.scoop')}")
        elif halves[0] in ("high", "low"):
            parts.append(f"{label} {words.say('half.' + halves[0])}")
        elif len(view.pots) > 1:
            parts.append(label)
    return ", ".join(parts)


def _draw_panel(cv: Canvas, view: ShowdownView, lay: _Layout, i: int, hand: ShowdownHand,
                box: Box) -> None:
    """Shown hand ``i`` in ``box``: name and winnings, the pots it took, the hole cards
    (those the hand does not use faded), then its best fives."""
    pal = cv.pal
    winner = hand.won > 0
    cv.draw.rounded_rectangle(box, radius=14, fill=pal.panel,
                              outline=pal.accent if winner else pal.panel_edge,
                              width=4 if winner else 2)
    x0, y0, x1, _ = box[0] + PANEL_PAD, box[1] + PANEL_PAD, box[2] - PANEL_PAD, box[3]
    y = y0
    _draw_name_line(cv, i, hand, (x0, y, x1, y + LINE))
    y += LINE
    where = won_where(view, hand) if winner else ""
    if where:
        cv.text((x0, y + LINE // 2), where, SMALL, pal.text_dim, anchor="lm",
                limit=(x0, y, x1, y + LINE), tag=f"where:{i}")
    y += LINE + 6
    used = _used(hand.high) | _used(hand.low)
    faded = frozenset(c for c in hand.hole if c not in used)
    cv.card_row(tuple(hand.hole), x0, y, lay.hole_h, HOLE_GAP, faded=faded, limit=box,
                tag=f"hole:{i}")
    y += lay.hole_h + 10
    rows: list[tuple[str, MadeHandLike | None]] = [("HIGH", hand.high)]
    if view.hi_lo:
        rows.append(("LOW", hand.low))
    for label, made in rows:
        _draw_best(cv, i, hand, label, made, (x0, y, x1, y + BEST_H + 8 + LINE), box)
        y += BEST_H + 8 + LINE + 8


def _draw_name_line(cv: Canvas, i: int, hand: ShowdownHand, line: Box) -> None:
    """The player's name on the left (cut to fit), what they won on the right."""
    pal = cv.pal
    x0, y0, x1, y1 = line
    y = (y0 + y1) // 2
    right = x1
    if hand.won > 0:
        won = words.say("render.wins", amount=chips(hand.won))
        w = cv.text((x1, y), won, TEXT, pal.money, bold=True, anchor="rm",
                    limit=(x0 + 90, y0, x1, y1), tag=f"won:{i}")
        right = w[0] - 12
    else:
        w = cv.text((x1, y), words.say("render.no_win"), SMALL, pal.text_dim, anchor="rm",
                    limit=(x0 + 90, y0, x1, y1), tag=f"nowin:{i}")
        right = w[0] - 12
    cv.text((x0, y), display_name(hand.name, words.say("render.player")), TEXT, pal.text,
            bold=True, anchor="lm", limit=(x0, y0, right, y1), tag=f"name:{i}")


def _draw_best(cv: Canvas, i: int, hand: ShowdownHand, label: str, made: MadeHandLike | None,
               area: Box, panel: Box) -> None:
    """One best five (``HIGH`` or ``LOW``): its cards with the ones from the hand
    underlined (or an empty slot), the label beside them, the description under them."""
    pal = cv.pal
    x0, y0, x1, _ = area
    five_w = row_width(5, BEST_H, BEST_GAP)
    if made is not None:
        cv.card_row(tuple(made.cards), x0, y0, BEST_H, BEST_GAP, limit=panel,
                    tag=f"{label.lower()}:{i}")
        _underline_hole_cards(cv, made, hand, x0, y0)
        desc, ink = words.hand(made.description), pal.text
    else:
        cv.draw.rounded_rectangle((x0, y0, x0 + five_w, y0 + BEST_H), radius=8,
                                  outline=pal.panel_edge, width=2)
        desc, ink = words.say("render.no_low" if label == "LOW" else "render.mucked"), pal.text_dim
    shown = words.say("render.low_row" if label == "LOW" else "render.high_row")
    cv.text((x1, y0 + BEST_H // 2), shown, SMALL, pal.text_dim, bold=True, anchor="rm",
            limit=(x0 + five_w + 6, y0, x1, y0 + BEST_H), tag=f"{label.lower()}-label:{i}")
    dy = y0 + BEST_H + 8 + LINE // 2
    cv.text((x0, dy), desc, TEXT, ink, bold=True, anchor="lm",
            limit=(x0, dy - LINE // 2, x1, dy + LINE // 2), tag=f"{label.lower()}:{i}")


def _underline_hole_cards(cv: Canvas, made: MadeHandLike, hand: ShowdownHand, x: int,
                          y: int) -> None:
    """A bar under each card of the five drawn at ``x, y`` that comes from the hand."""
    step = card_width(BEST_H) + BEST_GAP
    for k, c in enumerate(made.cards):
        if c in hand.hole:
            cx = x + k * step
            cv.draw.rounded_rectangle(
                (cx + 5, y + BEST_H + 2, cx + step - BEST_GAP - 5, y + BEST_H + 6),
                radius=2, fill=cv.pal.accent)


def _inks(pal: Palette) -> pots.Inks:
    return pots.Inks(pill=pal.panel, label=pal.text_dim, amount=pal.text, name=pal.text,
                     share=pal.money)


def _draw_pots(cv: Canvas, view: ShowdownView, lay: _Layout) -> None:
    """Each pot on its own row(s): its pill (one width for all, so winners line up), then
    who took it and which half."""
    y = lay.pots_top
    left = PAD + lay.pill_w + pots.UNIT_GAP
    for i, (pot, rows) in enumerate(zip(view.pots, lay.pot_rows, strict=True)):
        pots.draw_pill(cv, (PAD, y, PAD + lay.pill_w, y + pots.PILL_H), _pot_label(view, i),
                       chips(pot.amount), _inks(cv.pal), f"pot-pill:{i}")
        for row in rows:
            pots.draw_row(cv, row, left, y, WIDTH - PAD, _inks(cv.pal), f"pot:{i}")
            y += POT_ROW


def render_showdown(view: ShowdownView, theme: Theme | str = Theme.DARK,
                    style: DeckStyle | str = DeckStyle.FOUR_COLOUR) -> bytes:
    """PNG of the showdown: shown hands with their best fives, high and low, and the pots,
    with who took each and which half."""
    return draw_showdown(view, theme, style).png()
