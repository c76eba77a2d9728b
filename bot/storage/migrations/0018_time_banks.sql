-- The time bank left to each seated player (RULES.md 8): spent is spent, a restart does
-- not refill it. NULL: the whole bank of the table's settings (never spent, or reset by
-- a change of the setting). It goes with the seat.
ALTER TABLE seats ADD COLUMN time_bank REAL;
