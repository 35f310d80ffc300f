-- PostgreSQL's text of the views whose SQLite text does not run there
-- (schema/pg_schema.c puts these in place of the same-named views of the
-- other files; tests/integration/pg_schema.sh checks both engines have the
-- same views with the same columns). bench_metrics: group_concat is
-- string_agg, ordered inside the aggregate (a subquery in FROM needs an
-- alias in PostgreSQL 15).
CREATE VIEW bench_metrics AS
SELECT b.label, b.id AS bench_id, b.boot_id, b.os_release, b.kernel_build_id, b.hostname,
       r.cell, (SELECT string_agg(c.name || '=' || c.value, ' ' ORDER BY p.pos) FROM bench_cell c
                JOIN bench_param p ON p.bench_id = c.bench_id AND p.name = c.name AND p.vpos = 0
                WHERE c.bench_id = r.bench_id AND c.cell = r.cell) AS params,
       r.id AS run_id, r.run, r.kind, r.status, m.name AS metric, m.value, m.unit, m.better,
       r.wall_ns, r.user_ns, r.sys_ns, r.session_id
FROM bench_run r JOIN bench b ON b.id = r.bench_id JOIN run_metric m ON m.run_id = r.id;
