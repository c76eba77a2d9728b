-- Whether a settled hand's result is yet to be seen posted in its table's channel
-- (issue 33): 1 from the settlement's commit until Discord confirms the result
-- message, then 0. After a restart, a table posts then the results of its settled
-- hands that still say 1 after the last one that says 0 (bot/storage/result_posts.py).
-- 0 for hands settled before: their results were posted.
ALTER TABLE hands ADD COLUMN result_pending INTEGER NOT NULL DEFAULT 0;
-- The few hands still pending, found without reading the others (at each start).
CREATE INDEX hands_result_pending ON hands (table_id, number) WHERE result_pending = 1;
