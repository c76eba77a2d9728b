"""The end of a tournament: a cancellation's prizes, worded in each language."""

from __future__ import annotations

from bot.i18n import Phrase
from bot.runtime.tournament.results import prize_list


def test_the_prize_list_is_worded_in_each_language() -> None:
    """Biggest prize first, each with the locale's separator, joined as the language
    lists things (Babel's format_list)."""
    names = {1: "ana", 2: "bia", 3: "caio"}
    paid = prize_list({2: 500, 1: 1000, 3: 12_500}, names.__getitem__)
    assert paid.to("pt-BR") == "caio 12.500, ana 1.000 e bia 500"
    assert paid.to("es-ES") == "caio 12.500, ana 1.000 y bia 500"
    assert paid.to("it") == "caio 12.500, ana 1.000 e bia 500"
    assert str(paid) == "caio 12,500, ana 1,000, and bia 500"
    assert prize_list({1: 1000, 2: 500}, names.__getitem__).to("pt-BR") == "ana 1.000 e bia 500"
    assert prize_list({3: 7}, names.__getitem__).to("it") == "caio 7"
    notice = Phrase("notice.sng_cancelled", prizes=paid)
    assert notice.to("es-ES") == (
        "El torneo queda cancelado. Premios: caio 12.500, ana 1.000 y bia 500.")
