"""Text preparation: drawable characters and ellipsis cutting."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.render import fonts
from bot.render.fonts import (
    BOLD,
    COVERAGE,
    ELLIPSIS,
    FONT_DIR,
    REGULAR,
    covered,
    drawable,
    fit,
    font,
    index_font,
    legible,
    text_width,
    unicodes_arg,
)


def test_font_is_the_shipped_dejavu_subset() -> None:
    """The fonts are the files in the package (no system font), loaded once per size,
    weight and thread; the card indices keep Pillow's built-in Aileron."""
    f = font(30)
    assert f.getname() == ("DejaVu Sans", "Condensed")
    assert font(30, bold=True).getname() == ("DejaVu Sans", "Condensed Bold")
    assert Path(f.path).parent == FONT_DIR and FONT_DIR.parent == Path(fonts.__file__).parent
    assert font(30) is f
    assert f.getbbox("A")[3] > font(15).getbbox("A")[3]
    assert index_font(30).getname()[0] == "Aileron"
    assert (FONT_DIR / "LICENSE").read_text().startswith("Fonts are (c) Bitstream")
    assert REGULAR.stat().st_size < 60_000 and BOLD.stat().st_size < 60_000  # a subset


def test_every_covered_character_has_a_glyph_and_others_none() -> None:
    """Each character of COVERAGE draws ink of its own (not the empty missing-glyph),
    in both weights; a character outside it draws nothing at all, never a box."""
    for bold in (False, True):
        f = font(24, bold)
        missing = f.getmask("\u4e00").getbbox()
        assert missing is None  # the missing glyph has no outline
        blank = {" ", "\u00a0"}
        for lo, hi in COVERAGE:
            for cp in range(lo, hi + 1):
                ch = chr(cp)
                assert covered(ch)
                assert (f.getmask(ch).getbbox() is None) == (ch in blank), hex(cp)
    assert not covered("\u4e00") and not covered("\U0001f525") and not covered("\x7f")


def test_the_readme_gives_the_subsetting_command_for_coverage() -> None:
    """The fonts' README records the command that made them, for today's COVERAGE."""
    readme = (FONT_DIR / "README.md").read_text()
    lines = [ln.strip() for ln in readme.splitlines() if ln.strip().startswith("pyftsubset")]
    assert len(lines) == 2
    for line, out in zip(lines, (REGULAR, BOLD), strict=True):
        assert f"--unicodes={unicodes_arg()} " in line
        assert f"--output-file=bot/render/fontdata/{out.name} " in line
    assert f"{REGULAR.stat().st_size:,}" in readme and f"{BOLD.stat().st_size:,}" in readme


def test_each_thread_has_its_own_font_faces() -> None:
    """A FreeType face is never shared between threads (FreeType forbids it)."""
    import threading

    other: list[object] = []
    t = threading.Thread(target=lambda: other.append(font(30)))
    t.start()
    t.join()
    assert other[0] is not font(30)
    assert other[0].getname() == font(30).getname()  # type: ignore[attr-defined]


def test_drawable_keeps_what_the_font_has_and_replaces_the_rest() -> None:
    """Latin letters keep their accents; a letter the font lacks is folded to its base
    letter, or '?' in another script; emoji and marks are left out."""
    assert drawable("Jos\u00e9 M\u00fcller") == "Jos\u00e9 M\u00fcller"
    assert drawable("\u0141ukasz \u00d8rjan \u0130pek \u0160koda") == (
        "\u0141ukasz \u00d8rjan \u0130pek \u0160koda")
    assert drawable("Jose\u0301") == "Jos\u00e9"  # composed first
    assert drawable("a\u2014b \u201cq\u201d \u00ab\u00bb 3\u00d74 \u2026") == (
        "a\u2014b \u201cq\u201d \u00ab\u00bb 3\u00d74 \u2026")
    assert drawable("Nguy\u1ec5n") == "Nguyen"  # Vietnamese: not in the subset, folded
    assert drawable("\uff21\uff22") == "AB"  # full-width letters
    assert drawable("\u674e\u5c0f\u9f99") == "???"
    assert drawable("\u0416\u0435\u043d\u044f") == "????"  # Cyrillic: not in the subset
    assert drawable("\U0001f525Dragon\U0001f525\ufe0f") == "Dragon"
    assert drawable("\U0001f468\u200d\U0001f469 Fam") == "Fam"
    assert drawable("  two   spaces\u200b\u2009 ") == "two spaces"
    assert drawable("Ann\u00ader") == "Anner"  # a soft hyphen is invisible


def test_legible_when_at_most_half_the_letters_become_question_marks() -> None:
    """Marks and symbols are not letters: Thai vowel signs count for nothing."""
    assert legible("Nguy\u1ec5n") and legible("\uff21\uff22")  # folded, not "?"
    assert legible("Bob \u674e") and legible("ab\u674e\u674e")  # 1 of 4, 2 of 4
    assert not legible("a\u674e\u674e")  # 2 of 3
    assert not legible("\u0e2a\u0e21\u0e28\u0e31\u0e01\u0e14\u0e34\u0e4c")  # Thai: "?????"
    assert not legible("\u0645\u062d\u0645\u062f") and not legible("\u0416\u0435\u043d\u044f")
    assert not legible("\U0001f525\U0001f525") and not legible("")  # nothing drawn
    assert legible("???") and legible("_.")  # drawn as written


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_drawable_gives_only_covered_characters(text: str) -> None:
    """Whatever a name holds, what is drawn is in the font: never a missing glyph."""
    assert all(covered(ch) for ch in drawable(text))


def test_fit_keeps_short_text_and_cuts_long_text_with_an_ellipsis() -> None:
    """Text that fits is untouched; longer text ends with an ellipsis and fits."""
    assert fit("Alice", 28, 400) == "Alice"
    cut = fit("Charlotte-Amelie von Habsburg-Lothringen", 28, 200, bold=True)
    assert cut.endswith(ELLIPSIS)
    assert cut.startswith("Charlotte")
    assert text_width(cut, 28, bold=True) <= 200


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=60), st.integers(min_value=0, max_value=500))
def test_fit_never_exceeds_the_width(text: str, width: int) -> None:
    """Whatever the text and width, the fitted text is no wider than allowed."""
    out = fit(text, 24, width)
    assert out == "" or text_width(out, 24) <= width
