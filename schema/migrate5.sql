-- From schema version 4 to 5: the bench tables (schema/bench.sql follows
-- this file) and the metric lines' unit and better.
ALTER TABLE workload_metric ADD COLUMN unit TEXT;
ALTER TABLE workload_metric ADD COLUMN better TEXT;
