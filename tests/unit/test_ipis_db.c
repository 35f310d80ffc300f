/* Unit tests that pin the numbers of perfdb ipis (analyze/timeline/
 * ipis_findings.c) on a session written here row by row (sched_switch,
 * tlb_flush, csd and ipi_send samples on 3 CPUs over 1 s), every expected
 * value worked out here from the IPIs written: process A (threads 100 on
 * CPU 0, 101 on CPU 1) flushes 5 times to CPUs 1 and 2 (running, other,
 * lazy with reason 1, lazy with reason 0, never received), B (CPU 2)
 * once to CPU 1 (other: init_mm by then); the counts, rates and shares, the agreement of
 * class and verdict by both rules, the rows per process, CPU pair and CPU
 * and each CPU's time per state of its loaded mm; the same session with
 * its sample ids out of time order (matched on the events sorted); and
 * the report's IPI evidence of two labels of such sessions. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/unit/db_util.h"
#include "analyze/timeline/ipis.h"
#include "analyze/timeline/ipis_findings.h"
#include "analyze/report/report.h"
#include "lib/doc.h"
#include "lib/table.h"
#include "schema/db.h"
#include "tests/unit/tap.h"

#define T0 1000000000LL
#define MS 1000000LL

static sqlite3 *db;
static int64_t session, next_id = 1, nsamples;
static int64_t events[6], threads[5];	/* by E_*; by T_* */

enum { E_SWITCH, E_FLUSH, E_QUEUE, E_ENTRY, E_EXIT, E_SEND };
enum { T_IDLE, T_A0, T_A1, T_B };
static const int64_t tids[] = { 0, 100, 101, 200 };

/* sql(text, types, ...): one statement with bound parameters ('i' int64,
 * 's' text); its last rowid; aborts on error. */
static int64_t sql(const char *text, const char *types, ...)
{
	va_list ap;
	va_start(ap, types);
	int64_t id = db_vsql(db, text, types, ap);
	va_end(ap);
	return id;
}

/* sample(e, t, cpu, who, f1 .. f6): a sample of event e at T0 + t on cpu
 * while thread who runs, its fields f1 .. f6 (integers as text are fine:
 * SQLite keeps them as given, and the views read them so). */
static void sample(int e, int64_t t, int cpu, int who, const char *f1, const char *f2, const char *f3,
		   const char *f4, const char *f5, const char *f6)
{
	sql("INSERT INTO sample (id, session_id, event_id, time, cpu, thread_id, f1, f2, f3, f4, f5, f6) "
	    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", "iiiiiissssss", next_id++, session, events[e], T0 + t,
	    (int64_t)cpu, threads[who], f1, f2, f3, f4, f5, f6);
	nsamples++;
	sql("UPDATE event SET nr_samples = nr_samples + 1 WHERE id = ?", "i", events[e]);
}

/* sw(t, cpu, prev, next): a sched_switch. */
static void sw(int64_t t, int cpu, int prev, int next)
{
	char p[16], n[16];
	snprintf(p, sizeof(p), "%lld", (long long)tids[prev]);
	snprintf(n, sizeof(n), "%lld", (long long)tids[next]);
	sql("INSERT INTO sample (id, session_id, event_id, time, cpu, thread_id, f1, f2, f3, f4, f5, f6, f7) "
	    "VALUES (?, ?, ?, ?, ?, ?, 'p', ?, 120, 0, 'n', ?, 120)", "iiiiiiii", next_id++, session,
	    events[E_SWITCH], T0 + t, (int64_t)cpu, threads[prev], tids[prev], tids[next]);
	nsamples++;
	sql("UPDATE event SET nr_samples = nr_samples + 1 WHERE id = ?", "i", events[E_SWITCH]);
}

/* flush(t, cpu, who, reason): a tlb_flush. */
static void flush(int64_t t, int cpu, int who, int reason)
{
	char r[8];
	snprintf(r, sizeof(r), "%d", reason);
	sql("INSERT INTO sample (id, session_id, event_id, time, cpu, thread_id, f1, f2) VALUES (?, ?, ?, ?, ?, "
	    "?, ?, 1)", "iiiiiis", next_id++, session, events[E_FLUSH], T0 + t, (int64_t)cpu, threads[who], r);
	nsamples++;
	sql("UPDATE event SET nr_samples = nr_samples + 1 WHERE id = ?", "i", events[E_FLUSH]);
}

/* ipi(t, from, who, to, csd, send, rx, at, reason): who on CPU from queues
 * flush_tlb_func's csd for CPU to (and sends the interrupt when send);
 * when rx >= 0, thread rx on CPU to runs it 5 us later, tlb_flush reason
 * inside (none when reason < 0). */
static void ipi(int64_t t, int from, int who, int to, const char *csd, bool send, int rx, int reason)
{
	char cpu[8];
	snprintf(cpu, sizeof(cpu), "%d", to);
	sample(E_QUEUE, t, from, who, cpu, "1", "flush_tlb_multi", "2", "flush_tlb_func", csd);
	if (send)
		sample(E_SEND, t + 100, from, who, cpu, "1", "flush_tlb_multi", "3",
		       "generic_smp_call_function_single_interrupt", NULL);
	if (rx < 0)
		return;
	sample(E_ENTRY, t + 5000, to, rx, "2", "flush_tlb_func", csd, NULL, NULL, NULL);
	if (reason >= 0)
		flush(t + 5100, to, rx, reason);
	sample(E_EXIT, t + 5200, to, rx, "2", "flush_tlb_func", csd, NULL, NULL, NULL);
}

/* build(label, late_first, extra): the session; with late_first its last
 * switch is written first, its sample ids out of time order (perfdb then
 * matches its IPIs on the events sorted, another way to the same
 * figures); extra more IPIs of A to CPU 2 never received. */
static void build(const char *label, bool late_first, int extra)
{
	static const char *const names[] = { "sched:sched_switch", "tlb:tlb_flush", "csd:csd_queue_cpu",
		"csd:csd_function_entry", "csd:csd_function_exit", "ipi:ipi_send_cpu" };
	static const char *const tables[] = { "sched_switch", "tlb_flush", "csd_queue_cpu", "csd_function_entry",
		"csd_function_exit", "ipi_send_cpu" };
	session = sql("INSERT INTO session (label, nr_cpus_online, first_time, last_time, perf_cmdline) VALUES "
		      "(?, 3, ?, ?, 'perf record -a -e tlb')", "sii", label, T0, T0 + 1000 * MS);
	for (int i = 0; i < 6; i++)
		events[i] = sql("INSERT INTO event (session_id, idx, name, tp_table) VALUES (?, ?, ?, ?)", "iiss",
				session, (int64_t)i, names[i], tables[i]);
	int64_t p0 = sql("INSERT INTO process (session_id, pid, comm, user_mm) VALUES (?, 0, 'swapper', 0)", "i", session);
	int64_t pa = sql("INSERT INTO process (session_id, pid, comm, user_mm) VALUES (?, 100, 'a', 1)", "i", session);
	int64_t pb = sql("INSERT INTO process (session_id, pid, comm, user_mm) VALUES (?, 200, 'b', 1)", "i", session);
	const int64_t procs[] = { p0, pa, pa, pb };
	for (int i = 0; i < 4; i++)
		threads[i] = sql("INSERT INTO thread (session_id, process_id, pid, tid) VALUES (?, ?, ?, ?)", "iiii",
				 session, procs[i], tids[i] == 101 ? 100 : tids[i], tids[i]);
	int64_t first = next_id;
	if (late_first)
		sw(990 * MS, 0, T_A0, T_IDLE);
	sw(10 * MS, 0, T_IDLE, T_A0);
	sw(10 * MS, 1, T_IDLE, T_A1);
	sw(10 * MS, 2, T_IDLE, T_B);
	flush(100 * MS, 0, T_A0, 4);				/* 1: running, reason 1 */
	ipi(100 * MS + 1000, 0, T_A0, 1, "4001", true, T_A1, 1);
	ipi(200 * MS, 0, T_A0, 2, "4002", false, T_B, 5);	/* 2: other, reason 5, piggybacked */
	sw(300 * MS, 1, T_A1, T_IDLE);
	ipi(350 * MS, 0, T_A0, 1, "4001", true, T_IDLE, 1);	/* 3: lazy, reason 1 */
	flush(400 * MS, 0, T_A0, 4);				/* 4: lazy, reason 0: CPU 1 to init_mm */
	ipi(400 * MS + 1000, 0, T_A0, 1, "4001", true, T_IDLE, 0);
	ipi(500 * MS, 0, T_A0, 2, "4003", false, -1, -1);	/* 5: never received */
	ipi(600 * MS, 2, T_B, 1, "4004", true, T_IDLE, 5);	/* 6: B's, other (CPU 1 in init_mm) */
	for (int i = 0; i < extra; i++)
		ipi(700 * MS + i * MS, 0, T_A0, 2, "4005", false, -1, -1);
	sw(900 * MS, 2, T_B, T_IDLE);
	if (!late_first)
		sw(990 * MS, 0, T_A0, T_IDLE);
	sql("UPDATE session SET first_sample_id = ?, last_sample_id = ?, nr_samples = ? WHERE id = ?", "iiii",
	    first, next_id - 1, nsamples, session);
	nsamples = 0;
}

/* num(f, key): a number of findings object f, NaN when absent or null. */
static double num(const struct dval *f, const char *key)
{
	const struct dval *v = f ? dv_get(f, key) : NULL;
	return v && (dv_kind(v) == DV_INT || dv_kind(v) == DV_REAL) ? dv_real_of(v) : NAN;
}

/* cell(t, row, col): a number of table t, NaN when absent or null. */
static double cell(const struct table *t, long row, const char *col)
{
	int c = t ? table_find_col(t, col) : -1;
	if (row < 0 || c < 0 || (size_t)row >= table_nrows(t))
		return NAN;
	const struct cell *x = table_cell(t, (size_t)row, c);
	return x->kind == CELL_REAL ? x->v.r : x->kind == CELL_INT ? (double)x->v.i : NAN;
}

#define is_near(got, want, ...) do { double _g = (got), _w = (want); \
	if (!ok(fabs(_g - _w) <= 1e-9 * fmax(1, fabs(_w)), __VA_ARGS__)) \
		printf("#   got %.12g, want %.12g\n", _g, _w); } while (0)

/* test_figures: the scalars and objects. */
static void test_figures(const struct doc *d)
{
	const struct dval *f = doc_findings_c(d);
	is_near(num(f, "seconds"), 1, "1 s recorded");
	is_near(num(f, "window_us"), 20, "switched_near_send's window: 20 us");
	ok(num(f, "ipis") == 6 && num(f, "attempts") == 2 && num(f, "interrupts") == 4 && num(f, "wasted") == 2 &&
	   num(f, "unverified") == 1 && num(f, "switched_near_send") == 0,
	   "6 flush IPIs, 2 attempts, 4 interrupts raised, 2 wasted, 1 unverified, none near its send");
	is_near(num(f, "ipis_per_sec"), 6, "6 IPIs a second");
	is_near(num(f, "wasted_per_sec"), 2, "2 wasted a second");
	is_near(num(f, "attempts_per_sec"), 2, "2 attempts a second");
	const struct dval *c = dv_get(f, "targets"), *r = dv_get(f, "receiver"), *a = dv_get(f, "agreement");
	ok(num(c, "running") == 1 && num(c, "lazy") == 2 && num(c, "other") == 2 && num(c, "unknown") == 0 &&
	   num(c, "unverified") == 1, "classes on arrival: 1 running, 2 lazy, 2 other, 1 unverified");
	ok(num(r, "reason1") == 2 && num(r, "reason5") == 2 && num(r, "reason0") == 1 && num(r, "none") == 1,
	   "verdicts: reason 1 twice, 5 twice, 0 once, none once");
	ok(num(a, "compared") == 5 && num(a, "agreeing") == 4 && num(a, "wasted_agreeing") == 5,
	   "5 compared: 4 agree by the whole rule (lazy with reason 1 does not), 5 by other = reason 5");
	is_near(num(a, "pct"), 80, "agreement: 80%%");
	is_near(num(a, "wasted_pct"), 100, "agreement of the wasted rule: 100%%");
}

/* row_where(t, col, v): the row whose integer column col is v, or -1. */
static long row_where(const struct table *t, const char *col, long long v)
{
	for (size_t i = 0; t && i < table_nrows(t); i++)
		if (cell(t, (long)i, col) == (double)v)
			return (long)i;
	return -1;
}

/* test_tables: per process, CPU pair and CPU. */
static void test_tables(const struct doc *d)
{
	const struct table *t = doc_table(d, "processes");
	ok(t && table_nrows(t) == 2 && cell(t, 0, "pid") == 100 && cell(t, 1, "pid") == 200,
	   "processes: A (5 IPIs) before B (1)");
	ok(cell(t, 0, "attempts") == 2 && cell(t, 0, "ipis") == 5 && cell(t, 0, "wasted") == 1,
	   "A: 2 attempts, 5 IPIs, 1 wasted");
	is_near(cell(t, 0, "wasted_pct"), 20, "A: 20%% of its IPIs wasted (1 of 5, whatever was raised)");
	is_near(cell(t, 0, "per_sec"), 5, "A: 5 IPIs a second");
	t = doc_table(d, "pairs");
	long r = -1;
	for (size_t i = 0; t && i < table_nrows(t); i++)
		if (cell(t, (long)i, "sender") == 0 && cell(t, (long)i, "target") == 2)
			r = (long)i;
	ok(cell(t, r, "ipis") == 2 && cell(t, r, "wasted") == 1, "pair 0 -> 2: 2 IPIs, 1 wasted");
	is_near(cell(t, r, "wasted_pct"), 50, "pair 0 -> 2: 50%% wasted");
	t = doc_table(d, "cpus");
	long c0 = row_where(t, "cpu", 0), c1 = row_where(t, "cpu", 1), c2 = row_where(t, "cpu", 2);
	ok(cell(t, c0, "sent") == 5 && cell(t, c0, "received") == 0 && cell(t, c0, "wasted_received") == 0,
	   "CPU 0: sent 5");
	ok(cell(t, c1, "sent") == 0 && cell(t, c1, "received") == 4 && cell(t, c1, "wasted_received") == 1,
	   "CPU 1: received 4 (1 wasted)");
	ok(cell(t, c2, "sent") == 1 && cell(t, c2, "received") == 2 && cell(t, c2, "wasted_received") == 1,
	   "CPU 2: sent 1, received 2 (1 wasted)");
	is_near(cell(t, c0, "unknown_pct"), 1, "CPU 0: unknown until its first switch (10 ms)");
	is_near(cell(t, c0, "user_mm_pct"), 98, "CPU 0: A's mm from 10 to 990 ms");
	is_near(cell(t, c0, "lazy_pct"), 1, "CPU 0: held lazily by idle for the last 10 ms");
	is_near(cell(t, c1, "user_mm_pct"), 29, "CPU 1: A's mm from 10 to 300 ms");
	is_near(cell(t, c1, "lazy_pct"), 100.0 * (100 * MS + 1000 + 5100) / (1000 * MS),
		"CPU 1: lazy from 300 ms to the reason-0 flush");
	is_near(cell(t, c1, "init_mm_pct"), 100.0 * (600 * MS - 1000 - 5100) / (1000 * MS), "CPU 1: init_mm after it");
	is_near(cell(t, c2, "lazy_pct"), 10, "CPU 2: lazy for the last 100 ms");
}

/* ipi_cell(t, what, col): the report's IPI table's number of row what. */
static double ipi_cell(const struct table *t, const char *what, const char *col)
{
	int w = t ? table_find_col(t, "what") : -1;
	for (size_t i = 0; w >= 0 && i < table_nrows(t); i++)
		if (table_cell(t, i, w)->kind == CELL_STR && !strcmp(table_cell(t, i, w)->v.s, what))
			return cell(t, (long)i, col);
	return NAN;
}

/* test_report: the report's IPI evidence of base (2 sessions as above:
 * 12 IPIs in 2 s, 4 wasted, 2 unverified, 4 attempts) against new (1
 * session with 4 more IPIs never received: 10 in 1 s, 2 wasted, 5
 * unverified, 2 attempts). */
static void test_report(void)
{
	build("rep_base", false, 0);
	build("rep_base", false, 0);
	build("rep_new", false, 4);
	struct report_opts o = { .base = "rep_base", .new = (const char *[]){ "rep_new" }, .nnew = 1, .db_path = "t.db" };
	struct doc *d = doc_new("report");
	char err[256] = "";
	if (!ok(!report_findings(db, &o, d, err, sizeof(err)), "report of the IPI sessions%s%s", *err ? ": " : "",
		err)) {
		doc_free(d);
		return;
	}
	const struct table *t = doc_table(d, "ipis");
	ok(ipi_cell(t, "flush IPIs per second", "base") == 6 && ipi_cell(t, "flush IPIs per second", "new") == 10,
	   "flush IPIs per second: 12 over 2 s, 10 over 1 s");
	is_near(ipi_cell(t, "flush IPIs per second", "change_pct"), 100.0 * (10 - 6) / 6, "... +66.7%%");
	is_near(ipi_cell(t, "flush attempts per second", "change_pct"), 0, "attempts: 2 a second on both sides");
	is_near(ipi_cell(t, "wasted, % of the IPIs", "base"), 100.0 * 4 / 12, "wasted: 4 of base's 12");
	is_near(ipi_cell(t, "wasted, % of the IPIs", "new"), 100.0 * 2 / 10, "... 2 of new's 10");
	is_near(ipi_cell(t, "unverified (no receiver recorded), % of the IPIs", "new"), 100.0 * 5 / 10,
		"unverified: 5 of new's 10");
	is_near(ipi_cell(t, "class agrees with the receiver, %", "base"), 80, "agreement: 80%% on base");
	doc_free(d);
}

int main(void)
{
	char path[] = "/tmp/perfdb_test_ipis_db_XXXXXX", err[256] = "";
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
	for (int k = 0; k < 2; k++) {
		build("ipis", k == 1, 0);
		struct ipis_opts o = { .window_ns = IPIS_WINDOW_NS };
		struct doc *d = doc_new("ipis");
		if (ok(!ipis_findings(db, &session, 1, &o, d, err, sizeof(err)), "ipis of the session%s%s%s",
		       k ? ", its ids out of time order" : "", *err ? ": " : "", err)) {
			test_figures(d);
			test_tables(d);
		}
		doc_free(d);
	}
	test_report();
	sqlite3_close(db);
	unlink(path);
	return tap_done();
}
