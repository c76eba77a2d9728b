-- Where a running sit-and-go's blind clock stands, written after every hand,
-- so that a restart resumes the level with the time that was left in it
-- (the time of a hand interrupted by the restart is not counted).
ALTER TABLE tournaments ADD COLUMN level_elapsed REAL NOT NULL DEFAULT 0 CHECK (level_elapsed >= 0);
ALTER TABLE tournaments ADD COLUMN hands_played INTEGER NOT NULL DEFAULT 0 CHECK (hands_played >= 0);
