"""What makes a table a cash table or a tournament table: the policy it is given.

A :class:`~bot.runtime.table.live.Table` plays hands the same way whatever it is;
what differs lives in a :class:`TablePolicy`:

* who is ready to be dealt in (``ready``) and whether a sitting-out player is
  blinded off, checked or folded at once (``blinds_off``);
* which requests it refuses (``refusal``: a tournament has no buy-in, top-up,
  cash-out, closing or settings change) and whether a busted player is offered a
  top-up or leaving (``buys_back``, :mod:`bot.runtime.table.ways`);
* the game of the next hand (``game``, ``hand_config``: a tournament's level);
* what happens between settlement and the next deal (``after_hand``);
* what goes back to whom when the table's channel is lost (``abandon``, see
  :mod:`bot.runtime.table.abandon`), once its hand in progress was played out by the
  clock's rule: a cash table cashes every stack out; a sit-and-go is cancelled as
  after its start (prizes kept, the rest of the pool split by stacks).

:class:`CashPolicy` is the cash table's; the sit-and-go's is
:class:`bot.runtime.tournament.table_policy.TournamentPolicy`.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol

from bot.engine.variants import GameConfig
from bot.i18n import Command, Name, Phrase
from bot.runtime.config import TableConfig
from bot.runtime.seating import Seat, cash_ready
from bot.runtime.table import settle
from bot.runtime.table.abandon import Closing, Ending
from bot.runtime.table.ways import ways_forward

if TYPE_CHECKING:
    from bot.runtime.table.live import Table
    from bot.runtime.table.live_hand import LiveHand

__all__ = ["CashPolicy", "Request", "TablePolicy"]


class Request(Enum):
    """Requests a policy may refuse."""

    JOIN = "join"
    TOP_UP = "top up"
    LEAVE = "leave"
    CLOSE = "close"
    SETTINGS = "change settings"


class TablePolicy(Protocol):
    blinds_off: bool
    #: A busted player may top up or leave (a cash table; :mod:`bot.runtime.table.ways`).
    buys_back: bool

    def ready(self, seat: Seat) -> bool:
        """Whether ``seat`` could be dealt into the next hand."""
        ...

    def refusal(self, request: Request) -> Phrase | None:
        """The polite refusal of ``request``, or None when the table allows it."""
        ...

    def game(self, config: TableConfig) -> GameConfig:
        """The engine's settings for the hand being dealt."""
        ...

    def hand_config(self, config: TableConfig) -> dict[str, Any]:
        """The settings stored with a hand (enough to replay it)."""
        ...

    async def after_hand(self, table: Table, hand: LiveHand) -> None:
        """Between settlement and the next deal (under the table's lock)."""
        ...

    async def abandon(self, table: Table, hand: LiveHand | None, reason: str) -> Closing:
        """The table's channel is lost and ``hand``, the hand it was playing (if any), was
        played out and settled (under the lock): give the chips back for good and close
        the table (a multi-table tournament's table may stay held until the others'
        hands end: :attr:`Ending.CANCELLING`)."""
        ...


class CashPolicy:
    """A cash table: leavers cash out after the hand, empty stacks sit out."""

    blinds_off = False
    buys_back = True

    def ready(self, seat: Seat) -> bool:
        return cash_ready(seat)

    def refusal(self, request: Request) -> Phrase | None:
        return None

    def game(self, config: TableConfig) -> GameConfig:
        return config.game

    def hand_config(self, config: TableConfig) -> dict[str, Any]:
        return config.alone().to_dict()  # a mixed table's hand: the game it deals

    async def after_hand(self, table: Table, hand: LiveHand) -> None:
        for seat in list(table.seats.values()):
            if seat.leaving:
                amount = await settle.cash_out(table, seat)
                table.tell(Phrase("notice.leaves_with", name=Name(seat.name), count=amount))
            elif seat.stack == 0 and not seat.sitting_out:
                await settle.mark_sitting_out(table, seat)
                table.tell(Phrase("notice.out_of_chips", name=Name(seat.name),
                                  topup=Command("table topup"), leave=Command("table leave")))
                table.tell(Phrase("notice.busted", topup=Command("table topup"),
                                  high=table.config.max_buyin, leave=Command("table leave")),
                           seat.user_id, ways=ways_forward(table, seat.user_id))

    async def abandon(self, table: Table, hand: LiveHand | None, reason: str) -> Closing:
        """Every stack (as the hand played out left it) cashed out, in one write."""
        returned = await table.tables.abandon_table(table.table_id)
        return Closing(Ending.CASHED_OUT, returned)
