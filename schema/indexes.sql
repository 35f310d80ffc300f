-- Indexes, built after each bulk load (CREATE ... IF NOT EXISTS). Samples
-- need none: a session's samples are one contiguous id range in time order
-- (session.first_sample_id .. last_sample_id), and tracepoint rows share
-- their sample's id.
CREATE INDEX IF NOT EXISTS thread_session_tid ON thread(session_id, tid);
CREATE INDEX IF NOT EXISTS process_session_pid ON process(session_id, pid);
CREATE INDEX IF NOT EXISTS stack_parent ON stack(parent_id);
CREATE INDEX IF NOT EXISTS symbol_dso ON symbol(dso_id);
CREATE INDEX IF NOT EXISTS event_session ON event(session_id);
CREATE INDEX IF NOT EXISTS mmap_session ON mmap(session_id);
