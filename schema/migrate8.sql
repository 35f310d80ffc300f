-- From schema version 7 to 8: the sittings of a bench and the machine's
-- own pulse beside each run and recording (schema/pulse.sql follows this
-- file with the new tables). Runs and sessions stored before have NULL
-- there: their bench's runs count as one sitting, their pulse is unknown.
ALTER TABLE bench_run ADD COLUMN sitting INTEGER;
ALTER TABLE bench_run ADD COLUMN pulse_int REAL;
ALTER TABLE bench_run ADD COLUMN pulse_mem REAL;
ALTER TABLE bench_run ADD COLUMN others_cpu_ns INTEGER;
ALTER TABLE bench_run ADD COLUMN steal_ns INTEGER;
ALTER TABLE session ADD COLUMN pulse_int REAL;
ALTER TABLE session ADD COLUMN pulse_mem REAL;
ALTER TABLE session ADD COLUMN others_cpu_ns INTEGER;
ALTER TABLE session ADD COLUMN steal_ns INTEGER;
