/* A label's benches read back for analysis (see bench_data.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/bench/bench_data.h"
#include "lib/alloc.h"
#include "lib/stats.h"
#include "lib/strbuf.h"
#include "schema/db.h"

/* col_str(st, i): column i as a malloc'd string ("" for NULL). */
static char *col_str(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return xstrdup(s ? (const char *)s : "");
}

/* load_boots(db, b): the label's bench rows, oldest first, and the plan
 * of the latest. */
static void load_boots(sqlite3 *db, struct bench_data *b)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT id, boot_id, os_release, os_version, kernel_build_id, "
		"hostname, cpu_model, perf_version, started_at, cpus_online, mem_total_kb, argv, "
		"recipes, run_order, runs, warmup, record_every, coalesce(timeout_s, 0), parse FROM bench "
		"WHERE label = ? ORDER BY id");
	size_t cap = 0;
	sqlite3_bind_text(st, 1, b->label, -1, SQLITE_STATIC);
	while (st && sqlite3_step(st) == SQLITE_ROW) {
		ALLOC_GROW(b->boots, b->nboots + 1, cap);
		struct bd_boot *o = &b->boots[b->nboots++];
		*o = (struct bd_boot){ sqlite3_column_int64(st, 0), col_str(st, 1), col_str(st, 2),
			col_str(st, 3), col_str(st, 4), col_str(st, 5), col_str(st, 6), col_str(st, 7),
			col_str(st, 8), sqlite3_column_int(st, 9), sqlite3_column_int64(st, 10) };
		free(b->argv_json);
		free(b->recipes);
		free(b->run_order);
		free(b->parse);
		b->parse = sqlite3_column_type(st, 18) == SQLITE_NULL ? NULL : col_str(st, 18);
		b->argv_json = col_str(st, 11);
		b->recipes = sqlite3_column_type(st, 12) == SQLITE_NULL ? NULL : col_str(st, 12);
		b->run_order = col_str(st, 13);
		b->runs = sqlite3_column_int(st, 14);
		b->warmup = sqlite3_column_int(st, 15);
		b->record_every = sqlite3_column_int(st, 16);
		b->timeout_s = sqlite3_column_double(st, 17);
	}
	sqlite3_finalize(st);
}

/* load_cells(db, b): the parameters and every cell's values (from the
 * latest bench: every bench of a label has the same plan). */
static void load_cells(sqlite3 *db, struct bench_data *b)
{
	int64_t id = b->boots[b->nboots - 1].bench_id;
	sqlite3_stmt *st = db_prepare(db, "SELECT name, count(*) FROM bench_param WHERE bench_id = ? "
				      "GROUP BY pos ORDER BY pos");
	b->ncells = 1;
	sqlite3_bind_int64(st, 1, id);
	while (st && sqlite3_step(st) == SQLITE_ROW) {
		b->params = xreallocarray(b->params, b->nparams + 1, sizeof(char *));
		b->params[b->nparams++] = col_str(st, 0);
		b->ncells *= (size_t)sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	b->cell_values = xcalloc(b->ncells * b->nparams + 1, sizeof(char *));
	st = db_prepare(db, "SELECT c.cell, p.pos, c.value FROM bench_cell c JOIN bench_param p ON "
			"p.bench_id = c.bench_id AND p.name = c.name AND p.vpos = 0 WHERE c.bench_id = ?");
	sqlite3_bind_int64(st, 1, id);
	while (st && sqlite3_step(st) == SQLITE_ROW) {
		size_t cell = (size_t)sqlite3_column_int64(st, 0), pos = (size_t)sqlite3_column_int64(st, 1);
		if (cell < b->ncells && pos < b->nparams && !b->cell_values[cell * b->nparams + pos])
			b->cell_values[cell * b->nparams + pos] = col_str(st, 2);
	}
	sqlite3_finalize(st);
}

static int boot_of(const struct bench_data *b, int64_t bench);

/* add_sitting(b, boot, number, started): a sitting; its index. */
static int add_sitting(struct bench_data *b, int boot, int number, const char *started)
{
	b->sittings = xreallocarray(b->sittings, b->nsittings + 1, sizeof(*b->sittings));
	b->sittings[b->nsittings] = (struct bd_sitting){ boot, number, xstrdup(started ? started : "") };
	return (int)b->nsittings++;
}

/* load_sittings(db, b): the label's sittings, by boot and number. */
static void load_sittings(sqlite3 *db, struct bench_data *b)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT s.bench_id, s.sitting, s.started_at FROM bench_sitting s "
		"JOIN bench b ON b.id = s.bench_id WHERE b.label = ? ORDER BY s.bench_id, s.sitting");
	sqlite3_bind_text(st, 1, b->label, -1, SQLITE_STATIC);
	while (st && sqlite3_step(st) == SQLITE_ROW) {
		int boot = boot_of(b, sqlite3_column_int64(st, 0));
		add_sitting(b, boot, sqlite3_column_int(st, 1), (const char *)sqlite3_column_text(st, 2));
	}
	sqlite3_finalize(st);
}

/* sitting_of(b, boot, number): the index of a run's sitting, added when
 * the database has no row for it (runs stored before sittings were: one
 * sitting per boot, number 0). */
static int sitting_of(struct bench_data *b, int boot, int number)
{
	for (size_t i = 0; i < b->nsittings; i++)
		if (b->sittings[i].boot == boot && b->sittings[i].number == number)
			return (int)i;
	return add_sitting(b, boot, number, b->boots[boot].started_at);
}

/* col_real(st, i): column i as a double, NaN for NULL. */
static double col_real(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

/* run_machine(b, r, st, i): a run's sitting, pulse and load from columns
 * i .. i + 4 (sitting, pulse_int, pulse_mem, others_cpu_ns, steal_ns). */
static void run_machine(struct bench_data *b, struct bd_run *r, sqlite3_stmt *st, int i)
{
	const struct bd_run *prev = r > b->runs_v ? r - 1 : NULL;
	r->sitting = sitting_of(b, r->boot, sqlite3_column_int(st, i));
	r->pulse_int = col_real(st, i + 1);
	r->pulse_mem = col_real(st, i + 2);
	r->others_s = col_real(st, i + 3) / 1e9;
	r->steal_s = col_real(st, i + 4) / 1e9;
	r->new_probe = !prev || prev->sitting != r->sitting ||
		       !(prev->pulse_int == r->pulse_int && prev->pulse_mem == r->pulse_mem);
}

/* mark_rest_probes(b): the runs whose pulse is their sitting's first
 * probe, in sittings of 3 or more probes. That probe comes before any run
 * and the others each after one, which can leave the machine in another
 * state (docs/statistics.md has a case): the first is left out of the
 * pulse's statistics (new_probe false) so that sittings compare alike. */
static void mark_rest_probes(struct bench_data *b)
{
	for (size_t k = 0; k < b->nsittings; k++) {
		size_t probes = 0, first = b->nruns;
		for (size_t i = 0; i < b->nruns; i++)
			if (b->runs_v[i].sitting == (int)k && b->runs_v[i].new_probe) {
				probes++;
				first = first < b->nruns ? first : i;
			}
		for (size_t i = first; probes >= 3 && i < b->nruns; i++) {
			struct bd_run *r = &b->runs_v[i];
			if (r->sitting != (int)k)
				continue;
			if (i > first && r->new_probe)
				break;
			r->rest_probe = true;
			r->new_probe = false;
		}
	}
}

/* metric_of(b, name, unit, better): the index of a metric, added when new. */
static int metric_of(struct bench_data *b, const char *name, const char *unit, const char *better)
{
	int i = bd_metric_index(b, name);
	if (i >= 0)
		return i;
	b->metrics = xreallocarray(b->metrics, b->nmetrics + 1, sizeof(*b->metrics));
	b->metrics[b->nmetrics] = (struct bd_metric){ xstrdup(name), xstrdup(unit ? unit : ""),
		better && !strcmp(better, "higher") ? 1 : better && !strcmp(better, "lower") ? -1 : 0, false };
	return (int)b->nmetrics++;
}

/* boot_of(b, bench): the index of bench id among the boots. */
static int boot_of(const struct bench_data *b, int64_t bench)
{
	for (size_t i = 0; i < b->nboots; i++)
		if (b->boots[i].bench_id == bench)
			return (int)i;
	return 0;
}

/* kind_of(s): enum run_kind of a bench_run.kind word. */
static enum run_kind kind_of(const char *s)
{
	return !strcmp(s, "recorded") ? RUN_RECORDED : !strcmp(s, "warmup") ? RUN_WARMUP : RUN_BARE;
}

const char *const bd_stats[] = { "mean", "p50", "p90", "p99", "min", "max", "stddev", "bamean95",
				  "bamean99", "count", NULL };

/* load_runs(db, b): every run and its metric values (a distribution's
 * its stat column of run_dist, one of bd_stats: no user text reaches the
 * SQL), in bench and run order. */
static void load_runs(sqlite3 *db, struct bench_data *b)
{
	char sql[1024];
	snprintf(sql, sizeof(sql), "SELECT r.id, r.bench_id, r.cell, r.run, r.kind, r.status, "
		"r.error, r.wall_ns, r.user_ns, r.sys_ns, coalesce(r.session_id, 0), m.name, "
		"CASE WHEN d.run_id IS NULL THEN m.value ELSE d.%s END, "
		"m.unit, m.better, coalesce(r.sitting, 0), r.pulse_int, r.pulse_mem, r.others_cpu_ns, "
		"r.steal_ns, d.run_id IS NOT NULL FROM bench_run r JOIN bench b ON b.id = r.bench_id LEFT JOIN "
		"run_metric m ON m.run_id = r.id LEFT JOIN run_dist d ON d.run_id = m.run_id AND d.name = m.name "
		"WHERE b.label = ? ORDER BY r.bench_id, r.seq, r.id, m.rowid", b->stat);
	sqlite3_stmt *st = db_prepare(db, sql);
	size_t rcap = 0, vcap = 0;
	sqlite3_bind_text(st, 1, b->label, -1, SQLITE_STATIC);
	while (st && sqlite3_step(st) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		if (!b->nruns || b->runs_v[b->nruns - 1].id != id) {
			ALLOC_GROW(b->runs_v, b->nruns + 1, rcap);
			char *status = col_str(st, 5);
			b->runs_v[b->nruns++] = (struct bd_run){ .id = id, .session = sqlite3_column_int64(st, 10),
				.cell = sqlite3_column_int(st, 2), .boot = boot_of(b, sqlite3_column_int64(st, 1)),
				.run = sqlite3_column_int(st, 3), .kind = kind_of((const char *)sqlite3_column_text(st, 4)),
				.ok = !strcmp(status, "ok"), .status = status, .error = col_str(st, 6),
				.wall_s = (double)sqlite3_column_int64(st, 7) / 1e9,
				.user_s = (double)sqlite3_column_int64(st, 8) / 1e9,
				.sys_s = (double)sqlite3_column_int64(st, 9) / 1e9, .first_value = b->nvalues };
			run_machine(b, &b->runs_v[b->nruns - 1], st, 15);
		}
		if (sqlite3_column_type(st, 11) == SQLITE_NULL)
			continue;
		ALLOC_GROW(b->values, b->nvalues + 1, vcap);
		int k = metric_of(b, (const char *)sqlite3_column_text(st, 11), (const char *)sqlite3_column_text(st, 13),
				  (const char *)sqlite3_column_text(st, 14));
		b->metrics[k].dist |= sqlite3_column_int(st, 20) != 0;
		b->values[b->nvalues++] = (struct bd_value){ k, sqlite3_column_double(st, 12) };
		b->runs_v[b->nruns - 1].nvalues++;
	}
	sqlite3_finalize(st);
}

/* bench_data_load: see bench_data.h. */
int bench_data_load(sqlite3 *db, const char *label, const char *stat, struct bench_data *b, char *err,
		    size_t errlen)
{
	memset(b, 0, sizeof(*b));
	b->stat = bd_stats[0];
	for (size_t i = 0; stat && bd_stats[i]; i++)
		if (!strcmp(stat, bd_stats[i]))
			b->stat = bd_stats[i];
	if (stat && strcmp(stat, b->stat)) {
		snprintf(err, errlen, "--stat: no statistic '%s' (mean, p50, p90, p99, min, max, stddev, "
			 "bamean95, bamean99, count)", stat);
		return -1;
	}
	b->label = xstrdup(label);
	load_boots(db, b);
	if (!b->nboots) {
		snprintf(err, errlen, "label '%s' has no bench (perfdb bench -l %s ... records one)", label, label);
		return 1;
	}
	load_cells(db, b);
	load_sittings(db, b);
	load_runs(db, b);
	mark_rest_probes(b);
	return 0;
}

/* bd_cell_stored: see bench_data.h. */
size_t bd_cell_stored(const struct bench_data *b, size_t cell)
{
	return b->cell_orig ? b->cell_orig[cell] : cell;
}

/* bd_stat_note: see bench_data.h. */
void bd_stat_note(const struct bench_data *b, size_t n, struct doc *d)
{
	struct strbuf names = STRBUF_INIT;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t m = 0; m < b[i].nmetrics; m++) {
			const char *name = b[i].metrics[m].name;
			bool seen = false;
			for (size_t j = 0; j < i && !seen; j++)
				seen = bd_metric_index(&b[j], name) >= 0 && b[j].metrics[bd_metric_index(&b[j], name)].dist;
			if (b[i].metrics[m].dist && !seen && k++ < 8)
				sb_printf(&names, "%s%s", k > 1 ? ", " : "", name);
		}
	if (k)
		doc_note(d, "distributions (%s%s: many samples a run) are compared on each run's %s "
			 "(--stat; run_dist holds every run's count, mean, percentiles and BAmean, "
			 "run_sample the samples)", sb_str(&names), k > 8 ? ", ..." : "", b[0].stat);
	sb_free(&names);
}

/* bench_data_free: see bench_data.h. */
void bench_data_free(struct bench_data *b)
{
	for (size_t i = 0; i < b->nboots; i++) {
		struct bd_boot *o = &b->boots[i];
		char *s[] = { o->boot_id, o->os_release, o->os_version, o->build_id, o->hostname,
			      o->cpu_model, o->perf_version, o->started_at };
		for (size_t k = 0; k < sizeof(s) / sizeof(*s); k++)
			free(s[k]);
	}
	for (size_t i = 0; i < b->nparams; i++)
		free(b->params[i]);
	for (size_t i = 0; i < b->ncells * b->nparams; i++)
		free(b->cell_values[i]);
	for (size_t i = 0; i < b->nmetrics; i++) {
		free(b->metrics[i].name);
		free(b->metrics[i].unit);
	}
	for (size_t i = 0; i < b->nruns; i++) {
		free(b->runs_v[i].status);
		free(b->runs_v[i].error);
	}
	for (size_t i = 0; i < b->nsittings; i++)
		free(b->sittings[i].started_at);
	free(b->sittings);
	free(b->boots);
	free(b->params);
	free(b->cell_values);
	free(b->narrow);
	free(b->cell_orig);
	for (size_t i = 0; i < b->nplan_params; i++)
		free(b->plan_params[i]);
	free(b->plan_params);
	free(b->metrics);
	free(b->runs_v);
	free(b->values);
	free(b->label);
	free(b->argv_json);
	free(b->recipes);
	free(b->run_order);
	free(b->parse);
	memset(b, 0, sizeof(*b));
}

/* bd_cell_value: see bench_data.h. */
const char *bd_cell_value(const struct bench_data *b, size_t cell, size_t i)
{
	const char *v = cell < b->ncells && i < b->nparams ? b->cell_values[cell * b->nparams + i] : NULL;
	return v ? v : "";
}

/* bd_metric_index: see bench_data.h. */
int bd_metric_index(const struct bench_data *b, const char *name)
{
	for (size_t i = 0; i < b->nmetrics; i++)
		if (!strcmp(b->metrics[i].name, name))
			return (int)i;
	return -1;
}

/* values_in(b, cell, metric, kind, boot, sitting, out): bd_values of the
 * runs of one boot and one sitting (each < 0: any). */
static size_t values_in(const struct bench_data *b, int cell, int metric, enum run_kind kind, int boot,
			int sitting, double **out)
{
	size_t n = 0;
	*out = xcalloc(b->nruns + 1, sizeof(double));
	for (size_t i = 0; i < b->nruns; i++) {
		const struct bd_run *r = &b->runs_v[i];
		if (r->cell != cell || r->kind != kind || !r->ok || (boot >= 0 && r->boot != boot) ||
		    (sitting >= 0 && r->sitting != sitting))
			continue;
		for (size_t k = 0; k < r->nvalues; k++)
			if (b->values[r->first_value + k].metric == metric)
				(*out)[n++] = b->values[r->first_value + k].value;
	}
	return n;
}

/* bd_values: see bench_data.h. */
size_t bd_values(const struct bench_data *b, int cell, int metric, enum run_kind kind, int boot,
		 double **out)
{
	return values_in(b, cell, metric, kind, boot, -1, out);
}

/* bd_sitting_values: see bench_data.h. */
size_t bd_sitting_values(const struct bench_data *b, int cell, int metric, enum run_kind kind,
			 int sitting, double **out)
{
	return values_in(b, cell, metric, kind, -1, sitting, out);
}

/* bd_load: see bench_data.h. */
bool bd_load(const struct bench_data *b, const struct bd_run *r, double *taken, double *capacity)
{
	int cpus = b->boots[r->boot].cpus_online;
	*taken = *capacity = 0;
	if (isnan(r->others_s) || cpus <= 0 || !(r->wall_s > 0))
		return false;
	*taken = r->others_s + (isnan(r->steal_s) ? 0 : r->steal_s);
	*capacity = r->wall_s * cpus;
	return true;
}

/* bench_labels: see bench_data.h. */
size_t bench_labels(sqlite3 *db, char ***labels)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT label FROM bench GROUP BY label ORDER BY min(id)");
	size_t n = 0, cap = 0;
	*labels = NULL;
	while (st && sqlite3_step(st) == SQLITE_ROW) {
		ALLOC_GROW(*labels, n + 1, cap);
		(*labels)[n++] = col_str(st, 0);
	}
	sqlite3_finalize(st);
	return n;
}

/* bd_stats_of: see bench_data.h. */
void bd_stats_of(const struct bench_data *b, int cell, int metric, enum run_kind kind, struct bd_stats *s)
{
	double *v, *bv, sum = 0;
	size_t n = bd_values(b, cell, metric, kind, -1, &v);
	*s = (struct bd_stats){ .runs = n, .median = NAN, .mean = stats_mean(v, n),
		.stddev = stats_stddev(v, n), .rsd = stats_rel_stddev(v, n), .min = NAN, .max = NAN };
	for (size_t i = 0; i < n; i++) {
		if (!i || v[i] < s->min)
			s->min = v[i];
		if (!i || v[i] > s->max)
			s->max = v[i];
	}
	for (size_t k = 0; k < b->nboots; k++) {
		size_t m = bd_values(b, cell, metric, kind, (int)k, &bv);
		if (m) {
			sum += stats_median(bv, m);
			s->boots++;
		}
		free(bv);
	}
	for (size_t k = 0; k < b->nsittings; k++) {
		s->sittings += bd_sitting_values(b, cell, metric, kind, (int)k, &bv) > 0;
		free(bv);
	}
	if (s->boots)
		s->median = sum / s->boots;
	free(v);
}

/* bd_times: see bench_data.h. */
size_t bd_times(const struct bench_data *b, int cell, enum run_kind kind, double *user, double *sys,
		double *wall)
{
	size_t n = 0;
	*user = *sys = *wall = 0;
	for (size_t i = 0; i < b->nruns; i++) {
		const struct bd_run *r = &b->runs_v[i];
		if (r->cell != cell || r->kind != kind || !r->ok)
			continue;
		*user += r->user_s;
		*sys += r->sys_s;
		*wall += r->wall_s;
		n++;
	}
	if (!n)
		*user = *sys = *wall = NAN;
	else {
		*user /= (double)n;
		*sys /= (double)n;
		*wall /= (double)n;
	}
	return n;
}
