"""Text preparation: drawable characters and ellipsis cutting."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.render.fonts import ELLIPSIS, drawable, fit, font, text_width


def test_font_is_the_builtin_scalable_one() -> None:
    """The font needs no file: Pillow's built-in Aileron at any size, loaded once."""
    f = font(30)
    assert f.getname()[0] == "Aileron"
    assert font(30) is f
    assert f.getbbox("A")[3] > font(15).getbbox("A")[3]


def test_each_thread_has_its_own_font_faces() -> None:
    """A FreeType face is never shared between threads (FreeType forbids it)."""
    import threading

    other: list[object] = []
    t = threading.Thread(target=lambda: other.append(font(30)))
    t.start()
    t.join()
    assert other[0] is not font(30)
    assert other[0].getname() == font(30).getname()  # type: ignore[attr-defined]


def test_drawable_folds_accents_and_replaces_unknown_characters() -> None:
    """Accents are dropped, dashes simplified, other scripts become '?'."""
    assert drawable("Jos\u00e9 M\u00fcller") == "Jose Muller"
    assert drawable("a\u2014b") == "a-b"
    assert drawable("\u674e\u5c0f\u9f99") == "???"
    assert drawable("\U0001f525Dragon\U0001f525\ufe0f") == "Dragon"
    assert drawable("\U0001f468\u200d\U0001f469 Fam") == "Fam"
    assert drawable("  two   spaces\u200b ") == "two spaces"


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
