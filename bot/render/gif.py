"""An animated GIF written frame by frame, in bounded memory and to a bounded size.

Pillow's own writer (``save(save_all=True, append_images=...)``) wants every frame
before it writes the first, and keeps them all while it works: a replay of 400 frames
took 1.4 GB. :class:`GifStream` writes each frame as it comes and keeps only the one
before it (a frame is written as the rectangle that changed since then, as Pillow
does): what it holds is one frame and the file so far, and the file may not pass
``limit`` bytes (:class:`TooLarge` as soon as it does, so an oversized animation costs no
more drawing).

Every frame shares one palette, given at the start (the animation's global colour
table); frames are ``P`` images already mapped to it. A frame smaller than the picture
(a table a header line shorter) is padded at the bottom with ``pad``; a larger one is
refused. The frame encoding is Pillow's (:func:`PIL.GifImagePlugin.getdata`, its
public frame writer: the graphic control block with the frame's time, then the
LZW-coded pixels); the file header, the loop block and the trailer are written here.
"""

from __future__ import annotations

import io
import struct

from PIL import GifImagePlugin, Image, ImageChops

__all__ = ["GifStream", "TooLarge"]

#: Frame disposal "do not dispose": the next frame is drawn over this one, so a frame
#: need only hold the rectangle that changed.
KEEP = 1


class TooLarge(Exception):
    """The animation passed its byte limit (``size``: bytes written when it did)."""

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(f"the animation passed {limit:,} bytes ({size:,} written)")
        self.size = size
        self.limit = limit

    def __reduce__(self) -> tuple[type[TooLarge], tuple[int, int]]:  # across processes
        return TooLarge, (self.size, self.limit)


class GifStream:
    """``add`` frames one at a time, then ``close`` for the bytes of the animation."""

    def __init__(self, size: tuple[int, int], palette: Image.Image, limit: int,
                 pad: int = 0) -> None:
        self.size = size
        self.palette = palette
        self.limit = limit
        self.pad = pad
        self.frames = 0
        self._out = io.BytesIO()
        self._previous: Image.Image | None = None
        colours = bytes((palette.getpalette() or [])[:768]).ljust(768, b"\0")
        self._write(b"GIF89a" + struct.pack("<HHBBB", *size, 0xF7, 0, 0) + colours
                    # loop for ever (the NETSCAPE2.0 application block)
                    + b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00")

    def add(self, frame: Image.Image, hold: int) -> None:
        """Write ``frame`` (a ``P`` image on the palette), shown for ``hold`` milliseconds."""
        frame = self._fitted(frame)
        box = (0, 0, *self.size)
        if self._previous is not None:
            box = ImageChops.subtract_modulo(frame, self._previous).getbbox() or (0, 0, 1, 1)
        for chunk in GifImagePlugin.getdata(frame.crop(box), offset=box[:2], duration=hold,
                                            disposal=KEEP):
            self._write(chunk)
        self._previous = frame
        self.frames += 1

    def close(self) -> bytes:
        """The whole animation (at least one frame added)."""
        if not self.frames:
            raise ValueError("an animation needs at least one frame")
        self._write(b";")
        self._previous = None
        return self._out.getvalue()

    def _fitted(self, frame: Image.Image) -> Image.Image:
        if frame.mode != "P":
            raise ValueError("frames must be P images on the animation's palette")
        if frame.size == self.size:
            return frame
        if frame.width != self.size[0] or frame.height > self.size[1]:
            raise ValueError(f"a {frame.size} frame in a {self.size} animation")
        padded = Image.new("P", self.size, self.pad)
        padded.putpalette(self.palette.getpalette() or [])
        padded.paste(frame, (0, 0))
        return padded

    def _write(self, chunk: bytes) -> None:
        self._out.write(chunk)
        written = self._out.tell()
        if written > self.limit:
            raise TooLarge(written, self.limit)
