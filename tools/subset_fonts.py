"""Make the pictures' fonts: DejaVu Sans Condensed (and Bold) cut to ``fonts.COVERAGE``.

Run from the repository root, with fontTools installed (only for this script;
the bot does not need it):

    .venv/bin/pip install fonttools
    .venv/bin/python tools/subset_fonts.py [SOURCE_DIR]

SOURCE_DIR holds DejaVuSansCondensed.ttf and DejaVuSansCondensed-Bold.ttf
(DejaVu 2.37; default: /usr/share/fonts/truetype/dejavu, Debian's fonts-dejavu-core). The
output goes to bot/render/fontdata/. Each file is made by the command this
script prints, which bot/render/fontdata/README.md records.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fontTools import subset  # noqa: E402

from bot.render.fonts import BOLD, REGULAR, unicodes_arg  # noqa: E402


def command(source: Path, out: Path) -> list[str]:
    """pyftsubset's arguments: keep the TrueType hints (small text) and the legacy
    ``kern`` table (the basic layout reads kerning from it); drop GSUB/GPOS/GDEF,
    which the basic layout never reads."""
    return [str(source), f"--unicodes={unicodes_arg()}", f"--output-file={out}",
            "--legacy-kern", "--layout-features=", "--drop-tables+=GSUB,GPOS,GDEF,MATH,FFTM",
            "--name-IDs=*", "--no-notdef-outline"]


def main() -> None:
    source = Path(sys.argv[1] if len(sys.argv) > 1 else "/usr/share/fonts/truetype/dejavu")
    for name, out in (("DejaVuSansCondensed.ttf", REGULAR), ("DejaVuSansCondensed-Bold.ttf", BOLD)):
        args = command(source / name, out.relative_to(ROOT))
        print("pyftsubset " + shlex.join(args))
        subset.main(args)
        print(f"  -> {out.relative_to(ROOT)}: {out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
