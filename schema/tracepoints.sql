-- Typed tables for the tracepoints the analyzers use: one row per sample
-- (sample_id = sample.id), columns named as the tracepoint's fields. Code
-- pointers (callsite, callback, func) keep the address and, in *_sym, the
-- kernel symbol as perf prints it (name+0xoff). A field the recording
-- kernel's format lacks is NULL. collect/tracepoints.c lists the same columns.

CREATE TABLE sched_switch (
  sample_id INTEGER PRIMARY KEY,
  prev_comm TEXT, prev_pid INTEGER, prev_prio INTEGER, prev_state INTEGER,
  next_comm TEXT, next_pid INTEGER, next_prio INTEGER
);
CREATE TABLE sched_waking (
  sample_id INTEGER PRIMARY KEY,
  comm TEXT, pid INTEGER, prio INTEGER, target_cpu INTEGER
);
CREATE TABLE sched_wakeup (
  sample_id INTEGER PRIMARY KEY,
  comm TEXT, pid INTEGER, prio INTEGER, target_cpu INTEGER
);
CREATE TABLE sched_wakeup_new (
  sample_id INTEGER PRIMARY KEY,
  comm TEXT, pid INTEGER, prio INTEGER, target_cpu INTEGER
);
CREATE TABLE sched_migrate_task (
  sample_id INTEGER PRIMARY KEY,
  comm TEXT, pid INTEGER, prio INTEGER, orig_cpu INTEGER, dest_cpu INTEGER
);
CREATE TABLE sched_process_fork (
  sample_id INTEGER PRIMARY KEY,
  parent_comm TEXT, parent_pid INTEGER, child_comm TEXT, child_pid INTEGER
);
CREATE TABLE sched_process_exec (
  sample_id INTEGER PRIMARY KEY,
  filename TEXT, pid INTEGER, old_pid INTEGER
);
CREATE TABLE sched_process_exit (
  sample_id INTEGER PRIMARY KEY,
  comm TEXT, pid INTEGER, prio INTEGER, group_dead INTEGER
);
-- reason: 0 task switch, 1 remote shootdown, 2 local shootdown,
-- 3 local mm shootdown, 4 remote IPI send (attempt), 5 remote wrong CPU
CREATE TABLE tlb_flush (
  sample_id INTEGER PRIMARY KEY,
  reason INTEGER, pages INTEGER
);
CREATE TABLE ipi_send_cpu (
  sample_id INTEGER PRIMARY KEY,
  cpu INTEGER, callsite INTEGER, callsite_sym TEXT,
  callback INTEGER, callback_sym TEXT
);
-- one row per target CPU of the mask
CREATE TABLE ipi_send_cpumask (
  sample_id INTEGER NOT NULL,
  target_cpu INTEGER NOT NULL,
  callsite INTEGER, callsite_sym TEXT,
  callback INTEGER, callback_sym TEXT,
  PRIMARY KEY (sample_id, target_cpu)
) WITHOUT ROWID;
CREATE TABLE csd_queue_cpu (
  sample_id INTEGER PRIMARY KEY,
  cpu INTEGER, callsite INTEGER, callsite_sym TEXT,
  func INTEGER, func_sym TEXT, csd INTEGER
);
CREATE TABLE csd_function_entry (
  sample_id INTEGER PRIMARY KEY,
  func INTEGER, func_sym TEXT, csd INTEGER
);
CREATE TABLE csd_function_exit (
  sample_id INTEGER PRIMARY KEY,
  func INTEGER, func_sym TEXT, csd INTEGER
);
CREATE TABLE call_function_entry (
  sample_id INTEGER PRIMARY KEY, vector INTEGER
);
CREATE TABLE call_function_exit (
  sample_id INTEGER PRIMARY KEY, vector INTEGER
);
CREATE TABLE call_function_single_entry (
  sample_id INTEGER PRIMARY KEY, vector INTEGER
);
CREATE TABLE call_function_single_exit (
  sample_id INTEGER PRIMARY KEY, vector INTEGER
);
CREATE TABLE mmap_lock_start_locking (
  sample_id INTEGER PRIMARY KEY,
  mm INTEGER, memcg_id INTEGER, memcg_path TEXT, write INTEGER
);
CREATE TABLE mmap_lock_acquire_returned (
  sample_id INTEGER PRIMARY KEY,
  mm INTEGER, memcg_id INTEGER, memcg_path TEXT, write INTEGER, success INTEGER
);
CREATE TABLE mmap_lock_released (
  sample_id INTEGER PRIMARY KEY,
  mm INTEGER, memcg_id INTEGER, memcg_path TEXT, write INTEGER
);
CREATE TABLE exit_mmap (
  sample_id INTEGER PRIMARY KEY,
  mm INTEGER, mt INTEGER
);
-- Any other tracepoint: its fields as a JSON object.
CREATE TABLE tracepoint (
  sample_id INTEGER PRIMARY KEY,
  fields TEXT
);
