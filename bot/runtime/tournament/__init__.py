"""Sit-and-go and multi-table tournaments, above the table registry.

What the cogs use is :class:`bot.runtime.tournament.service.TournamentService`; the
reading order of the package is in :mod:`bot.runtime`. Import from the submodules (this
package's ``__init__`` imports nothing).
"""
