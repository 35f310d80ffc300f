/* Unit tests that pin the numbers of perfdb sched (analyze/timeline/
 * sched_findings.c) on sessions written here row by row (sched_switch
 * samples, process and thread rows), every expected value worked out here
 * from the switches written: per CPU the switches, their rates, idle
 * time and the mean over the recorded CPUs; per process the switches,
 * their rate over the window, per CPU over the process's own lifetime (a
 * workload that starts after 0.3 s of idle, one that ends early and ran
 * on 2 CPUs), run time and CPU share; and the comparison of two labels:
 * means and Student's interval with 3 sessions a side (tests/unit/
 * ref_stats.h), medians without an interval with 2. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/unit/db_util.h"
#include "analyze/report/report.h"
#include "analyze/timeline/sched_findings.h"
#include "lib/doc.h"
#include "lib/table.h"
#include "schema/db.h"
#include "tests/unit/ref_stats.h"
#include "tests/unit/tap.h"

#define T0 1000000000LL	/* the sessions' first time, ns */
#define SPAN 1000000000LL	/* their length: 1 s */

static sqlite3 *db;
static int64_t next_id = 1;

/* sql(text, types, ...): one statement with bound parameters ('i' int64,
 * 's' text, 'n' NULL); its last rowid; aborts on error. */
static int64_t sql(const char *text, const char *types, ...)
{
	va_list ap;
	va_start(ap, types);
	int64_t id = db_vsql(db, text, types, ap);
	va_end(ap);
	return id;
}

/* A session being written: its ids, its event and its threads by tid. */
struct sess {
	int64_t id, event, first;
	int64_t thread[4];	/* tids 0, 100, 200, 300 */
	int nsw;
};

/* begin(s, label, late, end200): a session of 2 CPUs recorded with -a over
 * [T0, T0 + SPAN]: idle (pid 0), work (pid 100, started at T0 + late,
 * alive to the end) and, when end200 > 0, early (pid 200, alive before
 * the recording, ended at T0 + end200); thread 300 has no process row
 * (its process was never seen). */
static void begin(struct sess *s, const char *label, int64_t late, int64_t end200)
{
	s->id = sql("INSERT INTO session (label, nr_cpus_online, first_time, last_time, perf_cmdline) "
		    "VALUES (?, 2, ?, ?, 'perf record -a -e sched:sched_switch')", "sii", label, T0, T0 + SPAN);
	s->event = sql("INSERT INTO event (session_id, idx, name, tp_table) VALUES (?, 0, "
		       "'sched:sched_switch', 'sched_switch')", "i", s->id);
	int64_t p0 = sql("INSERT INTO process (session_id, pid, comm, user_mm) VALUES (?, 0, 'swapper', 0)",
			 "i", s->id);
	int64_t p1 = sql("INSERT INTO process (session_id, pid, comm, user_mm, start_time) VALUES (?, 100, "
			 "'work', 1, ?)", "ii", s->id, T0 + late);
	s->thread[0] = sql("INSERT INTO thread (session_id, process_id, pid, tid, comm) VALUES (?, ?, 0, 0, "
			   "'swapper')", "ii", s->id, p0);
	s->thread[1] = sql("INSERT INTO thread (session_id, process_id, pid, tid, comm, start_time) VALUES "
			   "(?, ?, 100, 100, 'work', ?)", "iii", s->id, p1, T0 + late);
	if (end200 > 0) {
		int64_t p2 = sql("INSERT INTO process (session_id, pid, comm, user_mm, end_time) VALUES (?, 200, "
				 "'early', 1, ?)", "ii", s->id, T0 + end200);
		s->thread[2] = sql("INSERT INTO thread (session_id, process_id, pid, tid, comm) VALUES (?, ?, 200, "
				   "200, 'early')", "ii", s->id, p2);
	}
	s->thread[3] = sql("INSERT INTO thread (session_id, process_id, pid, tid, comm) VALUES (?, 0, 300, 300, "
			   "'lost')", "i", s->id);
	s->first = next_id;
	s->nsw = 0;
}

/* slot(tid): the thread index of tid. */
static int slot(int64_t tid)
{
	return tid == 0 ? 0 : tid == 100 ? 1 : tid == 200 ? 2 : 3;
}

/* sw(s, t, cpu, prev, next): a sched_switch sample at T0 + t. */
static void sw(struct sess *s, int64_t t, int cpu, int64_t prev, int64_t next)
{
	sql("INSERT INTO sample (id, session_id, event_id, time, cpu, thread_id, f1, f2, f3, f4, f5, f6, f7) "
	    "VALUES (?, ?, ?, ?, ?, ?, 'p', ?, 120, 0, 'n', ?, 120)", "iiiiiiii", next_id++, s->id, s->event,
	    T0 + t, (int64_t)cpu, s->thread[slot(prev)], prev, next);
	s->nsw++;
}

/* end(s): the session's sample range and counts. */
static void end(struct sess *s)
{
	sql("UPDATE session SET first_sample_id = ?, last_sample_id = ?, nr_samples = ? WHERE id = ?", "iiii",
	    s->first, next_id - 1, (int64_t)s->nsw, s->id);
	sql("UPDATE event SET nr_samples = ? WHERE id = ?", "ii", (int64_t)s->nsw, s->event);
}

/* work(s, late, k, run): work's k turns on CPU 0 from T0 + late: each
 * turn of (SPAN - late) / k ns runs `run` ns of it, then idle; returns
 * the run time. */
static int64_t work(struct sess *s, int64_t late, int k, int64_t run)
{
	int64_t turn = (SPAN - late) / k;
	sw(s, late, 0, 0, 100);
	for (int j = 0; j < k; j++) {
		sw(s, late + j * turn + run, 0, 100, 0);
		if (j + 1 < k)
			sw(s, late + (j + 1) * turn, 0, 0, 100);
	}
	return k * run;
}

/* The table's row of comm, or -1. */
static long row_of(const struct table *t, const char *col, const char *value)
{
	int c = t ? table_find_col(t, col) : -1;
	for (size_t i = 0; c >= 0 && i < table_nrows(t); i++)
		if (table_cell(t, i, c)->kind == CELL_STR && !strcmp(table_cell(t, i, c)->v.s, value))
			return (long)i;
	return -1;
}

/* real(t, row, col): a number, NaN when null or absent. */
static double real(const struct table *t, long row, const char *col)
{
	int c = t ? table_find_col(t, col) : -1;
	if (row < 0 || c < 0)
		return NAN;
	const struct cell *x = table_cell(t, (size_t)row, c);
	return x->kind == CELL_REAL ? x->v.r : x->kind == CELL_INT ? (double)x->v.i : NAN;
}

#define is_near(got, want, ...) do { double _g = (got), _w = (want); \
	if (!ok(fabs(_g - _w) <= 1e-9 * fmax(1, fabs(_w)), __VA_ARGS__)) \
		printf("#   got %.12g, want %.12g\n", _g, _w); } while (0)

/* sched(ids, n, t0, d): sched_findings of sessions ids[0..n) over the
 * window from T0 + t0 (t0 < 0: all) into a new *d. */
static bool sched(const int64_t *ids, int n, int64_t t0, struct doc **d)
{
	struct sched_opts o = { .t0 = t0 < 0 ? INT64_MIN : T0 + t0, .t1 = INT64_MAX };
	char err[256] = "";
	*d = doc_new("sched");
	return ok(!sched_findings(db, ids, n, &o, *d, err, sizeof(err)), "sched of %d session%s%s%s", n,
		  n == 1 ? "" : "s", *err ? ": " : "", err);
}

/* test_single: one session: work starts after 0.3 s of idle and switches
 * away 10 times, running 0.05 s a turn; early ran 0.2 s on CPU 1 and 0.05
 * s on CPU 0 and ended at 0.26 s; a thread whose process was never seen
 * ran 0.1 s on CPU 1. The window from 0.5 s holds 7 of work's switches. */
static void test_single(void)
{
	struct sess s;
	struct doc *d;
	const int64_t late = 300000000, run = 50000000;
	begin(&s, "single", late, 260000000);
	sw(&s, 200000000, 1, 200, 0);	/* early since the start on CPU 1 */
	sw(&s, 200000000, 0, 0, 200);	/* then on CPU 0 */
	sw(&s, 250000000, 0, 200, 0);
	int64_t work_run = work(&s, late, 10, run);
	sw(&s, 500000000, 1, 0, 300);
	sw(&s, 600000000, 1, 300, 0);
	end(&s);
	if (sched(&s.id, 1, 500000000, &d)) {
		const struct table *p = doc_table(d, "processes");
		long w = row_of(p, "comm", "work");
		ok(real(p, w, "switches") == 7, "the window from 0.5 s: 7 of work's switches");
		is_near(real(p, w, "per_sec"), 7 / 0.5, "... 14 a second of the window's 0.5 s");
		is_near(dv_real_of(dv_get(doc_findings_c(d), "seconds")), 0.5, "the window's seconds");
	}
	doc_free(d);
	if (!sched(&s.id, 1, -1, &d)) {
		doc_free(d);
		return;
	}
	const struct table *p = doc_table(d, "processes");
	long w = row_of(p, "comm", "work"), e = row_of(p, "comm", "early");
	double life = (SPAN - late) / 1e9;
	ok(real(p, w, "switches") == 10 && real(p, w, "cpus") == 1, "work: 10 switches away, on 1 CPU");
	is_near(real(p, w, "per_sec"), 10 / (SPAN / 1e9), "work: switches per second of the window");
	is_near(real(p, w, "per_sec_per_cpu"), 10 / life, "work: per CPU, per second of its lifetime (0.7 s)");
	is_near(real(p, w, "run_s"), work_run / 1e9, "work: run time");
	is_near(real(p, w, "cpu_pct"), 100 * work_run / 1e9 / life, "work: CPU share of its lifetime");
	ok(real(p, e, "switches") == 2 && real(p, e, "cpus") == 2, "early: 2 switches away, on 2 CPUs");
	is_near(real(p, e, "per_sec_per_cpu"), 2 / 0.26 / 2, "early: per CPU (2), per second of its 0.26 s");
	is_near(real(p, e, "cpu_pct"), 100 * 0.25 / 0.26, "early: 0.25 s of its 0.26 s");
	ok(w >= 0 && e > w, "processes by switches, most first");
	long u = row_of(p, "comm", "[unknown tasks]");
	ok(real(p, u, "switches") == 1, "the tasks without a process row: 1 switch");
	is_near(real(p, u, "per_sec_per_cpu"), 1 / (SPAN / 1e9), "... per second of the window, their lifetime");
	is_near(real(p, u, "cpu_pct"), 100 * 0.1 / (SPAN / 1e9), "... 0.1 s of it");
	const struct table *c = doc_table(d, "cpus");
	int64_t sw0 = 3 + 2 * 10 - 1;	/* CPU 0: early's 2, work's 1 + 10 + 9 */
	double idle0 = (200000000 + (late - 250000000) + 10 * ((SPAN - late) / 10 - run)) / 1e9;
	ok(real(c, 0, "cpu") == 0 && real(c, 0, "switches") == (double)sw0 && real(c, 1, "switches") == 3,
	   "CPU 0: %lld switches, CPU 1: 3", (long long)sw0);
	is_near(real(c, 0, "per_sec"), sw0 / (SPAN / 1e9), "CPU 0: switches per second");
	is_near(real(c, 0, "idle_kthread_per_sec"), sw0 / (SPAN / 1e9), "CPU 0: every switch is to or from idle");
	is_near(real(c, 0, "idle_pct"), 100 * idle0 / (SPAN / 1e9), "CPU 0: idle share");
	is_near(real(c, 1, "idle_pct"), 100 * 0.7, "CPU 1: idle from 0.2 s on, but 0.1 s");
	is_near(real(c, 2, "idle_pct"), 100 * (idle0 + 0.7) / 2 / (SPAN / 1e9), "the mean row: the CPUs' idle share");
	const struct dval *m = dv_get(doc_findings_c(d), "mean_per_cpu");
	is_near(m ? dv_real_of(dv_get(m, "switches")) : NAN, (sw0 + 3) / 2.0, "the mean over the 2 CPUs: switches");
	is_near(m ? dv_real_of(dv_get(m, "per_sec")) : NAN, (sw0 + 3) / 2.0 / (SPAN / 1e9), "... per second");
	doc_free(d);
}

/* compare(base, nb, new, nn, d): sched_compare_findings of two sides. */
static bool compare(const int64_t *base, int nb, const int64_t *new, int nn, struct doc **d)
{
	struct sched_opts o = { .t0 = INT64_MIN, .t1 = INT64_MAX, .rows = 10 };
	struct sched_side b = { "base", base, nb }, n = { "new", new, nn };
	char err[256] = "";
	*d = doc_new("sched");
	return ok(!sched_compare_findings(db, &b, &n, &o, *d, err, sizeof(err)), "sched --base --new (%d, %d "
		  "sessions)%s%s", nb, nn, *err ? ": " : "", err);
}

/* test_compare: 3 sessions a side: the means and Student's interval of
 * the per-CPU switch rate and of work's switches per second and run
 * time, at 1 - 0.05 / 4 (4 rows); 2 a side: medians, no interval. */
static void test_compare(void)
{
	static const int kb[] = { 10, 12, 11 }, kn[] = { 20, 22, 19 };
	const int64_t late = 200000000, run = 10000000;
	int64_t ids[6];
	double cpu[2][3], rate[2][3], runs[2][3];
	for (int i = 0; i < 6; i++) {
		struct sess s;
		int k = i < 3 ? kb[i] : kn[i - 3];
		begin(&s, i < 3 ? "cb" : "cn", late, 0);
		int64_t r = work(&s, late, k, run);
		end(&s);
		ids[i] = s.id;
		cpu[i / 3][i % 3] = 2.0 * k / 2 / (SPAN / 1e9);	/* 2k switches over 2 CPUs */
		rate[i / 3][i % 3] = k / (SPAN / 1e9);
		runs[i / 3][i % 3] = r / 1e9;
	}
	struct doc *d;
	if (!compare(ids, 3, ids + 3, 3, &d))
		return;
	const struct table *t = doc_table(d, "compare");
	const char *names[] = { "switches/s per CPU", "work switches/s", "work run s" };
	double (*vals[])[3] = { cpu, rate, runs };
	is_int(table_nrows(t), 4, "4 rows: switches/s, idle/kthread switches/s, work's rate and run time");
	for (int i = 0; i < 3; i++) {
		long r = row_of(t, "metric", names[i]);
		double lo, hi;
		ref_student(vals[i][0], 3, vals[i][1], 3, 1 - 0.05 / 4, &lo, &hi);
		is_near(real(t, r, "base"), ref_mean(vals[i][0], 3), "%s: base, the mean of 3 sessions", names[i]);
		is_near(real(t, r, "new"), ref_mean(vals[i][1], 3), "%s: new", names[i]);
		is_near(real(t, r, "change_pct"), 100 * (ref_mean(vals[i][1], 3) - ref_mean(vals[i][0], 3)) /
			ref_mean(vals[i][0], 3), "%s: %%change of the means", names[i]);
		is_near(real(t, r, "ci95_low"), lo, "%s: Student's interval at 1 - 0.05/4, low", names[i]);
		is_near(real(t, r, "ci95_high"), hi, "%s: ... high", names[i]);
		is_near(real(t, r, "base_median"), ref_median(vals[i][0], 3), "%s: base median", names[i]);
		ok(real(t, r, "base_min") == fmin(fmin(vals[i][0][0], vals[i][0][1]), vals[i][0][2]) &&
		   real(t, r, "new_max") == fmax(fmax(vals[i][1][0], vals[i][1][1]), vals[i][1][2]),
		   "%s: the range over the sessions", names[i]);
	}
	doc_free(d);
	struct sess s;	/* a fourth new session: 3 against 4, Welch's interval */
	begin(&s, "cn", late, 0);
	work(&s, late, 25, run);
	end(&s);
	double four[4] = { rate[1][0], rate[1][1], rate[1][2], 25 / (SPAN / 1e9) };
	int64_t n4[4] = { ids[3], ids[4], ids[5], s.id };
	if (compare(ids, 3, n4, 4, &d)) {
		double lo, hi;
		t = doc_table(d, "compare");
		long r = row_of(t, "metric", "work switches/s");
		ref_welch(rate[0], 3, four, 4, 1 - 0.05 / 4, &lo, &hi);
		ok(fabs(real(t, r, "ci95_low") - lo) < 1e-9 && fabs(real(t, r, "ci95_high") - hi) < 1e-9,
		   "3 against 4 sessions: Welch's interval");
	}
	doc_free(d);
	if (!compare(ids, 2, ids + 3, 2, &d))
		return;
	t = doc_table(d, "compare");
	long r = row_of(t, "metric", names[1]);
	ok(real(t, r, "base") == ref_median(rate[0], 2) && real(t, r, "new") == ref_median(rate[1], 2) &&
	   isnan(real(t, r, "ci95_low")), "2 sessions a side: the medians, no interval");
	doc_free(d);
}

/* test_scope: a session recorded on CPU 0 alone (-C 0) of a 2-CPU
 * machine: its means are over the one CPU recorded. */
static void test_scope(void)
{
	struct sess s;
	struct doc *d;
	begin(&s, "cpu0", 300000000, 0);
	sql("UPDATE session SET perf_cmdline = 'perf record -C 0 -e sched:sched_switch' WHERE id = ?", "i", s.id);
	work(&s, 300000000, 10, 50000000);
	end(&s);
	if (sched(&s.id, 1, -1, &d)) {
		const struct dval *m = dv_get(doc_findings_c(d), "mean_per_cpu");
		is_near(m ? dv_real_of(dv_get(m, "switches")) : NAN, 20, "recorded on CPU 0 alone: the mean is CPU 0's");
	}
	doc_free(d);
}

/* test_report_sides: a report of a label with a bench and no recording
 * against recordings has no context-switch evidence (one side has no
 * sessions to hold the events). */
static void test_report_sides(void)
{
	sql("INSERT INTO bench (label, plan, argv, runs, warmup, run_order, started_at, boot_id) VALUES "
	    "('benchonly', '{}', '[\"w\"]', 1, 0, 'interleave', '2025-01-01T00:00:00Z', 'b')", "");
	struct report_opts o = { .base = "benchonly", .new = (const char *[]){ "cn" }, .nnew = 1, .db_path = "t.db" };
	struct doc *d = doc_new("report");
	char err[256] = "";
	if (ok(!report_findings(db, &o, d, err, sizeof(err)), "report of a bench against recordings%s%s",
	       *err ? ": " : "", err))
		ok(!doc_table(d, "sched_compare"), "no context-switch evidence: the bench's side has no recording");
	doc_free(d);
}

int main(void)
{
	char path[] = "/tmp/perfdb_test_sched_db_XXXXXX", err[256];
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
	test_single();
	test_compare();
	test_scope();
	test_report_sides();
	sqlite3_close(db);
	unlink(path);
	return tap_done();
}
