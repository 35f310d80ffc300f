/* `perfdb results` as findings (see results.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/bench/bench_data.h"
#include "analyze/bench/results.h"
#include "lib/alloc.h"
#include "lib/stats.h"

/* The labels loaded and the parameter columns they share. */
struct res {
	struct bench_data *b;
	size_t n;
	char **params;		/* union of the labels' parameter names */
	size_t nparams;
	const char *const *metrics;
	size_t nmetrics;
};

/* param_union(r): every parameter name of every label, first seen first. */
static void param_union(struct res *r)
{
	for (size_t i = 0; i < r->n; i++)
		for (size_t k = 0; k < r->b[i].nparams; k++) {
			size_t j = 0;
			while (j < r->nparams && strcmp(r->params[j], r->b[i].params[k]))
				j++;
			if (j < r->nparams)
				continue;
			r->params = xreallocarray(r->params, r->nparams + 1, sizeof(char *));
			r->params[r->nparams++] = r->b[i].params[k];
		}
}

/* wanted(r, name): whether metric name is asked for. */
static bool wanted(const struct res *r, const char *name)
{
	for (size_t i = 0; i < r->nmetrics; i++)
		if (!strcmp(r->metrics[i], name))
			return true;
	return !r->nmetrics;
}

/* lead_cols(r, t): label and parameter columns; returns the next index. */
static int lead_cols(const struct res *r, struct table *t)
{
	table_col(t, "label", COL_STR, 0);
	for (size_t i = 0; i < r->nparams; i++)
		table_col(t, r->params[i], COL_STR, 0);
	table_null_text(t, "-");
	return 1 + (int)r->nparams;
}

/* lead_cells(r, t, b, cell): the label and the cell's parameter values. */
static void lead_cells(const struct res *r, struct table *t, const struct bench_data *b, size_t cell)
{
	table_set_str(t, 0, b->label);
	for (size_t i = 0; i < r->nparams; i++)
		for (size_t k = 0; k < b->nparams; k++)
			if (!strcmp(b->params[k], r->params[i]))
				table_set_str(t, 1 + (int)i, bd_cell_value(b, cell, k));
}

/* set_or_null(t, c, v): a real, NULL when NaN. */
static void set_or_null(struct table *t, int c, double v)
{
	if (!isnan(v))
		table_set_real(t, c, v);
}

/* failed_in(b, cell): runs of cell (not warm-ups) that did not end well. */
static long long failed_in(const struct bench_data *b, size_t cell)
{
	long long n = 0;
	for (size_t i = 0; i < b->nruns; i++)
		n += b->runs_v[i].cell == (int)cell && !b->runs_v[i].ok && b->runs_v[i].kind != RUN_WARMUP;
	return n;
}

/* results_table(r, d): the headline table. */
static void results_table(const struct res *r, struct doc *d)
{
	static const char *const cols[] = { "boots", "sittings", "runs", "median", "mean", "stddev",
		"stddev_pct", "min", "max", "user_s", "sys_s", "elapsed_s", "failed" };
	static const enum col_type types[] = { COL_INT, COL_INT, COL_INT, COL_REAL, COL_REAL, COL_REAL,
		COL_PCT, COL_REAL, COL_REAL, COL_REAL, COL_REAL, COL_REAL, COL_INT };
	static const int prec[] = { 0, 0, 0, 1, 1, 1, 2, 1, 1, 3, 3, 3, 0 };
	struct table *t = table_new("results", "Results per cell (bare runs that ended well)");
	int c0 = lead_cols(r, t);
	table_col(t, "metric", COL_STR, 0);
	table_col(t, "unit", COL_STR, 0);
	for (int i = 0; i < 13; i++)
		table_col_digits(t, table_col(t, cols[i], types[i], prec[i]), types[i] == COL_REAL ? 4 : 0);
	table_caption(t, "median: the median of each boot's runs, averaged over the boots; mean, "
		      "stddev (and as %% of the mean), min, max over all runs; times are means per run");
	for (size_t i = 0; i < r->n; i++) {
		const struct bench_data *b = &r->b[i];
		for (size_t c = 0; c < b->ncells; c++)
			for (size_t m = 0; m < b->nmetrics; m++) {
				struct bd_stats s;
				double u, sy, w;
				if (!wanted(r, b->metrics[m].name))
					continue;
				bd_stats_of(b, (int)c, (int)m, RUN_BARE, &s);
				bd_times(b, (int)c, RUN_BARE, &u, &sy, &w);
				table_add_row(t);
				lead_cells(r, t, b, c);
				table_set_str(t, c0, b->metrics[m].name);
				table_set_str(t, c0 + 1, b->metrics[m].unit[0] ? b->metrics[m].unit : NULL);
				table_set_int(t, c0 + 2, s.boots);
				table_set_int(t, c0 + 3, s.sittings);
				table_set_int(t, c0 + 4, (long long)s.runs);
				const double v[] = { s.median, s.mean, s.stddev, s.rsd, s.min, s.max, u, sy, w };
				for (int k = 0; k < 9; k++)
					set_or_null(t, c0 + 5 + k, v[k]);
				table_set_int(t, c0 + 14, failed_in(b, c));
			}
	}
	dv_table(doc_findings(d), t);
	doc_set_main(d, "results");
}

/* boots_table(r, d): each boot's median per cell and metric. */
static void boots_table(const struct res *r, struct doc *d)
{
	struct table *t = table_new("boots", "Per boot");
	int c0 = lead_cols(r, t);
	table_col(t, "boot", COL_INT, 0);
	table_col(t, "kernel", COL_STR, 0);
	table_col(t, "build_id", COL_STR, 0);
	table_col(t, "boot_id", COL_STR, 0);
	table_col(t, "metric", COL_STR, 0);
	table_col(t, "runs", COL_INT, 0);
	table_col_digits(t, table_col(t, "median", COL_REAL, 1), 4);
	table_col_digits(t, table_col(t, "mean", COL_REAL, 1), 4);
	for (size_t i = 0; i < r->n; i++) {
		const struct bench_data *b = &r->b[i];
		for (size_t k = 0; k < b->nboots; k++)
			for (size_t c = 0; c < b->ncells; c++)
				for (size_t m = 0; m < b->nmetrics; m++) {
					double *v;
					size_t n = bd_values(b, (int)c, (int)m, RUN_BARE, (int)k, &v);
					if (n && wanted(r, b->metrics[m].name)) {
						table_add_row(t);
						lead_cells(r, t, b, c);
						table_set_int(t, c0, (long long)k + 1);
						table_set_str(t, c0 + 1, b->boots[k].os_release);
						table_set_str(t, c0 + 2, b->boots[k].build_id);
						table_set_str(t, c0 + 3, b->boots[k].boot_id);
						table_set_str(t, c0 + 4, b->metrics[m].name);
						table_set_int(t, c0 + 5, (long long)n);
						table_set_real(t, c0 + 6, stats_median(v, n));
						table_set_real(t, c0 + 7, stats_mean(v, n));
					}
					free(v);
				}
	}
	dv_table(doc_findings(d), t);
}

/* One sitting's machine: what its bare runs that ended well saw. */
struct sit_machine {
	size_t runs, probes;
	double pulse[2][2];	/* int, mem: mean and %stddev over the probes */
	double others_pct, steal_pct;	/* of the CPUs' time, over the runs */
};

/* pct_of(sum, cap): 100 * sum / cap, NaN when cap is 0. */
static double pct_of(double sum, double cap)
{
	return cap > 0 ? 100 * sum / cap : NAN;
}

/* sitting_machine(b, k, o): sitting k's machine. */
static void sitting_machine(const struct bench_data *b, size_t k, struct sit_machine *o)
{
	double *v[2] = { xcalloc(b->nruns + 1, sizeof(double)), xcalloc(b->nruns + 1, sizeof(double)) };
	double others = 0, steal = 0, cap = 0, scap = 0;
	size_t n[2] = { 0, 0 };
	memset(o, 0, sizeof(*o));
	for (size_t i = 0; i < b->nruns; i++) {
		const struct bd_run *r = &b->runs_v[i];
		if (r->sitting != (int)k || r->kind != RUN_BARE || !r->ok)
			continue;
		o->runs++;
		if (r->new_probe && !isnan(r->pulse_int))
			v[0][n[0]++] = r->pulse_int;
		if (r->new_probe && !isnan(r->pulse_mem))
			v[1][n[1]++] = r->pulse_mem;
		double c = r->wall_s * b->boots[r->boot].cpus_online;
		if (!isnan(r->others_s)) {
			others += r->others_s;
			cap += c;
		}
		if (!isnan(r->steal_s)) {
			steal += r->steal_s;
			scap += c;
		}
	}
	for (int j = 0; j < 2; j++) {
		o->pulse[j][0] = stats_mean(v[j], n[j]);
		o->pulse[j][1] = stats_rel_stddev(v[j], n[j]);
		free(v[j]);
	}
	o->probes = n[0];
	o->others_pct = pct_of(others, cap);
	o->steal_pct = pct_of(steal, scap);
}

/* machine_table(r, d): per label and sitting, the machine's pulse and the
 * share other processes and steal took. */
static void machine_table(const struct res *r, struct doc *d)
{
	static const char *const cols[] = { "pulse_int", "pulse_int_stddev_pct", "pulse_mem",
		"pulse_mem_stddev_pct", "others_pct", "steal_pct" };
	static const enum col_type types[] = { COL_REAL, COL_PCT, COL_REAL, COL_PCT, COL_PCT, COL_PCT };
	struct table *t = table_new("sittings", "The machine per sitting (one perfdb bench on one boot)");
	table_col(t, "label", COL_STR, 0);
	table_col(t, "boot", COL_INT, 0);
	table_col(t, "sitting", COL_INT, 0);
	table_col(t, "started", COL_STR, 0);
	table_col(t, "runs", COL_INT, 0);
	table_col(t, "probes", COL_INT, 0);
	for (int i = 0; i < 6; i++)
		table_col(t, cols[i], types[i], 1);
	table_null_text(t, "-");
	table_caption(t, "pulse_int: the integer loop, M iterations/s per CPU; pulse_mem: the memory "
		      "stream, GB/s per CPU (mean of the probes before its rounds, and their %%stddev); "
		      "others, steal: %% of the CPUs' time during its runs that other processes and the "
		      "hypervisor took (bare runs that ended well)");
	for (size_t i = 0; i < r->n; i++)
		for (size_t k = 0; k < r->b[i].nsittings; k++) {
			const struct bd_sitting *s = &r->b[i].sittings[k];
			struct sit_machine m;
			sitting_machine(&r->b[i], k, &m);
			table_add_row(t);
			table_set_str(t, 0, r->b[i].label);
			table_set_int(t, 1, s->boot + 1);
			if (s->number)
				table_set_int(t, 2, s->number);
			table_set_str(t, 3, s->started_at);
			table_set_int(t, 4, (long long)m.runs);
			table_set_int(t, 5, (long long)m.probes);
			const double v[] = { m.pulse[0][0], m.pulse[0][1], m.pulse[1][0], m.pulse[1][1],
					     m.others_pct, m.steal_pct };
			for (int j = 0; j < 6; j++)
				set_or_null(t, 6 + j, v[j]);
		}
	dv_table(doc_findings(d), t);
}

/* has_kind(b, kind): whether b has a run of kind. */
static bool has_kind(const struct bench_data *b, enum run_kind kind)
{
	for (size_t i = 0; i < b->nruns; i++)
		if (b->runs_v[i].kind == kind)
			return true;
	return false;
}

/* perturbation_table(r, d): recorded against bare medians, when any label
 * has recorded runs. */
static void perturbation_table(const struct res *r, struct doc *d)
{
	struct table *t = NULL;
	int c0 = 0;
	for (size_t i = 0; i < r->n; i++) {
		const struct bench_data *b = &r->b[i];
		if (!has_kind(b, RUN_RECORDED))
			continue;
		if (!t) {
			t = table_new("perturbation", "Recorded against bare runs: what recording costs the metric");
			c0 = lead_cols(r, t);
			table_col(t, "metric", COL_STR, 0);
			table_col(t, "bare_runs", COL_INT, 0);
			table_col_digits(t, table_col(t, "bare_median", COL_REAL, 1), 4);
			table_col(t, "recorded_runs", COL_INT, 0);
			table_col_digits(t, table_col(t, "recorded_median", COL_REAL, 1), 4);
			table_col(t, "change_pct", COL_PCT, 2);
		}
		for (size_t c = 0; c < b->ncells; c++)
			for (size_t m = 0; m < b->nmetrics; m++) {
				struct bd_stats bare, rec;
				if (!wanted(r, b->metrics[m].name))
					continue;
				bd_stats_of(b, (int)c, (int)m, RUN_BARE, &bare);
				bd_stats_of(b, (int)c, (int)m, RUN_RECORDED, &rec);
				table_add_row(t);
				lead_cells(r, t, b, c);
				table_set_str(t, c0, b->metrics[m].name);
				table_set_int(t, c0 + 1, (long long)bare.runs);
				set_or_null(t, c0 + 2, bare.median);
				table_set_int(t, c0 + 3, (long long)rec.runs);
				set_or_null(t, c0 + 4, rec.median);
				if (bare.median != 0)
					set_or_null(t, c0 + 5, 100 * (rec.median - bare.median) / bare.median);
			}
	}
	if (t)
		dv_table(doc_findings(d), t);
}

/* failures_table(r, d): the runs that did not end well, when any. */
static void failures_table(const struct res *r, struct doc *d)
{
	struct table *t = NULL;
	int c0 = 0;
	static const char *const kinds[] = { "bare", "recorded", "warmup" };
	for (size_t i = 0; i < r->n; i++)
		for (size_t k = 0; k < r->b[i].nruns; k++) {
			const struct bd_run *u = &r->b[i].runs_v[k];
			if (u->ok)
				continue;
			if (!t) {
				t = table_new("failures", "Runs that failed");
				c0 = lead_cols(r, t);
				table_col(t, "kind", COL_STR, 0);
				table_col(t, "run", COL_INT, 0);
				table_col(t, "boot", COL_INT, 0);
				table_col(t, "status", COL_STR, 0);
				table_col(t, "error", COL_STR, 0);
				table_col(t, "run_id", COL_INT, 0);
			}
			table_add_row(t);
			lead_cells(r, t, &r->b[i], (size_t)u->cell);
			table_set_str(t, c0, kinds[u->kind]);
			table_set_int(t, c0 + 1, u->run);
			table_set_int(t, c0 + 2, u->boot + 1);
			table_set_str(t, c0 + 3, u->status);
			table_set_str(t, c0 + 4, u->error);
			table_set_int(t, c0 + 5, u->id);
		}
	if (t) {
		doc_warn(d, "%zu run%s failed and %s not counted (table failures; bench_run.stdout_tail "
			 "and stderr_tail hold the end of their output)", table_nrows(t),
			 table_nrows(t) == 1 ? "" : "s", table_nrows(t) == 1 ? "is" : "are");
		dv_table(doc_findings(d), t);
	}
}

/* check_metrics(r, err, errlen): every metric asked for was printed. */
static int check_metrics(const struct res *r, char *err, size_t errlen)
{
	for (size_t i = 0; i < r->nmetrics; i++) {
		bool seen = false;
		for (size_t k = 0; k < r->n && !seen; k++)
			seen = bd_metric_index(&r->b[k], r->metrics[i]) >= 0;
		if (!seen) {
			snprintf(err, errlen, "no run printed metric '%s'", r->metrics[i]);
			return -1;
		}
	}
	return 0;
}

/* few_runs_warning(r, d): a cell with fewer than 3 counted runs. */
static void few_runs_warning(const struct res *r, struct doc *d)
{
	for (size_t i = 0; i < r->n; i++)
		for (size_t c = 0; c < r->b[i].ncells; c++)
			for (size_t m = 0; m < r->b[i].nmetrics; m++) {
				struct bd_stats s;
				bd_stats_of(&r->b[i], (int)c, (int)m, RUN_BARE, &s);
				if (s.runs < 3 && wanted(r, r->b[i].metrics[m].name)) {
					doc_warn(d, "some cells have fewer than 3 runs that ended well: their "
						 "spread says little (use --runs 5 or more)");
					return;
				}
			}
}

/* load_label(db, spec, stat, b, err, errlen): the bench of LABEL, or of
 * some of its cells (LABEL:NAME=V,...). 0 or -1. */
static int load_label(sqlite3 *db, const char *spec, const char *stat, struct bench_data *b, char *err,
		      size_t errlen)
{
	const char *colon = strchr(spec, ':');
	char *label = colon ? xstrndup(spec, (size_t)(colon - spec)) : xstrdup(spec);
	int rc = bench_data_load(db, label, stat, b, err, errlen) ? -1 : 0;
	if (!rc && colon)
		rc = bench_data_narrow(b, colon + 1, err, errlen);
	free(label);
	return rc;
}

/* results_findings: see results.h. */
int results_findings(sqlite3 *db, const char *const *labels, size_t nlabels,
		     const char *const *metrics, size_t nmetrics, const char *stat, struct doc *d, char *err,
		     size_t errlen)
{
	struct res r = { .metrics = metrics, .nmetrics = nmetrics };
	char **all = NULL;
	size_t nall = nlabels ? 0 : bench_labels(db, &all);
	const char *const *use = nlabels ? labels : (const char *const *)all;
	int rc = 0;
	r.n = nlabels ? nlabels : nall;
	r.b = xcalloc(r.n + 1, sizeof(*r.b));
	if (!r.n) {
		snprintf(err, errlen, "no benches (perfdb bench -l LABEL ... -- CMD records one)");
		rc = -1;
	}
	for (size_t i = 0; !rc && i < r.n; i++)
		rc = load_label(db, use[i], stat, &r.b[i], err, errlen);
	if (!rc && !(rc = check_metrics(&r, err, errlen))) {
		param_union(&r);
		results_table(&r, d);
		boots_table(&r, d);
		machine_table(&r, d);
		perturbation_table(&r, d);
		failures_table(&r, d);
		few_runs_warning(&r, d);
		bd_stat_note(r.b, r.n, d);
	}
	for (size_t i = 0; i < r.n; i++)
		bench_data_free(&r.b[i]);
	for (size_t i = 0; i < nall; i++)
		free(all[i]);
	free(all);
	free(r.b);
	free(r.params);
	return rc;
}
