"""Private replies in the member's own language (``interaction.locale``), public ones in
the server's (``guild_locale``); English for any other language."""

from __future__ import annotations

from tests.conftest import Harness


async def test_balance_answers_each_member_in_their_language(harness: Harness) -> None:
    h = harness
    h.set_locale(h.alice, "pt-BR")
    h.set_locale(h.bob, "es-ES")
    h.set_locale(h.carol, "it")
    h.set_locale(h.dave, "fr")
    assert (await h.slash(h.alice, "balance")).text == "Você tem 10.000 fichas."
    assert (await h.slash(h.bob, "balance")).text == "Tienes 10.000 fichas."
    assert (await h.slash(h.carol, "balance")).text == "Hai 10.000 fiches."
    assert (await h.slash(h.dave, "balance")).text == "You have 10,000 chips."


async def test_a_public_balance_speaks_the_servers_language(harness: Harness) -> None:
    h = harness
    h.env.backend.get_guild(h.guild.id).preferred_locale = "es-419"
    h.set_locale(h.alice, "it")
    reply = await h.slash(h.alice, "balance", public=True)
    assert not reply.ephemeral
    assert reply.text == "Tienes 10,000 fichas."  # Latin American Spanish groups with ","


async def test_daily_in_the_members_language(harness: Harness) -> None:
    h = harness
    h.set_locale(h.bob, "es-ES")
    text = (await h.slash(h.bob, "daily")).text
    assert text.startswith("Has cobrado tu bono diario de ")
    assert "(día 1 de una racha)" in text
    assert "Próximo bono <t:" in text
