"""The strip of felt in front of each seat and what goes there: the seat's bet (a chip
or its blind's marker, and the amount) or its shown cards, fanned; and the rounded pills
that the seat boxes and the blind markers are drawn on."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.cards import Card
from bot.render import pots
from bot.render.boards import TEXT
from bot.render.canvas import Box, Canvas, chips, chips_short
from bot.render.cardart import card_width
from bot.render.fonts import text_width
from bot.render.theme import RGB
from bot.render.views import SeatView

BOX_GAP = 6  # between two seat boxes of a full row
FRONT = 80  # the strip of felt in front of a row of seats: cards, bets
SHOWN_H = FRONT - 6  # shown cards in front of a seat (indices stay >= 24 px)
SMALL = pots.SIZE  # the smallest letters drawn: 12 px on a phone
CHIP_R = 12
BLIND_INK: dict[str, RGB] = {"SB": (46, 104, 200), "BB": (132, 70, 196), "STR": (196, 84, 40)}


@dataclass(frozen=True, slots=True)
class SeatSpot:
    seat: int
    box: Box
    above_centre: bool  # the seat is in the top row (its felt is below it)

    @property
    def front(self) -> Box:
        """The strip of felt in front of the seat: its cards and its bet go there."""
        x0, y0, x1, y1 = self.box
        top = y1 + 4 if self.above_centre else y0 - 4 - FRONT
        return (x0 - BOX_GAP // 2, top, x1 + BOX_GAP // 2, top + FRONT)


def pill(cv: Canvas, box: Box, text: str, fill: RGB, ink: RGB, tag: str,
          size: int = SMALL) -> Box:
    """A rounded label: ``text`` centred in ``box`` on ``fill``."""
    x0, y0, x1, y1 = box
    cv.draw.rounded_rectangle(box, radius=(y1 - y0) // 2, fill=fill)
    cv.text(((x0 + x1) / 2, (y0 + y1) / 2), text, size, ink, bold=True, anchor="mm",
            limit=box, tag=tag)
    return box


def pill_w(text: str, size: int = SMALL) -> int:
    return text_width(text, size, bold=True) + 18


def _blind_label(blind: str) -> str:
    return blind.upper().replace(" ", "")


def draw_bet(cv: Canvas, spot: SeatSpot, seat: SeatView) -> Box | None:
    """The seat's bet in front of it: a chip (or the blind marker: "SB", "BB", "STR" for a
    straddle) and the amount, centred in the seat's strip of felt, under its face-down
    cards. The exact amount in smaller letters goes before its short form ("1.23M")."""
    pal = cv.pal
    fx0, fy0, fx1, _ = spot.front
    y = fy0 + FRONT - 24 if spot.above_centre else fy0 + 24
    blind = _blind_label(seat.blind)
    marker_w = pill_w(blind) if blind else 2 * CHIP_R
    room = fx1 - fx0 - 4
    text = ""
    size = TEXT
    if seat.bet:
        for size, text in ((TEXT, chips(seat.bet)), (SMALL, chips(seat.bet)),
                           (TEXT, chips_short(seat.bet)), (SMALL, chips_short(seat.bet))):
            if marker_w + 6 + text_width(text, size, bold=True) <= room:
                break
    w = marker_w + (6 + text_width(text, size, bold=True) if text else 0)
    x0 = max(fx0 + 2, (fx0 + fx1) // 2 - w // 2)
    if blind:
        ink = BLIND_INK.get(blind, BLIND_INK["BB"])
        pill(cv, (x0, y - 15, x0 + marker_w, y + 15), blind, ink, (255, 255, 255),
              f"blind:{seat.seat}")
    else:
        cx = x0 + CHIP_R
        cv.draw.ellipse((cx - CHIP_R, y - CHIP_R, cx + CHIP_R, y + CHIP_R), fill=pal.chip,
                        outline=pal.chip_edge, width=3)
        cv.draw.ellipse((cx - 4, y - 4, cx + 4, y + 4), fill=pal.chip_edge)
    if text:
        cv.text((x0 + marker_w + 6, y), text, size, pal.felt_text, bold=True, anchor="lm",
                limit=(x0 + marker_w + 4, y - 18, fx1, y + 18), tag=f"bet:{spot.seat}")
    return (x0, y - 18, x0 + w, y + 18)


#: The gap between shown cards laid side by side (when the whole hand fits the strip).
SHOWN_GAP = 4


def _fan_steps(cards: tuple[object, ...], room: int, height: int) -> list[int]:
    """Offsets between neighbouring shown cards: side by side when the whole hand fits the
    seat's strip (Texas Hold'em's two cards always do), else fanned, enough to read each
    index ("10" is wider), squeezed evenly when the strip is too narrow."""
    w = card_width(height)
    if len(cards) * (w + SHOWN_GAP) - SHOWN_GAP <= room:
        return [w + SHOWN_GAP] * (len(cards) - 1)
    want = [round(w * (0.64 if getattr(c, "rank", 0) == 10 else 0.5)) for c in cards[:-1]]
    spare = room - w - sum(want)
    if spare < 0 and want:
        scale = max(0.0, (room - w) / sum(want))
        want = [int(s * scale) for s in want]
    return want


def draw_shown(cv: Canvas, spot: SeatSpot, seat: SeatView, lit: tuple[Card, ...] = ()
                ) -> Box:
    """Shown cards, fanned in the seat's strip of felt, right in front of the box (with
    ``lit`` cards, those not among them faded)."""
    fx0, fy0, fx1, fy1 = spot.front
    steps = _fan_steps(seat.shown, fx1 - fx0 - 4, SHOWN_H)
    width = card_width(SHOWN_H) + sum(steps)
    x = (fx0 + fx1) // 2 - width // 2
    y = fy0 + 2 if spot.above_centre else fy1 - 2 - SHOWN_H
    for i, c in enumerate(seat.shown):
        cv.card(c, x + sum(steps[:i]), y, SHOWN_H, faded=bool(lit) and c not in lit,
                tag=f"shown:{spot.seat}")
    return (x, y, x + width, y + SHOWN_H)
