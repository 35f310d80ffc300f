/* A bench in the database (see bench_store.h). SQL with bound
 * parameters only; every write in a transaction. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "collect/bench/bench_store.h"
#include "collect/parse/parse_store.h"
#include "lib/alloc.h"
#include "lib/version.h"
#include "schema/db.h"

/* text_of(db, sql, a, b, out, len): the first column of sql's first row
 * (bound to a and b, b may be NULL) into out; 0 found, 1 none. */
static int text_of(sqlite3 *db, const char *sql, const char *a, const char *b, char *out, size_t len)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	int rc = 1;
	sqlite3_bind_text(st, 1, a, -1, SQLITE_STATIC);
	if (b)
		sqlite3_bind_text(st, 2, b, -1, SQLITE_STATIC);
	if (st && sqlite3_step(st) == SQLITE_ROW) {
		snprintf(out, len, "%s", sqlite3_column_text(st, 0) ? (const char *)sqlite3_column_text(st, 0) : "");
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

/* check_label(db, label, plan, f, err, errlen): the label's other benches
 * have the same plan and kernel build. 0 or -1. */
static int check_label(sqlite3 *db, const char *label, const char *plan,
		       const struct sysinfo_facts *f, char *err, size_t errlen)
{
	char other[8192], kernel[300];
	if (!text_of(db, "SELECT plan FROM bench WHERE label = ? AND plan <> ? ORDER BY id DESC LIMIT 1",
		     label, plan, other, sizeof(other))) {
		snprintf(err, errlen, "label '%s' has another plan (%s); give the same command and "
			 "options, or use another label", label, other);
		return -1;
	}
	if (*f->kernel_build_id &&
	    !text_of(db, "SELECT os_release || ' (build id ' || kernel_build_id || ')' FROM bench "
		     "WHERE label = ? AND kernel_build_id <> ? LIMIT 1", label, f->kernel_build_id,
		     kernel, sizeof(kernel))) {
		snprintf(err, errlen, "label '%s' holds runs of kernel %s, this boot runs %s (build id "
			 "%s): its results would pool two kernels; use another label", label, kernel,
			 f->os_release, f->kernel_build_id);
		return -1;
	}
	return 0;
}

/* find(db, label, boot, id, seed): the bench of label on boot; 0 found. */
static int find(sqlite3 *db, const char *label, const char *boot, int64_t *id, uint64_t *seed)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT id, seed FROM bench WHERE label = ? AND boot_id = ?");
	int rc = 1;
	sqlite3_bind_text(st, 1, label, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, boot, -1, SQLITE_STATIC);
	if (st && sqlite3_step(st) == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		*seed = (uint64_t)sqlite3_column_int64(st, 1);
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

/* now_iso(buf, len): the UTC time in ISO 8601. */
static const char *now_iso(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}

/* bind_or_null(st, i, s): s, or NULL for "" or NULL. */
static void bind_or_null(sqlite3_stmt *st, int i, const char *s)
{
	db_bind_text_or_null(st, i, s && *s ? s : NULL);
}

/* insert_bench(db, label, p, plan, f, perf, err, errlen): the bench row;
 * its id, or -1. */
static int64_t insert_bench(sqlite3 *db, const char *label, const struct bench_plan *p, const char *plan,
			    const struct sysinfo_facts *f, const char *perf, char *err, size_t errlen)
{
	sqlite3_stmt *st = db_prepare(db, "INSERT INTO bench (label, plan, argv, runs, warmup, run_order, "
		"seed, recipes, record_every, timeout_s, started_at, hostname, os_release, os_version, "
		"kernel_build_id, boot_id, arch, cpu_model, cpus_online, mem_total_kb, perf_version, "
		"perfdb_version, parse) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
	char when[32], *argv = bench_argv_json(p->argv, p->argc);
	int64_t id = -1;
	sqlite3_bind_text(st, 1, label, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, plan, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, argv, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 4, p->runs);
	sqlite3_bind_int(st, 5, p->warmup);
	sqlite3_bind_text(st, 6, bench_order_names[p->order], -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 7, (int64_t)p->seed);
	bind_or_null(st, 8, p->recipes);
	sqlite3_bind_int(st, 9, p->record_every);
	if (p->timeout_s > 0)
		sqlite3_bind_double(st, 10, p->timeout_s);
	sqlite3_bind_text(st, 11, now_iso(when, sizeof(when)), -1, SQLITE_STATIC);
	const char *texts[] = { f->hostname, f->os_release, f->os_version, f->kernel_build_id, f->boot_id,
				f->arch, f->cpu_model };
	for (int i = 0; i < 7; i++)
		bind_or_null(st, 12 + i, texts[i]);
	sqlite3_bind_int(st, 19, f->cpus_online);
	sqlite3_bind_int64(st, 20, f->mem_total_kb);
	bind_or_null(st, 21, perf);
	sqlite3_bind_text(st, 22, perfdb_version, -1, SQLITE_STATIC);
	bind_or_null(st, 23, p->parse);
	if (!db_step_done(st, err, errlen))
		id = sqlite3_last_insert_rowid(db);
	sqlite3_finalize(st);
	free(argv);
	return id;
}

/* insert_matrix(db, id, p, err, errlen): bench_param and bench_cell rows. */
static int insert_matrix(sqlite3 *db, int64_t id, const struct bench_plan *p, char *err, size_t errlen)
{
	sqlite3_stmt *pr = db_prepare(db, "INSERT INTO bench_param VALUES (?, ?, ?, ?, ?)");
	sqlite3_stmt *cr = db_prepare(db, "INSERT INTO bench_cell VALUES (?, ?, ?, ?)");
	int rc = pr && cr ? 0 : -1;
	for (size_t i = 0; !rc && i < p->nparams; i++)
		for (size_t k = 0; !rc && k < p->params[i].nvalues; k++) {
			sqlite3_bind_int64(pr, 1, id);
			sqlite3_bind_int64(pr, 2, (int64_t)i);
			sqlite3_bind_text(pr, 3, p->params[i].name, -1, SQLITE_STATIC);
			sqlite3_bind_int64(pr, 4, (int64_t)k);
			sqlite3_bind_text(pr, 5, p->params[i].values[k], -1, SQLITE_STATIC);
			rc = db_step_done(pr, err, errlen);
		}
	for (size_t c = 0; !rc && c < bench_ncells(p); c++)
		for (size_t i = 0; !rc && i < p->nparams; i++) {
			sqlite3_bind_int64(cr, 1, id);
			sqlite3_bind_int64(cr, 2, (int64_t)c);
			sqlite3_bind_text(cr, 3, p->params[i].name, -1, SQLITE_STATIC);
			sqlite3_bind_text(cr, 4, bench_cell_value(p, c, i), -1, SQLITE_STATIC);
			rc = db_step_done(cr, err, errlen);
		}
	sqlite3_finalize(pr);
	sqlite3_finalize(cr);
	return rc;
}

/* insert_sets(db, id, p, err, errlen): the bench_set rows (--set). */
static int insert_sets(sqlite3 *db, int64_t id, const struct bench_plan *p, char *err, size_t errlen)
{
	sqlite3_stmt *st = db_prepare(db, "INSERT INTO bench_set VALUES (?, ?, ?, ?)");
	int rc = st ? 0 : -1;
	for (size_t i = 0; !rc && i < p->nsets; i++) {
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int64(st, 2, (int64_t)i);
		sqlite3_bind_text(st, 3, p->sets[i].path, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, p->sets[i].value, -1, SQLITE_STATIC);
		rc = db_step_done(st, err, errlen);
	}
	sqlite3_finalize(st);
	return rc;
}

/* bench_store_open: see bench_store.h. */
int bench_store_open(sqlite3 *db, const char *label, struct bench_plan *p,
		     const struct sysinfo_facts *f, const char *perf_version, int64_t *id,
		     char *err, size_t errlen)
{
	char *plan = bench_plan_json(p);
	int rc = -1;
	if (db_exec(db, "BEGIN IMMEDIATE", err, errlen))
		goto out;
	if (check_label(db, label, plan, f, err, errlen))
		goto rollback;
	if (!find(db, label, f->boot_id, id, &p->seed)) {
		rc = 0;
	} else if ((*id = insert_bench(db, label, p, plan, f, perf_version, err, errlen)) < 0 ||
		   insert_matrix(db, *id, p, err, errlen) || insert_sets(db, *id, p, err, errlen)) {
		goto rollback;
	} else {
		rc = 1;
	}
	if (!db_exec(db, "COMMIT", err, errlen))
		goto out;
	rc = -1;
rollback:
	db_exec(db, "ROLLBACK", NULL, 0);
	rc = -1;
out:
	free(plan);
	return rc;
}

/* load_argv(db, id, p): the template of bench id (its JSON array). */
static void load_argv(sqlite3 *db, int64_t id, struct bench_plan *p)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT j.value FROM bench b, json_each(b.argv) j "
				      "WHERE b.id = ? ORDER BY j.key");
	size_t cap = 0;
	sqlite3_bind_int64(st, 1, id);
	while (st && sqlite3_step(st) == SQLITE_ROW) {
		ALLOC_GROW(p->argv, p->argc + 2, cap);
		p->argv[p->argc++] = xstrdup((const char *)sqlite3_column_text(st, 0));
		p->argv[p->argc] = NULL;
	}
	sqlite3_finalize(st);
}

/* load_params(db, id, p): the matrix of bench id. */
static void load_params(sqlite3 *db, int64_t id, struct bench_plan *p)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT pos, name, value FROM bench_param WHERE bench_id = ? "
				      "ORDER BY pos, vpos");
	sqlite3_bind_int64(st, 1, id);
	while (st && sqlite3_step(st) == SQLITE_ROW) {
		size_t pos = (size_t)sqlite3_column_int64(st, 0);
		if (pos >= p->nparams) {
			ALLOC_GROW(p->params, pos + 1, p->cap);
			p->params[p->nparams++] = (struct bench_param){
				xstrdup((const char *)sqlite3_column_text(st, 1)), NULL, 0 };
		}
		struct bench_param *b = &p->params[p->nparams - 1];
		b->values = xreallocarray(b->values, b->nvalues + 1, sizeof(char *));
		b->values[b->nvalues++] = xstrdup((const char *)sqlite3_column_text(st, 2));
	}
	sqlite3_finalize(st);
}

/* load_sets(db, id, p): the --set templates of bench id. */
static void load_sets(sqlite3 *db, int64_t id, struct bench_plan *p)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT path, value FROM bench_set WHERE bench_id = ? ORDER BY pos");
	sqlite3_bind_int64(st, 1, id);
	while (st && sqlite3_step(st) == SQLITE_ROW) {
		p->sets = xreallocarray(p->sets, p->nsets + 1, sizeof(*p->sets));
		p->sets[p->nsets++] = (struct bench_set){ xstrdup((const char *)sqlite3_column_text(st, 0)),
							  xstrdup((const char *)sqlite3_column_text(st, 1)) };
	}
	sqlite3_finalize(st);
}

/* bench_store_load_plan: see bench_store.h. */
int bench_store_load_plan(sqlite3 *db, const char *label, struct bench_plan *p, char *err,
			  size_t errlen)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT id, runs, warmup, run_order, seed, recipes, "
		"record_every, timeout_s, parse FROM bench WHERE label = ? ORDER BY id DESC LIMIT 1");
	int64_t id = -1;
	bench_plan_free(p);	/* whatever it held is replaced */
	sqlite3_bind_text(st, 1, label, -1, SQLITE_STATIC);
	if (st && sqlite3_step(st) == SQLITE_ROW) {
		const char *order = (const char *)sqlite3_column_text(st, 3);
		id = sqlite3_column_int64(st, 0);
		p->runs = sqlite3_column_int(st, 1);
		p->warmup = sqlite3_column_int(st, 2);
		for (int i = 0; bench_order_names[i]; i++)
			if (order && !strcmp(order, bench_order_names[i]))
				p->order = (enum bench_order)i;
		p->seed = (uint64_t)sqlite3_column_int64(st, 4);
		p->recipes = xstrdup((const char *)sqlite3_column_text(st, 5));
		p->record_every = sqlite3_column_int(st, 6);
		p->timeout_s = sqlite3_column_double(st, 7);
		if (sqlite3_column_type(st, 8) != SQLITE_NULL)
			p->parse = xstrdup((const char *)sqlite3_column_text(st, 8));
	}
	sqlite3_finalize(st);
	if (id < 0) {
		snprintf(err, errlen, "label '%s' has no bench to resume", label);
		return 1;
	}
	load_argv(db, id, p);
	load_params(db, id, p);
	load_sets(db, id, p);
	return 0;
}

/* bench_store_done: see bench_store.h. */
bool *bench_store_done(sqlite3 *db, int64_t id, const struct slot *slots, size_t n)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT 1 FROM bench_run WHERE bench_id = ? AND cell = ? AND "
				      "kind = ? AND run = ? AND status = 'ok' LIMIT 1");
	bool *done = xcalloc(n + 1, sizeof(bool));
	for (size_t i = 0; st && i < n; i++) {
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int64(st, 2, (int64_t)slots[i].cell);
		sqlite3_bind_text(st, 3, slot_kind_names[slots[i].kind], -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 4, slots[i].run);
		done[i] = sqlite3_step(st) == SQLITE_ROW;
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return done;
}

/* bench_store_sitting: see bench_store.h. */
int bench_store_sitting(sqlite3 *db, int64_t id, char *err, size_t errlen)
{
	sqlite3_stmt *st = db_prepare(db, "INSERT INTO bench_sitting (bench_id, sitting, started_at) "
		"SELECT ?1, coalesce(max(sitting), 0) + 1, ?2 FROM bench_sitting WHERE bench_id = ?1 "
		"RETURNING sitting");
	char when[32];
	int n = -1;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_text(st, 2, now_iso(when, sizeof(when)), -1, SQLITE_STATIC);
	if (st && sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	else
		snprintf(err, errlen, "cannot store the sitting: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return n;
}

/* bench_store_last_run: see bench_store.h. */
int bench_store_last_run(sqlite3 *db, int64_t id, const char *kind)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT coalesce(max(run), 0) FROM bench_run WHERE bench_id = ? "
				      "AND kind = ?");
	int n = 0;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC);
	if (st && sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

/* bench_store_boots: see bench_store.h. */
int bench_store_boots(sqlite3 *db, const char *label)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT count(DISTINCT boot_id) FROM bench WHERE label = ?");
	int n = 0;
	sqlite3_bind_text(st, 1, label, -1, SQLITE_STATIC);
	if (st && sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

/* bind_run(st, id, r, argv): the bench_run columns of r. */
static void bind_run(sqlite3_stmt *st, int64_t id, const struct run_row *r, const char *argv)
{
	const struct wl_usage *u = &r->usage;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, (int64_t)r->slot->cell);
	sqlite3_bind_int(st, 3, r->slot->run);
	sqlite3_bind_text(st, 4, slot_kind_names[r->slot->kind], -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, r->seq);
	sqlite3_bind_text(st, 6, argv, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, r->status, -1, SQLITE_STATIC);
	db_bind_text_or_null(st, 8, r->error);
	if (r->exit_status >= 0)
		sqlite3_bind_int(st, 9, r->exit_status);
	sqlite3_bind_int64(st, 10, r->started_ns);
	sqlite3_bind_int64(st, 11, u->wall_ns);
	sqlite3_bind_int64(st, 12, u->user_ns);
	sqlite3_bind_int64(st, 13, u->sys_ns);
	sqlite3_bind_int64(st, 14, u->max_rss_kb);
	sqlite3_bind_int64(st, 15, u->nvcsw);
	sqlite3_bind_int64(st, 16, u->nivcsw);
	if (r->session > 0)
		sqlite3_bind_int64(st, 17, r->session);
	db_bind_text_or_null(st, 18, r->out_tail);
	db_bind_text_or_null(st, 19, r->err_tail);
	if (r->sitting > 0)
		sqlite3_bind_int(st, 20, r->sitting);
	if (isfinite(r->pulse.int_rate))
		sqlite3_bind_double(st, 21, r->pulse.int_rate);
	if (isfinite(r->pulse.mem_rate))
		sqlite3_bind_double(st, 22, r->pulse.mem_rate);
	if (r->load.others_ns != INT64_MIN)
		sqlite3_bind_int64(st, 23, r->load.others_ns);
	if (r->load.steal_ns >= 0)
		sqlite3_bind_int64(st, 24, r->load.steal_ns);
}

/* insert_metrics(db, run, r, err, errlen): the run's metric rows and
 * distributions. */
static int insert_metrics(sqlite3 *db, int64_t run, const struct run_row *r, char *err, size_t errlen)
{
	sqlite3_stmt *st = db_prepare(db, "INSERT INTO run_metric VALUES (?, ?, ?, ?, ?, ?)");
	int rc = st ? 0 : -1;
	if (!r->result) {
		sqlite3_finalize(st);
		return rc;
	}
	for (size_t i = 0; !rc && i < r->result->nmetrics; i++) {
		const struct metric *m = &r->result->metrics[i];
		sqlite3_bind_int64(st, 1, run);
		sqlite3_bind_text(st, 2, m->name, -1, SQLITE_STATIC);
		sqlite3_bind_double(st, 3, m->value);
		bind_or_null(st, 4, m->unit);
		db_bind_text_or_null(st, 5, metric_better_name(m->better));
		sqlite3_bind_text(st, 6, m->line, -1, SQLITE_STATIC);
		rc = db_step_done(st, err, errlen);
	}
	sqlite3_finalize(st);
	return rc ? rc : parse_store_dists(db, PARSE_RUN, run, r->result, err, errlen);
}

/* insert_knobs(db, run, r, err, errlen): the values the run's knobs had. */
static int insert_knobs(sqlite3 *db, int64_t run, const struct run_row *r, char *err, size_t errlen)
{
	sqlite3_stmt *st = db_prepare(db, "INSERT INTO run_knob VALUES (?, ?, ?)");
	int rc = st ? 0 : -1;
	for (size_t i = 0; !rc && i < r->nknobs; i++) {
		sqlite3_bind_int64(st, 1, run);
		sqlite3_bind_text(st, 2, r->knob_paths[i], -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, r->knob_values[i], -1, SQLITE_STATIC);
		rc = db_step_done(st, err, errlen);
	}
	sqlite3_finalize(st);
	return rc;
}

/* bench_store_run: see bench_store.h. */
int bench_store_run(sqlite3 *db, int64_t id, const struct run_row *r, char *err, size_t errlen)
{
	size_t argc = 0;
	while (r->argv[argc])
		argc++;
	char *argv = bench_argv_json(r->argv, argc);
	sqlite3_stmt *st = db_prepare(db, "INSERT INTO bench_run (bench_id, cell, run, kind, seq, argv, "
		"status, error, exit_status, started_ns, wall_ns, user_ns, sys_ns, max_rss_kb, nvcsw, "
		"nivcsw, session_id, stdout_tail, stderr_tail, sitting, pulse_int, pulse_mem, others_cpu_ns, "
		"steal_ns) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
	int rc = db_exec(db, "BEGIN IMMEDIATE", err, errlen);
	if (!rc) {
		bind_run(st, id, r, argv);
		int64_t run = db_step_done(st, err, errlen) ? -1 : sqlite3_last_insert_rowid(db);
		rc = run < 0 || insert_metrics(db, run, r, err, errlen) || insert_knobs(db, run, r, err, errlen) ||
		     db_exec(db, "COMMIT", err, errlen) ? -1 : 0;
		if (rc)
			db_exec(db, "ROLLBACK", NULL, 0);
	}
	sqlite3_finalize(st);
	free(argv);
	return rc;
}
