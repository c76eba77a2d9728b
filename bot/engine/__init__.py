"""The pure poker engine: cards, evaluation, variants, the hand state machine,
pots, hand histories. Standard library only; nothing here knows Discord,
SQLite or time."""
