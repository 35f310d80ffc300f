-- The sittings of a bench: one `perfdb bench` invocation on one boot, a
-- stretch of runs in which the machine is taken to be unchanged. Runs
-- carry their sitting's number (bench_run.sitting); a new invocation, or
-- a new boot (a new bench row), starts another sitting.
CREATE TABLE bench_sitting (
  bench_id   INTEGER NOT NULL REFERENCES bench(id),
  sitting    INTEGER NOT NULL,   -- 1.. within the bench (the boot)
  started_at TEXT NOT NULL,      -- UTC, ISO 8601
  PRIMARY KEY (bench_id, sitting)
) WITHOUT ROWID;

-- The canary of a `perfdb record -r watch` recording: a variable of
-- perfdb's own, watched beside the user's fields and written a known
-- number of times while the watchpoints were armed. A recording whose
-- canary fell short is not stored (the machine's watchpoints do not
-- fire); one row per watched session that had a canary.
CREATE TABLE watch_canary (
  session_id INTEGER PRIMARY KEY REFERENCES session(id),
  how        TEXT NOT NULL,      -- 'recorded': its event in the recording; 'probe': counted apart
  event      TEXT,               -- perf's event (mem:0xADDR/LEN:w), with 'recorded'
  addr       INTEGER NOT NULL,   -- the canary's address in perfdb's own process
  len        INTEGER NOT NULL,
  pid        INTEGER NOT NULL,   -- the process that wrote it
  writes     INTEGER NOT NULL,   -- writes made while the watchpoints were armed
  seen       INTEGER NOT NULL    -- writes the watchpoint caught
);
