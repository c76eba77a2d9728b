"""A replay's bound: at most :data:`MAX_FRAMES` frames, however long the hand.

Two accounts can make a hand of thousands of minimum raises, and anyone who may read the
hand may replay it: a frame per action would be thousands of table pictures. The plan
(:mod:`bot.runtime.replay_frames`) makes a frame per step, then :func:`bounded` draws a
run of consecutive steps of one kind as one frame when there are too many:

* **Which steps merge.** Actions of one betting round, hands shown one after the other,
  pots awarded one after the other (each a *run*). The deal, every board card dealt,
  the run-it-twice answers and the end always keep their own frame: at most 1 + 7
  (Courchevel's first card, flop, turn, river, and a second board's flop, turn and
  river) + 2 + 1 of them, so a hand always fits in its bound.
* **How many frames a run keeps** (:func:`squeeze`, pure, on the steps' kinds alone):
  every run stays whole when the hand fits; otherwise the frames left after the fixed
  ones are shared out by water-filling: short runs (a round of three actions, the
  awards) stay whole, the longest runs (the betting war) share what is left.
* **Which steps of a run share a frame:** its first and last :data:`EDGE` steps keep
  their own frames (how the war started, how it ended: the last raise, the call or the
  all-in), the middle is cut into equal groups: a fast-forward.
* **What a merged frame shows:** the table after the group's last step, and that step's
  caption with how many actions (and raises) the frame holds ("40 actions (39
  raises), the last: bob raises to 4,002"); merged shows and awards say how many more
  hands or pots the frame holds.

Decision: **72 frames.** The longest ordinary hands measured (issue 25) are a ten-way
fixed-limit hand capped on every street (61 frames) and a ten-seat hi-lo hand run twice
(47): they stay whole, with room to spare. A 2,000-action hand in 72 frames is 1 MB
heads-up and 3 MB at ten seats with the longest names, drawn in 0.3 to 1 s by a process
that peaks at about 105 MB (bench/README.md, "Bounded replays, the worst case"); at 1.2
to 5 seconds a frame the animation lasts under three minutes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.i18n import translate
from bot.render import ReplayFrame

__all__ = ["EDGE", "MAX_FRAMES", "MERGED", "bounded", "squeeze"]

#: The most frames a replay has.
MAX_FRAMES = 72
#: Steps of these kinds merge with their neighbours of the same kind when a hand is long.
MERGED = frozenset({"action", "show", "award"})
#: Steps at each end of a squeezed run that keep their own frame.
EDGE = 3


def _runs(kinds: Sequence[str]) -> list[tuple[int, int, bool]]:
    """``(start, stop, mergeable)`` of each run: consecutive steps of one mergeable kind, or
    a single step of another kind."""
    runs: list[tuple[int, int, bool]] = []
    for i, kind in enumerate(kinds):
        merge = kind in MERGED
        if runs and merge and runs[-1][2] and kinds[runs[-1][0]] == kind:
            runs[-1] = (runs[-1][0], i + 1, True)
        else:
            runs.append((i, i + 1, merge))
    return runs


def _shares(lengths: Sequence[int], budget: int) -> list[int]:
    """How many frames each run keeps: all of them when they fit in ``budget``, else the
    most ``cap`` for which ``sum(min(length, cap))`` fits, the frames left over one each to
    the first of the longer runs."""
    if sum(lengths) <= budget:
        return list(lengths)
    cap = 1
    while sum(min(n, cap + 1) for n in lengths) <= budget:
        cap += 1
    shares = [min(n, cap) for n in lengths]
    spare = budget - sum(shares)
    for i, n in enumerate(lengths):
        if spare and n > cap:
            shares[i] += 1
            spare -= 1
    return shares


def _split(start: int, stop: int, frames: int) -> list[range]:
    """The steps ``start..stop`` in ``frames`` groups: :data:`EDGE` single steps at each
    end (when there is room), the middle in groups as equal as can be."""
    n = stop - start
    if frames >= n:
        return [range(i, i + 1) for i in range(start, stop)]
    edge = min(EDGE, (frames - 1) // 2)
    head = [range(i, i + 1) for i in range(start, start + edge)]
    tail = [range(i, i + 1) for i in range(stop - edge, stop)]
    groups, middle = frames - 2 * edge, n - 2 * edge
    size, extra = divmod(middle, groups)
    cut, at = [], start + edge
    for k in range(groups):
        step = size + (1 if k < extra else 0)
        cut.append(range(at, at + step))
        at += step
    return head + cut + tail


def squeeze(kinds: Sequence[str], limit: int = MAX_FRAMES) -> list[range]:
    """The steps of a replay (their kinds, in order) grouped into at most ``limit`` frames:
    consecutive ranges covering every step, each drawn as one frame (see the module's
    docstring). A group of more than one step is a run of one kind of :data:`MERGED`."""
    runs = _runs(kinds)
    fixed = sum(1 for _, _, merge in runs if not merge)
    lengths = [stop - start for start, stop, merge in runs if merge]
    shares = iter(_shares(lengths, max(limit - fixed, len(lengths))))
    groups: list[range] = []
    for start, stop, merge in runs:
        groups += _split(start, stop, next(shares)) if merge else [range(start, stop)]
    return groups


def _merged_caption(frames: Sequence[ReplayFrame], raised: Sequence[bool], group: range,
                    lang: str) -> str:
    """The caption of the frame that holds the steps of ``group``."""
    last = frames[group[-1]]
    count = len(group)
    if last.kind == "show":
        return f"{last.caption} {translate(lang, 'replay.more_shown', count=count - 1)}"
    if last.kind == "award":
        return f"{last.caption} {translate(lang, 'replay.more_awarded', count=count - 1)}"
    raises = sum(1 for i in group if raised[i])
    actions = translate(lang, "replay.actions", count=count)
    if not raises:
        return translate(lang, "replay.squeezed_quiet", actions=actions, last=last.caption)
    return translate(lang, "replay.squeezed", actions=actions, last=last.caption,
                     raises=translate(lang, "replay.raises", count=raises))


def bounded(frames: Sequence[ReplayFrame], raised: Sequence[bool], lang: str,
            limit: int = MAX_FRAMES) -> tuple[ReplayFrame, ...]:
    """``frames`` (a step each; ``raised[i]``: step ``i`` is a raise) as at most ``limit``
    frames: each group of :func:`squeeze` drawn as its last step's frame, a merged one
    with a caption that says what it holds, in ``lang``."""
    groups = squeeze([f.kind for f in frames], limit)
    return tuple(
        frames[g[0]] if len(g) == 1
        else replace(frames[g[-1]], caption=_merged_caption(frames, raised, g, lang))
        for g in groups
    )
