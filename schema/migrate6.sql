-- From schema version 5 to 6: bench_metrics lists a cell's parameters in
-- the order -p gave them (it listed them by name); schema/bench_views.sql
-- follows this file.
DROP VIEW IF EXISTS bench_metrics;
