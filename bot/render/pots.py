"""Pots and who won them, as the table and showdown pictures draw them.

A pot is a pill: its label in plain letters on the left, its amount in bold
on the right, with room between them so a label never runs into a number
("Side pot 1" and "60", never "Side pot 1 60:"). Winners follow the pill as
name and share ("Ann 450 high"). :func:`flow` lays pots and winners out in
rows of a given width without ever splitting a name from its share, nor cutting a
name: one too long for a row goes on over the next rows, its share after its last line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.render import words
from bot.render.canvas import Box, Canvas, chips, chips_short
from bot.render.fonts import display_name, text_width, wrap
from bot.render.theme import RGB
from bot.render.views import PotWinner

HALVES = ("high", "low", "scoop")

SIZE = 24  # the smallest letters drawn: 12 px once the picture is 400 px wide (800 wide)
PILL_H = 34
PAD, SEP = 9, 6  # inside a pill: the edges, between label and amount
UNIT_GAP, TOKEN_GAP, POT_GAP = 12, 6, 26


@dataclass(frozen=True, slots=True)
class Inks:
    """Colours of a pot line: the pill, its label and amount, a winner's name and share."""

    pill: RGB
    label: RGB
    amount: RGB
    name: RGB
    share: RGB


def pot_label(label: str, index: int, count: int) -> str:
    """A pot's label in the picture's language: its own, or "Pot" for a single pot,
    "Main pot", "Side pot N"."""
    if not label:
        label = "Pot" if count == 1 else "Main pot" if index == 0 else f"Side pot {index}"
    return words.pot_forms(label)[0]


def short_labels(label: str) -> tuple[str, ...]:
    """Shorter and shorter forms of a pot's label for a narrow pill:
    "Side pot 3", "Side 3", "S3" ("Main pot", "Main", "M"), in the picture's language."""
    return words.pot_forms(label)


def pill_width(label: str, amount: str) -> int:
    return 2 * PAD + SEP + text_width(label, SIZE) + text_width(amount, SIZE, bold=True)


def fit_pill(label: str, amount: int, width: int) -> tuple[str, str]:
    """The longest label and amount forms that fit a pill ``width`` wide: the full amount
    with shorter labels first, then the short amount ("1.23M")."""
    labels = short_labels(label)
    for text in dict.fromkeys((chips(amount), chips_short(amount))):
        for lab in labels:
            if pill_width(lab, text) <= width:
                return lab, text
    return labels[-1], chips_short(amount)


def draw_pill(cv: Canvas, box: Box, label: str, amount: str, inks: Inks, tag: str) -> None:
    """A pot's pill in ``box``: the label left, the amount right."""
    x0, y0, x1, y1 = box
    y = (y0 + y1) // 2
    cv.draw.rounded_rectangle(box, radius=(y1 - y0) // 2, fill=inks.pill)
    a = cv.text((x1 - PAD, y), amount, SIZE, inks.amount, bold=True, anchor="rm",
                limit=(x0 + PAD, y0, x1 - PAD, y1), tag=tag)
    cv.text((x0 + PAD, y), label, SIZE, inks.label, anchor="lm",
            limit=(x0 + PAD, y0, a[0] - SEP, y1), tag=tag)


def share_text(w: PotWinner) -> str:
    """ "450 high", "450 low", "900 scoop" (both halves), or "450" for a whole pot."""
    half = w.half.lower()
    return chips(w.amount) + (f" {words.say('half.' + half)}" if half in HALVES else "")


@dataclass(frozen=True, slots=True)
class Unit:
    """What is never split over two rows: a pot's pill, a winner's name and share, or a
    plain note ("+2 more")."""

    kind: str  # "pill", "winner", "note"; "name": lines of a long name, "share" its share
    texts: tuple[str, ...]

    @property
    def width(self) -> int:
        if self.kind == "pill":
            return pill_width(*self.texts)
        return (sum(text_width(t, SIZE, bold=True) for t in self.texts)
                + TOKEN_GAP * (len(self.texts) - 1))


def merge_scoops(winners: Sequence[PotWinner]) -> list[PotWinner]:
    """A player who took both halves of a pot as one share, half "scoop"."""
    out: list[PotWinner] = []
    for w in winners:
        same = next((i for i, o in enumerate(out) if (o.seat, o.name) == (w.seat, w.name)
                     and {o.half.lower(), w.half.lower()} == {"high", "low"}), None)
        if same is None:
            out.append(w)
        else:
            out[same] = PotWinner(w.name, out[same].amount + w.amount, "scoop", w.seat)
    return out


def winner_units(winners: Sequence[PotWinner]) -> list[Unit]:
    """A name-and-share unit per winner ("Ann" "450 high"); both halves as one scoop."""
    player = words.say("render.player")
    return [Unit("winner", (display_name(w.name, player), share_text(w)))
            for w in merge_scoops(winners)]


def _fitted(unit: Unit, room: int) -> list[Unit]:
    """``unit``, or a winner wider than ``room`` as its name's lines (each a "name" unit on
    a row of its own) and then its share, with the last line if it fits."""
    if unit.kind != "winner" or unit.width <= room:
        return [unit]
    name, share = unit.texts
    lines = wrap(name, SIZE, room, bold=True)
    last = Unit("winner", (lines[-1], share))
    tail = [last] if last.width <= room else [Unit("name", (lines[-1],)), Unit("share", (share,))]
    return [*(Unit("name", (line,)) for line in lines[:-1]), *tail]


Row = list[tuple[int, Unit]]  # units with their x from the row's left edge


def flow(pots: Sequence[Sequence[Unit]], width: int, indent: int = 24) -> list[Row]:
    """Rows of units at most ``width`` wide: a pot starts a new row unless it fits whole
    on the current one; a pot too long for a row goes on over the next ones (from
    ``indent``), a winner at a time; a winner too long for a row takes rows of its own,
    its name whole over them (:func:`_fitted`)."""
    rows: list[Row] = [[]]
    x = 0
    for given in pots:
        fitted = [_fitted(unit, width - indent) for unit in given]
        units = [part for parts in fitted for part in parts]
        alone = [len(parts) > 1 for parts in fitted for _ in parts]  # rows of their own
        whole = sum(u.width for u in units) + UNIT_GAP * (len(units) - 1)
        if rows[-1]:
            if x + POT_GAP + whole > width:
                rows.append([])
                x = 0
            else:
                x += POT_GAP
        for j, unit in enumerate(units):
            if j:
                if alone[j - 1] or x + UNIT_GAP + unit.width > width:
                    rows.append([])
                    x = indent
                else:
                    x += UNIT_GAP
            rows[-1].append((x, unit))
            x += unit.width
    return rows if rows[-1] else rows[:-1]


def row_width(row: Row) -> int:
    return max((x + u.width for x, u in row), default=0)


def draw_row(cv: Canvas, row: Row, left: int, top: int, right: int, inks: Inks,
             tag: str) -> None:
    """One row of units from ``left``, ``top`` (a row is :data:`PILL_H` tall)."""
    y = top + PILL_H // 2
    for x, unit in row:
        x += left
        if unit.kind == "pill":
            draw_pill(cv, (x, top, x + unit.width, top + PILL_H), unit.texts[0],
                      unit.texts[1], inks, tag)
            continue
        colours = {"winner": (inks.name, inks.share), "name": (inks.name,),
                   "share": (inks.share,)}.get(unit.kind, (inks.label,))
        for text, ink in zip(unit.texts, colours, strict=True):
            box = cv.text((x, y), text, SIZE, ink, bold=True, anchor="lm",
                          limit=(x, top, right, top + PILL_H), tag=tag)
            x = box[2] + TOKEN_GAP
