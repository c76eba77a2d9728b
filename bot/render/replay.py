"""A finished hand as an animated GIF: the table picture frame by frame, a caption under it.

Each :class:`~bot.render.views.ReplayFrame` is the table picture of
:mod:`bot.render.table` (the same drawing as the channel's, so a replay looks like
the hand did), with a caption band under it saying what happened ("alice raises to
120", "Flop: Ah Kd 2c", "bob wins 450 high with ...") beside the reader's own cards,
and the seat that acted outlined. The caption is laid out whole (shrunk, then wrapped:
a 32-letter name is never cut), its band as tall as its lines need (the GIF pads a
shorter frame with the band's colour). The frame plan (what each frame shows) is made by
:mod:`bot.runtime.replay_frames`; this module only draws it.

Decision: **GIF**, not animated WebP. Discord plays an attached GIF inline on every
client (desktop, web, iOS, Android); an animated WebP attachment has been shown as a
still picture by some clients, and a replay that does not move is worth nothing.
Size is what GIF costs, and it is kept down the way a flat picture allows: one
palette for the whole animation (:func:`bot.render.canvas.palette_of` over a mosaic of
the frames that hold the most colours: the deal, the first award, the end), no
dithering, and each frame written as the rectangle that changed since the one
before (most frames change a seat, a bet, the pot line and the caption). A lossless
animated WebP of the same frames came out about the same size at several times the
encoding time, and a lossy one blurs the card indices. A ten-seat hi-lo hand run
twice (about 45 frames) stays well under 2 MB (``tests/render/test_replay.py``).

Bounded (issue 29): a replay has at most
:data:`bot.runtime.replay_squeeze.MAX_FRAMES` frames (the plan squeezes a long hand),
each frame is written as soon as it is drawn (:class:`bot.render.gif.GifStream`: one
frame in memory, not all of them) and the file may not pass :data:`REPLAY_BYTES`. It is
drawn only in a render process of its own, never in the bot's
(:func:`bot.render.render_replay_async`).

Frames hold long enough to read on a phone (:data:`bot.runtime.replay_frames.HOLDS`:
1.2 to 5 seconds); the animation loops, its last frame (the table as the hand ended)
held longest.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from bot.render import front, table, words
from bot.render.canvas import Canvas, palette_of
from bot.render.cardart import card_width
from bot.render.fonts import Block, block
from bot.render.gif import GifStream
from bot.render.theme import DeckStyle, Theme, palette
from bot.render.views import ReplayFrame, ReplayView

CAPTION = 30  # letters of the caption (15 px on a phone)
SMALLEST = 24  # a long caption shrinks to this (12 px on a phone), then wraps
LINE = 38
LINES = 2  # the caption band holds at least two lines
WIDTH = table.WIDTH
PAD = 16
OWN_H = front.SHOWN_H  # the reader's own cards beside the caption: indices as readable
#: The most bytes a replay may have: Discord's smallest upload limit (8 MiB, a server
#: without boosts before 2024; 10 MiB since). A replay has at most
#: :data:`bot.runtime.replay_squeeze.MAX_FRAMES` frames and stays far below it.
REPLAY_BYTES = 8 * 1024 * 1024


def _own_step(frame: ReplayFrame) -> int:
    """From one of the reader's own cards to the next: Texas Hold'em's two side by side, as
    in front of a seat; more fanned."""
    w = card_width(OWN_H)
    return w + front.SHOWN_GAP if len(frame.own) <= 2 else round(w * 0.56)


def _caption_left(frame: ReplayFrame) -> int:
    """Where the caption may start: right of the reader's own cards, if any."""
    if not frame.own:
        return PAD
    return PAD + card_width(OWN_H) + _own_step(frame) * (len(frame.own) - 1) + 14


def caption(frame: ReplayFrame) -> Block:
    """The caption laid out whole beside the reader's cards (:func:`bot.render.fonts.block`:
    shrunk to 12 px on a phone, then wrapped; a long name is never cut)."""
    return block(frame.caption, CAPTION, WIDTH - PAD - _caption_left(frame), bold=True,
                 smallest=SMALLEST)


def _band(said: Block) -> int:
    """The caption band's height: at least :data:`LINES` lines, more when it needs them."""
    return max(LINES, len(said.lines)) * LINE + 12


def draw_frame(frame: ReplayFrame, theme: Theme | str = Theme.DARK,
               style: DeckStyle | str = DeckStyle.FOUR_COLOUR) -> Canvas:
    """One frame: the table, the actor outlined, the caption under it."""
    drawn = table.draw_table(frame.table, theme, style)
    pal = palette(theme)
    said = caption(frame)
    band = _band(said)
    top = drawn.img.height + 2  # a long title or long names make the table taller
    cv = Canvas(WIDTH, drawn.img.height + band, pal, DeckStyle(style))
    cv.img.paste(drawn.img, (0, 0))
    cv.placed.extend(drawn.placed)
    cv.exact.update(drawn.exact)
    if frame.actor:
        spot = next(s for s in table.layout(frame.table) if s.seat == frame.actor)
        x0, y0, x1, y1 = spot.box
        cv.draw.rounded_rectangle((x0 - 3, y0 - 3, x1 + 3, y1 + 3), radius=14,
                                  outline=pal.accent, width=5)
    cv.draw.rectangle((0, top, WIDTH, cv.img.height), fill=pal.panel)
    _draw_own(cv, frame, top, band)
    left = _caption_left(frame)
    y = top + band // 2 - (len(said.lines) * LINE) // 2 + LINE // 2
    with words.speaking(frame.table.locale):
        cv.block(((left + WIDTH - PAD) // 2, y), said, LINE, pal.text, bold=True, anchor="mm",
                 limit=(left, top, WIDTH - PAD, cv.img.height), tag="caption")
    return cv


def _draw_own(cv: Canvas, frame: ReplayFrame, top: int, band: int) -> None:
    """The reader's own cards at the caption's left, in the middle of its band."""
    step = _own_step(frame)
    y = top + (band - OWN_H) // 2
    for i, c in enumerate(frame.own):
        cv.card(c, PAD + i * step, y, OWN_H, tag="own")


def _palette(frames: Sequence[ReplayFrame], theme: Theme | str,
             style: DeckStyle | str) -> Image.Image:
    """One palette for the whole animation, from a mosaic of the frames with the most
    colours (the deal, the first award with its faded cards, the end), drawn for it and
    let go: the frames are drawn again one at a time as they are written."""
    picks = sorted({0, len(frames) - 1,
                    *[i for i, f in enumerate(frames) if f.table.lit][:1]})
    mosaic = Image.new("RGB", (WIDTH, sum(frame_height(frames[i]) for i in picks)))
    keep: set[tuple[int, int, int]] = set()
    y = 0
    for i in picks:
        cv = draw_frame(frames[i], theme, style)
        mosaic.paste(cv.img, (0, y))
        keep.update(cv.keep())
        y += cv.img.height
    return palette_of(mosaic, tuple(sorted(keep)))


def frame_height(frame: ReplayFrame) -> int:
    """How tall :func:`draw_frame`'s picture of ``frame`` is, without drawing it."""
    return table.height(frame.table) + _band(caption(frame))


def render_replay(view: ReplayView, theme: Theme | str = Theme.DARK,
                  style: DeckStyle | str = DeckStyle.FOUR_COLOUR,
                  limit: int = REPLAY_BYTES) -> bytes:
    """The animated GIF of ``view``'s frames (see the module's docstring), each written as
    it is drawn; :class:`~bot.render.gif.TooLarge` once it passes ``limit`` bytes."""
    frames = view.frames
    if not frames:
        raise ValueError("a replay needs at least one frame")
    pal = _palette(frames, theme, style)
    panel = Image.new("RGB", (1, 1), palette(theme).panel).quantize(
        palette=pal, dither=Image.Dither.NONE).getpixel((0, 0))
    size = (WIDTH, max(frame_height(f) for f in frames))
    stream = GifStream(size, pal, limit, pad=panel if isinstance(panel, int) else 0)
    for frame in frames:
        drawn = draw_frame(frame, theme, style).img
        stream.add(drawn.quantize(palette=pal, dither=Image.Dither.NONE), frame.hold)
    return stream.close()


__all__ = ["REPLAY_BYTES", "caption", "draw_frame", "frame_height", "render_replay"]
