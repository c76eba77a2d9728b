"""The table picture posted to the channel at every street and at the end.

Made for a phone: Discord shows it about 400 pixels wide, so the picture is
800 pixels wide and no letter is smaller than 24 pixels (12 on the phone).

Layout (800 x 624): a header with the table name, the hand number, the game
and the street; a long felt with the seats along its two long sides, up to
five a side: seat 1 top left, then clockwise (left to right along the top,
right to left along the bottom). A seat's place depends only on its seat
number and the table's size, so a player stays in the same place hand after
hand. Each seat box shows the name (and the dealer button), the stack and,
on the right of the stack, the seat's state: the time left for the player to
act (with a clock bar along the bottom of the box), "Folded", "Sitting out",
"Waiting", an all-in badge, or after the hand the seat's net for it ("+140",
"−10": what it collected minus what it put in; what it won when no net is given).

In front of each seat, on the felt: its face-down cards peeking out from
behind the box, its bet (a chip, or the small or big blind marker, and the
amount), or its shown cards. In the middle: the pot (everything in the
middle, this round's bets included), the board, and each pot on its own
(main pot, side pot 1, ...); after the hand, who won each pot.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render import boards, pots, words
from bot.render.boards import TEXT, hand_ended, winnings
from bot.render.canvas import Box, Canvas, chips, chips_short, signed_chips
from bot.render.cardart import card_width
from bot.render.fonts import Block, block, display_name, drawable, text_width
from bot.render.front import (
    BLIND_INK,
    BOX_GAP,
    FRONT,
    SeatSpot,
    draw_bet,
    draw_shown,
    pill,
    pill_w,
)
from bot.render.theme import RGB, DeckStyle, Palette, Theme, palette
from bot.render.views import SeatStatus, SeatView, TableView

WIDTH = 800
MARGIN = 8
HEADER = 64  # header height; the top row of seats starts under it
TITLE_LINE, GAME_LINE = 32, 30  # a long title or game takes more lines: the picture grows
BOX_H = 84
NAME_LINE = 26  # a name too long for one line takes more: its box grows by them
BUTTON_ROOM = 40  # what the dealer button takes from the name's width
BOX_MAX_W = 200
TOP_Y = HEADER + 2
FRONT_TOP = TOP_Y + BOX_H + 4
CENTRE_TOP = FRONT_TOP + FRONT  # the middle (bot.render.boards) starts here
FRONT_BOTTOM = CENTRE_TOP + boards.HEIGHT
BOTTOM_Y = FRONT_BOTTOM + FRONT + 4
HEIGHT = BOTTOM_Y + BOX_H + MARGIN

MINI_H, MINI_PEEK, MINI_STEP = 46, 24, 15  # face-down cards behind a seat box
MINI_FAN = 24  # the width a fan of face-down cards spreads over beyond its first card
SMALL = pots.SIZE  # the smallest letters drawn: 12 px on a phone


def _row_centres(count: int, box_w: int) -> list[float]:
    """Centres of ``count`` boxes spread evenly along a row, left to right."""
    if count == 1:
        return [WIDTH / 2]
    span = min(WIDTH - 2 * MARGIN - box_w, (count - 1) * (box_w + 80))
    return [WIDTH / 2 - span / 2 + i * span / (count - 1) for i in range(count)]


@lru_cache(maxsize=16)
def seat_spots(max_seats: int) -> tuple[SeatSpot, ...]:
    """Where each seat of a ``max_seats`` table sits: the first half along the top from
    the left, the rest along the bottom from the right (clockwise)."""
    if not 2 <= max_seats <= 10:
        raise ValueError("a table has 2 to 10 seats")
    top = (max_seats + 1) // 2
    box_w = min(BOX_MAX_W, (WIDTH - 2 * MARGIN - (top - 1) * BOX_GAP) // top)
    spots = []
    for i, cx in enumerate(_row_centres(top, box_w)):
        x0 = round(cx - box_w / 2)
        spots.append(SeatSpot(i + 1, (x0, TOP_Y, x0 + box_w, TOP_Y + BOX_H), True))
    bottom = max_seats - top
    for i, cx in enumerate(reversed(_row_centres(bottom, box_w))):
        x0 = round(cx - box_w / 2)
        spots.append(SeatSpot(top + i + 1, (x0, BOTTOM_Y, x0 + box_w, BOTTOM_Y + BOX_H),
                              False))
    return tuple(spots)


def board_box(over: bool = False) -> Box:
    """Where the board goes; after the hand it moves up to the pot line's place."""
    return boards.board_box(centre_band(), over)


def centre_band() -> Box:
    """The middle of the felt: the pot line, the board and the rows of pots under it."""
    return (MARGIN + 16, CENTRE_TOP, WIDTH - MARGIN - 16, FRONT_BOTTOM - 4)


@lru_cache(maxsize=8)
def _background(theme: Theme) -> Image.Image:
    """The empty table: background, rail and felt (drawn once per theme, then copied)."""
    pal = palette(theme)
    s = 2
    img = Image.new("RGB", (WIDTH * s, HEIGHT * s), pal.background)
    d = ImageDraw.Draw(img)
    top, bottom = TOP_Y + BOX_H // 2, BOTTOM_Y + BOX_H // 2
    rail = (MARGIN + 4, top, WIDTH - MARGIN - 4, bottom)
    d.rounded_rectangle(tuple(v * s for v in rail), radius=150 * s, fill=pal.felt_edge)
    felt = (rail[0] + 12, rail[1] + 12, rail[2] - 12, rail[3] - 12)
    d.rounded_rectangle(tuple(v * s for v in felt), radius=138 * s, fill=pal.felt)
    line = (felt[0] + 14, felt[1] + 14, felt[2] - 14, felt[3] - 14)
    d.rounded_rectangle(tuple(v * s for v in line), radius=124 * s, outline=pal.slot,
                        width=2 * s)
    return img.resize((WIDTH, HEIGHT), Image.Resampling.LANCZOS)


def _fmt_clock(seconds: float) -> str:
    s = max(0, int(seconds + 0.999))
    return f"{s // 60}:{s % 60:02d}"


def backs_step(cards: int) -> int:
    """The offset between neighbouring face-down cards: :data:`MINI_STEP` for four or more
    (Omaha), wider for fewer, so that Texas Hold'em's two cards show as a fan of two rather
    than as an Omaha hand cut down."""
    return max(MINI_STEP, MINI_FAN // max(1, cards - 1))


def backs_box(spot: SeatSpot, seat: SeatView) -> Box | None:
    """Where a seat's face-down cards go (behind the box, peeking out towards the felt)."""
    if not seat.cards or seat.shown or seat.status not in (SeatStatus.ACTIVE, SeatStatus.ALL_IN):
        return None
    x0, y0, x1, y1 = spot.box
    total = card_width(MINI_H) + (seat.cards - 1) * backs_step(seat.cards)
    cx = (x0 + x1) // 2 - total // 2
    cy = y1 - (MINI_H - MINI_PEEK) if spot.above_centre else y0 - MINI_PEEK
    return (cx, cy, cx + total, cy + MINI_H)


# -- seats --------------------------------------------------------------------------------

def _draw_seat(cv: Canvas, spot: SeatSpot, seat: SeatView, view: TableView, won: int) -> None:
    """A seat: face-down cards behind the box, the box, the name and dealer button, the
    stack and the seat's state, and for the player to act the clock bar."""
    out = seat.status in (SeatStatus.FOLDED, SeatStatus.SITTING_OUT, SeatStatus.WAITING)
    turn = view.to_act == seat.seat and not hand_ended(view)
    _draw_backs(cv, spot, seat)
    pal: Palette = cv.pal
    highlight = turn or _gained(seat, won)
    cv.draw.rounded_rectangle(spot.box, radius=12, fill=pal.panel_dim if out else pal.panel,
                              outline=pal.accent if highlight else pal.panel_edge,
                              width=4 if highlight else 2)
    x0, y0, x1, y1 = spot.box
    inner = (x0 + 8, y0 + 4, x1 - 8, y1 - 4)
    name_right = inner[2]
    if view.button == seat.seat:
        name_right = _draw_dealer_button(cv, x1 - 8 - 17, y0 + 22, seat.seat)
    name = name_block(seat, spot, view)
    cv.block((inner[0], y0 + 22), name, NAME_LINE, pal.text_dim if out else pal.text,
             bold=True, limit=(inner[0], inner[1], name_right,
                               y0 + 40 + NAME_LINE * (len(name.lines) - 1)),
             tag=f"name:{seat.seat}")
    _draw_stack_row(cv, spot, seat, view, inner, out, turn, won)
    if turn:
        _draw_clock_bar(cv, spot, view)


def name_block(seat: SeatView, spot: SeatSpot, view: TableView) -> Block:
    """The seat's name, whole: on one line from the table's size of letters down to the
    smallest, else on more lines (a word wider than the box broken between letters)."""
    room = spot.box[2] - spot.box[0] - 16 - (BUTTON_ROOM if view.button == seat.seat else 0)
    name = display_name(seat.name, words.say("render.seat", number=str(seat.seat)))
    return block(name, TEXT, room, bold=True, smallest=SMALL)


def _draw_backs(cv: Canvas, spot: SeatSpot, seat: SeatView) -> None:
    backs = backs_box(spot, seat)
    if backs is not None:
        step = backs_step(seat.cards)
        for i in range(seat.cards):
            cv.card(None, backs[0] + i * step, backs[1], MINI_H, tag=f"back:{seat.seat}")


def _draw_dealer_button(cv: Canvas, bx: int, by: int, seat_no: int) -> int:
    """The dealer button (a white disc with a "D") centred at ``bx, by``; returns where the
    name must end."""
    r = 17
    cv.draw.ellipse((bx - r, by - r, bx + r, by + r), fill=(250, 250, 250),
                    outline=(120, 120, 120), width=2)
    cv.text((bx, by + 1), "D", SMALL, (20, 20, 20), bold=True, anchor="mm",
            limit=(bx - r, by - r, bx + r, by + r), tag=f"button:{seat_no}")
    return bx - r - 6


def _gained(seat: SeatView, won: int) -> bool:
    """After the hand, whether the seat ended it with more than it put in (its net when
    known: a share of 190 for 200 put in is no gain), else whether it won anything."""
    return seat.net > 0 if seat.net is not None else won > 0


def _outcome(seat: SeatView, view: TableView, won: int) -> int | None:
    """The amount drawn for the seat after the hand: its net when known, else what it won
    (None: nothing to draw)."""
    if seat.net is not None and hand_ended(view):
        return seat.net
    return won if won > 0 else None


def _seat_state(seat: SeatView, view: TableView, turn: bool, won: int, pal: Palette
                ) -> tuple[tuple[str, ...], RGB, RGB | None]:
    """What goes right of the stack: the text (and shorter forms for a narrow box), its
    ink, and a pill colour (None: plain text). After the hand: the seat's net, or what it
    won ("+140", "−10")."""
    outcome = _outcome(seat, view, won)
    if outcome is not None:
        ink = pal.money if outcome > 0 else pal.danger if outcome < 0 else pal.text_dim
        return (signed_chips(outcome), signed_chips(outcome, short=True)), ink, None
    if turn:
        if view.clock is None:
            return (words.say("render.to_act"),), pal.accent, None
        return (_fmt_clock(view.clock),), _clock_ink(view, pal), None
    if seat.status == SeatStatus.ALL_IN and seat.stack:
        return (words.say("render.all_in"),), (255, 255, 255), pal.danger
    labels = {SeatStatus.FOLDED: (words.say("render.folded"),),
              SeatStatus.SITTING_OUT: (words.say("render.sitting_out"), words.say("render.away")),
              SeatStatus.WAITING: (words.say("render.waiting"),)}
    return labels.get(seat.status, ()), pal.text_dim, None


def _clock_ink(view: TableView, pal: Palette) -> RGB:
    return pal.danger if _clock_share(view) < 0.25 else pal.accent


def _clock_share(view: TableView) -> float:
    if view.clock is None or not view.clock_total:
        return 1.0
    return max(0.0, min(1.0, view.clock / view.clock_total))


def _stack_row_choice(seat: SeatView, forms: tuple[str, ...], pill: bool, size: int,
                      bold: bool, won: bool, room: int) -> tuple[str | None, str]:
    """The stack and state texts that fit ``room`` side by side, best first: the full
    stack, then its short form ("98.8M"), then the state's short form ("Away"). When
    nothing fits, a won amount or a net is shown alone (it is the news), any other state is
    left out (the dimmed box still tells it). The stack is None for an all-in badge."""
    badge = seat.status == SeatStatus.ALL_IN and not seat.stack
    stacks: tuple[str | None, ...] = (None,) if badge else tuple(dict.fromkeys(
        (chips(seat.stack), chips_short(seat.stack))))

    def width(stack: str | None, state: str) -> int:
        left = pill_w("ALL-IN") if stack is None else text_width(stack, TEXT, bold=True)
        right = (pill_w(state) if pill else text_width(state, size, bold=bold)) if state \
            else 0
        return left + (10 + right if state else 0)

    for state in forms or ("",):
        for stack in stacks:
            if width(stack, state) <= room:
                return stack, state
    if won and forms:
        alone = [f for f in forms if text_width(f, size, bold=bold) <= room]
        return "", (alone or forms)[0]
    return stacks[-1], ""


def _draw_stack_row(cv: Canvas, spot: SeatSpot, seat: SeatView, view: TableView, inner: Box,
                    out: bool, turn: bool, won: int) -> None:
    """The stack on the left (an all-in badge for an all-in player with nothing behind),
    the seat's state on the right (see :func:`_stack_row_choice`)."""
    pal: Palette = cv.pal
    y = spot.box[3] - (BOX_H - 55)
    row = (inner[0], y - 16, inner[2], y + 16)
    forms, ink, fill = _seat_state(seat, view, turn, won, pal)
    news = _outcome(seat, view, won) is not None
    bold = fill is not None or turn or news
    size = TEXT if bold and fill is None else SMALL
    stack, state = _stack_row_choice(seat, forms, fill is not None, size, bold, news,
                                     row[2] - row[0])
    right = row[2]
    if state:
        state_w = pill_w(state) if fill else text_width(state, size, bold=bold)
        if fill:
            pill(cv, (right - state_w, y - 15, right, y + 15), state, fill, ink,
                  f"state:{seat.seat}")
        elif stack == "":  # a won amount or a net alone: on the left, where the stack goes
            cv.text((row[0], y), state, size, ink, bold=bold, anchor="lm",
                    limit=(row[0], row[1], right, row[3]), tag=f"state:{seat.seat}")
        else:
            cv.text((right, y), state, size, ink, bold=bold, anchor="rm",
                    limit=(right - state_w - 2, row[1], right, row[3]),
                    tag=f"state:{seat.seat}")
        right -= state_w + 10
    if stack is None:
        all_in = words.say("render.all_in")
        pill(cv, (row[0], y - 15, row[0] + pill_w(all_in), y + 15), all_in,
              pal.danger, (255, 255, 255), f"stack:{seat.seat}")
    elif stack:
        cv.text((row[0], y), stack, TEXT, pal.text_dim if out else pal.money, bold=True,
                anchor="lm", limit=(row[0], row[1], max(right, row[0] + 1), row[3]),
                tag=f"stack:{seat.seat}")


def _draw_clock_bar(cv: Canvas, spot: SeatSpot, view: TableView) -> None:
    """Along the bottom of the box of the player to act: the share of the clock left."""
    pal: Palette = cv.pal
    x0, _, x1, y1 = spot.box
    bar = (x0 + 10, y1 - 14, x1 - 10, y1 - 5)
    cv.draw.rounded_rectangle(bar, radius=3, fill=pal.panel_dim, outline=pal.panel_edge)
    share = _clock_share(view)
    if share > 0:
        cv.draw.rounded_rectangle((bar[0], bar[1], bar[0] + max(7, round(
            (bar[2] - bar[0]) * share)), bar[3]), radius=3, fill=_clock_ink(view, pal))


# -- the whole picture ---------------------------------------------------------------------

def draw_table(view: TableView, theme: Theme | str = Theme.DARK,
               style: DeckStyle | str = DeckStyle.FOUR_COLOUR) -> Canvas:
    """Lay out and draw the table in ``view.locale``; the canvas keeps the record of what
    went where."""
    with words.speaking(view.locale):
        return _draw_table(view, theme, style)


def _draw_table(view: TableView, theme: Theme | str, style: DeckStyle | str) -> Canvas:
    spots = {s.seat: s for s in seat_spots(view.max_seats)}
    _check_view(view, spots)
    title, game = _header(view)
    head = TITLE_LINE * (len(title.lines) - 1) + GAME_LINE * (len(game.lines) - 1)
    top, bottom = _growth(view, spots)
    pal = palette(theme)
    cv = Canvas(WIDTH, HEIGHT + bottom, pal, DeckStyle(style))
    cv.exact.update(BLIND_INK.values())
    cv.img.paste(_background(Theme(theme)))
    boards.draw_centre(cv, view, centre_band())
    over = hand_ended(view)
    for seat in view.seats:
        spot = spots[seat.seat]
        if seat.shown:
            draw_shown(cv, spot, seat, view.lit)
        elif (seat.bet or seat.blind) and not over:
            draw_bet(cv, spot, seat)
    won = winnings(view)
    low = {n: _grown(s, top, bottom, 0) for n, s in spots.items() if not s.above_centre}
    _draw_seats(cv, view, low, won)
    if top + head:  # a long title or game, long names in the top row: the picture grows
        cv = cv.grown(top + head)
    _draw_seats(cv, view, {n: _grown(s, top, bottom, top + head)
                           for n, s in spots.items() if s.above_centre}, won)
    _draw_header(cv, view, title, game)
    return cv


def _draw_seats(cv: Canvas, view: TableView, spots: dict[int, SeatSpot],
                won: dict[int, int]) -> None:
    """The seats of ``spots`` (one row): the open ones, then the taken ones."""
    _draw_open_seats(cv, view, spots)
    for seat in view.seats:
        if seat.seat in spots:
            _draw_seat(cv, spots[seat.seat], seat, view, won.get(seat.seat, 0))


def _growth(view: TableView, spots: dict[int, SeatSpot]) -> tuple[int, int]:
    """How much taller the top row's boxes and the bottom row's are: room for the most
    lines a name of that row takes."""
    extra = {True: 0, False: 0}
    for seat in view.seats:
        spot = spots[seat.seat]
        lines = len(name_block(seat, spot, view).lines)
        extra[spot.above_centre] = max(extra[spot.above_centre], NAME_LINE * (lines - 1))
    return extra[True], extra[False]


def _grown(spot: SeatSpot, top: int, bottom: int, dy: int) -> SeatSpot:
    """``spot`` with its box taller by its row's growth, away from the felt (the top row
    upwards, the bottom row downwards), then moved down by ``dy``."""
    x0, y0, x1, y1 = spot.box
    if spot.above_centre:
        return SeatSpot(spot.seat, (x0, y0 - top + dy, x1, y1 + dy), True)
    return SeatSpot(spot.seat, (x0, y0 + dy, x1, y1 + bottom + dy), False)


def _growths(view: TableView) -> tuple[int, int, int]:
    """How much the top row's boxes, the bottom row's and the header grew (pixels)."""
    with words.speaking(view.locale):
        title, game = _header(view)
        top, bottom = _growth(view, {s.seat: s for s in seat_spots(view.max_seats)})
    return top, bottom, TITLE_LINE * (len(title.lines) - 1) + GAME_LINE * (len(game.lines) - 1)


def height(view: TableView) -> int:
    """How tall :func:`draw_table`'s picture of ``view`` is (its rows and header grown for
    long names and titles), without drawing it."""
    top, bottom, head = _growths(view)
    return HEIGHT + top + bottom + head


def shift(view: TableView) -> int:
    """How far down the felt and everything on it is in the picture of ``view``, against
    :func:`seat_spots` and :func:`centre_band` (a long header, long names in the top row)."""
    top, _, head = _growths(view)
    return top + head


def layout(view: TableView) -> tuple[SeatSpot, ...]:
    """Where each seat's box is in the picture :func:`draw_table` draws for ``view``: the
    rows' boxes grown for long names, the whole table moved down by :func:`shift`."""
    top, bottom, head = _growths(view)
    return tuple(_grown(s, top, bottom, top + head) for s in seat_spots(view.max_seats))


def _check_view(view: TableView, spots: dict[int, SeatSpot]) -> None:
    """Refuse a seat the table does not have, or a board of more than five cards."""
    for seat in view.seats:
        if seat.seat not in spots:
            raise ValueError(f"seat {seat.seat} is not on a {view.max_seats}-seat table")
    if len(view.board) > 5 or len(view.second_board) > 5:
        raise ValueError("a board has at most 5 cards")


def street_label(view: TableView) -> str:
    """The street in the header; after the hand "Showdown" (cards shown) or "Hand over"."""
    if hand_ended(view):
        shown = any(s.shown for s in view.seats)
        return words.say("street.showdown" if shown else "street.hand_ended")
    return words.street(view.street)


def _header(view: TableView) -> tuple[Block, Block]:
    """The title (beside the hand number) and the game (beside the street), whole: a long
    one takes more lines and the picture grows by them."""
    page_w = WIDTH - 2 * (MARGIN + 6)
    number = words.say("render.hand_number", number=str(view.hand_number))
    street = street_label(view).upper()
    title_w = page_w - text_width(drawable(number), SMALL) - 16
    game_w = page_w - (text_width(drawable(street), SMALL, bold=True) + 16 if street else 0)
    return (block(view.table_name, 28, title_w, bold=True, smallest=SMALL),
            block(view.game, SMALL, game_w))


def _draw_header(cv: Canvas, view: TableView, title: Block, game: Block) -> None:
    """The table name and the hand number; the game and the street."""
    pal = cv.pal
    bottom = 40 + TITLE_LINE * (len(title.lines) - 1)
    # 26: room for a descender of the game line's last line ("bomb pot")
    page = (MARGIN + 6, 2, WIDTH - MARGIN - 6, bottom + 26 + GAME_LINE * (len(game.lines) - 1))
    hand = cv.text((page[2], 21), words.say("render.hand_number", number=str(view.hand_number)),
                   SMALL, pal.text_dim, anchor="rm", limit=(page[0], 2, page[2], 40))
    cv.block((page[0], 21), title, TITLE_LINE, pal.text, bold=True,
             limit=(page[0], 2, hand[0] - 16, bottom), tag="title")
    street = street_label(view)
    right = page[2]
    if street:
        box = cv.text((page[2], bottom + 11), street.upper(), SMALL, pal.accent, bold=True,
                      anchor="rm", limit=(page[0] + 200, bottom - 2, page[2], bottom + 24),
                      tag="street")
        right = box[0] - 16
    if view.game:
        cv.block((page[0], bottom + 11), game, GAME_LINE, pal.text_dim,
                 limit=(page[0], bottom - 2, right, page[3]), tag="game")


def _draw_open_seats(cv: Canvas, view: TableView, spots: dict[int, SeatSpot]) -> None:
    """Open seats: a faint outline with the seat number."""
    pal = cv.pal
    taken = {s.seat for s in view.seats}
    for spot in spots.values():
        if spot.seat not in taken:
            cv.draw.rounded_rectangle(spot.box, radius=12, fill=pal.background,
                                      outline=pal.panel_edge, width=2)
            cv.text(((spot.box[0] + spot.box[2]) / 2, (spot.box[1] + spot.box[3]) / 2),
                    words.say("render.seat", number=str(spot.seat)), SMALL, pal.text_dim,
                    anchor="mm", limit=spot.box,
                    tag=f"open:{spot.seat}")


def render_table(view: TableView, theme: Theme | str = Theme.DARK,
                 style: DeckStyle | str = DeckStyle.FOUR_COLOUR) -> bytes:
    """PNG of the table: board, pots, seats, bets, button, blinds, markers and the clock."""
    return draw_table(view, theme, style).png()
