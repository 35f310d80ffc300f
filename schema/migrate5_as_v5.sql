-- Follows schema/bench.sql in the step from version 4 to 5: bench.sql is
-- the tables' current form, and these take bench_run back to its form of
-- version 5, so that the later steps apply to it as to any version 5
-- database.
ALTER TABLE bench DROP COLUMN parse;
ALTER TABLE bench_run DROP COLUMN sitting;
ALTER TABLE bench_run DROP COLUMN pulse_int;
ALTER TABLE bench_run DROP COLUMN pulse_mem;
ALTER TABLE bench_run DROP COLUMN others_cpu_ns;
ALTER TABLE bench_run DROP COLUMN steal_ns;
