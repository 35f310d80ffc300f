-- Knobs (perfdb bench --set PATH=TEMPLATE): a file of /sys, /proc/sys or
-- debugfs written before each run of a cell. The templates are part of
-- the plan (bench_set); the original content of each file is saved before
-- the first write of an invocation and marked when it is written back
-- (bench_knob: a row whose restored_at is NULL and whose process is gone
-- is a knob a dead bench left changed, which the next perfdb bench of the
-- database on that machine writes back); each run keeps the values it ran with (run_knob).
CREATE TABLE bench_set (
  bench_id INTEGER NOT NULL REFERENCES bench(id),
  pos      INTEGER NOT NULL,   -- the --set's place, 0..
  path     TEXT NOT NULL,      -- as given
  value    TEXT NOT NULL,      -- the template ({NAME} replaced by the cell's value)
  PRIMARY KEY (bench_id, pos)
) WITHOUT ROWID;

CREATE TABLE bench_knob (
  bench_id    INTEGER NOT NULL REFERENCES bench(id),
  path        TEXT NOT NULL,   -- resolved (realpath)
  original    TEXT NOT NULL,   -- its content before (a sysfs choice list's bracketed word)
  saved_at    TEXT NOT NULL,   -- UTC, ISO 8601
  restored_at TEXT,            -- NULL: not written back yet
  pid         INTEGER NOT NULL,  -- the perfdb bench that changed it
  boot_id     TEXT NOT NULL,   -- and its boot
  machine     TEXT NOT NULL    -- /etc/machine-id (else the hostname): only that machine writes it back
);

CREATE TABLE run_knob (
  run_id INTEGER NOT NULL REFERENCES bench_run(id),
  path   TEXT NOT NULL,        -- resolved
  value  TEXT NOT NULL,        -- what was written before the run
  PRIMARY KEY (run_id, path)
) WITHOUT ROWID;
