-- Distributions: a metric with many samples in one run (one per fault,
-- per wakeup: "metric=NAME sample=V" lines, or a format such as thpscale
-- that yields them). Each run keeps every sample (run_sample) and their
-- summary (run_dist); its run_metric row of that name holds the mean, so
-- that results and report compare runs on it unless told another
-- statistic (--stat). Samples are kept one a row, exact: a percentile of
-- a run can always be recomputed from them (see docs/schema.md for the
-- cost). Recordings (perfdb record) keep theirs the same way in
-- workload_dist and workload_sample, beside workload_metric.
CREATE TABLE run_dist (
  run_id   INTEGER NOT NULL REFERENCES bench_run(id),
  name     TEXT NOT NULL,
  unit     TEXT,
  better   TEXT,                 -- 'higher', 'lower', or NULL
  line     TEXT NOT NULL,        -- the first output line a sample came from
  count    INTEGER NOT NULL,
  mean     REAL NOT NULL,
  stddev   REAL NOT NULL,        -- the sample's (n - 1); 0 for one sample
  min      REAL NOT NULL,
  p50      REAL NOT NULL,        -- percentile P: the value of rank max(1, floor(count * P / 100)), ascending
  p90      REAL NOT NULL,
  p99      REAL NOT NULL,
  max      REAL NOT NULL,
  bamean95 REAL NOT NULL,        -- the mean of the best 95% (the lowest unless better = 'higher'), as mmtests' BAmean-95
  bamean99 REAL NOT NULL,
  PRIMARY KEY (run_id, name)
) WITHOUT ROWID;

CREATE TABLE run_sample (
  run_id INTEGER NOT NULL REFERENCES bench_run(id),
  name   TEXT NOT NULL,
  seq    INTEGER NOT NULL,       -- 1.. in the order the run printed them
  value  REAL NOT NULL,
  PRIMARY KEY (run_id, name, seq)
) WITHOUT ROWID;

CREATE TABLE workload_dist (
  session_id INTEGER NOT NULL REFERENCES session(id),
  name     TEXT NOT NULL,
  unit     TEXT,
  better   TEXT,
  line     TEXT NOT NULL,
  count    INTEGER NOT NULL,
  mean     REAL NOT NULL,
  stddev   REAL NOT NULL,
  min      REAL NOT NULL,
  p50      REAL NOT NULL,
  p90      REAL NOT NULL,
  p99      REAL NOT NULL,
  max      REAL NOT NULL,
  bamean95 REAL NOT NULL,
  bamean99 REAL NOT NULL,
  PRIMARY KEY (session_id, name)
) WITHOUT ROWID;

CREATE TABLE workload_sample (
  session_id INTEGER NOT NULL REFERENCES session(id),
  name       TEXT NOT NULL,
  seq        INTEGER NOT NULL,
  value      REAL NOT NULL,
  PRIMARY KEY (session_id, name, seq)
) WITHOUT ROWID;
