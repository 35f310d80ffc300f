/* `perfdb sched` as findings (see sched_findings.h): streams each
 * session's events (tl_stream) into its accounting (sched.h) and wakeup
 * latencies (sched_latency.h), and fills the tables. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/lost_note.h"
#include "analyze/bench/machine.h"
#include "analyze/rec_scope.h"
#include "analyze/timeline/sched.h"
#include "analyze/timeline/sched_lat_findings.h"
#include "analyze/timeline/sched_latency.h"
#include "analyze/timeline/sched_findings.h"
#include "analyze/session_info.h"
#include "analyze/timeline/tl_load.h"
#include "analyze/unseen.h"
#include "lib/alloc.h"
#include "lib/stats.h"
#include "lib/strbuf.h"

/* What lost events make of sched's figures. */
#define SCHED_DOUBTFUL "switch counts and rates are lower bounds on the CPUs that lost events, " \
	"run, idle times and CPU shares there are unknown (a lost switch leaves the time with the task " \
	"before it), wakeup latencies whose wakeup or switch-in was lost are missing or too long"

/* The per-CPU rate columns, in order. */
static const char *const rate_cols[] = { "per_sec", "same_mm_per_sec", "other_mm_per_sec",
	"idle_kthread_per_sec", "unknown_per_sec" };

/* window_of(o, s, t0, t1): the window counted in session s. */
static void window_of(const struct sched_opts *o, const struct tl_session *s, int64_t *t0, int64_t *t1)
{
	*t0 = o->t0 > s->first_time ? o->t0 : s->first_time;
	*t1 = o->t1 < s->last_time ? o->t1 : s->last_time;
	if (*t1 < *t0)
		*t1 = *t0;
}

/* The consumer of one session's streamed events: the accounting and, with
 * --latency, the latencies. */
struct measure {
	struct sched_acc acc;
	struct lat_acc lat;
	bool latency;
	const struct tl_session *s;
	int64_t t0, t1, lat_t0, lat_t1;
};

/* measure_begin(m): starts both measures of m->s. */
static void measure_begin(struct measure *m)
{
	sched_begin(&m->acc, &m->s->ident, m->s->ncpus, true, m->t0, m->t1);
	if (m->latency)
		lat_begin(&m->lat, m->s->has_waking, m->lat_t0, m->lat_t1);
}

/* measure_event, measure_restart: struct tl_feed's, over a measure. */
static void measure_event(void *ctx, const struct tl_event *e)
{
	struct measure *m = ctx;
	sched_feed(&m->acc, e);
	if (m->latency)
		lat_feed(&m->lat, e);
}

static void measure_restart(void *ctx)
{
	struct measure *m = ctx;
	sched_acc_free(&m->acc);
	if (m->latency)
		lat_acc_free(&m->lat);
	measure_begin(m);
}

/* load_account(db, o, id, latency, s, r, ls, err, errlen): opens session
 * id into s and accounts its streamed events into r (and with latency
 * its wakeup latencies into ls). 0 or -1 with err set. */
static int load_account(sqlite3 *db, const struct sched_opts *o, int64_t id, bool latency,
			struct tl_session *s, struct sched_result *r, struct lat_session *ls,
			char *err, size_t errlen)
{
	struct measure m = { .latency = latency, .s = s, .lat_t0 = o->t0, .lat_t1 = o->t1 };
	struct tl_feed f = { measure_event, measure_restart, &m };
	if (tl_open(db, id, LOAD_SCHED, s, err, errlen))
		return -1;
	window_of(o, s, &m.t0, &m.t1);
	measure_begin(&m);
	if (tl_stream(db, s, LOAD_SCHED, &f, err, errlen)) {
		sched_acc_free(&m.acc);
		if (latency)
			lat_acc_free(&m.lat);
		tl_session_free(s);
		return -1;
	}
	sched_finish(&m.acc, s->ncpus, r);
	if (latency)
		*ls = (struct lat_session){ s, NULL, 0 }, ls->n = lat_finish(&m.lat, &ls->v);
	return 0;
}

/* Sums over sessions for the per-CPU table. A CPU a session's perf
 * command line left out (-C) adds nothing of that session: its count of
 * sessions that recorded it says whether its zeros were measured. */
struct cpu_acc {
	struct sched_cpu *cpus;
	double *secs;		/* per CPU: the windows of the sessions that recorded it */
	int *recorded;		/* per CPU: how many sessions recorded it */
	long long *lost;	/* per CPU: events perf lost there in the window */
	int ncpus;
	double seconds;
};

/* cpu_acc_grow(a, n): a holds n CPUs or more. */
static void cpu_acc_grow(struct cpu_acc *a, int n)
{
	if (n <= a->ncpus)
		return;
	a->cpus = xreallocarray(a->cpus, (size_t)n, sizeof(*a->cpus));
	a->secs = xreallocarray(a->secs, (size_t)n, sizeof(*a->secs));
	a->recorded = xreallocarray(a->recorded, (size_t)n, sizeof(*a->recorded));
	a->lost = xreallocarray(a->lost, (size_t)n, sizeof(*a->lost));
	for (int c = a->ncpus; c < n; c++) {
		a->cpus[c] = (struct sched_cpu){ 0 };
		a->secs[c] = 0;
		a->recorded[c] = 0;
		a->lost[c] = 0;
	}
	a->ncpus = n;
}

/* cpu_acc_add(a, r, scope): adds r's CPUs that scope recorded. */
static void cpu_acc_add(struct cpu_acc *a, const struct sched_result *r, const struct rec_scope *scope)
{
	double secs = (double)(r->t1 - r->t0) / 1e9;
	cpu_acc_grow(a, r->ncpus);
	for (int c = 0; c < r->ncpus; c++) {
		struct sched_cpu *d = &a->cpus[c];
		const struct sched_cpu *s = &r->cpus[c];
		if (!rec_scope_cpu(scope, c))
			continue;
		d->switches += s->switches;
		d->untraced += s->untraced;
		for (int k = 0; k < SW_N; k++)
			d->kind[k] += s->kind[k];
		d->mig_in += s->mig_in;
		d->mig_out += s->mig_out;
		d->idle_ns += s->idle_ns;
		a->secs[c] += secs;
		a->recorded[c]++;
	}
	a->seconds += secs;
}

/* cpu_acc_free(a): frees a's arrays. */
static void cpu_acc_free(struct cpu_acc *a)
{
	free(a->cpus);
	free(a->secs);
	free(a->recorded);
	free(a->lost);
}

/* nrecorded(a): how many of a's CPUs some session recorded. */
static int nrecorded(const struct cpu_acc *a)
{
	int n = 0;
	for (int c = 0; c < a->ncpus; c++)
		n += a->recorded[c] > 0;
	return n;
}

/* mean_secs(a): the seconds a mean over the recorded CPUs is per: their
 * common window, or the mean of their windows when sessions recorded
 * different CPUs. */
static double mean_secs(const struct cpu_acc *a)
{
	double sum = 0;
	int n = 0;
	bool same = true;
	for (int c = 0; c < a->ncpus; c++)
		if (a->recorded[c]) {
			same &= a->secs[c] == a->seconds;
			sum += a->secs[c];
			n++;
		}
	return same || !n ? a->seconds : sum / n;
}

/* per_sec(n, s): n per second over s seconds (0 when s is 0). */
static double per_sec(double n, double s)
{
	return s > 0 ? n / s : 0;
}

/* sum_of(cpus, n): every CPU's counts added up. */
static struct sched_cpu sum_of(const struct sched_cpu *cpus, int n)
{
	struct sched_cpu m = { 0 };
	for (int c = 0; c < n; c++) {
		m.switches += cpus[c].switches;
		m.untraced += cpus[c].untraced;
		for (int k = 0; k < SW_N; k++)
			m.kind[k] += cpus[c].kind[k];
		m.mig_in += cpus[c].mig_in;
		m.mig_out += cpus[c].mig_out;
		m.idle_ns += cpus[c].idle_ns;
	}
	return m;
}

/* cpu_row(t, cpu, c, n, seconds): one row of the per-CPU table; c sums
 * n CPUs (cpu < 0: the "mean" row, c divided by n, for people only). */
static void cpu_row(struct table *t, int cpu, const struct sched_cpu *c, int n, double seconds)
{
	double d = n > 0 ? n : 1;
	table_add_row(t);
	if (cpu >= 0) {
		table_set_int(t, 0, cpu);
	} else {
		table_set_str(t, 0, "mean");
		table_row_show(t, SHOW_HUMAN);
	}
	table_set_real(t, 1, (double)c->switches / d);
	table_set_real(t, 2, per_sec((double)c->switches / d, seconds));
	for (int k = 0; k < SW_N; k++)
		table_set_real(t, 3 + k, per_sec((double)c->kind[k] / d, seconds));
	table_set_real(t, 3 + SW_N, (double)c->mig_in / d);
	table_set_real(t, 4 + SW_N, (double)c->mig_out / d);
	table_set_real(t, 5 + SW_N, seconds > 0 ? 100.0 * (double)c->idle_ns / d / 1e9 / seconds : 0);
	table_set_real(t, 6 + SW_N, (double)c->untraced / d);
}

/* blind(a): whether some CPU of a was not recorded or lost events: the
 * table then says which (columns unseen, lost_events). */
static bool blind(const struct cpu_acc *a)
{
	for (int c = 0; c < a->ncpus; c++)
		if (!a->recorded[c] || a->lost[c])
			return true;
	return false;
}

/* unseen_cell(t, a, c, col): why CPU c's row is not all measured (not
 * recorded, or what it lost) into the last row's columns col, col + 1. */
static void unseen_cell(struct table *t, const struct cpu_acc *a, int c, int col)
{
	if (!a->recorded[c])
		table_set_str(t, col, "not recorded");
	else if (a->lost[c])
		table_set_strf(t, col, "lost %lld events", a->lost[c]);
	if (a->recorded[c])
		table_set_int(t, col + 1, a->lost[c]);
}

/* no_migrations(t): the last row's migrations unknown (null). */
static void no_migrations(struct table *t)
{
	table_set_null(t, 3 + SW_N);
	table_set_null(t, 4 + SW_N);
}

/* cpu_table(a, title, mig): the per-CPU table, a mean row (over the
 * recorded CPUs) last; a CPU no session recorded has its row, every count
 * null; without mig (a session recorded no migrations) the migrations are
 * null. */
static struct table *cpu_table(const struct cpu_acc *a, const char *title, bool mig)
{
	struct table *t = table_new("cpus", title);
	int col = -1;
	table_col(t, "cpu", COL_INT, 0);
	table_col(t, "switches", COL_REAL, -1);
	for (int k = 0; k < 5; k++)
		table_col(t, rate_cols[k], COL_REAL, 1);
	table_col(t, "migrations_in", COL_REAL, -1);
	table_col(t, "migrations_out", COL_REAL, -1);
	table_col(t, "idle_pct", COL_PCT, 1);
	table_col(t, "untraced", COL_REAL, -1);
	if (blind(a)) {
		col = table_col(t, "unseen", COL_STR, 0);
		table_col_show(t, table_col(t, "lost_events", COL_INT, 0), SHOW_DATA);
	}
	if (blind(a) || !mig)
		table_null_text(t, "-");
	for (int c = 0; c < a->ncpus; c++) {
		if (a->recorded[c]) {
			cpu_row(t, c, &a->cpus[c], 1, a->secs[c]);
			if (!mig)
				no_migrations(t);
		} else {
			table_add_row(t);
			table_set_int(t, 0, c);
		}
		if (col >= 0)
			unseen_cell(t, a, c, col);
	}
	if (nrecorded(a)) {
		struct sched_cpu m = sum_of(a->cpus, a->ncpus);
		cpu_row(t, -1, &m, nrecorded(a), mean_secs(a));
		if (!mig)
			no_migrations(t);
	}
	return t;
}

/* One per-process row. */
struct proc_row {
	int64_t session, pid;
	const char *comm;	/* points into a kept session, or a literal */
	int ncpus;
	long long switches, threads;
	double per_sec, per_sec_per_cpu, run_s, cpu_pct;
};

/* threads_of(s, pid): how many thread rows process pid has. */
static long long threads_of(const struct tl_session *s, int64_t pid)
{
	long long n = 0;
	for (size_t i = 0; i < s->ident.nthreads; i++)
		n += s->ident.threads[i].pid == pid;
	return n;
}

/* proc_row_of(s, r, i, row): row for slot i of r; false when it has no
 * switch and no run time (or is the idle task). */
static bool proc_row_of(const struct tl_session *s, const struct sched_result *r, size_t i,
			struct proc_row *row)
{
	const struct sched_proc *p = &r->procs[i];
	const struct ident_proc *ip = i < s->ident.nprocs ? &s->ident.procs[i] : NULL;
	if ((!p->switches && !p->run_ns) || (ip && ip->pid == 0))
		return false;
	struct ident_proc whole = { .start = TIME_NONE, .end = INT64_MAX };
	double life = (double)sched_lifetime(ip ? ip : &whole, r->t0, r->t1) / 1e9;
	double win = (double)(r->t1 - r->t0) / 1e9;
	*row = (struct proc_row){ .session = s->id, .pid = ip ? ip->pid : -1,
		.comm = ip ? (ip->comm && *ip->comm ? ip->comm : "?") : "[unknown tasks]",
		.ncpus = p->ncpus_ran, .switches = p->switches,
		.threads = ip ? threads_of(s, ip->pid) : 0,
		.per_sec = per_sec((double)p->switches, win),
		.per_sec_per_cpu = per_sec((double)p->switches, life) / (p->ncpus_ran ? p->ncpus_ran : 1),
		.run_s = (double)p->run_ns / 1e9,
		.cpu_pct = life > 0 ? 100.0 * (double)p->run_ns / 1e9 / life : 0 };
	return true;
}

/* cmp_rows: processes by switches, then run time, descending. */
static int cmp_rows(const void *x, const void *y)
{
	const struct proc_row *a = x, *b = y;
	if (a->switches != b->switches)
		return a->switches < b->switches ? 1 : -1;
	return (a->run_s < b->run_s) - (a->run_s > b->run_s);
}

/* proc_table(rows, n, limit, multi): the per-process table. */
static struct table *proc_table(struct proc_row *rows, size_t n, long long limit, bool multi)
{
	struct table *t = table_new("processes", "Per process (mm): switches away from its threads");
	int cs = multi ? table_col(t, "session", COL_INT, 0) : -1;
	int c = table_col(t, "pid", COL_INT, 0);
	table_col(t, "comm", COL_STR, 0);
	table_col(t, "threads", COL_INT, 0);
	table_col(t, "cpus", COL_INT, 0);
	table_col(t, "switches", COL_INT, 0);
	table_col(t, "per_sec", COL_REAL, 1);
	table_col(t, "per_sec_per_cpu", COL_REAL, 1);
	table_col(t, "run_s", COL_REAL, 3);
	table_col(t, "cpu_pct", COL_PCT, 1);
	table_null_text(t, "-");
	if (n)
		qsort(rows, n, sizeof(*rows), cmp_rows);
	for (size_t i = 0; i < n && (!limit || (long long)i < limit); i++) {
		const struct proc_row *r = &rows[i];
		table_add_row(t);
		if (cs >= 0)
			table_set_int(t, cs, r->session);
		if (r->pid >= 0)
			table_set_int(t, c, r->pid);
		table_set_str(t, c + 1, r->comm);
		table_set_int(t, c + 2, r->threads);
		table_set_int(t, c + 3, r->ncpus);
		table_set_int(t, c + 4, r->switches);
		table_set_real(t, c + 5, r->per_sec);
		table_set_real(t, c + 6, r->per_sec_per_cpu);
		table_set_real(t, c + 7, r->run_s);
		table_set_real(t, c + 8, r->cpu_pct);
	}
	return t;
}

/* Everything a single-mode run keeps: the sessions (their comms back the
 * rows), the CPU sums, the process rows. */
struct single {
	struct tl_session *s;
	struct lat_session *lat;	/* with --latency, per session */
	struct rec_scope *scope;	/* per session: what perf recorded */
	int n;
	struct cpu_acc cpus;
	struct proc_row *rows;
	size_t nrows, cap;
	int64_t t0, t1;		/* window of the last session */
	long long lost_events, lost_samples;
};

/* single_add(g, s, r, scope): adds one accounted session's rows. */
static void single_add(struct single *g, const struct tl_session *s, const struct sched_result *r,
		       const struct rec_scope *scope)
{
	ALLOC_GROW(g->rows, g->nrows + r->nprocs, g->cap);
	for (size_t i = 0; i < r->nprocs; i++)
		g->nrows += proc_row_of(s, r, i, &g->rows[g->nrows]);
	g->t0 = r->t0;
	g->t1 = r->t1;
	cpu_acc_add(&g->cpus, r, scope);
}

/* scalars(g, d): the document's scalar findings. */
static void scalars(const struct single *g, struct doc *d)
{
	struct dval *f = doc_findings(d), *m;
	struct sched_cpu s = sum_of(g->cpus.cpus, g->cpus.ncpus);
	double n = nrecorded(&g->cpus) ? nrecorded(&g->cpus) : 1, secs = mean_secs(&g->cpus);
	dv_real(f, "seconds", g->cpus.seconds);
	dv_int(f, "start_ns", g->t0);
	dv_int(f, "end_ns", g->t1);
	dv_int(f, "lost_events", g->lost_events);
	dv_int(f, "lost_samples", g->lost_samples);
	m = dv_obj(f, "mean_per_cpu");
	dv_real(m, "switches", (double)s.switches / n);
	dv_real(m, "untraced", (double)s.untraced / n);
	dv_real(m, rate_cols[0], per_sec((double)s.switches / n, secs));
	for (int k = 0; k < SW_N; k++)
		dv_real(m, rate_cols[1 + k], per_sec((double)s.kind[k] / n, secs));
}

/* notes(g, d): what the numbers need said. */
static void notes(const struct single *g, struct doc *d)
{
	struct sched_cpu s = sum_of(g->cpus.cpus, g->cpus.ncpus);
	if (s.untraced)
		doc_note(d, "%lld switches the kernel did not trace were inferred from samples (a "
			 "CPU's sample of another task than the one it last switched to): they are "
			 "in untraced, not in switches or their kinds; idle and run time end or "
			 "start at those samples", s.untraced);
}

/* int_list(b, v, n): "1", "1, 3" into b. */
static void int_list(struct strbuf *b, const long long *v, int n)
{
	for (int i = 0; i < n; i++)
		sb_printf(b, "%s%lld", i ? ", " : "", v[i]);
}

/* not_recorded(s, scope, d): the warning for the CPUs of session s that
 * its -C left out, when there are any. */
static void not_recorded(const struct tl_session *s, const struct rec_scope *scope, struct doc *d)
{
	long long *v = xcalloc((size_t)s->ncpus + 1, sizeof(*v));
	int n = 0;
	for (int c = 0; c < s->ncpus; c++)
		if (!rec_scope_cpu(scope, c))
			v[n++] = c;
	if (n) {
		struct strbuf b = STRBUF_INIT;
		int_list(&b, v, n);
		struct dval *e = unseen(d, "cpus_not_recorded", "session %lld recorded only CPU%s %s "
			"(perf record -C %s): CPU%s %s %s not recorded, so %s switches, migrations, idle "
			"time and untraced switches are unknown (-), not 0; the mean is over the recorded "
			"CPUs, processes count only what ran on them, and a task whose exec or fork ran "
			"elsewhere is an unknown task", (long long)s->id, strchr(scope->cpus, ',') ||
			strchr(scope->cpus, '-') ? "s" : "", scope->cpus, scope->cpus, n > 1 ? "s" : "",
			sb_str(&b), n > 1 ? "were" : "was", n > 1 ? "their" : "its");
		struct dval *a;
		dv_int(e, "session", s->id);
		dv_str(e, "recorded", scope->cpus);
		a = dv_arr(e, "cpus");
		for (int i = 0; i < n; i++)
			dv_int(a, NULL, v[i]);
		sb_free(&b);
	}
	free(v);
}

/* scope_warn(s, scope, n, d): what sessions s[0..n) did not record: CPUs
 * outside -C, or, recorded per task, every other task. */
static void scope_warn(const struct tl_session *s, const struct rec_scope *scope, int n, struct doc *d)
{
	for (int i = 0; i < n; i++) {
		if (scope[i].kind == SCOPE_CPUS)
			not_recorded(&s[i], &scope[i], d);
		if (scope[i].kind == SCOPE_TASKS)
			dv_int(unseen(d, "recorded_per_task", "session %lld was recorded per task (perf "
				      "record of a workload, -p, -t or -u, without -a or -C): only the "
				      "switches away from its tasks were recorded; other tasks' "
				      "switches, idle time and the kinds of switch on each CPU were not "
				      "measured", (long long)s[i].id), "session", s[i].id);
	}
}

/* lost_zeros(a, d): the warning for recorded CPUs that show no switch in
 * the window but lost events there. */
static void lost_zeros(const struct cpu_acc *a, struct doc *d)
{
	long long *cpu = xcalloc((size_t)a->ncpus + 1, sizeof(*cpu));
	long long *lost = xcalloc((size_t)a->ncpus + 1, sizeof(*lost));
	int n = 0;
	for (int c = 0; c < a->ncpus; c++)
		if (a->recorded[c] && a->lost[c] && !a->cpus[c].switches) {
			cpu[n] = c;
			lost[n++] = a->lost[c];
		}
	if (n) {
		struct strbuf b = STRBUF_INIT, l = STRBUF_INIT;
		int_list(&b, cpu, n);
		int_list(&l, lost, n);
		struct dval *e = unseen(d, "cpus_lost", "CPU%s %s show%s 0 switches in the window, but "
			"perf lost %s events there (LOST records): %s 0 is what perf kept, not a "
			"measurement", n > 1 ? "s" : "", sb_str(&b), n > 1 ? "" : "s", sb_str(&l),
			n > 1 ? "their" : "its"), *x = dv_arr(e, "cpus"), *y = dv_arr(e, "lost_events");
		for (int i = 0; i < n; i++) {
			dv_int(x, NULL, cpu[i]);
			dv_int(y, NULL, lost[i]);
		}
		sb_free(&b);
		sb_free(&l);
	}
	free(cpu);
	free(lost);
}

/* secs_text(b, ns): ns as perf script prints times ("1217.362260143"). */
static void secs_text(struct strbuf *b, int64_t ns)
{
	if (ns < 0)
		sb_printf(b, "-%lld.%09lld", (long long)(-(ns / 1000000000)), (long long)-(ns % 1000000000));
	else
		sb_printf(b, "%lld.%09lld", (long long)(ns / 1000000000), (long long)(ns % 1000000000));
}

/* migrations(db, ids, n, left, d): whether every session of ids[0..n)
 * recorded sched_migrate_task; for each that did not, when d is not NULL,
 * the warning (left: what that makes of its migrations). */
static bool migrations(sqlite3 *db, const int64_t *ids, int n, const char *left, struct doc *d)
{
	bool all = true;
	for (int i = 0; i < n; i++) {
		if (session_recorded(db, ids[i], "sched:sched_migrate_task"))
			continue;
		all = false;
		if (d)
			dv_int(unseen(d, "no_migrations", "session %lld recorded no sched_migrate_task "
				      "events: its migrations were not measured, %s (record them with "
				      "perfdb record -r sched)", (long long)ids[i], left), "session", ids[i]);
	}
	return all;
}

/* outside(s, o, d): the warning for a --time window that misses session
 * s's recording: its zeros are no measurement. */
static void outside(const struct tl_session *s, const struct sched_opts *o, struct doc *d)
{
	struct strbuf w = STRBUF_INIT, r = STRBUF_INIT;
	if (o->t0 <= s->last_time && o->t1 >= s->first_time)
		return;
	if (o->t0 != INT64_MIN)
		secs_text(&w, o->t0);
	sb_puts(&w, ",");
	if (o->t1 != INT64_MAX)
		secs_text(&w, o->t1);
	secs_text(&r, s->first_time);
	sb_puts(&r, ",");
	secs_text(&r, s->last_time);
	struct dval *e = unseen(d, "window_outside", "the window %s lies outside session %lld's "
		"recording (%s, perf-clock seconds): nothing was recorded then, so its zeros are no "
		"measurement", sb_str(&w), (long long)s->id, sb_str(&r));
	dv_int(e, "session", s->id);
	dv_int(e, "first_ns", s->first_time);
	dv_int(e, "last_ns", s->last_time);
	sb_free(&w);
	sb_free(&r);
}

/* no_wakeups(db, id, d): with --latency, the warning for a session that
 * recorded none of the events a wait can begin with. */
static void no_wakeups(sqlite3 *db, int64_t id, struct doc *d)
{
	bool woken = session_recorded(db, id, "sched:sched_waking") ||
		     session_recorded(db, id, "sched:sched_wakeup");
	bool born = session_recorded(db, id, "sched:sched_wakeup_new");
	if (!woken)
		dv_int(unseen(d, "no_wakeups", "session %lld recorded no sched_waking or sched_wakeup "
			      "events: the waits that begin with a wakeup are not seen, only those of "
			      "tasks switched away still runnable, so its latency counts, means and "
			      "maxima are not measured (record them with perfdb record -r sched)",
			      (long long)id), "session", id);
	if (!born)
		dv_int(unseen(d, "no_wakeup_new", "session %lld recorded no sched_wakeup_new events: a "
			      "new task's first wait (from its fork to its first run) counts as 0 "
			      "without being measured (record them with perfdb record -r sched)",
			      (long long)id), "session", id);
}

/* single_free(g): frees what g holds. */
static void single_free(struct single *g)
{
	for (int i = 0; i < g->n; i++) {
		tl_session_free(&g->s[i]);
		free(g->lat[i].v);
	}
	free(g->s);
	free(g->lat);
	free(g->scope);
	free(g->rows);
	cpu_acc_free(&g->cpus);
}

/* sched_findings: see sched_findings.h. */
int sched_findings(sqlite3 *db, const int64_t *ids, int n, const struct sched_opts *o,
		   struct doc *d, char *err, size_t errlen)
{
	struct single g = { .s = xcalloc((size_t)n, sizeof(*g.s)),
			    .lat = xcalloc((size_t)n, sizeof(*g.lat)),
			    .scope = xcalloc((size_t)n, sizeof(*g.scope)) };
	for (int i = 0; i < n; i++) {
		struct sched_result r;
		if (load_account(db, o, ids[i], o->latency, &g.s[i], &r, &g.lat[i], err, errlen)) {
			single_free(&g);
			return -1;
		}
		g.n++;
		g.lost_events += g.s[i].lost_events;
		g.lost_samples += g.s[i].lost_samples;
		rec_scope_of(db, ids[i], &g.scope[i]);
		single_add(&g, &g.s[i], &r, &g.scope[i]);
		sched_result_free(&r);
	}
	lost_cpus(db, ids, n, o->t0, o->t1, g.cpus.lost, g.cpus.ncpus);
	char *desc = session_desc(db, ids, n), *title;
	title = xasprintf("Context switches per CPU: %s, %.3f s", desc, g.cpus.seconds);
	bool mig = migrations(db, ids, n, NULL, NULL);
	scalars(&g, d);
	dv_table(doc_findings(d), cpu_table(&g.cpus, title, mig));
	dv_table(doc_findings(d), proc_table(g.rows, g.nrows, o->rows, n > 1));
	doc_set_main(d, "cpus");
	if (o->latency) {
		sched_latency_tables(doc_findings(d), g.lat, g.n, o->rows);
		doc_set_main(d, "latency");
	}
	lost_note(db, ids, n, o->t0, o->t1, SCHED_DOUBTFUL, d);
	migrations(db, ids, n, "so they are unknown (-), not 0", d);
	for (int i = 0; i < n; i++)
		outside(&g.s[i], o, d);
	scope_warn(g.s, g.scope, n, d);
	lost_zeros(&g.cpus, d);
	for (int i = 0; i < n && o->latency; i++)
		no_wakeups(db, ids[i], d);
	notes(&g, d);
	free(title);
	free(desc);
	single_free(&g);
	return 0;
}

/* One session's comparable metrics: the per-CPU means and per-comm
 * figures. */
struct metrics {
	double cpu[SW_N + 2];	/* switches/s, by kind/s, migrations/s (means per CPU) */
	char **comm;
	double *comm_rate, *comm_run;
	size_t ncomm, cap;
};

/* metrics_comm(m, comm): index of comm in m, added when new. */
static size_t metrics_comm(struct metrics *m, const char *comm)
{
	size_t cap = m->cap;
	for (size_t i = 0; i < m->ncomm; i++)
		if (!strcmp(m->comm[i], comm))
			return i;
	ALLOC_GROW(m->comm, m->ncomm + 1, m->cap);
	if (m->cap != cap) {
		m->comm_rate = xreallocarray(m->comm_rate, m->cap, sizeof(double));
		m->comm_run = xreallocarray(m->comm_run, m->cap, sizeof(double));
	}
	m->comm[m->ncomm] = xstrdup(comm);
	m->comm_rate[m->ncomm] = m->comm_run[m->ncomm] = 0;
	return m->ncomm++;
}

/* metrics_of(s, r, scope, m): the metrics of one accounted session, its
 * means per CPU over the CPUs it recorded. */
static void metrics_of(const struct tl_session *s, const struct sched_result *r,
		       const struct rec_scope *scope, struct metrics *m)
{
	struct cpu_acc a = { 0 };
	cpu_acc_add(&a, r, scope);
	double secs = (double)(r->t1 - r->t0) / 1e9, d = nrecorded(&a) ? nrecorded(&a) : 1;
	struct sched_cpu sum = sum_of(a.cpus, a.ncpus);
	cpu_acc_free(&a);
	memset(m, 0, sizeof(*m));
	m->cpu[0] = per_sec((double)sum.switches / d, secs);
	for (int k = 0; k < SW_N; k++)
		m->cpu[1 + k] = per_sec((double)sum.kind[k] / d, secs);
	m->cpu[SW_N + 1] = per_sec((double)sum.mig_in / d, secs);
	for (size_t i = 0; i < r->nprocs; i++) {
		struct proc_row row;
		if (!proc_row_of(s, r, i, &row))
			continue;
		size_t k = metrics_comm(m, row.comm);
		m->comm_rate[k] += row.per_sec;
		m->comm_run[k] += row.run_s;
	}
}

/* metrics_free(m): frees m's arrays. */
static void metrics_free(struct metrics *m)
{
	for (size_t i = 0; i < m->ncomm; i++)
		free(m->comm[i]);
	free(m->comm);
	free(m->comm_rate);
	free(m->comm_run);
}

/* One side of a comparison: its sessions' metrics. */
struct side {
	const struct sched_side *in;
	int n;
	struct metrics *m;
	bool mig;		/* every session recorded its migrations */
};

/* side_load(db, o, in, sd, d, err, errlen): loads and measures every
 * session of a side, warning in d of what each did not record. 0 or -1. */
static int side_load(sqlite3 *db, const struct sched_opts *o, const struct sched_side *in,
		     struct side *sd, struct doc *d, char *err, size_t errlen)
{
	sd->in = in;
	sd->n = 0;
	sd->m = xcalloc((size_t)in->n, sizeof(*sd->m));
	sd->mig = migrations(db, in->ids, in->n, "so the migrations row is left out", d);
	for (int i = 0; i < in->n; i++) {
		struct tl_session s;
		struct sched_result r;
		struct rec_scope scope;
		if (load_account(db, o, in->ids[i], false, &s, &r, NULL, err, errlen))
			return -1;
		rec_scope_of(db, in->ids[i], &scope);
		metrics_of(&s, &r, &scope, &sd->m[sd->n++]);
		scope_warn(&s, &scope, 1, d);
		sched_result_free(&r);
		tl_session_free(&s);
	}
	return 0;
}

/* comm_value(m, comm, run): comm's run time (run) or switches per second in
 * a session; 0 when it did not run. */
static double comm_value(const struct metrics *m, const char *comm, bool run)
{
	for (size_t i = 0; i < m->ncomm; i++)
		if (!strcmp(m->comm[i], comm))
			return run ? m->comm_run[i] : m->comm_rate[i];
	return 0;
}

/* What a median is taken of: a per-CPU metric (k >= 0) or a comm's rate
 * or run time. */
struct what {
	int k;
	const char *comm;
	bool run;
};

/* values_of(sd, w, v): metric w of each of sd's sessions into v. */
static void values_of(const struct side *sd, struct what w, double *v)
{
	for (int i = 0; i < sd->n; i++)
		v[i] = w.k >= 0 ? sd->m[i].cpu[w.k] : comm_value(&sd->m[i], w.comm, w.run);
}

/* median_of(sd, w): the median over sd's sessions of metric w. */
static double median_of(const struct side *sd, struct what w)
{
	double *v = xcalloc((size_t)sd->n + 1, sizeof(*v)), med;
	values_of(sd, w, v);
	med = sd->n ? stats_median(v, (size_t)sd->n) : 0;
	free(v);
	return med;
}

/* The runs a side needs for an interval of a difference. */
#define SCHED_MIN_RUNS 3

/* The columns of the compare table. */
enum { C_METRIC, C_BASE, C_BMIN, C_BMAX, C_NEW, C_NMIN, C_NMAX, C_CHANGE, C_LO, C_HI, C_CI,
       C_SIG, C_STAR, C_BMED, C_NMED, C_MACH };

/* range_of(v, n, lo, hi): the smallest and largest of v[0..n). */
static void range_of(const double *v, int n, double *lo, double *hi)
{
	*lo = *hi = n ? v[0] : 0;
	for (int i = 1; i < n; i++) {
		*lo = v[i] < *lo ? v[i] : *lo;
		*hi = v[i] > *hi ? v[i] : *hi;
	}
}

/* decimals_for(x): decimals that show x with 3 significant digits, 1 to 6. */
static int decimals_for(double x)
{
	int d = x > 0 ? 3 - (int)ceil(log10(x)) : 1;
	return d < 1 ? 1 : d > 6 ? 6 : d;
}

/* idle(b, nw, w): whether metric w is 0 in every run of both sides. */
static bool idle(const struct side *b, const struct side *nw, struct what w)
{
	const struct side *sides[2] = { b, nw };
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < sides[k]->n; i++)
			if ((w.k >= 0 ? sides[k]->m[i].cpu[w.k] : comm_value(&sides[k]->m[i], w.comm, w.run)) != 0)
				return false;
	return true;
}

/* machine_could(mc, ci, mean): whether the machine could explain a
 * significant difference ci of the means (base's mean: mean): its own
 * change or drift (either way: a switch rate may rise or fall on a
 * slower machine), or a busy machine. */
static bool machine_could(const struct machine_cmp *mc, struct interval ci, double mean)
{
	bool pct = mean != 0 && isfinite(mean);
	double k = pct ? 100 / fabs(mean) : 1;
	return machine_explains(mc, 0, (struct interval){ ci.lo * k, ci.hi * k }, pct, true) != 0;
}

/* compare_row(t, what, b, nw, w, conf, mc): a row: metric, each side's
 * figure, median and range over its runs, the % change of the figures
 * and, with SCHED_MIN_RUNS runs a side, the t interval of the difference
 * of the means at level conf and the significance mark (none where the
 * machine mc could explain the change: machine_explains 1); the figures
 * are the means then (the interval is about them: a median may lie
 * outside it), else the medians. Nothing (false) when every run of both
 * sides is 0. */
static bool compare_row(struct table *t, const char *what, const struct side *b,
			const struct side *nw, struct what w, double conf, const struct machine_cmp *mc)
{
	double *vb = xcalloc((size_t)b->n + 1, sizeof(double)), *vn = xcalloc((size_t)nw->n + 1, sizeof(double));
	double bmin, bmax, nmin, nmax, mb, mn;
	if (idle(b, nw, w)) {
		free(vb);
		free(vn);
		return false;
	}
	values_of(b, w, vb);
	values_of(nw, w, vn);
	range_of(vb, b->n, &bmin, &bmax);
	range_of(vn, nw->n, &nmin, &nmax);
	bool means = b->n >= SCHED_MIN_RUNS && nw->n >= SCHED_MIN_RUNS;
	struct summary sb = stats_summary(vb, (size_t)b->n), sn = stats_summary(vn, (size_t)nw->n);
	double medb = b->n ? stats_median(vb, (size_t)b->n) : 0;
	double medn = nw->n ? stats_median(vn, (size_t)nw->n) : 0;
	mb = means ? sb.mean : medb;
	mn = means ? sn.mean : medn;
	table_add_row(t);
	table_set_str(t, C_METRIC, what);
	table_set_real(t, C_BMED, medb);
	table_set_real(t, C_NMED, medn);
	table_set_real(t, C_BASE, mb);
	table_set_real(t, C_BMIN, bmin);
	table_set_real(t, C_BMAX, bmax);
	table_set_real(t, C_NEW, mn);
	table_set_real(t, C_NMIN, nmin);
	table_set_real(t, C_NMAX, nmax);
	if (mb != 0)
		table_set_real(t, C_CHANGE, 100.0 * (mn - mb) / mb);
	if (means) {
		if (sb.var > 0 || sn.var > 0) {
			struct interval ci = stats_t_diff(sb, sn, b->n == nw->n, conf);
			bool sig = stats_excludes(ci, 0), mach = sig && machine_could(mc, ci, sb.mean);
			table_set_real(t, C_LO, ci.lo);
			table_set_real(t, C_HI, ci.hi);
			int dec = decimals_for(fmax(fabs(ci.lo), fabs(ci.hi)));
			table_set_strf(t, C_CI, "[%+.*f, %+.*f]", dec, ci.lo, dec, ci.hi);
			table_set_int(t, C_SIG, sig);
			table_set_str(t, C_STAR, sig && !mach ? "*" : "");
			table_set_int(t, C_MACH, mach);
		} else {
			table_set_str(t, C_CI, "no spread");
			table_set_int(t, C_SIG, 0);
		}
	}
	free(vb);
	free(vn);
	return true;
}

/* A comm and its score, for top_comms. */
struct scored {
	const char *name;
	double score;
};

/* cmp_scored: by score, descending. */
static int cmp_scored(const void *x, const void *y)
{
	const struct scored *a = x, *b = y;
	return (a->score < b->score) - (a->score > b->score);
}

/* top_comms(b, nw, limit, out): the comms with the most switches (by the
 * base and new medians), at most limit (0: all); returns how many. */
static size_t top_comms(const struct side *b, const struct side *nw, long long limit,
			struct scored **out)
{
	size_t n = 0, cap = 0;
	struct scored *v = NULL;
	const struct side *sides[2] = { b, nw };
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < sides[k]->n; i++)
			for (size_t c = 0; c < sides[k]->m[i].ncomm; c++) {
				const char *name = sides[k]->m[i].comm[c];
				size_t j = 0;
				while (j < n && strcmp(v[j].name, name))
					j++;
				if (j < n)
					continue;
				ALLOC_GROW(v, n + 1, cap);
				struct what w = { -1, name, false };
				v[n++] = (struct scored){ name, median_of(b, w) + median_of(nw, w) };
			}
	if (n)
		qsort(v, n, sizeof(*v), cmp_scored);
	*out = v;
	return limit && (size_t)limit < n ? (size_t)limit : n;
}

/* compare_cols(t): the compare table's columns (C_*). */
static void compare_cols(struct table *t)
{
	table_col(t, "metric", COL_STR, 0);
	for (int c = C_BASE; c <= C_NMAX; c++) {
		static const char *const names[] = { "base", "base_min", "base_max", "new", "new_min",
			"new_max" };
		table_col_digits(t, table_col(t, names[c - C_BASE], COL_REAL, 1), 2);
	}
	table_col(t, "change_pct", COL_PCT, 2);
	table_col_show(t, table_col(t, "ci95_low", COL_REAL, -1), SHOW_DATA);
	table_col_show(t, table_col(t, "ci95_high", COL_REAL, -1), SHOW_DATA);
	table_col_show(t, table_col(t, "interval", COL_STR, 0), SHOW_HUMAN);
	table_col_show(t, table_col(t, "significant", COL_BOOL, 0), SHOW_DATA);
	table_col_show(t, table_col(t, "star", COL_STR, 0), SHOW_HUMAN);
	table_col_label(t, C_CI, "95% interval new-base");
	table_col_label(t, C_STAR, "");
	for (int c = C_BMED; c <= C_NMED; c++) {	/* the JSON's; text shows the figures */
		int col = table_col(t, c == C_BMED ? "base_median" : "new_median", COL_REAL, 1);
		table_col_digits(t, col, 2);
		table_col_show(t, col, SHOW_DATA);
	}
	table_col_show(t, table_col(t, "machine_explains", COL_INT, 0), SHOW_DATA);
	table_null_text(t, "-");
}

/* shown(b, nw, k): whether per-CPU metric k gets a row: it is not 0 in
 * every run of both sides, and, for migrations, both sides measured them. */
static bool shown(const struct side *b, const struct side *nw, int k)
{
	return !idle(b, nw, (struct what){ k, NULL, false }) && (k != SW_N + 1 || (b->mig && nw->mig));
}

/* compare_table(b, nw, o, mc): the side-by-side table. The intervals are
 * simultaneous over the metrics compared (Bonferroni: each at level
 * 1 - 0.05 / rows); mc: the machine's change between the sides. */
static struct table *compare_table(const struct side *b, const struct side *nw, const struct sched_opts *o,
				   const struct machine_cmp *mc)
{
	static const char *const cpu_names[] = { "switches/s per CPU", "same-mm switches/s per CPU",
		"other-mm switches/s per CPU", "idle/kthread switches/s per CPU",
		"unknown-task switches/s per CPU", "migrations/s per CPU" };
	bool means = b->n >= SCHED_MIN_RUNS && nw->n >= SCHED_MIN_RUNS;
	char *title = xasprintf("Context switches: base %s (%d run%s) vs new %s (%d run%s), %s "
				"and ranges over the runs", b->in->label, b->n, b->n == 1 ? "" : "s",
				nw->in->label, nw->n, nw->n == 1 ? "" : "s", means ? "means" : "medians");
	struct table *t = table_new("compare", title);
	struct scored *comms;
	free(title);
	compare_cols(t);
	size_t nc = top_comms(b, nw, o->rows, &comms), rows = 0;
	for (int k = 0; k < SW_N + 2; k++)
		rows += shown(b, nw, k);
	for (size_t i = 0; i < nc; i++)
		rows += !idle(b, nw, (struct what){ -1, comms[i].name, false }) +
			!idle(b, nw, (struct what){ -1, comms[i].name, true });
	double conf = 1 - 0.05 / (double)(rows ? rows : 1);
	for (int k = 0; k < SW_N + 2; k++) {
		struct what w = { k, NULL, false };
		if (shown(b, nw, k))
			compare_row(t, cpu_names[k], b, nw, w, conf, mc);
	}
	for (size_t i = 0; i < nc; i++) {
		char *what = xasprintf("%s switches/s", comms[i].name);
		struct what rate = { -1, comms[i].name, false }, run = { -1, comms[i].name, true };
		compare_row(t, what, b, nw, rate, conf, mc);
		free(what);
		what = xasprintf("%s run s", comms[i].name);
		compare_row(t, what, b, nw, run, conf, mc);
		free(what);
	}
	free(comms);
	if (means)
		table_caption(t, "base, new: means over the runs, change: of the means; interval: Student's (equal run counts) or Welch's t interval of the "
			      "difference of the means, simultaneous over the %zu metrics (Bonferroni); "
			      "* where it excludes 0 and the machine's own change, drift or load could not "
			      "explain the change", rows);
	else
		table_caption(t, "base, new: medians over the runs, change: of the medians; no "
			      "intervals: they need %d or more runs on each side", SCHED_MIN_RUNS);
	return t;
}

/* side_free(sd): frees a side's metrics. */
static void side_free(struct side *sd)
{
	for (int i = 0; i < sd->n; i++)
		metrics_free(&sd->m[i]);
	free(sd->m);
}

/* compare_machine(db, base, new, mc, d): the machine's own change from
 * the base side's recordings to the new side's (their pulse and load),
 * its warnings and findings. */
static void compare_machine(sqlite3 *db, const struct sched_side *base, const struct sched_side *new,
			    struct machine_cmp *mc, struct doc *d)
{
	struct machine_side m[2];
	machine_side_of_sessions(db, base->ids, base->n, &m[0]);
	machine_side_of_sessions(db, new->ids, new->n, &m[1]);
	machine_compare(&m[0], &m[1], mc);
	machine_side_free(&m[0]);
	machine_side_free(&m[1]);
	machine_warn(mc, d, "recordings", base->label, new->label);
	machine_warn_busy(mc, d, "recordings", base->label, new->label, "no change within twice "
			  "that share of 0 is marked (machine_explains 1); record on a quiet machine");
	machine_json(mc, dv_obj(doc_findings(d), "machine_verdict"));
}

/* sched_compare_findings: see sched_findings.h. */
int sched_compare_findings(sqlite3 *db, const struct sched_side *base, const struct sched_side *new,
			   const struct sched_opts *o, struct doc *d, char *err, size_t errlen)
{
	struct side b = { 0 }, nw = { 0 };
	int rc = side_load(db, o, base, &b, d, err, errlen);
	if (!rc)
		rc = side_load(db, o, new, &nw, d, err, errlen);
	if (!rc) {
		struct dval *f = doc_findings(d);
		struct machine_cmp mc;
		compare_machine(db, base, new, &mc, d);
		dv_str(f, "base", base->label);
		dv_int(f, "base_runs", b.n);
		dv_str(f, "new", new->label);
		dv_int(f, "new_runs", nw.n);
		dv_table(f, compare_table(&b, &nw, o, &mc));
	}
	side_free(&b);
	side_free(&nw);
	return rc;
}
