"""The table picture posted to the channel at every street and at the end.

Layout (1280 x 860): a header with the table name, the game and the hand
number; an oval felt with the board in the middle (five card slots, dealt
cards in them), the pot above it and the side pots under it; up to ten seat
boxes on a larger oval around the felt, seat 1 at the top going clockwise. A
seat's position depends only on its seat number and the table's size, so a
player stays in the same place hand after hand. Each box shows the name,
the stack, the dealer button, blind and status badges and, for the player to
act, the remaining clock. Bets sit on the felt between the seat and the
board; face-down cards peek out from behind the box.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render.canvas import Box, Canvas, chips, chips_short, inside, row_width
from bot.render.cardart import card_width
from bot.render.fonts import display_name, text_width
from bot.render.theme import DeckStyle, Palette, Theme, palette
from bot.render.views import SeatStatus, SeatView, TableView

WIDTH, HEIGHT = 1280, 860
PAD = 24
HEADER = 84
CENTER = (WIDTH // 2, 486)
SEAT_RX, SEAT_RY = 512, 300
FELT_RX, FELT_RY = 440, 226
RAIL = 16
BOX_W, BOX_H = 236, 112
BOARD_H, BOARD_GAP = 118, 10
MINI_H, MINI_PEEK, MINI_STEP = 52, 24, 18
SHOWN_H, SHOWN_H_CROWDED = 64, 54  # shown cards; the smaller size above six seats
BET_SIZE = 26
CHIP_R = 12
BET_T = 0.60  # bets sit this far from the centre towards their seat


@dataclass(frozen=True, slots=True)
class SeatSpot:
    seat: int
    box: Box
    bet_at: tuple[int, int]  # centre of the bet label
    above_centre: bool  # the box is above the felt's centre line


def _ellipse_point(angle_deg: float, rx: float, ry: float) -> tuple[float, float]:
    a = math.radians(angle_deg)
    return CENTER[0] + rx * math.cos(a), CENTER[1] - ry * math.sin(a)


@lru_cache(maxsize=16)
def seat_spots(max_seats: int) -> tuple[SeatSpot, ...]:
    """Where each seat of a ``max_seats`` table sits: seat 1 at the top, then clockwise."""
    if not 2 <= max_seats <= 10:
        raise ValueError("a table has 2 to 10 seats")
    spots = []
    for i in range(max_seats):
        angle = 90 - 360 * i / max_seats
        if max_seats in (4, 8):  # no seat straight at the top: pairs look balanced
            angle -= 180 / max_seats
        sx, sy = _ellipse_point(angle, SEAT_RX, SEAT_RY)
        box = (round(sx - BOX_W / 2), round(sy - BOX_H / 2),
               round(sx + BOX_W / 2), round(sy + BOX_H / 2))
        bx = CENTER[0] + (sx - CENTER[0]) * BET_T
        by = CENTER[1] + (sy - CENTER[1]) * BET_T
        spots.append(SeatSpot(i + 1, box, (round(bx), round(by)), sy < CENTER[1]))
    return tuple(spots)


def board_box() -> Box:
    w = row_width(5, BOARD_H, BOARD_GAP)
    x = CENTER[0] - w // 2
    y = CENTER[1] - BOARD_H // 2 + 6
    return (x, y, x + w, y + BOARD_H)


@lru_cache(maxsize=8)
def _background(theme: Theme) -> Image.Image:
    """The empty table: background, rail and felt (drawn once per theme, then copied)."""
    pal = palette(theme)
    s = 2
    img = Image.new("RGB", (WIDTH * s, HEIGHT * s), pal.background)
    d = ImageDraw.Draw(img)
    cx, cy = CENTER[0] * s, CENTER[1] * s
    rx, ry = (FELT_RX + RAIL) * s, (FELT_RY + RAIL) * s
    d.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=pal.felt_edge)
    rx, ry = FELT_RX * s, FELT_RY * s
    d.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=pal.felt)
    rx, ry = (FELT_RX - 18) * s, (FELT_RY - 18) * s
    d.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), outline=pal.slot, width=2 * s)
    return img.resize((WIDTH, HEIGHT), Image.Resampling.LANCZOS)


def _badge(cv: Canvas, right: int, mid_y: int, text: str, fill: tuple[int, int, int],
           ink: tuple[int, int, int], limit: Box, tag: str) -> int:
    """A small pill ending at ``right``; returns its left edge."""
    size = 18
    w = text_width(text, size, bold=True) + 16
    left = right - w
    if left < limit[0]:
        return right
    cv.draw.rounded_rectangle((left, mid_y - 13, right, mid_y + 13), radius=13, fill=fill)
    cv.text(((left + right) / 2, mid_y), text, size, ink, bold=True, anchor="mm",
            limit=(left, mid_y - 13, right, mid_y + 13), tag=tag)
    return left


def _fmt_clock(seconds: float) -> str:
    s = max(0, math.ceil(seconds))
    return f"{s // 60}:{s % 60:02d}"


def backs_box(spot: SeatSpot, seat: SeatView) -> Box | None:
    """Where a seat's face-down cards go (behind the box, peeking out towards the felt)."""
    if not seat.cards or seat.shown or seat.status not in (SeatStatus.ACTIVE, SeatStatus.ALL_IN):
        return None
    x0, y0, x1, y1 = spot.box
    total = card_width(MINI_H) + (seat.cards - 1) * MINI_STEP
    cx = (x0 + x1) // 2 - total // 2
    cy = y1 - (MINI_H - MINI_PEEK) if spot.above_centre else y0 - MINI_PEEK
    return (cx, cy, cx + total, cy + MINI_H)


_Badge = tuple[str, tuple[int, int, int], tuple[int, int, int]]  # text, fill, ink


def _draw_seat(cv: Canvas, spot: SeatSpot, seat: SeatView, view: TableView) -> None:
    """A seat: face-down cards behind the box, the box, the name and dealer button, the
    stack and badges, and for the player to act the clock."""
    out = seat.status in (SeatStatus.FOLDED, SeatStatus.SITTING_OUT, SeatStatus.WAITING)
    turn = view.to_act == seat.seat
    _draw_backs(cv, spot, seat)
    _draw_seat_box(cv, spot, out, turn)
    x0, y0, x1, y1 = spot.box
    inner = (x0 + 12, y0 + 6, x1 - 12, y1 - 6)
    _draw_name_row(cv, spot, seat, view, inner, out)
    _draw_stack_row(cv, spot, seat, inner, out)
    if turn:
        _draw_turn_clock(cv, spot, seat, view)


def _draw_backs(cv: Canvas, spot: SeatSpot, seat: SeatView) -> None:
    """Cards behind the box, peeking out towards the felt."""
    backs = backs_box(spot, seat)
    if backs is not None:
        for i in range(seat.cards):
            cv.card(None, backs[0] + i * MINI_STEP, backs[1], MINI_H, tag=f"back:{seat.seat}")


def _draw_seat_box(cv: Canvas, spot: SeatSpot, out: bool, turn: bool) -> None:
    """The box, dimmed for a player out of the hand, outlined for the player to act."""
    pal: Palette = cv.pal
    fill = pal.panel_dim if out else pal.panel
    edge, edge_w = (pal.accent, 4) if turn else (pal.panel_edge, 2)
    cv.draw.rounded_rectangle(spot.box, radius=14, fill=fill, outline=edge, width=edge_w)


def _draw_name_row(cv: Canvas, spot: SeatSpot, seat: SeatView, view: TableView, inner: Box,
                   out: bool) -> None:
    """The player's name, with the dealer button right of it on the button's seat."""
    pal: Palette = cv.pal
    x0, y0, x1, _y1 = spot.box
    name_right = x1 - 12
    if view.button == seat.seat:
        name_right = _draw_dealer_button(cv, x1 - 12 - 15, y0 + 26, seat.seat)
    name = display_name(seat.name, f"Seat {seat.seat}")
    cv.text((x0 + 14, y0 + 26), name, 28, pal.text_dim if out else pal.text, bold=True,
            anchor="lm", limit=(inner[0], inner[1], name_right, inner[3]),
            tag=f"name:{seat.seat}")


def _draw_dealer_button(cv: Canvas, bx: int, by: int, seat_no: int) -> int:
    """The dealer button centred at ``bx, by``; returns where the name must end."""
    r = 15
    cv.draw.ellipse((bx - r, by - r, bx + r, by + r), fill=(250, 250, 250),
                    outline=(120, 120, 120), width=2)
    cv.text((bx, by + 1), "D", 20, (20, 20, 20), bold=True, anchor="mm",
            limit=(bx - r, by - r, bx + r, by + r), tag=f"button:{seat_no}")
    return bx - r - 8


def _seat_badges(seat: SeatView, pal: Palette) -> list[_Badge]:
    """The status badge (all-in, folded, sitting out, waiting), then the blind badge."""
    badges: list[_Badge] = []
    if seat.status == SeatStatus.ALL_IN:
        badges.append(("ALL-IN", pal.danger, (255, 255, 255)))
    elif seat.status == SeatStatus.FOLDED:
        badges.append(("FOLDED", pal.panel_edge, pal.text))
    elif seat.status == SeatStatus.SITTING_OUT:
        badges.append(("SITTING OUT", pal.panel_edge, pal.text))
    elif seat.status == SeatStatus.WAITING:
        badges.append(("WAITING", pal.panel_edge, pal.text))
    if seat.blind:
        badges.append((seat.blind, (70, 110, 190), (255, 255, 255)))
    return badges


def _draw_stack_row(cv: Canvas, spot: SeatSpot, seat: SeatView, inner: Box, out: bool) -> None:
    """The stack (short form when the badges leave too little room), badges from the right."""
    pal: Palette = cv.pal
    x0, y0, x1, _y1 = spot.box
    row2 = y0 + 62
    right = x1 - 12
    badges = _seat_badges(seat, pal)
    stack = chips(seat.stack)
    badge_w = sum(text_width(t, 18, bold=True) + 22 for t, _, _ in badges)
    if text_width(stack, 26, bold=True) > (inner[2] - inner[0]) - badge_w - 4:
        stack = chips_short(seat.stack)
    stack_right = inner[0] + 2 + text_width(stack, 26, bold=True)
    for text, bg, fg in badges:
        right = _badge(cv, right, row2, text, bg, fg, (stack_right + 6, inner[1], right,
                                                       inner[3]), f"badge:{seat.seat}") - 6
    stack_ink = pal.text_dim if out else pal.money
    cv.text((x0 + 14, row2), stack, 26, stack_ink, bold=True, anchor="lm",
            limit=(inner[0], inner[1], max(right, stack_right + 2), inner[3]),
            tag=f"stack:{seat.seat}")


def _draw_turn_clock(cv: Canvas, spot: SeatSpot, seat: SeatView, view: TableView) -> None:
    """For the player to act: the clock bar and the time left, or "to act" without a clock."""
    pal: Palette = cv.pal
    x0, _y0, x1, y1 = spot.box
    bar = (x0 + 14, y1 - 24, x1 - 70, y1 - 14)
    cv.draw.rounded_rectangle(bar, radius=5, fill=pal.panel_dim, outline=pal.panel_edge)
    if view.clock is None:
        cv.text((x1 - 14, y1 - 19), "to act", 20, pal.accent, bold=True, anchor="rm",
                limit=(bar[2] - 20, y1 - 34, x1 - 10, y1 - 4), tag=f"clock:{seat.seat}")
        return
    frac = 1.0
    if view.clock_total:
        frac = max(0.0, min(1.0, view.clock / view.clock_total))
    low = frac < 0.25
    if frac > 0:
        cv.draw.rounded_rectangle((bar[0], bar[1], bar[0] + max(10, round(
            (bar[2] - bar[0]) * frac)), bar[3]), radius=5,
            fill=pal.danger if low else pal.accent)
    cv.text((x1 - 14, y1 - 19), _fmt_clock(view.clock), 22,
            pal.danger if low else pal.accent, bold=True, anchor="rm",
            limit=(bar[2] + 4, y1 - 34, x1 - 10, y1 - 4), tag=f"clock:{seat.seat}")


def centre_band() -> Box:
    """The board column with the street, pot, side-pot and note lines around it."""
    bx0, by0, bx1, by1 = board_box()
    return (bx0, by0 - 84, bx1, by1 + 72)


def _free_span(y: int, x: int, obstacles: list[Box]) -> tuple[int, int]:
    """The widest horizontal run of felt around ``x`` at height ``y`` clear of ``obstacles``."""
    half = FELT_RX * math.sqrt(max(0.0, 1 - ((y - CENTER[1]) / FELT_RY) ** 2))
    lo, hi = round(CENTER[0] - half + 24), round(CENTER[0] + half - 24)
    for ox0, oy0, ox1, oy1 in obstacles:
        if oy0 < y + 22 and y - 22 < oy1:
            if (ox0 + ox1) / 2 <= x:
                lo = max(lo, ox1 + 10)
            else:
                hi = min(hi, ox0 - 10)
    return lo, hi


def _draw_bet(cv: Canvas, spot: SeatSpot, amount: int, obstacles: list[Box]) -> Box:
    """The chips in front of a seat: a chip and the amount, on the felt, clear of the centre
    column, the seat boxes and the other bets. Returns the space it took."""
    pal = cv.pal
    bx, by = spot.bet_at
    band = centre_band()
    ys = [by, band[1] - 22 if spot.above_centre else band[3] + 22]
    choices = [(BET_SIZE, chips(amount)), (BET_SIZE, chips_short(amount)),
               (20, chips_short(amount))]
    placed = None
    for y in ys:
        lo, hi = _free_span(y, bx, obstacles)
        for size, text in choices:
            w = 2 * CHIP_R + 6 + text_width(text, size, bold=True)
            if w <= hi - lo:
                placed = (y, lo, hi, size, text, w)
                break
        if placed:
            break
    if placed is None:  # nowhere clear: the compact amount at the first spot
        y, (lo, hi) = by, _free_span(by, bx, obstacles)
        size, text = choices[-1]
        w = 2 * CHIP_R + 6 + text_width(text, size, bold=True)
        placed = (y, lo, max(hi, lo + w), size, text, w)
    y, lo, hi, size, text, w = placed
    x0 = max(min(bx - w // 2, hi - w), lo)
    cx = x0 + CHIP_R
    cv.draw.ellipse((cx - CHIP_R, y - CHIP_R, cx + CHIP_R, y + CHIP_R), fill=pal.chip,
                    outline=pal.chip_edge, width=3)
    cv.draw.ellipse((cx - 4, y - 4, cx + 4, y + 4), fill=pal.chip_edge)
    cv.text((x0 + 2 * CHIP_R + 6, y), text, size, pal.felt_text, bold=True, anchor="lm",
            limit=(x0 + 2 * CHIP_R + 4, y - 22, x0 + w + 2, y + 22), tag=f"bet:{spot.seat}")
    return (x0, y - 18, x0 + w, y + 18)


def _shown_candidates(spot: SeatSpot, w: int, h: int) -> list[tuple[int, int]]:
    """Top-left corners to try for a fan ``w`` x ``h``: against the seat box on the felt
    side first (clearly the seat's own), then along the line towards the centre."""
    x0, y0, x1, y1 = spot.box
    sx, sy = (x0 + x1) / 2, (y0 + y1) / 2
    out: list[tuple[int, int]] = []
    band = centre_band()
    if x0 > band[2] or x1 < band[0]:  # a seat at the side: beside the box, facing the board
        tx = x0 - 4 - w if x0 > band[2] else x1 + 4
        out += [(tx, round(sy - h / 2 + dy)) for dy in (0, -20, 20, -40, 40)]
    ty = y1 + 4 if spot.above_centre else y0 - 4 - h
    out += [(round(sx - w / 2 + dx), ty) for dx in (0, -30, 30, -60, 60, -90, 90)]
    for t in (0.6, 0.52, 0.68, 0.45, 0.76, 0.38):
        px, py = CENTER[0] + (sx - CENTER[0]) * t, CENTER[1] + (sy - CENTER[1]) * t
        out += [(round(px - w / 2 + dx), round(py - h / 2))
                for dx in (0, -30, 30, -60, 60, -90, 90, -120, 120, -150, 150)]
    return out


def _overlap_area(box: Box, others: list[Box]) -> int:
    return sum(max(0, min(box[2], o[2]) - max(box[0], o[0]))
               * max(0, min(box[3], o[3]) - max(box[1], o[1])) for o in others)


def _draw_shown(cv: Canvas, spot: SeatSpot, seat: SeatView, obstacles: list[Box],
                height: int) -> Box:
    """Shown cards, fanned in front of the seat, clear of everything drawn so far (or, on a
    crowded table, where they cover the least)."""
    n = len(seat.shown)
    room = (0, HEADER, WIDTH, HEIGHT)
    best: tuple[int, Box, int] | None = None
    for step in (round(height * 0.53), round(height * 0.4)):
        w = card_width(height) + (n - 1) * step
        for x0, y0 in _shown_candidates(spot, w, height):
            box = (x0, y0, x0 + w, y0 + height)
            if not inside(box, room):
                continue
            cost = _overlap_area(box, obstacles)
            if best is None or cost < best[0]:
                best = (cost, box, step)
            if cost == 0:
                break
        if best is not None and best[0] == 0:
            break
    if best is None:  # pragma: no cover - some candidate is always inside the picture
        raise RuntimeError("no room for the shown cards")
    _, box, step = best
    for i, c in enumerate(seat.shown):
        cv.card(c, box[0] + i * step, box[1], height, tag=f"shown:{spot.seat}")
    return box


def _draw_centre(cv: Canvas, view: TableView) -> None:
    """The board in the middle, the street above it, the pot and side pots, the note."""
    pal = cv.pal
    _draw_board_slots(cv, view)
    _bx0, by0, _bx1, by1 = board_box()
    limit = centre_band()
    total = sum(p.amount for p in view.pots) + sum(s.bet for s in view.seats)
    top = by0 - 26
    if view.street:
        cv.text((CENTER[0], top - 44), view.street.upper(), 22, pal.felt_text_dim, bold=True,
                anchor="mm", limit=limit, tag="street")
    if total:  # everything in the middle, bets of this round included
        cv.text((CENTER[0], top), f"Pot {chips(total)}", 32, pal.felt_text, bold=True,
                anchor="mm", limit=limit, tag="pot")
    if len(view.pots) > 1:
        cv.text((CENTER[0], by1 + 22), _side_pots_line(view), 20, pal.felt_text_dim,
                anchor="mm", limit=limit, tag="pots")
    if view.note:
        y = by1 + (52 if len(view.pots) > 1 else 26)
        cv.text((CENTER[0], y), view.note, 26, pal.accent, bold=True, anchor="mm", limit=limit,
                tag="note")


def _draw_board_slots(cv: Canvas, view: TableView) -> None:
    """Five card slots: the dealt board cards, an empty outline for each one to come."""
    bx0, by0, _bx1, by1 = board_box()
    step = card_width(BOARD_H) + BOARD_GAP
    for i in range(5):
        x = bx0 + i * step
        if i < len(view.board):
            cv.card(view.board[i], x, by0, BOARD_H, tag="board")
        else:
            cv.draw.rounded_rectangle((x, by0, x + card_width(BOARD_H), by1), radius=8,
                                      outline=cv.pal.slot, width=3)


def _side_pots_line(view: TableView) -> str:
    """``Main: 1,200 · Side 1: 400`` (a pot's own label when it has one)."""
    parts = []
    for i, p in enumerate(view.pots):
        label = p.label or ("Main" if i == 0 else f"Side {i}")
        parts.append(f"{label}: {chips(p.amount)}")
    return " \u00b7 ".join(parts)


def draw_table(view: TableView, theme: Theme | str = Theme.DARK,
               style: DeckStyle | str = DeckStyle.FOUR_COLOUR) -> Canvas:
    """Lay out and draw the table; the canvas keeps the record of what went where."""
    spots = {s.seat: s for s in seat_spots(view.max_seats)}
    _check_view(view, spots)
    pal = palette(theme)
    cv = Canvas(WIDTH, HEIGHT, pal, DeckStyle(style))
    cv.img.paste(_background(Theme(theme)))
    _draw_header(cv, view)
    _draw_open_seats(cv, view, spots)
    _draw_centre(cv, view)
    _draw_on_felt(cv, view, spots)
    for seat in view.seats:
        _draw_seat(cv, spots[seat.seat], seat, view)
    return cv


def _check_view(view: TableView, spots: dict[int, SeatSpot]) -> None:
    """Refuse a seat the table does not have, or a board of more than five cards."""
    for seat in view.seats:
        if seat.seat not in spots:
            raise ValueError(f"seat {seat.seat} is not on a {view.max_seats}-seat table")
    if len(view.board) > 5:
        raise ValueError("a board has at most 5 cards")


def _draw_header(cv: Canvas, view: TableView) -> None:
    """The table name, the hand number and the game."""
    pal = cv.pal
    page = (PAD, 8, WIDTH - PAD, HEADER)
    hand = f"Hand #{view.hand_number}"
    hb = cv.text((WIDTH - PAD, 30), hand, 26, pal.text_dim, anchor="rm", limit=page)
    cv.text((PAD, 30), view.table_name, 32, pal.text, bold=True, anchor="lm",
            limit=(PAD, 8, hb[0] - 24, HEADER))
    if view.game:
        cv.text((PAD, 66), view.game, 22, pal.text_dim, anchor="lm", limit=page)


def _draw_open_seats(cv: Canvas, view: TableView, spots: dict[int, SeatSpot]) -> None:
    """Open seats: a faint outline with the seat number."""
    pal = cv.pal
    taken = {s.seat for s in view.seats}
    for spot in spots.values():
        if spot.seat not in taken:
            cv.draw.rounded_rectangle(spot.box, radius=14, fill=pal.background,
                                      outline=pal.panel_edge, width=2)
            cv.text(((spot.box[0] + spot.box[2]) / 2, (spot.box[1] + spot.box[3]) / 2),
                    f"Seat {spot.seat}", 22, pal.text_dim, anchor="mm", limit=spot.box)


def _draw_on_felt(cv: Canvas, view: TableView, spots: dict[int, SeatSpot]) -> None:
    """Each seat's shown cards or bet on the felt, placed clear of the centre column, the
    seat boxes, the face-down cards and what was placed before."""
    obstacles = [centre_band()] + [s.box for s in spots.values()]
    obstacles += [b for seat in view.seats if (b := backs_box(spots[seat.seat], seat))]
    for seat in view.seats:
        spot = spots[seat.seat]
        if seat.shown:
            height = SHOWN_H if view.max_seats <= 6 else SHOWN_H_CROWDED
            obstacles.append(_draw_shown(cv, spot, seat, obstacles, height))
        elif seat.bet:
            obstacles.append(_draw_bet(cv, spot, seat.bet, obstacles))


def render_table(view: TableView, theme: Theme | str = Theme.DARK,
                 style: DeckStyle | str = DeckStyle.FOUR_COLOUR) -> bytes:
    """PNG of the table: board, pots, seats, bets, button, blinds, markers and the clock."""
    return draw_table(view, theme, style).png()
