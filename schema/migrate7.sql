-- From schema version 6 to 7: the count of LOST records beside the events
-- they lost, and the table of every LOST and LOST_SAMPLES record
-- (schema/lost.sql follows this file). Sessions imported before keep
-- their totals; their per-CPU and per-event detail needs a new import.
ALTER TABLE session ADD COLUMN nr_lost_records INTEGER;
