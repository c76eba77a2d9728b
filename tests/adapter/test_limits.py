"""Every message the bot sends stays within Discord's limits (bot/adapter/limits.py and its users).

The text fitter on its own, then whole games through the offline Discord:
ten players with 32-character names all-in before the flop, which gives the
longest texts a table makes (a ten-way showdown, a side pot per stack, in
hi-lo a high and a low share each). Every request the bot made is checked
against Discord's limits with the process-level fake's rules
(:mod:`tests.fakediscord.limits`), independently of simcord's own checks,
which would refuse an oversized message (and lose it) anyway.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from simcord import MemberActor

from bot.adapter.limits import CONTENT, clip, fit_message, fit_text, more_lines
from bot.engine.variants import VARIANTS
from tests.conftest import Harness
from tests.fakediscord.limits import message_problems

# -- the fitter ---------------------------------------------------------------------------------


def test_short_texts_are_unchanged() -> None:
    lines = ["**Hand #3 result**", "Alice wins 120", "Bob shows As Kd Qh Jc: a straight"]
    assert fit_message(lines) == "\n".join(lines)
    assert fit_message(["x" * CONTENT]) == "x" * CONTENT
    assert fit_text("a\nb") == "a\nb"


def test_whole_lines_are_kept_and_the_rest_counted() -> None:
    """As many whole lines as fit, from the top, then "… and N more lines"."""
    lines = [f"line {i:02} " + "x" * 90 for i in range(40)]  # 40 lines of 98 characters
    text = fit_message(lines)
    assert len(text) <= CONTENT
    kept = text.split("\n")
    assert kept[:-1] == lines[: len(kept) - 1]
    assert kept[-1] == more_lines(40 - (len(kept) - 1))
    # 20 lines (1,979 characters) and the marker fit in 2,000; a 21st line would not.
    assert kept[-1] == "… and 20 more lines"


@pytest.mark.parametrize("limit", [30, 100, 1000, 2000])
def test_fitted_texts_never_exceed_the_limit(limit: int) -> None:
    rng = random.Random(limit)
    for _ in range(200):
        lines = ["y" * rng.randrange(0, limit + 50) for _ in range(rng.randrange(1, 60))]
        text = fit_message(lines, limit)
        assert len(text) <= limit
        if len("\n".join(lines)) <= limit:
            assert text == "\n".join(lines)
        else:
            assert "more line" in text or text.endswith("…")


def test_a_first_line_too_long_is_cut() -> None:
    text = fit_message(["z" * 3000, "second"])
    assert len(text) <= CONTENT
    assert text.endswith("\n… and 1 more line") and "…\n" in text
    assert fit_message(["z" * 3000]) == "z" * (CONTENT - 1) + "…"


def test_clip_names() -> None:
    assert clip("Alice", 32) == "Alice"
    assert clip("A" * 40, 32) == "A" * 31 + "…"
    assert len(clip("word " * 20, 20)) <= 20
    with pytest.raises(ValueError):
        clip("x", 0)


# -- whole games ----------------------------------------------------------------------------------

#: Seconds between hands: longer than simcord's settle timeout, so the wait is parked.
PAUSE = 10.0
#: Display names as long as Discord allows (32), each different at the start and the end.
NAMES = [f"{chr(65 + i)}lexandria Vanderbilt-Montgomery{i}" for i in range(10)]


def message_bodies(h: Harness) -> list[tuple[str, dict[str, Any]]]:
    """Every message body the bot sent: posts, edits, interaction replies, followups."""
    out = []
    for r in h.requests():
        body = r.json if isinstance(r.json, dict) else None
        if body is None:
            continue
        if r.path.endswith("/callback"):
            if body.get("type") in (4, 7) and isinstance(body.get("data"), dict):
                out.append((r.path, body["data"]))
        elif r.method in ("POST", "PATCH") and (
            "/messages" in r.path or r.path.startswith("/webhooks/")
        ):
            out.append((r.path, body))
    return out


async def ten_way_all_in(h: Harness, variant: str, seed: int) -> list[MemberActor]:
    """A full table (ten seats, or the most the deck allows) of long names goes all-in.

    Every stack is different, so there is a side pot for each; nobody folds,
    so every hand is shown down.
    """
    h.bot.registry.pause = PAUSE
    h.bot.registry.rng = random.Random(seed)
    seats = min(10, VARIANTS[variant].max_seats)
    players = []
    for i, nick in enumerate(NAMES[:seats]):
        user = h.env.create_user(f"player{i}")
        actor = h.guild.add_member(user, nick=nick)
        h.members[f"player{i}"] = actor
        players.append(actor)
    reply = await h.slash(
        players[0], "table create", variant=variant, structure="no limit", seats=seats,
    )
    assert not reply.ephemeral, reply
    for i, actor in enumerate(players):
        reply = await h.slash(actor, "table join", buyin=str(40 + 15 * i))
        assert "You sat down" in reply.text, reply
    await h.advance(PAUSE + 0.1)
    table = h.bot.registry.in_channel(h.channel.id)
    by_id = {a.id: a for a in players}
    for _ in range(2 * seats):
        snap = table.snapshot()
        if snap.to_act is None:
            break
        seat = snap.at(snap.to_act)
        assert seat is not None
        actor = by_id[seat.user_id]
        reply = await h.slash(actor, "allin")  # a call when nobody behind could call a raise
        assert "Done" in reply.text, reply
    return players


def result_message(h: Harness) -> Any:
    found = [m for m in h.public_messages() if "Hand #1 result" in m.content]
    assert len(found) == 1, [m.content[:60] for m in h.public_messages()]
    return found[0]


def assert_within_limits(h: Harness) -> int:
    """Every body the bot sent passes Discord's limits; the longest content's length."""
    bodies = message_bodies(h)
    assert bodies
    for path, body in bodies:
        assert message_problems(body) == [], (path, message_problems(body))
    refused = [e for e in h.env.errors if "50035" in str(e)]
    assert not refused, refused
    return max(len(body.get("content") or "") for _, body in bodies)


async def test_ten_way_hilo_showdown_with_side_pots_fits(harness: Harness) -> None:
    """Omaha Hi-Lo, ten 32-character names, ten stacks: the result arrives, within 2,000.

    With this deck the result as the presenter wrote it, a line per winner per pot, was
    3,181 characters (nine pots, most split high and low, and ten shown hands) and had to
    be shortened. A line per player with their net (issue 31) makes it 888 characters:
    whole, each of the ten players on their own line, the nets adding up to nothing.
    """
    h = harness
    await ten_way_all_in(h, "omaha_hilo", seed=5)
    result = result_message(h)
    nets = re.findall(r"^\S+ Vanderbilt-Montgomery\d ([+\u2212±])([\d,]+) · ", result.content,
                      re.MULTILINE)
    assert len(nets) == 10 and "; low " in result.content, result.content
    assert sum(int(n.replace(",", "")) * (-1 if sign == "\u2212" else 1) for sign, n in nets) == 0
    longest = assert_within_limits(h)
    assert len(result.content) <= CONTENT and longest <= CONTENT
    assert "more lines" not in result.content


@pytest.mark.parametrize("variant", sorted(VARIANTS))
async def test_every_variant_ten_way_all_in_fits(harness: Harness, variant: str) -> None:
    """Each game, ten long names all-in: every message the bot sends is one Discord accepts."""
    h = harness
    await ten_way_all_in(h, variant, seed=5)
    result = result_message(h)
    assert " \u00b7 " in result.content  # a line per player: "name +589 · cards: hand"
    info = await h.slash(h.members["player0"], "table info")
    assert info.ephemeral and NAMES[0] in info.text
    assert assert_within_limits(h) <= CONTENT


def test_the_shortening_marker_speaks_the_readers_language() -> None:
    lines = [f"line {n}" for n in range(400)]
    assert fit_message(lines, 100).endswith(" more lines")
    portuguese = fit_message(lines, 100, locale="pt-BR")
    assert "\n… e mais " in portuguese and portuguese.endswith(" linhas")
    assert more_lines(1, "it") == "… e 1 altra riga"
    assert more_lines(1_500, "es-ES") == "… y 1.500 líneas más"
    assert more_lines(2) == "… and 2 more lines"
