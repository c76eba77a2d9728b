"""Tournaments in the players' languages (issue 13): a multi-table tournament on a
Portuguese server whose director's notices (moves, broken tables, the final table, the
winner) and public replies speak the server's language, private replies (info, refusals,
settings errors) the reader's."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import Harness, buttons_of

from .test_tournament import PAUSE, bot_extensions

pytestmark = pytest.mark.asyncio

__all__ = ["bot_extensions"]


def to_act_in(h: Harness, thread: Any) -> Any | None:
    """The member the thread's last turn prompt names (found by its buttons' ids)."""
    for m in reversed(h.public_messages(thread)):
        if any(str(b.custom_id).endswith(":fold") for b in buttons_of(m)):
            return next((a for a in h.members.values() if f"<@{a.id}>" in m.content), None)
    return None


async def create(h: Harness, welcome: str, **options: object) -> None:
    assert h.bot.registry is not None
    h.bot.registry.pause = PAUSE
    reply = await h.slash(h.alice, "tournament create", **options)
    assert not reply.ephemeral and reply.text.endswith(welcome), reply


async def register(h: Harness, count: int, registers: str) -> list[Any]:
    """All but the last of ``count`` players register (public, the tournament's language)."""
    players = [h.alice, h.bob, h.carol, h.dave]
    players += [h.add_member(f"player{i}") for i in range(count - len(players))]
    for actor in players[:-1]:
        reply = await h.slash(actor, "tournament join")
        assert not reply.ephemeral and registers in reply.text, reply
    return players


async def shove_to_the_end(h: Harness, threads: list[Any]) -> list[str]:
    """Everyone all-in at every turn until the tournament has a winner; the threads' texts."""
    for _ in range(2000):
        acted = False
        for thread in threads:
            actor = to_act_in(h, thread)
            if actor is None:
                continue
            # all-in; a call when that is refused (nobody left who could answer a raise)
            if (await h.slash(actor, "allin", channel=thread)).ephemeral:
                await h.slash(actor, "call", channel=thread)
            acted = True
        texts = [m.content for t in threads for m in h.public_messages(t)]
        if any("vence o torneio" in t for t in texts):
            return texts
        if not acted:
            await h.advance(PAUSE + 0.1)
    raise AssertionError(texts[-6:])


async def test_a_portuguese_servers_tournament_is_directed_in_portuguese(
    harness: Harness,
) -> None:
    h = harness
    h.env.backend.get_guild(h.guild.id).preferred_locale = "pt-BR"
    await create(h, "\nAs inscrições estão abertas.", buy_in=100, entrants=12, table_size=6,
                 speed="turbo", structure="no limit")
    players = await register(h, 12, " se inscreve (")
    h.set_locale(h.bob, "es-ES")  # a private reply speaks its reader's language
    info = await h.slash(h.bob, "tournament info")
    head = "**Torneo #1 (6 por mesa)**: Omaha Sin límite"
    assert info.ephemeral and info.text.startswith(head), info.text
    assert "Bote de premios 1.100 fichas. Pagos: 1.º: " in info.text, info.text
    assert "Turbo: 5 minutos por nivel · " in info.text and "/torneo empezar" in info.text
    h.set_locale(players[-1], "es-ES")  # the start is public: Portuguese all the same
    last = await h.slash(players[-1], "tournament join")
    assert "O torneio está lotado e começa agora: 1º: " in last.text, last.text
    threads = h.channel.threads
    assert len(threads) == 2
    assert sorted(t.name for t in threads) == ["Torneio #1 - mesa 1", "Torneio #1 - mesa 2"]
    assert all(t.config.language == "pt-BR" for t in h.bot.registry.all())
    texts = await shove_to_the_end(h, threads)
    everything = "\n".join(texts)
    assert "Mesa 1 de 2." in everything  # notice.mtt_table
    assert "Esta é a mesa final." in everything
    assert " está fora em " in everything, everything[-800:]
    moved = [t for t in texts if ", você foi trazido para cá da mesa " in t]
    assert moved, everything[-800:]
    for english in ("This is the final table", "you are moved here", " is out in ",
                    "wins the tournament", "is broken", "moves to table"):
        assert english not in everything
    assert sum([await h.balance(a) for a in players]) == 120_000
    await h.audit()


async def test_the_director_refuses_a_second_cancellation_in_the_readers_language(
    harness: Harness,
) -> None:
    """A manager cancels while hands run; a second /tournament cancel is refused in the
    Italian manager's language, the table notice in the server's Spanish."""
    h = harness
    h.env.backend.get_guild(h.guild.id).preferred_locale = "es-ES"
    await create(h, "\nLa inscripción está abierta.", buy_in=100, entrants=12, table_size=6)
    players = await register(h, 12, " se inscribe (")
    await h.slash(players[-1], "tournament join")
    threads = h.channel.threads
    for _ in range(40):
        if all(to_act_in(h, t) is not None for t in threads):
            break
        await h.advance(PAUSE + 0.1)
    h.set_locale(h.manager, "it")
    first = await h.slash(h.manager, "tournament cancel")
    assert first.ephemeral and first.text.startswith(
        "Il torneo sarà annullato alla fine delle mani in corso."), first.text
    again = await h.slash(h.manager, "tournament cancel")
    assert again.ephemeral and again.text == "Questo torneo è già in fase di annullamento."
    texts = [m.content for t in threads for m in h.public_messages(t)]
    assert any(t.startswith("El torneo se cancelará cuando acaben las manos en curso.")
               for t in texts), texts[-4:]


async def test_settings_errors_are_refused_in_the_readers_language(harness: Harness) -> None:
    """Bad /tournament create settings: each refusal in the creator's language, nothing made."""
    h = harness
    cases = [
        ("pt-BR", {"buy_in": 10, "payouts": "50/30"},
         "As porcentagens dos prêmios somam 80, não 100."),
        ("es-ES", {"buy_in": 10, "payouts": "mitad"},
         "Escribe los premios como porcentajes enteros desde el 1.er puesto hacia abajo,"
         " como 50/30/20, no 'mitad'."),
        ("it", {"buy_in": 10, "stack": 100},
         "Lo stack iniziale deve essere di almeno 10 grandi bui del primo livello (200 fiches)."),
        ("pt-BR", {"buy_in": 10, "entrants": 2, "payouts": "50/30/20"},
         "A tabela de prêmios paga 3 lugares, mas o torneio só tem 2 jogadores."),
        ("es-ES", {"buy_in": 10, "entrants": 20, "late_levels": 2},
         "Un torneo de varias mesas no tiene inscripción tardía."),
    ]
    for locale, options, said in cases:
        h.set_locale(h.alice, locale)
        refused = await h.slash(h.alice, "tournament create", **options)
        assert refused.ephemeral and refused.text == said, refused.text
    assert h.bot.registry is not None and not h.bot.registry.all()
    assert not h.public_messages()
