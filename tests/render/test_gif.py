"""The streaming GIF writer: frames written as they come, exactly as given, each as the
rectangle that changed; never past its byte limit."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageDraw

from bot.render.gif import GifStream, TooLarge

SIZE = (120, 80)


def _palette() -> Image.Image:
    pal = Image.new("P", (1, 1))
    pal.putpalette([v for i in range(256) for v in (i, (i * 7) % 256, 255 - i)])
    return pal


def _frame(seed: int, size: tuple[int, int] = SIZE) -> Image.Image:
    """A P frame on the palette: a background and a few random rectangles."""
    rng = random.Random(seed)
    img = Image.new("P", size, 3)
    img.putpalette(_palette().getpalette() or [])
    draw = ImageDraw.Draw(img)
    for _ in range(4):
        x, y = rng.randrange(size[0] - 10), rng.randrange(size[1] - 10)
        draw.rectangle((x, y, x + rng.randrange(2, 30), y + rng.randrange(2, 20)),
                       fill=rng.randrange(256))
    return img


def _decoded(gif: bytes) -> list[tuple[Image.Image, int]]:
    im = Image.open(io.BytesIO(gif))
    out = []
    for i in range(im.n_frames):
        im.seek(i)
        out.append((im.convert("RGB"), int(im.info["duration"])))
    return out


def test_every_frame_comes_back_exactly_for_its_time() -> None:
    frames = [_frame(i) for i in range(6)]
    frames.insert(3, frames[2].copy())  # an unchanged frame keeps its place and its time
    stream = GifStream(SIZE, _palette(), 10**6)
    for i, f in enumerate(frames):
        stream.add(f, 100 * (i + 1))
    decoded = _decoded(stream.close())
    assert len(decoded) == len(frames)
    for i, ((img, hold), f) in enumerate(zip(decoded, frames, strict=True)):
        assert img.tobytes() == f.convert("RGB").tobytes(), i
        assert hold == 100 * (i + 1)


def test_a_frame_after_the_first_holds_only_what_changed() -> None:
    first = _frame(1)
    second = first.copy()
    ImageDraw.Draw(second).rectangle((10, 10, 19, 14), fill=200)
    stream = GifStream(SIZE, _palette(), 10**6)
    stream.add(first, 100)
    stream.add(second, 100)
    im = Image.open(io.BytesIO(stream.close()))
    im.seek(1)
    assert im.tile[0][1] == (10, 10, 20, 15)  # where the second frame's pixels go


def test_a_shorter_frame_is_padded_and_a_larger_one_refused() -> None:
    stream = GifStream(SIZE, _palette(), 10**6, pad=9)
    stream.add(_frame(1, (SIZE[0], SIZE[1] - 20)), 100)
    [(img, _)] = _decoded(stream.close())
    assert img.getpixel((5, SIZE[1] - 5)) == tuple(_palette().getpalette()[27:30])  # type: ignore[index]
    with pytest.raises(ValueError):
        GifStream(SIZE, _palette(), 10**6).add(_frame(1, (SIZE[0], SIZE[1] + 1)), 100)
    with pytest.raises(ValueError):
        GifStream(SIZE, _palette(), 10**6).add(_frame(1).convert("RGB"), 100)
    with pytest.raises(ValueError):
        GifStream(SIZE, _palette(), 10**6).close()


def test_the_byte_limit_stops_the_writing_at_the_frame_that_passes_it() -> None:
    stream = GifStream(SIZE, _palette(), 2500)
    added = 0
    with pytest.raises(TooLarge) as raised:
        for i in range(100):
            stream.add(_frame(i), 100)
            added += 1
    assert 0 < added < 100
    assert raised.value.limit == 2500 and 2500 < raised.value.size < 2500 + 2000
