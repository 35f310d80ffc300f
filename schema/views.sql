-- Views with readable names for people using the sqlite3 shell.

-- Samples with their event name, thread, process and innermost symbol.
CREATE VIEW samples AS
SELECT s.id, s.session_id, e.name AS event, s.time, s.cpu,
       t.pid, t.tid, t.comm, s.ip, sym.name AS symbol, d.path AS dso,
       s.period, s.stack_id
FROM sample s
JOIN event e ON e.id = s.event_id
LEFT JOIN thread t ON t.id = s.thread_id
LEFT JOIN symbol sym ON sym.id = s.symbol_id
LEFT JOIN dso d ON d.id = sym.dso_id;

-- Per session and event: how many samples.
CREATE VIEW event_counts AS
SELECT e.session_id, e.name AS event, e.nr_samples AS samples
FROM event e;

-- Context switches with time and CPU.
CREATE VIEW context_switches AS
SELECT s.session_id, s.time, s.cpu, w.prev_comm, w.prev_pid, w.prev_state,
       w.next_comm, w.next_pid
FROM sched_switch w JOIN sample s ON s.id = w.sample_id;

-- TLB flushes with their reason spelled out.
CREATE VIEW tlb_flushes AS
SELECT s.session_id, s.time, s.cpu, t.tid, f.reason,
       CASE f.reason WHEN 0 THEN 'task_switch' WHEN 1 THEN 'remote_shootdown'
         WHEN 2 THEN 'local_shootdown' WHEN 3 THEN 'local_mm_shootdown'
         WHEN 4 THEN 'remote_send_ipi' WHEN 5 THEN 'remote_wrong_cpu'
         ELSE 'other' END AS reason_name,
       f.pages
FROM tlb_flush f JOIN sample s ON s.id = f.sample_id
LEFT JOIN thread t ON t.id = s.thread_id;

-- IPIs, one row per target CPU, from both ipi tracepoints.
CREATE VIEW ipis AS
SELECT s.session_id, s.time, s.cpu AS sender_cpu, i.cpu AS target_cpu,
       i.callsite_sym, i.callback_sym
FROM ipi_send_cpu i JOIN sample s ON s.id = i.sample_id
UNION ALL
SELECT s.session_id, s.time, s.cpu, m.target_cpu, m.callsite_sym, m.callback_sym
FROM ipi_send_cpumask m JOIN sample s ON s.id = m.sample_id;

-- Call stacks as text, innermost frame first (recursive over the trie).
CREATE VIEW stack_text AS
WITH RECURSIVE walk(stack_id, node, depth, text) AS (
  SELECT st.id, st.parent_id, 0, sym.name
  FROM stack st JOIN symbol sym ON sym.id = st.symbol_id
  UNION ALL
  SELECT w.stack_id, st.parent_id, w.depth + 1, w.text || ' <- ' || sym.name
  FROM walk w JOIN stack st ON st.id = w.node
  JOIN symbol sym ON sym.id = st.symbol_id
)
SELECT stack_id, text FROM walk WHERE node IS NULL;
