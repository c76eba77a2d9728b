"""Draw the card images in this folder: 52 faces in each deck style and the back.

    python card_images/make_cards.py [OUT_DIR] [--height N]

writes OUT_DIR/four_colour/As.png ... , OUT_DIR/two_colour/As.png ...,
OUT_DIR/colour_blind/As.png ... and OUT_DIR/back.png (default: this folder, 280
pixels tall). The art is drawn by :mod:`bot.render.cardart`, the same code the
bot renders with; running the script again gives the same pixels
(tests/render/test_card_images.py checks
the committed files against a fresh run).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from bot.engine.cards import DECK  # noqa: E402
from bot.render.canvas import to_png  # noqa: E402
from bot.render.cardart import card_image  # noqa: E402
from bot.render.theme import DeckStyle  # noqa: E402

HEIGHT = 280


def make_cards(out: Path, height: int = HEIGHT) -> list[Path]:
    """Write every card image under ``out``; return the paths written."""
    written = []
    for style in DeckStyle:
        folder = out / style.value
        folder.mkdir(parents=True, exist_ok=True)
        for c in DECK:
            path = folder / f"{c}.png"
            path.write_bytes(to_png(card_image(c, height, style)))
            written.append(path)
    back = out / "back.png"
    back.write_bytes(to_png(card_image(None, height)))
    written.append(back)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, default=HERE)
    parser.add_argument("--height", type=int, default=HEIGHT)
    args = parser.parse_args(argv)
    paths = make_cards(args.out, args.height)
    print(f"wrote {len(paths)} card images to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
