/* Unit tests that pin the numbers of perfdb report's results and of
 * perfdb results (analyze/report/report_headline.c, analyze/bench/
 * bench_data.c, analyze/bench/results.c) on benches written here row by
 * row, every reference value worked out here from the rows themselves
 * (tests/unit/ref_stats.h: means, variances, medians, Welch's interval
 * with its own t quantile; none of it from lib/stats.c). Cases:
 * Bonferroni's family (metrics x cells), each row's interval, mark and
 * verdict, a negative base mean, a base mean of 0; the units a row is
 * tested on, on both sides of each threshold (3 boots a side for the
 * boots' means, 2 sittings for the sittings' means, 2 units to test at
 * all, spread on one side), the means and medians shown; a boot whose
 * runs in a cell all failed (the median of the boots with runs in the
 * cell); the machine's verdicts; and perfdb results' tables. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/unit/db_util.h"
#include "analyze/bench/results.h"
#include "analyze/report/report.h"
#include "lib/doc.h"
#include "lib/table.h"
#include "schema/db.h"
#include "tests/unit/ref_stats.h"
#include "tests/unit/tap.h"

static sqlite3 *db;

/* --- the database ------------------------------------------------------- */

/* sql(text, types, ...): one statement with bound parameters (types: 'i'
 * int64, 'd' double, 's' text, 'n' NULL, one letter per '?'); its last
 * rowid; aborts on error. */
static int64_t sql(const char *text, const char *types, ...)
{
	va_list ap;
	va_start(ap, types);
	int64_t id = db_vsql(db, text, types, ap);
	va_end(ap);
	return id;
}

/* bench(label, boot, cells): a bench row of label on boot (its boot_id)
 * with parameter c of the comma-separated values cells ("": none), 2 CPUs
 * online; returns its id. */
static int64_t bench(const char *label, const char *boot, const char *cells)
{
	int64_t id = sql("INSERT INTO bench (label, plan, argv, runs, warmup, run_order, started_at, boot_id, "
			 "cpus_online, os_release) VALUES (?, '{}', '[\"w\"]', 3, 0, 'interleave', "
			 "'2025-01-01T00:00:00Z', ?, 2, '6.1')", "ss", label, boot);
	char buf[128];
	snprintf(buf, sizeof(buf), "%s", cells);
	int k = 0;
	for (char *v = strtok(buf, ","); v; v = strtok(NULL, ","), k++) {
		sql("INSERT INTO bench_param VALUES (?, 0, 'c', ?, ?)", "iis", id, (int64_t)k, v);
		sql("INSERT INTO bench_cell VALUES (?, ?, 'c', ?)", "iis", id, (int64_t)k, v);
	}
	return id;
}

/* A run: its bench, cell, sitting (0: none stored), kind, status, wall
 * time (s), pulse (NaN: none), others' CPU time and steal (s, NaN: none). */
struct run {
	int64_t bench;
	int cell, sitting;
	const char *kind, *status;
	double wall, pulse, others, steal;
};

/* run(r, number): the run's row; returns its id. */
static int64_t run(const struct run *r, int number)
{
	static int64_t seq;
	int64_t id = sql("INSERT INTO bench_run (bench_id, cell, run, kind, seq, argv, status, wall_ns, user_ns, "
			 "sys_ns, sitting) VALUES (?, ?, ?, ?, ?, '[\"w\"]', ?, ?, 1000000, 2000000, ?)", "iiisisii",
			 r->bench, (int64_t)r->cell, (int64_t)number, r->kind, ++seq, r->status,
			 (int64_t)(r->wall * 1e9), (int64_t)r->sitting);
	if (!r->sitting)
		sql("UPDATE bench_run SET sitting = NULL WHERE id = ?", "i", id);
	if (!isnan(r->pulse))
		sql("UPDATE bench_run SET pulse_int = ?, pulse_mem = ? WHERE id = ?", "ddi", r->pulse, r->pulse / 10, id);
	if (!isnan(r->others))
		sql("UPDATE bench_run SET others_cpu_ns = ? WHERE id = ?", "ii", (int64_t)(r->others * 1e9), id);
	if (!isnan(r->steal))
		sql("UPDATE bench_run SET steal_ns = ? WHERE id = ?", "ii", (int64_t)(r->steal * 1e9), id);
	return id;
}

/* metric(run, name, value, unit, better): a metric value of a run. */
static void metric(int64_t run_id, const char *name, double value, const char *unit, const char *better)
{
	sql("INSERT INTO run_metric VALUES (?, ?, ?, ?, ?, 'line')", "isdss", run_id, name, value, unit, better);
}

/* runs(r, first, v, n, name, unit, better): n runs like r numbered first..,
 * each with one value of metric name. */
static void runs(const struct run *r, int first, const double *v, size_t n, const char *name, const char *unit,
		 const char *better)
{
	for (size_t i = 0; i < n; i++)
		metric(run(r, first + (int)i), name, v[i], unit, better);
}

/* sitting(bench, n): sitting n of a bench. */
static void sitting(int64_t bench_id, int n)
{
	sql("INSERT INTO bench_sitting VALUES (?, ?, '2025-01-01T00:00:00Z')", "ii", bench_id, (int64_t)n);
}

/* --- reading findings ---------------------------------------------------- */

/* report(base, new, d): the report of base against new into a new *d. */
static bool report(const char *base, const char *new, const char *const *metrics, size_t nmetrics,
		   struct doc **d)
{
	struct report_opts o = { .base = base, .new = (const char *[]){ new }, .nnew = 1, .metrics = metrics,
				 .nmetrics = nmetrics, .db_path = "t.db" };
	char err[256] = "";
	*d = doc_new("report");
	if (!ok(!report_findings(db, &o, *d, err, sizeof(err)), "report %s against %s%s%s", new, base,
		*err ? ": " : "", err))
		return false;
	return true;
}

/* row_of(t, c): the row of table t whose column c has value cell (NULL:
 * the first row), or -1. */
static long row_of(const struct table *t, const char *cell)
{
	int col = table_find_col(t, "c");
	for (size_t i = 0; t && i < table_nrows(t); i++)
		if (!cell || (col >= 0 && table_cell(t, i, col)->kind == CELL_STR &&
			      !strcmp(table_cell(t, i, col)->v.s, cell)))
			return (long)i;
	return -1;
}

/* real(t, row, col): a real (or integer) cell, NaN when null or absent. */
static double real(const struct table *t, long row, const char *col)
{
	int c = t ? table_find_col(t, col) : -1;
	if (row < 0 || c < 0)
		return NAN;
	const struct cell *x = table_cell(t, (size_t)row, c);
	return x->kind == CELL_REAL ? x->v.r : x->kind == CELL_INT ? (double)x->v.i : NAN;
}

/* str(t, row, col): a string cell, "(null)" when not one. */
static const char *str(const struct table *t, long row, const char *col)
{
	int c = t ? table_find_col(t, col) : -1;
	if (row < 0 || c < 0 || table_cell(t, (size_t)row, c)->kind != CELL_STR)
		return "(null)";
	return table_cell(t, (size_t)row, c)->v.s;
}

/* near(got, want, what): |got - want| within 1e-9 of want's size. */
static bool near(double got, double want)
{
	return fabs(got - want) <= 1e-9 * fmax(1, fabs(want));
}

/* is_near(got, want, ...): one check of near(). */
#define is_near(got, want, ...) do { double _g = (got), _w = (want); \
	if (!ok(near(_g, _w), __VA_ARGS__)) printf("#   got %.12g, want %.12g\n", _g, _w); } while (0)

/* scalar(d, key): a number of the report's findings, NaN when absent. */
static double scalar(const struct doc *d, const char *key)
{
	const struct dval *v = dv_get(doc_findings_c(d), key);
	return v && (dv_kind(v) == DV_INT || dv_kind(v) == DV_REAL) ? dv_real_of(v) : NAN;
}

/* summary_has(d, text): a summary line of d starts with text. */
static bool summary_has(const struct doc *d, const char *text)
{
	const struct table *t = doc_table(d, "summary");
	for (size_t i = 0; t && i < table_nrows(t); i++)
		if (table_cell(t, i, 0)->kind == CELL_STR && !strncmp(table_cell(t, i, 0)->v.s, text, strlen(text)))
			return true;
	return false;
}

/* The expectation of one results row tested on units a[0..na), b[0..nb). */
struct want {
	const char *metric, *cell;
	const double *a, *b;
	size_t na, nb;
	int better;		/* +1 higher, -1 lower, 0 none */
	const char *on;		/* "runs", "sittings", "boots" */
	double level;
};

/* check_row(d, w): the row's means, %change, interval (in % and in the
 * unit), significance, mark, verdict and summary line. */
static void check_row(const struct doc *d, const struct want *w)
{
	char name[64], what[96], line[256];
	snprintf(name, sizeof(name), "metric_%s", w->metric);
	snprintf(what, sizeof(what), "%s %s", w->metric, w->cell ? w->cell : "");
	const struct table *t = doc_table(d, name);
	long r = row_of(t, w->cell);
	double ma = ref_mean(w->a, w->na), mb = ref_mean(w->b, w->nb), lo, hi;
	ref_welch(w->a, w->na, w->b, w->nb, w->level, &lo, &hi);
	bool sig = lo > 0 || hi < 0;
	int dir = (mb > ma) - (mb < ma);
	const char *verdict = !sig ? "" : !w->better ? (dir > 0 ? "higher" : "lower") :
			      dir == w->better ? "improvement" : "regression";
	if (!ok(r >= 0, "%s: a results row", what))
		return;
	is_near(real(t, r, "base"), ma, "%s: base is the mean of its units", what);
	is_near(real(t, r, "new"), mb, "%s: new is the mean of its units", what);
	is_str(str(t, r, "tested_on"), w->on, "%s: tested on the %s", what, w->on);
	if (ma != 0) {
		is_near(real(t, r, "change_pct"), 100 * (mb - ma) / fabs(ma), "%s: %%change of the means", what);
		is_near(real(t, r, "ci_low_pct"), 100 * lo / fabs(ma), "%s: interval's low end, %% of base", what);
		is_near(real(t, r, "ci_high_pct"), 100 * hi / fabs(ma), "%s: interval's high end", what);
	} else {
		ok(isnan(real(t, r, "change_pct")) && isnan(real(t, r, "ci_low_pct")), "%s: base 0, no %%", what);
	}
	is_near(real(t, r, "diff_low"), lo, "%s: the difference's interval, low end, in the unit", what);
	is_near(real(t, r, "diff_high"), hi, "%s: ... high end", what);
	is_int((long long)real(t, r, "significant"), sig, "%s: significant %s", what, sig ? "yes" : "no");
	is_str(str(t, r, "mark"), sig ? "*" : "", "%s: marked when significant", what);
	is_str(str(t, r, "verdict"), verdict, "%s: verdict '%s'", what, verdict);
	if (!sig)
		return;
	char cell[48] = "";
	if (w->cell)
		snprintf(cell, sizeof(cell), ", c=%s", w->cell);
	if (ma != 0)
		snprintf(line, sizeof(line), "%s%s: %+.2f%% (95%% interval %+.2f%%..%+.2f%%), %s;", w->metric,
			 cell, 100 * (mb - ma) / fabs(ma), 100 * lo / fabs(ma), 100 * hi / fabs(ma), verdict);
	else
		snprintf(line, sizeof(line), "%s%s: from 0 to %.4g", w->metric, cell, mb);
	ok(summary_has(d, line), "%s: summary line '%s'", what, line);
}

/* --- the cases ------------------------------------------------------------ */

static const struct run RUN = { .kind = "bare", .status = "ok", .wall = 1, .pulse = NAN, .others = NAN,
				.steal = NAN };

/* Family: 3 metrics (lower-better ms, higher-better rate, a negative
 * offset of no direction) x 3 cells, 5 runs a side. */
static const double fam_x[2][3][5] = {
	{ { 11.0, 11.3, 10.8, 11.5, 10.9 }, { 12.0, 12.2, 11.9, 12.4, 12.1 }, { 13.0, 13.9, 12.2, 13.5, 12.6 } },
	{ { 11.6, 11.9, 11.5, 12.0, 11.7 }, { 12.1, 12.3, 11.8, 12.6, 12.0 }, { 12.1, 12.4, 11.9, 12.2, 12.0 } },
};
static const double fam_y[2][3][5] = {
	{ { 1005, 997, 1008, 994, 1002 }, { 2010, 1990, 2004, 1996, 2001 }, { 3000, 3100, 2950, 3050, 2990 } },
	{ { 1025, 1019, 1031, 1020, 1022 }, { 2009, 1993, 2001, 2003, 1999 }, { 3010, 3150, 2900, 3090, 3060 } },
};
static const double fam_z[2][3][5] = {
	{ { -20.1, -19.8, -20.4, -20.0, -19.7 }, { -5.0, -5.2, -4.9, -5.1, -4.8 }, { -1.0, -1.1, -0.9, -1.2, -0.8 } },
	{ { -18.1, -17.9, -18.3, -18.0, -17.8 }, { -5.1, -5.0, -4.8, -5.3, -4.9 }, { -1.5, -1.6, -1.4, -1.7, -1.3 } },
};

/* build_family(): labels fam_a and fam_b. */
static void build_family(void)
{
	static const char *const cells[] = { "1", "2", "3" };
	for (int s = 0; s < 2; s++) {
		struct run r = RUN;
		r.bench = bench(s ? "fam_b" : "fam_a", s ? "boot-fb" : "boot-fa", "1,2,3");
		for (int c = 0; c < 3; c++)
			for (int i = 0; i < 5; i++) {
				r.cell = c;
				int64_t id = run(&r, i + 1);
				metric(id, "x", fam_x[s][c][i], "ms", "lower");
				metric(id, "y", fam_y[s][c][i], "ops/s", "higher");
				metric(id, "z", fam_z[s][c][i], "", NULL);
			}
		(void)cells;
	}
}

/* test_family: every row of 3 metrics x 3 cells, each at level 1 - 0.05/9. */
static void test_family(void)
{
	static const char *const cells[] = { "1", "2", "3" };
	static const char *const one[] = { "y" };
	struct doc *d;
	if (!report("fam_a", "fam_b", NULL, 0, &d))
		return;
	is_int((long long)scalar(d, "results_rows"), 9, "Bonferroni's family: 3 metrics x 3 cells = 9 rows");
	is_near(scalar(d, "row_confidence"), 1 - 0.05 / 9, "each row at 1 - 0.05 / 9");
	for (int c = 0; c < 3; c++) {
		struct want w = { "x", cells[c], fam_x[0][c], fam_x[1][c], 5, 5, -1, "runs", 1 - 0.05 / 9 };
		check_row(d, &w);
		w = (struct want){ "y", cells[c], fam_y[0][c], fam_y[1][c], 5, 5, 1, "runs", 1 - 0.05 / 9 };
		check_row(d, &w);
		w = (struct want){ "z", cells[c], fam_z[0][c], fam_z[1][c], 5, 5, 0, "runs", 1 - 0.05 / 9 };
		check_row(d, &w);
	}
	const struct table *t = doc_table(d, "metric_x");
	long r = row_of(t, "3");
	is_near(real(t, r, "base_stddev_pct"), 100 * sqrt(ref_var(fam_x[0][2], 5)) / ref_mean(fam_x[0][2], 5),
		"x 3: base %%stddev of the runs");
	is_near(real(t, r, "new_stddev_pct"), 100 * sqrt(ref_var(fam_x[1][2], 5)) / ref_mean(fam_x[1][2], 5),
		"x 3: new %%stddev of the runs");
	is_near(real(t, r, "base_median"), ref_median(fam_x[0][2], 5), "x 3: base median");
	ok(real(t, r, "base_runs") == 5 && real(t, r, "new_runs") == 5 && real(t, r, "base_boots") == 1 &&
	   real(t, r, "base_sittings") == 1, "x 3: 5 runs, 1 boot, 1 sitting a side");
	t = doc_table(d, "metric_z");
	r = row_of(t, "1");
	is_near(real(t, r, "base_stddev_pct"), 100 * sqrt(ref_var(fam_z[0][0], 5)) / 20.0,
		"z 1: the %%stddev of a negative mean is positive");
	doc_free(d);
	if (!report("fam_a", "fam_b", one, 1, &d))
		return;
	is_int((long long)scalar(d, "results_rows"), 3, "--metric y: 1 metric x 3 cells = 3 rows");
	struct want w = { "y", "1", fam_y[0][0], fam_y[1][0], 5, 5, 1, "runs", 1 - 0.05 / 3 };
	check_row(d, &w);
	doc_free(d);
}

/* Boots and sittings: label PREFIX_a and PREFIX_b, nboots boots of 2
 * sittings of 2 runs (the first boot's first sitting 3), one cell; the
 * values v[side][boot][sitting][run]. */
static const double boot_v[2][3][2][3] = {
	{ { { 10.0, 10.4, 9.2 }, { 10.2, 10.1 } }, { { 11.0, 10.6 }, { 10.8, 10.9 } }, { { 9.6, 9.9 }, { 10.3, 9.7 } } },
	{ { { 12.1, 11.8, 12.9 }, { 12.0, 12.3 } }, { { 11.2, 11.6 }, { 11.9, 11.5 } }, { { 12.6, 12.2 }, { 12.4, 12.8 } } },
};

/* build_boots(prefix, nboots): the labels. */
static void build_boots(const char *prefix, int nboots)
{
	for (int s = 0; s < 2; s++)
		for (int k = 0; k < nboots; k++) {
			char label[32], boot[48];
			snprintf(label, sizeof(label), "%s_%c", prefix, s ? 'b' : 'a');
			snprintf(boot, sizeof(boot), "%s-%d", label, k);
			struct run r = RUN;
			r.bench = bench(label, boot, "");
			for (int j = 0; j < 2; j++) {
				r.sitting = j + 1;
				sitting(r.bench, j + 1);
				runs(&r, 1 + 3 * j, boot_v[s][k][j], k == 0 && j == 0 ? 3 : 2, "x", "ms", "lower");
			}
		}
}

/* units(side, nboots, by_boot, out): the units of one side: each boot's
 * mean (by_boot) or each sitting's; returns their number. */
static size_t units(int s, int nboots, bool by_boot, double *out)
{
	size_t n = 0;
	for (int k = 0; k < nboots; k++) {
		double all[6];
		size_t m = 0;
		for (int j = 0; j < 2; j++) {
			size_t nr = k == 0 && j == 0 ? 3 : 2;
			if (!by_boot)
				out[n++] = ref_mean(boot_v[s][k][j], nr);
			for (size_t i = 0; i < nr; i++)
				all[m++] = boot_v[s][k][j][i];
		}
		if (by_boot)
			out[n++] = ref_mean(all, m);
	}
	return n;
}

/* test_boots: 3 boots a side are tested on the boots' means, 2 on the
 * sittings' means (4 a side), 3 against 2 on the sittings' too; the mean
 * shown is the units'; the median is each boot's median, averaged. */
static void test_boots(void)
{
	double a[8], b[8];
	struct doc *d;
	size_t na, nb;
	if (report("b3_a", "b3_b", NULL, 0, &d)) {
		na = units(0, 3, true, a);
		nb = units(1, 3, true, b);
		struct want w = { "x", NULL, a, b, na, nb, -1, "boots", 0.95 };
		check_row(d, &w);
		const struct table *t = doc_table(d, "metric_x");
		double med = 0;
		for (int k = 0; k < 3; k++) {
			double all[6];
			size_t m = 0;
			for (int j = 0; j < 2; j++)
				for (size_t i = 0; i < (k == 0 && j == 0 ? 3u : 2u); i++)
					all[m++] = boot_v[0][k][j][i];
			med += ref_median(all, m) / 3;
		}
		is_near(real(t, 0, "base_median"), med, "3 boots: the median is each boot's median, averaged");
		ok(real(t, 0, "base_runs") == 13 && real(t, 0, "base_boots") == 3 && real(t, 0, "base_sittings") == 6 &&
		   real(t, 0, "new_runs") == 13, "3 boots: 13 runs, 3 boots, 6 sittings a side");
		doc_free(d);
	}
	if (report("b2_a", "b2_b", NULL, 0, &d)) {
		na = units(0, 2, false, a);
		nb = units(1, 2, false, b);
		struct want w = { "x", NULL, a, b, na, nb, -1, "sittings", 0.95 };
		check_row(d, &w);
		doc_free(d);
	}
	if (report("b3_a", "b2_b", NULL, 0, &d)) {
		na = units(0, 3, false, a);
		nb = units(1, 2, false, b);
		struct want w = { "x", NULL, a, b, na, nb, -1, "sittings", 0.95 };
		check_row(d, &w);
		doc_free(d);
	}
}

/* The median case: md_a has 2 boots; in boot 2 every run of cell 1
 * failed (having printed a value first), and a warm-up failed (cell 2 ran
 * well); md_b ran everything, with others' load and steal. */
static const double md_1[] = { 1000, 1066, 1040 }, md_2a[] = { 50, 52, 51 }, md_2b[] = { 49, 48, 44 };
static const double md_b1[] = { 990, 1010, 1005 }, md_b2[] = { 60, 61, 59 };

/* build_median(): the labels md_a and md_b. */
static void build_median(void)
{
	struct run r = RUN;
	r.bench = bench("md_a", "md-a-1", "1,2");
	r.cell = 0;
	runs(&r, 1, md_1, 3, "x", "ms", "lower");
	r.cell = 1;
	r.wall = 2;
	runs(&r, 1, md_2a, 3, "x", "ms", "lower");
	r.kind = "recorded";
	metric(run(&r, 1), "x", 55, "ms", "lower");
	metric(run(&r, 2), "x", 57, "ms", "lower");
	r.kind = "bare";
	r.bench = bench("md_a", "md-a-2", "1,2");
	r.cell = 0;
	r.status = "failed";
	r.wall = 1;
	for (int i = 1; i <= 3; i++)
		metric(run(&r, i), "x", 5000, "ms", "lower");
	r.kind = "warmup";
	run(&r, 1);
	r.kind = "bare";
	r.status = "ok";
	r.cell = 1;
	r.wall = 4;
	runs(&r, 1, md_2b, 3, "x", "ms", "lower");
	r = RUN;
	r.bench = bench("md_b", "md-b-1", "1,2");
	r.others = 0.5;
	r.steal = 0.1;
	runs(&r, 1, md_b1, 3, "x", "ms", "lower");
	r.cell = 1;
	r.others = 0.25;
	runs(&r, 1, md_b2, 3, "x", "ms", "lower");
}

/* test_median: the report's and perfdb results' median of a cell counts
 * the boots with runs in it. */
static void test_median(void)
{
	struct doc *d;
	if (report("md_a", "md_b", NULL, 0, &d)) {
		const struct table *t = doc_table(d, "metric_x");
		long r = row_of(t, "1");
		is_near(real(t, r, "base_median"), 1040, "a boot whose runs all failed: the median of the other (1040)");
		is_int((long long)real(t, r, "base_boots"), 1, "... and the cell has 1 boot on that side");
		is_int((long long)real(t, r, "base_sittings"), 1, "... and 1 sitting (the other's runs all failed)");
		r = row_of(t, "2");
		is_near(real(t, r, "base_median"), (51 + 48) / 2.0, "cell 2: each boot's median, averaged");
		is_int((long long)real(t, r, "base_runs"), 6, "cell 2: 6 bare runs (the recorded ones apart)");
		const struct dval *m = dv_get(doc_findings_c(d), "machine_verdict");
		const struct dval *busy = m ? dv_get(m, "new_busy_pct") : NULL;
		is_near(busy ? dv_real_of(busy) : NAN, 100 * (3 * 0.5 + 3 * 0.25 + 6 * 0.1) / (6 * 1 * 2.0),
			"the new side's busy share: others' and steal's CPU time over the runs' (2 CPUs)");
		is_near(real(doc_table(d, "machine"), 2, "new"), 100 * (3 * (1 - 0.6 / 2) + 3 * (1 - 0.35 / 2)) / 6,
			"the CPU time left to the workload, its mean over the runs");
		doc_free(d);
	}
}

/* test_results: perfdb results' tables of md_a and md_b. */
static void test_results(void)
{
	static const char *const labels[] = { "md_a", "md_b" };
	struct doc *d = doc_new("results");
	char err[256] = "";
	if (!ok(!results_findings(db, labels, 2, NULL, 0, NULL, d, err, sizeof(err)), "results md_a md_b%s%s",
		*err ? ": " : "", err)) {
		doc_free(d);
		return;
	}
	const struct table *t = doc_table(d, "results");
	long r = -1;
	for (size_t i = 0; t && i < table_nrows(t); i++)
		if (!strcmp(str(t, (long)i, "label"), "md_a") && !strcmp(str(t, (long)i, "c"), "1"))
			r = (long)i;
	is_near(real(t, r, "median"), 1040, "results: the median of the boots with runs in the cell");
	ok(real(t, r, "boots") == 1 && real(t, r, "runs") == 3 && real(t, r, "failed") == 3,
	   "results: 1 boot, 3 runs, 3 failed (the failed warm-up not counted)");
	is_near(real(t, r, "mean"), ref_mean(md_1, 3), "results: the mean of the runs that ended well");
	is_near(real(t, r, "stddev"), sqrt(ref_var(md_1, 3)), "results: their stddev");
	is_near(real(t, r, "stddev_pct"), 100 * sqrt(ref_var(md_1, 3)) / ref_mean(md_1, 3), "results: stddev in %% of the mean");
	ok(real(t, r, "min") == 1000 && real(t, r, "max") == 1066, "results: min 1000, max 1066");
	is_near(real(t, r, "elapsed_s"), 1, "results: elapsed per run");
	r = row_of(t, "2");
	is_near(real(t, r, "elapsed_s"), 3, "results: cell 2's elapsed: (3 x 2 s + 3 x 4 s) / 6");
	is_near(real(t, r, "median"), (51 + 48) / 2.0, "results: cell 2's median: the boots' medians averaged");
	t = doc_table(d, "boots");
	long k = -1;
	for (size_t i = 0; t && i < table_nrows(t); i++)
		if (!strcmp(str(t, (long)i, "label"), "md_a") && real(t, (long)i, "boot") == 2)
			k = (long)i;
	ok(k >= 0 && !strcmp(str(t, k, "c"), "2") && real(t, k, "runs") == 3 && real(t, k, "median") == 48 &&
	   near(real(t, k, "mean"), 47), "boots: boot 2 of md_a: cell 2 only, 3 runs, median 48, mean 47");
	t = doc_table(d, "perturbation");
	r = row_of(t, "2");
	is_near(real(t, r, "recorded_median"), 56, "perturbation: the recorded runs' median");
	is_near(real(t, r, "change_pct"), 100 * (56 - (51 + 48) / 2.0) / ((51 + 48) / 2.0),
		"perturbation: recorded against bare, in %% of bare");
	t = doc_table(d, "sittings");
	r = -1;
	for (size_t i = 0; t && i < table_nrows(t); i++)
		if (!strcmp(str(t, (long)i, "label"), "md_b"))
			r = (long)i;
	is_near(real(t, r, "others_pct"), 100 * (3 * 0.5 + 3 * 0.25) / (6 * 1 * 2.0),
		"sittings: others' share of the CPUs' time over the runs");
	is_near(real(t, r, "steal_pct"), 100 * 6 * 0.1 / (6 * 1 * 2.0), "sittings: steal's share");
	bool warned = false;
	for (size_t i = 0; i < doc_nwarnings(d); i++)
		warned |= strstr(doc_warning_at(d, i), "fewer than 3 runs") != NULL;
	ok(!warned, "3 runs in every cell: no few-runs warning");
	doc_free(d);
	d = doc_new("results");
	if (ok(!results_findings(db, (const char *const[]){ "w2" }, 1, NULL, 0, NULL, d, err, sizeof(err)),
	       "results w2")) {
		warned = false;
		for (size_t i = 0; i < doc_nwarnings(d); i++)
			warned |= strstr(doc_warning_at(d, i), "fewer than 3 runs") != NULL;
		ok(warned, "a cell with 2 runs: the few-runs warning");
	}
	doc_free(d);
}

/* The thresholds of a row's test: cell one has 1 run a side (untested),
 * two 2 runs (tested), flat no spread on base but some on new (tested),
 * zero a base mean of 0 (tested in the unit), same no spread on either
 * side (untested). */
static const double th_two[2][2] = { { 5.0, 5.4 }, { 6.1, 6.3 } }, th_flat[2][3] = { { 5, 5, 5 }, { 6, 6.5, 7 } };
static const double th_zero[2][3] = { { 0, 0, 0 }, { 2.0, 2.1, 1.9 } };

/* build_thresholds(): labels th_a and th_b. */
static void build_thresholds(void)
{
	for (int s = 0; s < 2; s++) {
		struct run r = RUN;
		r.bench = bench(s ? "th_b" : "th_a", s ? "th-b" : "th-a", "one,two,flat,zero,same");
		r.cell = 0;
		runs(&r, 1, (double[]){ s ? 7.0 : 3.0 }, 1, "x", "ms", "lower");
		r.cell = 1;
		runs(&r, 1, th_two[s], 2, "x", "ms", "lower");
		r.cell = 2;
		runs(&r, 1, th_flat[s], 3, "x", "ms", "lower");
		r.cell = 3;
		runs(&r, 1, th_zero[s], 3, "x", "ms", "lower");
		r.cell = 4;
		runs(&r, 1, (double[]){ 4, 4, 4 }, 3, "x", "ms", "lower");
	}
	struct run r = RUN;
	r.bench = bench("w2", "w2", "");
	runs(&r, 1, (double[]){ 4, 5 }, 2, "x", "ms", "lower");
}

/* Sittings: s2_a and s2_b, one boot of 2 sittings of 3 runs a side; a
 * pulse that did not change beyond its noise, which is wide (the drift it
 * allows is some 15%), and a change of 3% well beyond the sittings'
 * spread. */
static const double sit_v[2][2][3] = { { { 100.0, 100.1, 99.9 }, { 100.2, 100.3, 100.1 } },
				       { { 103.0, 103.1, 102.9 }, { 103.2, 103.3, 103.1 } } };
static const double sit_pulse[2][2][3] = { { { 100, 110, 90 }, { 105, 95, 100 } },
					   { { 100, 92, 108 }, { 96, 104, 100 } } };

/* build_sittings(): the labels. */
static void build_sittings(void)
{
	for (int s = 0; s < 2; s++) {
		struct run r = RUN;
		r.bench = bench(s ? "s2_b" : "s2_a", s ? "s2-b" : "s2-a", "");
		for (int j = 0; j < 2; j++) {
			r.sitting = j + 1;
			sitting(r.bench, j + 1);
			for (int i = 0; i < 3; i++) {
				r.pulse = sit_pulse[s][j][i];
				metric(run(&r, 3 * j + i + 1), "x", sit_v[s][j][i], "ms", "lower");
			}
		}
	}
}

/* test_sittings: 2 sittings a side are tested on the sittings' means,
 * whose interval holds the machine's drift between sittings: a change
 * within what the machine may have drifted is the kernel's there (it
 * would be "machine drift" on the runs of one sitting a side). */
static void test_sittings(void)
{
	double a[2], b[2];
	struct doc *d;
	for (int s = 0; s < 2; s++)
		for (int j = 0; j < 2; j++)
			(s ? b : a)[j] = ref_mean(sit_v[s][j], 3);
	if (!report("s2_a", "s2_b", NULL, 0, &d))
		return;
	const struct dval *m = dv_get(doc_findings_c(d), "machine_verdict");
	const struct dval *drift = m ? dv_get(m, "drift_pct") : NULL, *changed = m ? dv_get(m, "changed") : NULL;
	ok(drift && dv_real_of(drift) > 6 && changed && !dv_bool_of(changed),
	   "the pulse did not change, but may have drifted by more than the change (%g%%)",
	   drift ? dv_real_of(drift) : NAN);
	double pa[4], pb[4], lo, hi;	/* each sitting's probes but its first (taken before any run) */
	for (int j = 0; j < 2; j++)
		for (int i = 1; i < 3; i++) {
			pa[2 * j + i - 1] = sit_pulse[0][j][i];
			pb[2 * j + i - 1] = sit_pulse[1][j][i];
		}
	ref_welch(pa, 4, pb, 4, 0.95, &lo, &hi);
	is_near(drift ? dv_real_of(drift) : NAN, 100 * fmax(fabs(lo), fabs(hi)) / ref_mean(pa, 4),
		"the drift: the far end of the integer pulse's 95%% interval, in %% of base, the sittings' first "
		"probes left out");
	struct want w = { "x", NULL, a, b, 2, 2, -1, "sittings", 0.95 };
	check_row(d, &w);
	is_int((long long)real(doc_table(d, "metric_x"), 0, "machine_explains"), 0,
	       "tested on the sittings' means: the drift is in the interval, the machine explains nothing");
	doc_free(d);
}

/* test_thresholds: 1 run a side untested, 2 tested; spread on one side is
 * enough; a base mean of 0 is tested in the unit. */
static void test_thresholds(void)
{
	struct doc *d;
	if (!report("th_a", "th_b", NULL, 0, &d))
		return;
	const double level = 1 - 0.05 / 5;
	const struct table *t = doc_table(d, "metric_x");
	long r = row_of(t, "one");
	ok(!strcmp(str(t, r, "interval"), "too few runs") && real(t, r, "significant") == 0 &&
	   isnan(real(t, r, "diff_low")), "1 run a side: not tested (too few runs)");
	struct want w = { "x", "two", th_two[0], th_two[1], 2, 2, -1, "runs", level };
	check_row(d, &w);
	w = (struct want){ "x", "flat", th_flat[0], th_flat[1], 3, 3, -1, "runs", level };
	check_row(d, &w);
	w = (struct want){ "x", "zero", th_zero[0], th_zero[1], 3, 3, -1, "runs", level };
	check_row(d, &w);
	r = row_of(t, "same");
	ok(!strcmp(str(t, r, "interval"), "no spread") && real(t, r, "significant") == 0,
	   "no spread on either side: not tested");
	doc_free(d);
}

/* The machine: mc_a's runs saw a pulse near 100, mc_b's near 80 (a probe
 * before the first run, then one shared by each round of 2 runs); rate
 * fell 20% (as the machine), time rose 20% (as the machine), jump rose
 * 30% (against it). tk_a's 3 runs of 10 ms on 2 CPUs lost 70% of the
 * CPUs' time to others, within what /proc/stat's ticks can count by
 * themselves: not busy. */
static void build_machine(void)
{
	static const double pulse[2][5] = { { 100, 101, 101, 99, 99 }, { 80, 81, 81, 79, 79 } };
	static const double rate[2][5] = { { 1000, 1010, 990, 1005, 995 }, { 800, 808, 792, 804, 796 } };
	static const double time[2][5] = { { 10, 10.1, 9.9, 10.05, 9.95 }, { 12, 12.1, 11.9, 12.05, 11.95 } };
	static const double jump[2][5] = { { 100, 101, 99, 100.5, 99.5 }, { 130, 131, 129, 130.5, 129.5 } };
	for (int s = 0; s < 2; s++) {
		struct run r = RUN;
		r.bench = bench(s ? "mc_b" : "mc_a", s ? "mc-b" : "mc-a", "");
		for (int i = 0; i < 5; i++) {
			r.pulse = pulse[s][i];
			int64_t id = run(&r, i + 1);
			metric(id, "rate", rate[s][i], "ops/s", "higher");
			metric(id, "time", time[s][i], "s", "lower");
			metric(id, "jump", jump[s][i], "ops/s", "higher");
		}
	}
	for (int s = 0; s < 2; s++) {
		struct run r = RUN;
		r.bench = bench(s ? "tk_b" : "tk_a", s ? "tk-b" : "tk-a", "");
		r.wall = 0.01;
		r.others = s ? 0 : 0.014;
		runs(&r, 1, (double[]){ 5, 6, 7 }, 3, "x", "ms", "lower");
	}
}

/* test_machine: a change the slower machine explains is significant but
 * unmarked, no verdict of the kernel, no summary line; one against it is
 * marked. */
static void test_machine(void)
{
	struct doc *d;
	if (!report("mc_a", "mc_b", NULL, 0, &d))
		return;
	static const char *const names[] = { "metric_rate", "metric_time", "metric_jump" };
	for (int i = 0; i < 3; i++) {
		const struct table *t = doc_table(d, names[i]);
		bool explained = i < 2;
		ok(real(t, 0, "significant") == 1 && real(t, 0, "machine_explains") == explained &&
		   !strcmp(str(t, 0, "mark"), explained ? "" : "*") &&
		   !strcmp(str(t, 0, "verdict"), explained ? "machine changed" : "improvement"),
		   "%s: %s", names[i] + 7, explained ? "the slower machine explains it: no mark, 'machine changed'" :
		   "against the machine's push: marked, an improvement");
	}
	ok(!summary_has(d, "rate") && !summary_has(d, "time") && summary_has(d, "jump: +30.00%"),
	   "the summary: the change the machine does not explain, only");
	const struct table *t = doc_table(d, "machine");
	ok(real(t, 0, "base_n") == 2 && real(t, 0, "new_n") == 2 && near(real(t, 0, "base"), 100) &&
	   near(real(t, 0, "new"), 80), "the pulse: a probe shared by a round counts once, the one before any "
	   "run not at all (2 probes a side: 100 and 80)");
	doc_free(d);
	if (!report("tk_a", "tk_b", NULL, 0, &d))
		return;
	const struct dval *m = dv_get(doc_findings_c(d), "machine_verdict");
	ok(m && dv_get(m, "busy") && !dv_bool_of(dv_get(m, "busy")) && near(dv_real_of(dv_get(m, "base_busy_pct")), 70),
	   "70%% of 3 runs of 10 ms on 2 CPUs taken, within 2 standard deviations of the ticks (2 CPUs a run): "
	   "not busy");
	doc_free(d);
}

int main(void)
{
	char path[] = "/tmp/perfdb_test_report_XXXXXX", err[256];
	int fd = mkstemp(path);
	if (fd < 0)
		return 1;
	close(fd);
	unlink(path);
	if (!(db = db_open(path, true, err, sizeof(err)))) {
		printf("# %s\n", err);
		return 1;
	}
	db_exec(db, "PRAGMA synchronous = OFF", NULL, 0);
	build_family();
	build_boots("b3", 3);
	build_boots("b2", 2);
	build_median();
	build_thresholds();
	build_machine();
	build_sittings();
	test_family();
	test_boots();
	test_median();
	test_results();
	test_thresholds();
	test_machine();
	test_sittings();
	sqlite3_close(db);
	unlink(path);
	return tap_done();
}
