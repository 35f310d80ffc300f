-- Typed views of the tracepoints the analyzers use: one row per sample
-- (sample_id = sample.id), columns named as the tracepoint's fields. The
-- fields are stored in the sample row itself, in sample.f1..f7 in the order
-- of the view's columns (one row per sample makes a bulk import about twice
-- as fast as a row in a table of its own); event.tp_table names the view of
-- an event's samples. Code pointers (callsite, callback, func) keep the
-- address and, in *_sym, the kernel symbol as perf prints it (name+0xoff).
-- A field the recording kernel's format lacks is NULL. collect/import/tracepoints.c
-- lists the same columns in the same order.

CREATE VIEW sched_switch(sample_id, prev_comm, prev_pid, prev_prio, prev_state, next_comm, next_pid, next_prio) AS
  SELECT id, f1, f2, f3, f4, f5, f6, f7 FROM sample
  WHERE event_id IN (SELECT id FROM event WHERE tp_table = 'sched_switch');

CREATE VIEW sched_waking(sample_id, comm, pid, prio, target_cpu) AS
  SELECT id, f1, f2, f3, f4 FROM sample
  WHERE event_id IN (SELECT id FROM event WHERE tp_table = 'sched_waking');

CREATE VIEW sched_wakeup(sample_id, comm, pid, prio, target_cpu) AS
  SELECT id, f1, f2, f3, f4 FROM sample
  WHERE event_id IN (SELECT id FROM event WHERE tp_table = 'sched_wakeup');

CREATE VIEW sched_wakeup_new(sample_id, comm, pid, prio, target_cpu) AS
  SELECT id, f1, f2, f3, f4 FROM sample
  WHERE event_id IN (SELECT id FROM event WHERE tp_table = 'sched_wakeup_new');

CREATE VIEW sched_migrate_task(sample_id, comm, pid, prio, orig_cpu, dest_cpu) AS
  SELECT id, f1, f2, f3, f4, f5 FROM sample
  WHERE event_id IN (SELECT id FROM event WHERE tp_table = 'sched_migrate_task');

CREATE VIEW sched_process_fork(sample_id, parent_comm, parent_pid, child_comm, child_pid) AS
  SELECT id, f1, f2, f3, f4 FROM sample
  WHERE event_id IN (SELECT id FROM event WHERE tp_table = 'sched_process_fork');

CREATE VIEW sched_process_exec(sample_id, filename, pid, old_pid) AS
  SELECT id, f1, f2, f3 FROM sample
  WHERE event_id IN (SELECT id FROM event WHERE tp_table = 'sched_process_exec');

CREATE VIEW sched_process_exit(sample_id, comm, pid, prio, group_dead) AS
  SELECT id, f1, f2, f3, f4 FROM sample
  WHERE event_id IN (SELECT id FROM event WHERE tp_table = 'sched_process_exit');

-- reason: 0 task switch, 1 remote shootdown, 2 local shootdown,
-- 3 local mm shootdown, 4 remote IPI send (attempt), 5 remote wrong CPU
CREATE VIEW tlb_flush(sample_id, reason, pages) AS
  SELECT id, f1, f2 FROM sample
  WHERE event_id IN (SELECT id FROM event WHERE tp_table = 'tlb_flush');

CREATE VIEW ipi_send_cpu(sample_id, cpu, callsite, callsite_sym, callback, callback_sym) AS
  SELECT id, f1, f2, f3, f4, f5 FROM sample
  WHERE event_id IN (SELECT id FROM event WHERE tp_table = 'ipi_send_cpu');

-- A table, not a view: one row per target CPU of the mask.
CREATE TABLE ipi_send_cpumask (
  sample_id INTEGER NOT NULL,
  target_cpu INTEGER NOT NULL,
  callsite INTEGER, callsite_sym TEXT,
  callback INTEGER, callback_sym TEXT,
  PRIMARY KEY (sample_id, target_cpu)
) WITHOUT ROWID;

CREATE VIEW csd_queue_cpu(sample_id, cpu, callsite, callsite_sym, func, func_sym, csd) AS
  SELECT id, f1, f2, f3, f4, f5, f6 FROM sample
  WHERE event_id IN (SELECT id FROM event WHERE tp_table = 'csd_queue_cpu');

CREATE VIEW csd_function_entry(sample_id, func, func_sym, csd) AS
  SELECT id, f1, f2, f3 FROM sample
  WHERE event_id IN (SELECT id FROM event WHERE tp_table = 'csd_function_entry');

CREATE VIEW csd_function_exit(sample_id, func, func_sym, csd) AS
  SELECT id, f1, f2, f3 FROM sample
  WHERE event_id IN (SELECT id FROM event WHERE tp_table = 'csd_function_exit');

CREATE VIEW call_function_entry(sample_id, vector) AS
  SELECT id, f1 FROM sample
  WHERE event_id IN (SELECT id FROM event WHERE tp_table = 'call_function_entry');

CREATE VIEW call_function_exit(sample_id, vector) AS
  SELECT id, f1 FROM sample
  WHERE event_id IN (SELECT id FROM event WHERE tp_table = 'call_function_exit');

CREATE VIEW call_function_single_entry(sample_id, vector) AS
  SELECT id, f1 FROM sample
  WHERE event_id IN (SELECT id FROM event WHERE tp_table = 'call_function_single_entry');

CREATE VIEW call_function_single_exit(sample_id, vector) AS
  SELECT id, f1 FROM sample
  WHERE event_id IN (SELECT id FROM event WHERE tp_table = 'call_function_single_exit');

CREATE VIEW mmap_lock_start_locking(sample_id, mm, memcg_id, memcg_path, write) AS
  SELECT id, f1, f2, f3, f4 FROM sample
  WHERE event_id IN (SELECT id FROM event WHERE tp_table = 'mmap_lock_start_locking');

CREATE VIEW mmap_lock_acquire_returned(sample_id, mm, memcg_id, memcg_path, write, success) AS
  SELECT id, f1, f2, f3, f4, f5 FROM sample
  WHERE event_id IN (SELECT id FROM event WHERE tp_table = 'mmap_lock_acquire_returned');

CREATE VIEW mmap_lock_released(sample_id, mm, memcg_id, memcg_path, write) AS
  SELECT id, f1, f2, f3, f4 FROM sample
  WHERE event_id IN (SELECT id FROM event WHERE tp_table = 'mmap_lock_released');

CREATE VIEW exit_mmap(sample_id, mm, mt) AS
  SELECT id, f1, f2 FROM sample
  WHERE event_id IN (SELECT id FROM event WHERE tp_table = 'exit_mmap');

-- Any other tracepoint: its fields as a JSON object.
CREATE VIEW tracepoint(sample_id, fields) AS
  SELECT id, f1 FROM sample
  WHERE event_id IN (SELECT id FROM event WHERE tp_table = 'tracepoint');
