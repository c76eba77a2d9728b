"""The table runtime: live tables, the hand loop, the clock (asyncio; no Discord here).

Import from the submodules (this package's ``__init__`` imports nothing)::

    bot.runtime.config.TableConfig.create(...)     validated settings
    bot.runtime.registry.TableRegistry             live tables by channel
    bot.runtime.table.Table, PreAction             one table
    bot.runtime.ports                              ChipBank, HandStore, TableStore, TableObserver
    bot.runtime.views                              immutable snapshots for the presenter
    bot.runtime.clock                              LoopClock, FakeClock
    bot.runtime.errors                             TableError and its kinds

Usage::

    TableRegistry(economy=..., hands=..., tables=..., observer=..., clock=...)
        .create(guild_id=, channel_id=, creator_id=, config=TableConfig.create(...)) -> Table
        .in_channel(channel_id) -> Table        raises NoTable
        .restore()                              after a restart
    Table.join / leave / sit_out / sit_in / top_up / close / update_settings
    Table.act(user_id, kind, amount=None, token=None)   kind: fold check call bet raise allin
    Table.set_pre_action(user_id, PreAction | None)
    Table.snapshot() -> TableSnapshot; Table.turn_view(); Table.hole_cards(user_id)
"""
