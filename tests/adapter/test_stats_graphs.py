"""/stats's graph views (bot.adapter.stats_graphs): the lines are the stored results."""

from __future__ import annotations

import itertools

from bot.adapter.stats_graphs import cash_lines, cash_panel, tournament_panel
from bot.storage import HandNet, TournamentFinish


def _hands() -> list[HandNet]:
    nets = [(120, True), (-40, False), (-200, True), (15, False), (300, True), (-2, False)]
    return [HandNet(i, 1000.0 + i, net, sd) for i, (net, sd) in enumerate(nets)]


def test_the_net_is_the_running_total_and_splits_by_showdown() -> None:
    hands = _hands()
    net, at, without = cash_lines("en", hands)
    assert net.points == tuple(itertools.accumulate(h.net for h in hands))
    assert at.points[-1] == sum(h.net for h in hands if h.showdown)
    assert without.points[-1] == sum(h.net for h in hands if not h.showdown)
    assert all(a + b == n for a, b, n in zip(at.points, without.points, net.points, strict=True))
    assert (net.label, at.label, without.label) == ("Net", "At showdown", "Without showdown")
    panel = cash_panel("pt-BR", "todos os jogos", "Desde sempre", hands)
    assert panel.subtitle == "6 mãos · Desde sempre" and panel.x_label == "Mãos"
    assert [line.kind for line in panel.lines] == ["net", "showdown", "no_showdown"]
    assert len(cash_panel("en", "", "All time", hands, split=False).lines) == 1


def test_tournaments_are_profit_places_and_roi() -> None:
    finishes = [TournamentFinish(1, 10.0, 1, 6, 100, 360), TournamentFinish(2, 20.0, 4, 6, 100, 0),
                TournamentFinish(3, 30.0, None, 6, 200, 100)]
    panel = tournament_panel("en", "This month", finishes)
    assert panel.lines[0].points == (260, 160, 60)  # ROI 60 / 400
    assert [(m.x, m.label, m.good) for m in panel.marks] == [
        (1, "1st", True), (2, "4th", False), (3, "", True)]
    assert "ROI +15%" in panel.subtitle and "3 played · 1 won" in panel.subtitle
    es = tournament_panel("es-ES", "Este mes", finishes)
    assert "ROI +15 %" in es.subtitle and es.marks[1].label == "4.º"
