-- Benches (perfdb bench): a plan -- a workload command template, a
-- parameter matrix, runs per cell, an order -- run under one label. A bench
-- row is one label on one boot of one kernel: the same label run again on
-- another boot adds a bench row with the same plan, and results pool a
-- label's benches (summarized per boot, then across boots).
CREATE TABLE bench (
  id              INTEGER PRIMARY KEY,
  label           TEXT NOT NULL,
  plan            TEXT NOT NULL,    -- the plan as canonical JSON (what must match to resume)
  argv            TEXT NOT NULL,    -- the command template, a JSON array of strings
  runs            INTEGER NOT NULL, -- counted runs per cell
  warmup          INTEGER NOT NULL, -- warm-up runs per cell, run first, not counted
  run_order       TEXT NOT NULL,    -- 'interleave', 'random' or 'sequential'
  seed            INTEGER,          -- the random order's seed
  recipes         TEXT,             -- -r: the recorded runs' recipes, NULL for none
  record_every    INTEGER,          -- one recorded run per this many counted runs
  timeout_s       REAL,             -- per run, NULL for none
  started_at      TEXT NOT NULL,    -- UTC, ISO 8601: first run of this label on this boot
  hostname        TEXT,
  os_release      TEXT,             -- uname -r
  os_version      TEXT,             -- uname -v
  kernel_build_id TEXT,             -- the running kernel's GNU build id (/sys/kernel/notes)
  boot_id         TEXT NOT NULL,    -- /proc/sys/kernel/random/boot_id
  arch            TEXT,
  cpu_model       TEXT,
  cpus_online     INTEGER,
  mem_total_kb    INTEGER,
  perf_version    TEXT,             -- with -r
  perfdb_version  TEXT,
  parse           TEXT,             -- --parse: the runs' output format, NULL for metric lines
  UNIQUE (label, boot_id)
);

-- The matrix: one row per parameter value, parameters and values in the
-- order given (-p NAME=V1,V2 ...).
CREATE TABLE bench_param (
  bench_id INTEGER NOT NULL REFERENCES bench(id),
  pos      INTEGER NOT NULL,   -- the parameter's place, 0..
  name     TEXT NOT NULL,
  vpos     INTEGER NOT NULL,   -- the value's place, 0..
  value    TEXT NOT NULL,
  PRIMARY KEY (bench_id, pos, vpos)
) WITHOUT ROWID;

-- The cells of the matrix (its cross product, the first parameter varying
-- slowest): one row per cell and parameter.
CREATE TABLE bench_cell (
  bench_id INTEGER NOT NULL REFERENCES bench(id),
  cell     INTEGER NOT NULL,   -- 0..
  name     TEXT NOT NULL,
  value    TEXT NOT NULL,
  PRIMARY KEY (bench_id, cell, name)
) WITHOUT ROWID;

-- One row per finished run (a run stopped by Ctrl-C or a crash leaves
-- none, so a resumed bench runs it again).
CREATE TABLE bench_run (
  id          INTEGER PRIMARY KEY,
  bench_id    INTEGER NOT NULL REFERENCES bench(id),
  cell        INTEGER NOT NULL,
  run         INTEGER NOT NULL,   -- 1.. within the cell and kind
  kind        TEXT NOT NULL,      -- 'bare' (counted), 'recorded' (under perf, -r), 'warmup'
  seq         INTEGER NOT NULL,   -- its place in the bench's order
  argv        TEXT NOT NULL,      -- the command run, a JSON array
  status      TEXT NOT NULL,      -- 'ok', 'failed', 'timeout'
  error       TEXT,               -- why it failed
  exit_status INTEGER,            -- 0..255, 128+N for signal N
  started_ns  INTEGER,            -- CLOCK_REALTIME at its start
  wall_ns     INTEGER,
  user_ns     INTEGER,            -- resource usage of the workload's process tree
  sys_ns      INTEGER,
  max_rss_kb  INTEGER,
  nvcsw       INTEGER,
  nivcsw      INTEGER,
  session_id  INTEGER REFERENCES session(id),  -- the recording of a recorded run
  stdout_tail TEXT,
  stderr_tail TEXT,
  sitting     INTEGER,            -- 1.. within the bench: the invocation that ran it (bench_sitting)
  pulse_int   REAL,               -- the machine's pulse before its round: integer loop, M iterations/s per CPU
  pulse_mem   REAL,               -- and memory streaming, GB/s per CPU (see docs/statistics.md)
  others_cpu_ns INTEGER,          -- CPU time of every other process during the run (/proc/stat less its own)
  steal_ns    INTEGER             -- steal time during the run, NULL where the hypervisor reports none
);

-- The metric lines of a run.
CREATE TABLE run_metric (
  run_id INTEGER NOT NULL REFERENCES bench_run(id),
  name   TEXT NOT NULL,
  value  REAL NOT NULL,
  unit   TEXT,
  better TEXT,                   -- 'higher', 'lower', or NULL
  line   TEXT NOT NULL
);

CREATE INDEX bench_run_bench ON bench_run(bench_id, cell);
CREATE INDEX run_metric_run ON run_metric(run_id);
