"""The showdown picture: every shown hand, its best five cards, and who won what.

Made for a phone like the table picture: 800 pixels wide, no letter under 24
pixels (12 once Discord shows it 400 wide). Under the header and the board,
the shown hands sit in panels two a row. A panel has the player's name and
their net for the hand ("+140", "−10"; what they won when no net is given; the
panels of the hands that gained are outlined), which pots and halves they took
("Main pot high, Side pot 1"), the hole cards (cards the hand does not use are
faded), then the best high five and, in hi-lo, the best low five, each with its
description; the cards of a five that come from the hand are underlined. Under
the panels, each pot on its own row: a pill with its label and amount, then who
took it and which half ("Ann 450 high  Bob 450 low").

Two boards (a double-board bomb pot): both boards under the header, "Board 1" above
"Board 2"; each panel shows the hand's best fives on board 1, then on board 2, each
group under its board's name, and each pot's row is a board's share of it ("Main pot,
board 2").
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.cards import Card
from bot.render import pots, words
from bot.render.canvas import Box, Canvas, chips, row_width, signed_chips
from bot.render.cardart import card_width
from bot.render.fonts import Block, block, display_name, drawable, text_width
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
BOARDS_GAP = 10  # between the two boards of a double board
LINE = 32  # a line of text in a panel
TITLE_LINE, GAME_LINE = 32, 30  # a line of the title, of the game (a long one wraps)
TEXT, SMALL = 26, pots.SIZE
POT_ROW = pots.PILL_H + 6


def _used(hand: MadeHandLike | None) -> frozenset[Card]:
    return frozenset(hand.cards) if hand is not None else frozenset()


def _boards(view: ShowdownView) -> tuple[tuple[Card, ...], ...]:
    return (view.board, view.second_board) if view.second_board else (view.board,)


def _fives(view: ShowdownView, hand: ShowdownHand) -> list[tuple[str, MadeHandLike | None, int]]:
    """A panel's best fives, in order: ``(HIGH or LOW, the hand made, its board 1 or 2)``;
    on two boards board 1's then board 2's."""
    boards = ((hand.high, hand.low), (hand.second_high, hand.second_low))[:len(_boards(view))]
    out: list[tuple[str, MadeHandLike | None, int]] = []
    for k, (high, low) in enumerate(boards, 1):
        out.append(("HIGH", high, k))
        if view.hi_lo:
            out.append(("LOW", low, k))
    return out


def _board_name(k: int) -> str:
    """"Board 1", "Board 2" in the picture's language."""
    named = words.say("pot.board", number=str(k))
    return named[:1].upper() + named[1:]


@dataclass(frozen=True, slots=True)
class _Layout:
    """The picture's size and the geometry every panel shares."""

    hole_h: int
    panel_h: int
    texts: _Texts
    board_top: int
    panels_top: int
    pots_top: int
    pot_rows: tuple[tuple[pots.Row, ...], ...]  # per pot: its winners' rows
    pill_w: int  # the pots' pills share one width, so the winners line up
    height: int

    @property
    def page(self) -> Box:
        return (PAD, 0, WIDTH - PAD, self.height)


@dataclass(frozen=True, slots=True)
class _Texts:
    """How many lines the panels give each text (the most any hand needs: every panel has
    the same height) and the gap between the cards of a best five."""

    names: int
    where: int
    high: int
    low: int
    best_gap: int

    def best_h(self, label: str) -> int:
        """A best five, its underline and its description (``label`` HIGH or LOW)."""
        return BEST_H + 8 + LINE * (self.high if label == "HIGH" else self.low)


def _news(hand: ShowdownHand) -> bool:
    """Whether the panel says an amount: the hand's net when known, else what it won."""
    return hand.net is not None or hand.won > 0


def winner(hand: ShowdownHand) -> bool:
    """Whether the panel is outlined as a winner's: the hand ended with more than it put
    in (a share of 190 for 200 put in is no win), else, with no net, it won something."""
    return hand.net > 0 if hand.net is not None else hand.won > 0


def _won_w(hand: ShowdownHand) -> int:
    return text_width(drawable(_won_text(hand)), TEXT if _news(hand) else SMALL,
                      bold=_news(hand))


def _name_block(hand: ShowdownHand) -> tuple[Block, int]:
    """The player's name, whole, and the line (from 0) that the winnings share: on one line
    beside them, else over the panel's width on as many lines as it needs, the winnings
    beside its last line when they fit there, else under it."""
    name = display_name(hand.name, words.say("render.player"))
    room = INNER_W - _won_w(hand) - 12
    beside = block(name, TEXT, room, bold=True, smallest=SMALL)
    if len(beside.lines) == 1:
        return beside, 0
    whole = block(name, TEXT, INNER_W, bold=True, smallest=SMALL)
    last = len(whole.lines) - 1
    fits = text_width(whole.lines[-1], whole.size, bold=True) <= room
    return whole, last if fits else last + 1


def _name_lines(hand: ShowdownHand) -> int:
    name, won_line = _name_block(hand)
    return max(len(name.lines), won_line + 1)


def _won_text(hand: ShowdownHand) -> str:
    """The hand's net ("+140", "−10"), else "wins 40" or "no win"."""
    if hand.net is not None:
        return signed_chips(hand.net)
    return (words.say("render.wins", amount=chips(hand.won)) if hand.won > 0
            else words.say("render.no_win"))


def _where_block(view: ShowdownView, hand: ShowdownHand) -> Block:
    """The pots and halves a winner took, whole, broken between pots where it can be."""
    return block(won_where(view, hand) if hand.won > 0 else "", SMALL, INNER_W, sep=", ")


def _desc_block(made: MadeHandLike | None, label: str) -> Block:
    if made is not None:
        desc = words.hand(made.description)
    else:
        desc = words.say("render.no_low" if label == "LOW" else "render.mucked")
    return block(desc, TEXT, INNER_W, bold=True, smallest=SMALL)


def _row_label(label: str) -> str:
    return words.say("render.low_row" if label == "LOW" else "render.high_row")


def _best_gap() -> int:
    """The widest gap (at most BEST_GAP) between a five's cards that leaves its label
    (HIGH, LOW in the language) room beside it."""
    label_w = max(text_width(drawable(_row_label(k)), SMALL, bold=True) for k in ("HIGH", "LOW"))
    gap = BEST_GAP
    while gap and row_width(5, BEST_H, gap) + 6 + label_w > INNER_W:
        gap -= 1
    return gap


def _texts(view: ShowdownView) -> _Texts:
    hands = view.hands
    fives = [f for h in hands for f in _fives(view, h)]
    return _Texts(
        names=max(_name_lines(h) for h in hands),
        where=max(len(_where_block(view, h).lines) for h in hands),
        high=max(len(_desc_block(made, kind).lines) for kind, made, _ in fives if kind == "HIGH"),
        low=max((len(_desc_block(made, kind).lines) for kind, made, _ in fives if kind == "LOW"),
                default=1),
        best_gap=_best_gap())


def _header(view: ShowdownView) -> tuple[Block, Block]:
    """The title (beside the hand number) and the game (beside "SHOWDOWN"), whole."""
    number = words.say("render.hand_number", number=str(view.hand_number))
    street = words.say("street.showdown").upper()
    title_w = WIDTH - 2 * PAD - text_width(drawable(number), SMALL) - 16
    game_w = WIDTH - 2 * PAD - text_width(drawable(street), SMALL, bold=True) - 16
    return (block(view.table_name, 28, title_w, bold=True, smallest=SMALL),
            block(view.game, SMALL, game_w))


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
    texts = _texts(view)
    boards = len(_boards(view))
    best = boards * (texts.best_h("HIGH") + (texts.best_h("LOW") + 8 if view.hi_lo else 0))
    if boards == 2:  # each board's fives under its name
        best += 2 * LINE + 8
    panel_h = (PANEL_PAD + (texts.names + texts.where) * LINE + 6 + hole_h + 10 + best
               + PANEL_PAD)
    title, game = _header(view)
    board_top = HEADER + TITLE_LINE * (len(title.lines) - 1) + GAME_LINE * (
        len(game.lines) - 1) + 8
    panels_top = board_top + boards * BOARD_H + (boards - 1) * BOARDS_GAP + 16
    grid_rows = (len(view.hands) + 1) // 2
    pots_top = panels_top + grid_rows * (panel_h + ROW_GAP) + 4
    pill_w = max((pots.pill_width(_pot_label(view, i), chips(p.amount))
                  for i, p in enumerate(view.pots)), default=0)
    room = WIDTH - 2 * PAD - pill_w - pots.UNIT_GAP
    pot_rows = tuple(tuple(pots.flow([pots.winner_units(p.winners)], room, indent=0) or [[]])
                     for p in view.pots)
    height = pots_top + sum(len(r) for r in pot_rows) * POT_ROW + PAD
    return _Layout(hole_h, panel_h, texts, board_top, panels_top, pots_top, pot_rows, pill_w,
                   height)


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
    """The table name and the hand number; the game and "SHOWDOWN" (all whole, wrapped)."""
    pal = cv.pal
    right = WIDTH - PAD
    title, game = _header(view)
    hb = cv.text((right, 21), words.say("render.hand_number", number=str(view.hand_number)), SMALL,
                 pal.text_dim, anchor="rm",
                 limit=(PAD, 2, right, 40))
    bottom = 40 + TITLE_LINE * (len(title.lines) - 1)
    cv.block((PAD, 21), title, TITLE_LINE, pal.text, bold=True,
             limit=(PAD, 2, hb[0] - 16, bottom), tag="title")
    sd = cv.text((right, bottom + 11), words.say("street.showdown").upper(), SMALL, pal.accent,
                 bold=True, anchor="rm", limit=(PAD + 200, bottom - 2, right, bottom + 24),
                 tag="street")
    if view.game:
        cv.block((PAD, bottom + 11), game, GAME_LINE, pal.text_dim,
                 limit=(PAD, bottom - 2, sd[0] - 16, bottom + 26 + GAME_LINE * (
                     len(game.lines) - 1)), tag="game")  # 26: room for "bomb pot"'s p


def _draw_board(cv: Canvas, view: ShowdownView, lay: _Layout) -> None:
    """The board, centred, with its label on the left; two boards one above the other
    ("Board 1", "Board 2")."""
    top = lay.board_top
    boards = _boards(view)
    for k, board in enumerate(boards, 1):
        w = row_width(len(board), BOARD_H, BOARD_GAP)
        x = (WIDTH - w) // 2
        label = _board_name(k) if len(boards) == 2 else words.say("render.board")
        cv.text((PAD, top + BOARD_H // 2), label, SMALL, cv.pal.text_dim, anchor="lm",
                limit=(PAD, top, max(PAD + 1, x - 12), top + BOARD_H),
                tag="board-label" if k == 1 else f"board-label:{k}")
        cv.card_row(tuple(board), x, top, BOARD_H, BOARD_GAP,
                    tag="board" if k == 1 else f"board:{k}")
        top += BOARD_H + BOARDS_GAP


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
    won = winner(hand)
    cv.draw.rounded_rectangle(box, radius=14, fill=pal.panel,
                              outline=pal.accent if won else pal.panel_edge,
                              width=4 if won else 2)
    x0, y0, x1, _ = box[0] + PANEL_PAD, box[1] + PANEL_PAD, box[2] - PANEL_PAD, box[3]
    y = y0
    texts = lay.texts
    _draw_name_line(cv, i, hand, (x0, y, x1, y + LINE * texts.names))
    y += LINE * texts.names
    where = _where_block(view, hand)
    if any(where.lines):
        cv.block((x0, y + LINE // 2), where, LINE, pal.text_dim,
                 limit=(x0, y, x1, y + LINE * texts.where), tag=f"where:{i}")
    y += LINE * texts.where + 6
    fives = _fives(view, hand)
    used = frozenset(c for _, made, _ in fives for c in _used(made))
    faded = frozenset(c for c in hand.hole if c not in used)
    cv.card_row(tuple(hand.hole), x0, y, lay.hole_h, HOLE_GAP, faded=faded, limit=box,
                tag=f"hole:{i}")
    y += lay.hole_h + 10
    heading = 0
    for kind, made, board in fives:
        if view.second_board and board != heading:  # "Board 2" over board 2's fives
            heading = board
            y += 8 if board == 2 else 0
            cv.text((x0, y + LINE // 2), _board_name(board), SMALL, pal.text_dim, bold=True,
                    anchor="lm", limit=(x0, y, x1, y + LINE), tag=f"board-name:{board}:{i}")
            y += LINE
        _draw_best(cv, i, hand, kind, made, (x0, y, x1, y + texts.best_h(kind)), box,
                   texts.best_gap, "2" if board == 2 else "")
        y += texts.best_h(kind) + 8


def _draw_name_line(cv: Canvas, i: int, hand: ShowdownHand, line: Box) -> None:
    """The player's name on the left (whole, on more lines if it needs them), what they won
    on the right (see :func:`_name_block`)."""
    pal = cv.pal
    x0, y0, x1, y1 = line
    name, won_line = _name_block(hand)
    top = y0
    y0 += LINE * won_line
    y = y0 + LINE // 2
    if _news(hand):
        ink = pal.danger if hand.net is not None and hand.net < 0 else (
            pal.text_dim if hand.net == 0 else pal.money)
        w = cv.text((x1, y), _won_text(hand), TEXT, ink, bold=True, anchor="rm",
                    limit=(x0 + 90, y0, x1, y0 + LINE),
                    tag=f"{'won' if hand.net is None else 'net'}:{i}")
    else:
        w = cv.text((x1, y), _won_text(hand), SMALL, pal.text_dim, anchor="rm",
                    limit=(x0 + 90, y0, x1, y0 + LINE), tag=f"nowin:{i}")
    # beside the winnings only when it shares their line; a name over more lines, or one
    # the winnings go under, has the panel's width (a longer name's last line fits)
    right = w[0] - 12 if won_line == 0 else x1
    cv.block((x0, top + LINE // 2), name, LINE, pal.text, bold=True,
             limit=(x0, top, right, y1), tag=f"name:{i}")


def _draw_best(cv: Canvas, i: int, hand: ShowdownHand, kind: str, made: MadeHandLike | None,
               area: Box, panel: Box, gap: int, board: str = "") -> None:
    """One best five (``kind`` ``HIGH`` or ``LOW``): its cards ``gap`` apart with the ones
    from the hand underlined (or an empty slot), the label beside them, the description
    under them (whole, on more lines if it needs them). ``board`` "2" tags board 2's fives
    apart (``high2:0``)."""
    tag = f"{kind.lower()}{board}"
    pal = cv.pal
    x0, y0, x1, y1 = area
    five_w = row_width(5, BEST_H, gap)
    if made is not None:
        cv.card_row(tuple(made.cards), x0, y0, BEST_H, gap, limit=panel, tag=f"{tag}:{i}")
        _underline_hole_cards(cv, made, hand, x0, y0, gap)
        ink = pal.text
    else:
        cv.draw.rounded_rectangle((x0, y0, x0 + five_w, y0 + BEST_H), radius=8,
                                  outline=pal.panel_edge, width=2)
        ink = pal.text_dim
    cv.text((x1, y0 + BEST_H // 2), _row_label(kind), SMALL, pal.text_dim, bold=True,
            anchor="rm", limit=(x0 + five_w + 6, y0, x1, y0 + BEST_H), tag=f"{tag}-label:{i}")
    top = y0 + BEST_H + 8
    cv.block((x0, top + LINE // 2), _desc_block(made, kind), LINE, ink, bold=True,
             limit=(x0, top, x1, y1), tag=f"{tag}:{i}")


def _underline_hole_cards(cv: Canvas, made: MadeHandLike, hand: ShowdownHand, x: int,
                          y: int, gap: int) -> None:
    """A bar under each card of the five drawn at ``x, y`` that comes from the hand."""
    step = card_width(BEST_H) + gap
    for k, c in enumerate(made.cards):
        if c in hand.hole:
            cx = x + k * step
            cv.draw.rounded_rectangle(
                (cx + 5, y + BEST_H + 2, cx + step - gap - 5, y + BEST_H + 6),
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
