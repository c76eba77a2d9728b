"""A player's click carries the table's next live message through the interaction routes.

Discord's global rate limit (50 requests per second per bot) caps play when
every action costs two channel requests (post the next turn, delete the old
one). The interaction endpoints do not count against it. Discord's "Rate
Limits" page: "Interaction endpoints are not bound to the bot's Global Rate
Limit."; its "Receiving and Responding" page, above the callback, followup and
original-response routes: "The endpoints below are not bound to the
application's Global Rate Limit.", and "Interaction tokens are valid for **15
minutes**, meaning you can respond to an interaction within that amount of
time." (discord/discord-api-docs, docs/topics/rate-limits and
docs/interactions/receiving-and-responding).

So when a player acts by a button or the raise form (a component or
modal-submit interaction, acknowledged with a deferred update, type 6), the
table's channel (:class:`bot.adapter.channel.TableChannel`) is handed the
interaction as a :class:`Hook`:

* the next live message is posted as the interaction's followup
  (``POST /webhooks/{app}/{token}``, with the picture, the buttons and the
  mention of the next player, who is notified as by a channel post);
* the live message the button was on is that interaction's ``@original``
  (``DEFERRED_UPDATE_MESSAGE``: "For components, ACK an interaction and edit
  the original message later"; a modal opened by a component carries that
  component's message too), so it is deleted with ``DELETE
  .../messages/@original`` and edited (the result, a run-out street) with
  ``PATCH .../messages/@original``;
* a live message posted as a followup is edited through ``PATCH
  .../messages/{id}`` of the token that posted it while that token is valid.
  A followup is a message of the bot's application in the channel, so the
  channel routes reach it too: they are the fallback.

A token is used only while it is valid, with a margin (:data:`TOKEN_MARGIN`),
and only for the message it belongs to; a request it gets refused (401 code
50027 Invalid Webhook Token, 404 code 10015 Unknown Webhook) is sent again by
the channel routes. The click that ended a hand (its token edited the result)
also carries the next hand's first message. Slash-command actions, the
clock's timeouts, refreshes and notices use the channel routes.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import discord

#: Discord: "Interaction tokens are valid for 15 minutes".
TOKEN_LIFETIME = 15 * 60.0
#: The token is not used in its last minute (the interaction was created a
#: little before the bot saw it, and a slow request must not arrive late).
TOKEN_MARGIN = 60.0
#: What Discord answers for a token it no longer takes (expired, or unknown).
INVALID_TOKEN_CODES = frozenset({50027, 10015})


def now() -> float:
    return asyncio.get_running_loop().time()


@dataclass(frozen=True)
class Hook:
    """An acknowledged click or form submit: its token, the message it was on, until when."""

    interaction: discord.Interaction[Any]
    message_id: int
    until: float

    @classmethod
    def of(cls, interaction: discord.Interaction[Any]) -> Hook | None:
        """The hook of a component or modal-submit interaction on a message (else None)."""
        kinds = (discord.InteractionType.component, discord.InteractionType.modal_submit)
        if interaction.type not in kinds or interaction.message is None:
            return None
        return cls(interaction, interaction.message.id, now() + TOKEN_LIFETIME - TOKEN_MARGIN)

    def valid(self) -> bool:
        return now() < self.until


def refused_token(exc: discord.HTTPException) -> bool:
    """Discord no longer takes the interaction's token (expired or unknown)."""
    return exc.status == 401 or exc.code in INVALID_TOKEN_CODES


__all__ = ["INVALID_TOKEN_CODES", "TOKEN_LIFETIME", "TOKEN_MARGIN", "Hook", "refused_token"]
