-- The straddle (RULES.md 10, issue 32): a player's standing choice to straddle when under
-- the gun is kept with their seat (gone with it when they leave), and each hand keeps the
-- choice of every seat dealt in, so that a restart or a replay posts the same straddle.
ALTER TABLE seats ADD COLUMN straddle INTEGER NOT NULL DEFAULT 0;
ALTER TABLE hand_seats ADD COLUMN straddle INTEGER NOT NULL DEFAULT 0;
