-- The views of the bench tables (schema/bench.sql): every metric of every
-- finished run, with its label, boot, kernel and cell ("cpus=2 mm=shared",
-- the parameters in the order -p gave them).
CREATE VIEW bench_metrics AS
SELECT b.label, b.id AS bench_id, b.boot_id, b.os_release, b.kernel_build_id, b.hostname,
       r.cell, (SELECT group_concat(kv, ' ') FROM
                  (SELECT c.name || '=' || c.value AS kv FROM bench_cell c
                   JOIN bench_param p ON p.bench_id = c.bench_id AND p.name = c.name AND p.vpos = 0
                   WHERE c.bench_id = r.bench_id AND c.cell = r.cell ORDER BY p.pos)) AS params,
       r.id AS run_id, r.run, r.kind, r.status, m.name AS metric, m.value, m.unit, m.better,
       r.wall_ns, r.user_ns, r.sys_ns, r.session_id
FROM bench_run r JOIN bench b ON b.id = r.bench_id JOIN run_metric m ON m.run_id = r.id;
