-- From schema version 8 to 9: the format a bench's runs print (--parse),
-- and the distributions of a run or recording (schema/dist.sql follows
-- this file with the new tables, and schema/knob.sql the knobs of --set).
-- Benches stored before read metric lines and set no knob.
ALTER TABLE bench ADD COLUMN parse TEXT;
