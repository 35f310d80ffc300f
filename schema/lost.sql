-- What perf says the recording lost, one row per record: kind 'lost' is a
-- LOST record (the kernel's ring buffer had no room: n records of any kind
-- dropped on that CPU in (since, time]: the kernel writes a LOST record
-- when the buffer has room again, so time is not when they were lost;
-- since is the time of the previous record perf kept from that CPU, NULL:
-- none, they may have been dropped from the recording's start), kind
-- 'lost_samples' a
-- LOST_SAMPLES record (n samples of event_id dropped; perf record writes
-- the kernel's per-event count once per ring buffer at the end, so time is
-- NULL and cpu comes from the recording's ID_INDEX). perf report --stats
-- counts the first kind as "LOST events" (records) and the second per
-- event as "LOST_SAMPLES events" (their n summed). NULL: not in the file.
CREATE TABLE lost (
  session_id  INTEGER NOT NULL REFERENCES session(id),
  kind        TEXT NOT NULL CHECK (kind IN ('lost', 'lost_samples')),
  time        INTEGER,
  cpu         INTEGER,
  event_id    INTEGER REFERENCES event(id),
  n           INTEGER NOT NULL,
  file_offset INTEGER NOT NULL,
  since       INTEGER
);
CREATE INDEX lost_session ON lost(session_id, kind, time);
