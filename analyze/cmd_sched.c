/* perfdb sched: context switches per second per CPU and per process.
 *   perfdb sched [DB] [-s SESSION] [--time START,END] [--limit N] [--format F]
 *   perfdb sched [DB] --base LABEL --new LABEL [--limit N] [--format F]
 * Per CPU: switches per second split by the address spaces on both sides
 * (same mm, other mm, idle or kernel thread, unknown task), migrations in
 * and out, idle time, switches the kernel did not trace (inferred from
 * samples, see sched.h: untraced); per process: switches away from its threads per
 * second (over the window, and per CPU it ran on over its lifetime), run
 * time. With --base/--new: the medians over each label's sessions side by
 * side with the % change. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "analyze/sched.h"
#include "analyze/tl_load.h"
#include "analyze/verb.h"
#include "schema/db.h"
#include "reports/legacy_table.h"

static const char usage_text[] =
	"usage: perfdb sched [DB] [-s SESSION] [--time START,END] [--limit N]\n"
	"                    [--format text|md|csv|json]\n"
	"       perfdb sched [DB] --base LABEL --new LABEL [--limit N] [--format F]\n"
	"  -s, --session S  session id or label (several sessions: rows for each,\n"
	"                   per-CPU rates over their summed time); default: latest\n"
	"  --time A,B       count only [A, B], in seconds on the perf clock (as\n"
	"                   perf script prints them); either side may be empty\n"
	"  --base L --new L compare the medians over two labels' sessions\n"
	"  -n, --limit N    process rows (default 20, 0: all)\n"
	"  -f, --format F   text (default), md, csv or json\n";

struct opts {
	const char *db, *session, *base, *newer;
	enum out_format fmt;
	int64_t t0, t1; /* --time, or INT64_MIN / INT64_MAX */
	long limit;
};

/* The per-CPU rate columns, in order. */
static const char *const rate_cols[] = { "per_sec", "same_mm_per_sec", "other_mm_per_sec",
	"idle_kthread_per_sec", "unknown_per_sec" };

/* window_of(o, s, t0, t1): the window counted in session s. */
static void window_of(const struct opts *o, const struct tl_session *s, int64_t *t0, int64_t *t1)
{
	*t0 = o->t0 > s->first_time ? o->t0 : s->first_time;
	*t1 = o->t1 < s->last_time ? o->t1 : s->last_time;
	if (*t1 < *t0)
		*t1 = *t0;
}

/* load_account(db, o, id, s, r): loads session id and accounts it. 0, or
 * EXIT_FAIL with a message printed. */
static int load_account(sqlite3 *db, const struct opts *o, int64_t id, struct tl_session *s,
			struct sched_result *r)
{
	char err[512];
	int64_t t0, t1;
	if (tl_load(db, id, LOAD_SCHED, s, err, sizeof(err))) {
		fprintf(stderr, "perfdb: %s: %s\n", o->db, err);
		return EXIT_FAIL;
	}
	window_of(o, s, &t0, &t1);
	if (sched_account(s->ev, s->nev, &s->ident, s->ncpus, t0, t1, r)) {
		fputs("perfdb: out of memory\n", stderr);
		tl_session_free(s);
		return EXIT_FAIL;
	}
	return 0;
}

/* Sums over sessions for the per-CPU table. */
struct cpu_acc {
	struct sched_cpu *cpus;
	int ncpus;
	double seconds;
	bool no_switch;
	long long lost;
};

/* cpu_acc_add(a, r): adds r's CPUs. -1 when out of memory. */
static int cpu_acc_add(struct cpu_acc *a, const struct sched_result *r)
{
	if (r->ncpus > a->ncpus) {
		struct sched_cpu *v = realloc(a->cpus, (size_t)r->ncpus * sizeof(*v));
		if (!v)
			return -1;
		memset(v + a->ncpus, 0, (size_t)(r->ncpus - a->ncpus) * sizeof(*v));
		a->cpus = v;
		a->ncpus = r->ncpus;
	}
	for (int c = 0; c < r->ncpus; c++) {
		struct sched_cpu *d = &a->cpus[c];
		const struct sched_cpu *s = &r->cpus[c];
		d->switches += s->switches;
		d->untraced += s->untraced;
		for (int k = 0; k < SW_N; k++)
			d->kind[k] += s->kind[k];
		d->mig_in += s->mig_in;
		d->mig_out += s->mig_out;
		d->idle_ns += s->idle_ns;
	}
	a->seconds += (double)(r->t1 - r->t0) / 1e9;
	return 0;
}

/* per_sec(n, s): n per second over s seconds (0 when s is 0). */
static double per_sec(double n, double s)
{
	return s > 0 ? n / s : 0;
}

/* cpu_row(t, cpu, c, n, seconds): one row of the per-CPU table; c sums
 * n CPUs (cpu < 0: the "mean" row, c divided by n). */
static void cpu_row(struct ltable *t, int cpu, const struct sched_cpu *c, int n, double seconds)
{
	double d = n > 0 ? n : 1;
	lt_add_row(t);
	if (cpu >= 0)
		lt_set_int(t, 0, cpu);
	else
		lt_set_str(t, 0, "mean");
	if (n == 1)
		lt_set_int(t, 1, c->switches);
	else
		lt_set_real(t, 1, (double)c->switches / d);
	lt_set_real(t, 2, per_sec((double)c->switches / d, seconds));
	for (int k = 0; k < SW_N; k++)
		lt_set_real(t, 3 + k, per_sec((double)c->kind[k] / d, seconds));
	if (n == 1) {
		lt_set_int(t, 3 + SW_N, c->mig_in);
		lt_set_int(t, 4 + SW_N, c->mig_out);
	} else {
		lt_set_real(t, 3 + SW_N, (double)c->mig_in / d);
		lt_set_real(t, 4 + SW_N, (double)c->mig_out / d);
	}
	lt_set_real(t, 5 + SW_N, seconds > 0 ? 100.0 * (double)c->idle_ns / d / 1e9 / seconds : 0);
	if (n == 1)
		lt_set_int(t, 6 + SW_N, c->untraced);
	else
		lt_set_real(t, 6 + SW_N, (double)c->untraced / d);
}

/* mean_of(a): the sum of every CPU's counts. */
static struct sched_cpu mean_of(const struct cpu_acc *a)
{
	struct sched_cpu m = { 0 };
	for (int c = 0; c < a->ncpus; c++) {
		m.switches += a->cpus[c].switches;
		m.untraced += a->cpus[c].untraced;
		for (int k = 0; k < SW_N; k++)
			m.kind[k] += a->cpus[c].kind[k];
		m.mig_in += a->cpus[c].mig_in;
		m.mig_out += a->cpus[c].mig_out;
		m.idle_ns += a->cpus[c].idle_ns;
	}
	return m;
}

/* cpu_table(a, title, with_mean): the per-CPU table. */
static struct ltable *cpu_table(const struct cpu_acc *a, const char *title, bool with_mean)
{
	struct ltable *t = lt_new(title);
	lt_col(t, "cpu", COL_INT, 0);
	lt_col(t, "switches", COL_INT, 0);
	for (int k = 0; k < 5; k++)
		lt_col(t, rate_cols[k], COL_REAL, 1);
	lt_col(t, "migrations_in", COL_INT, 0);
	lt_col(t, "migrations_out", COL_INT, 0);
	lt_col(t, "idle_pct", COL_PCT, 1);
	lt_col(t, "untraced", COL_INT, 0);
	for (int c = 0; c < a->ncpus; c++)
		cpu_row(t, c, &a->cpus[c], 1, a->seconds);
	if (with_mean && a->ncpus) {
		struct sched_cpu m = mean_of(a);
		cpu_row(t, -1, &m, a->ncpus, a->seconds);
	}
	return t;
}

/* One per-process row. */
struct proc_row {
	int64_t session, pid;
	const char *comm; /* points into a kept session, or a literal */
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
		.comm = ip ? (ip->comm ? ip->comm : "?") : "[unknown tasks]",
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

/* proc_table(rows, n, o, multi): the per-process table. */
static struct ltable *proc_table(struct proc_row *rows, size_t n, const struct opts *o, bool multi)
{
	struct ltable *t = lt_new("Per process (mm): switches away from its threads");
	int cs = multi ? lt_col(t, "session", COL_INT, 0) : -1;
	lt_col(t, "pid", COL_INT, 0);
	lt_col(t, "comm", COL_STR, 0);
	lt_col(t, "threads", COL_INT, 0);
	lt_col(t, "cpus", COL_INT, 0);
	lt_col(t, "switches", COL_INT, 0);
	lt_col(t, "per_sec", COL_REAL, 1);
	lt_col(t, "per_sec_per_cpu", COL_REAL, 1);
	lt_col(t, "run_s", COL_REAL, 3);
	lt_col(t, "cpu_pct", COL_PCT, 1);
	lt_null_text(t, "-");
	if (n)
		qsort(rows, n, sizeof(*rows), cmp_rows);
	for (size_t i = 0; i < n && (!o->limit || (long)i < o->limit); i++) {
		const struct proc_row *r = &rows[i];
		int c = cs >= 0 ? 1 : 0;
		lt_add_row(t);
		if (cs >= 0)
			lt_set_int(t, cs, r->session);
		if (r->pid >= 0)
			lt_set_int(t, c, r->pid);
		lt_set_str(t, c + 1, r->comm);
		lt_set_int(t, c + 2, r->threads);
		lt_set_int(t, c + 3, r->ncpus);
		lt_set_int(t, c + 4, r->switches);
		lt_set_real(t, c + 5, r->per_sec);
		lt_set_real(t, c + 6, r->per_sec_per_cpu);
		lt_set_real(t, c + 7, r->run_s);
		lt_set_real(t, c + 8, r->cpu_pct);
	}
	return t;
}

/* Everything a single-mode run keeps: the sessions (their comms back the
 * rows), the CPU sums, the process rows. */
struct single {
	struct tl_session *s;
	int n;
	struct cpu_acc cpus;
	struct proc_row *rows;
	size_t nrows;
	int64_t t0, t1; /* window of the last session */
};

/* single_add(g, s, r): adds one accounted session's rows. -1 on OOM. */
static int single_add(struct single *g, const struct tl_session *s, const struct sched_result *r)
{
	struct proc_row *v = realloc(g->rows, (g->nrows + r->nprocs) * sizeof(*v));
	if (!v)
		return -1;
	g->rows = v;
	for (size_t i = 0; i < r->nprocs; i++)
		g->nrows += proc_row_of(s, r, i, &g->rows[g->nrows]);
	g->cpus.no_switch |= !s->has_switch;
	g->cpus.lost += s->lost;
	g->t0 = r->t0;
	g->t1 = r->t1;
	return cpu_acc_add(&g->cpus, r);
}

/* single_json(g, ts, ids, n): the JSON document of a single-mode run. */
static void single_json(const struct single *g, struct ltable **ts, const int64_t *ids, int n)
{
	struct json *j = json_new(stdout, true);
	struct sched_cpu m = mean_of(&g->cpus);
	double d = g->cpus.ncpus ? g->cpus.ncpus : 1;
	json_begin_object(j);
	json_key(j, "sessions");
	json_begin_array(j);
	for (int i = 0; i < n; i++)
		json_int(j, ids[i]);
	json_end_array(j);
	json_key(j, "seconds"); json_real(j, g->cpus.seconds);
	json_key(j, "start_ns"); json_int(j, g->t0);
	json_key(j, "end_ns"); json_int(j, g->t1);
	json_key(j, "cpus"); lt_json_table(j, ts[0]);
	json_key(j, "mean_per_cpu");
	json_begin_object(j);
	json_key(j, "switches"); json_real(j, (double)m.switches / d);
	json_key(j, "untraced"); json_real(j, (double)m.untraced / d);
	json_key(j, rate_cols[0]); json_real(j, per_sec((double)m.switches / d, g->cpus.seconds));
	for (int k = 0; k < SW_N; k++) {
		json_key(j, rate_cols[1 + k]);
		json_real(j, per_sec((double)m.kind[k] / d, g->cpus.seconds));
	}
	json_end_object(j);
	json_key(j, "processes"); lt_json_table(j, ts[1]);
	json_key(j, "lost"); json_int(j, g->cpus.lost);
	json_end_object(j);
	json_free(j);
}

/* untraced_note(a): says how many switches were inferred, when any. */
static void untraced_note(const struct cpu_acc *a)
{
	struct sched_cpu m = mean_of(a);
	if (!m.untraced)
		return;
	printf("\nnote: %lld switches the kernel did not trace (a CPU's sample of another\n"
	       "task than the one it last switched to, e.g. CPU 1 leaving idle on this 6.18\n"
	       "guest) are in `untraced`, not in switches or their kinds; idle and run time\n"
	       "end or start at those samples\n", m.untraced);
}

/* single_print(g, o, ids, n): prints a single-mode run. */
static int single_print(struct single *g, const struct opts *o, const int64_t *ids, int n)
{
	char title[256];
	size_t at = (size_t)snprintf(title, sizeof(title), "Context switches per CPU: session%s",
				     n > 1 ? "s" : "");
	for (int i = 0; i < n && at < sizeof(title); i++)
		at += (size_t)snprintf(title + at, sizeof(title) - at, "%s %lld", i ? "," : "", (long long)ids[i]);
	if (at < sizeof(title))
		snprintf(title + at, sizeof(title) - at, ", %.3f s", g->cpus.seconds);
	struct ltable *ts[2] = { cpu_table(&g->cpus, title, o->fmt != FMT_JSON),
		proc_table(g->rows, g->nrows, o, n > 1) };
	int rc = 0;
	if (o->fmt == FMT_JSON)
		single_json(g, ts, ids, n);
	else
		rc = lt_print_all((const struct ltable *const *)ts, 2, o->fmt, stdout);
	if (o->fmt != FMT_JSON && o->fmt != FMT_CSV && g->cpus.no_switch)
		puts("\nnote: no sched:sched_switch events in the recording");
	if (o->fmt != FMT_JSON && o->fmt != FMT_CSV)
		untraced_note(&g->cpus);
	lt_free(ts[0]);
	lt_free(ts[1]);
	return rc || fflush(stdout) ? EXIT_FAIL : EXIT_OK;
}

/* run_single(db, o, ids, n): the per-CPU and per-process tables. */
static int run_single(sqlite3 *db, const struct opts *o, const int64_t *ids, int n)
{
	struct single g = { .s = calloc((size_t)n, sizeof(*g.s)) };
	int rc = g.s ? 0 : EXIT_FAIL;
	for (int i = 0; !rc && i < n; i++) {
		struct sched_result r;
		if ((rc = load_account(db, o, ids[i], &g.s[i], &r)))
			break;
		g.n++;
		rc = single_add(&g, &g.s[i], &r) ? EXIT_FAIL : 0;
		sched_result_free(&r);
	}
	if (!rc)
		rc = single_print(&g, o, ids, n);
	for (int i = 0; i < g.n; i++)
		tl_session_free(&g.s[i]);
	free(g.s);
	free(g.rows);
	free(g.cpus.cpus);
	return rc;
}

/* One session's comparable metrics: the per-CPU means and per-comm
 * figures. */
struct metrics {
	double cpu[SW_N + 2]; /* switches/s, by kind/s, migrations/s (means per CPU) */
	char **comm;
	double *comm_rate, *comm_run;
	size_t ncomm;
};

/* metrics_comm(m, comm): index of comm in m (added when new), -1 on OOM. */
static long metrics_comm(struct metrics *m, const char *comm)
{
	for (size_t i = 0; i < m->ncomm; i++)
		if (!strcmp(m->comm[i], comm))
			return (long)i;
	char **c = realloc(m->comm, (m->ncomm + 1) * sizeof(*c));
	double *r = c ? realloc(m->comm_rate, (m->ncomm + 1) * sizeof(*r)) : NULL;
	if (c)
		m->comm = c;
	if (r)
		m->comm_rate = r;
	double *u = r ? realloc(m->comm_run, (m->ncomm + 1) * sizeof(*u)) : NULL;
	if (!u || !(c[m->ncomm] = strdup(comm)))
		return -1;
	m->comm_run = u;
	r[m->ncomm] = u[m->ncomm] = 0;
	return (long)m->ncomm++;
}

/* metrics_of(s, r, m): the metrics of one accounted session. */
static int metrics_of(const struct tl_session *s, const struct sched_result *r, struct metrics *m)
{
	double secs = (double)(r->t1 - r->t0) / 1e9, d = r->ncpus ? r->ncpus : 1;
	struct cpu_acc a = { .cpus = r->cpus, .ncpus = r->ncpus };
	struct sched_cpu sum = mean_of(&a);
	memset(m, 0, sizeof(*m));
	m->cpu[0] = per_sec((double)sum.switches / d, secs);
	for (int k = 0; k < SW_N; k++)
		m->cpu[1 + k] = per_sec((double)sum.kind[k] / d, secs);
	m->cpu[SW_N + 1] = per_sec((double)sum.mig_in / d, secs);
	for (size_t i = 0; i < r->nprocs; i++) {
		struct proc_row row;
		if (!proc_row_of(s, r, i, &row))
			continue;
		long k = metrics_comm(m, row.comm);
		if (k < 0)
			return -1;
		m->comm_rate[k] += row.per_sec;
		m->comm_run[k] += row.run_s;
	}
	return 0;
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

/* One side of a comparison: its label's sessions' metrics. */
struct side {
	const char *label;
	int n;
	struct metrics *m;
};

/* side_load(db, o, label, sd): loads and measures every session of label. */
static int side_load(sqlite3 *db, const struct opts *o, const char *label, struct side *sd)
{
	int64_t *ids = NULL;
	int n = tl_pick_sessions(db, label, o->db, &ids), rc = 0;
	sd->label = label;
	sd->n = 0;
	sd->m = n > 0 ? calloc((size_t)n, sizeof(*sd->m)) : NULL;
	if (n <= 0 || !sd->m) {
		free(ids);
		return EXIT_FAIL;
	}
	for (int i = 0; !rc && i < n; i++) {
		struct tl_session s;
		struct sched_result r;
		if ((rc = load_account(db, o, ids[i], &s, &r)))
			break;
		rc = metrics_of(&s, &r, &sd->m[sd->n++]) ? EXIT_FAIL : 0;
		sched_result_free(&r);
		tl_session_free(&s);
	}
	free(ids);
	return rc;
}

/* cmp_double: qsort order of doubles. */
static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* median_of(sd, get, arg): the median over sd's sessions of get(m, arg). */
static double median_of(const struct side *sd, double (*get)(const struct metrics *, const void *),
			const void *arg)
{
	double *v = malloc((sd->n > 0 ? (size_t)sd->n : 1) * sizeof(*v)), med;
	if (!v)
		abort();
	for (int i = 0; i < sd->n; i++)
		v[i] = get(&sd->m[i], arg);
	if (sd->n)
		qsort(v, (size_t)sd->n, sizeof(*v), cmp_double);
	med = !sd->n ? 0 : sd->n % 2 ? v[sd->n / 2] : (v[sd->n / 2 - 1] + v[sd->n / 2]) / 2;
	free(v);
	return med;
}

/* get_cpu(m, arg): the per-CPU metric number *arg of a session. */
static double get_cpu(const struct metrics *m, const void *arg)
{
	return m->cpu[*(const int *)arg];
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

/* get_comm_rate(m, arg) / get_comm_run(m, arg): comm_value of comm arg. */
static double get_comm_rate(const struct metrics *m, const void *arg)
{
	return comm_value(m, arg, false);
}

/* get_comm_run: see get_comm_rate. */
static double get_comm_run(const struct metrics *m, const void *arg)
{
	return comm_value(m, arg, true);
}

/* compare_row(t, what, b, n): a row: metric, base, new, % change. */
static void compare_row(struct ltable *t, const char *what, double b, double n)
{
	lt_add_row(t);
	lt_set_str(t, 0, what);
	lt_set_real(t, 1, b);
	lt_set_real(t, 2, n);
	if (b != 0)
		lt_set_real(t, 3, 100.0 * (n - b) / b);
}

/* top_comms(b, nw, limit, out): the comms with the most switches (by the
 * base and new medians), at most limit (0: all); returns how many. */
static size_t top_comms(const struct side *b, const struct side *nw, long limit, const char ***out)
{
	size_t n = 0, cap = 0;
	const char **v = NULL;
	double *score = NULL;
	const struct side *sides[2] = { b, nw };
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < sides[k]->n; i++)
			for (size_t c = 0; c < sides[k]->m[i].ncomm; c++) {
				const char *name = sides[k]->m[i].comm[c];
				size_t j = 0;
				while (j < n && strcmp(v[j], name))
					j++;
				if (j < n)
					continue;
				if (n == cap) {
					cap = cap ? cap * 2 : 16;
					v = realloc(v, cap * sizeof(*v));
					score = realloc(score, cap * sizeof(*score));
					if (!v || !score)
						abort();
				}
				v[n] = name;
				score[n++] = median_of(b, get_comm_rate, name) + median_of(nw, get_comm_rate, name);
			}
	for (size_t i = 1; i < n; i++) /* insertion sort by score, descending */
		for (size_t j = i; j > 0 && score[j] > score[j - 1]; j--) {
			double s = score[j];
			const char *x = v[j];
			score[j] = score[j - 1];
			v[j] = v[j - 1];
			score[j - 1] = s;
			v[j - 1] = x;
		}
	free(score);
	*out = v;
	return limit && (size_t)limit < n ? (size_t)limit : n;
}

/* compare_table(b, nw, o): the side-by-side table. */
static struct ltable *compare_table(const struct side *b, const struct side *nw, const struct opts *o)
{
	static const char *const cpu_names[] = { "switches/s per CPU", "same-mm switches/s per CPU",
		"other-mm switches/s per CPU", "idle/kthread switches/s per CPU",
		"unknown-task switches/s per CPU", "migrations/s per CPU" };
	char title[256], what[256];
	const char **comms;
	snprintf(title, sizeof(title), "Context switches: base %s (%d run%s) vs new %s (%d run%s), medians",
		 b->label, b->n, b->n == 1 ? "" : "s", nw->label, nw->n, nw->n == 1 ? "" : "s");
	struct ltable *t = lt_new(title);
	lt_col(t, "metric", COL_STR, 0);
	lt_col(t, "base", COL_REAL, 1);
	lt_col(t, "new", COL_REAL, 1);
	lt_col(t, "change_pct", COL_PCT, 2);
	lt_null_text(t, "-");
	for (int k = 0; k < SW_N + 2; k++)
		compare_row(t, cpu_names[k], median_of(b, get_cpu, &k), median_of(nw, get_cpu, &k));
	size_t nc = top_comms(b, nw, o->limit, &comms);
	for (size_t i = 0; i < nc; i++) {
		snprintf(what, sizeof(what), "%s switches/s", comms[i]);
		compare_row(t, what, median_of(b, get_comm_rate, comms[i]), median_of(nw, get_comm_rate, comms[i]));
		snprintf(what, sizeof(what), "%s run s", comms[i]);
		compare_row(t, what, median_of(b, get_comm_run, comms[i]), median_of(nw, get_comm_run, comms[i]));
	}
	free(comms);
	return t;
}

/* side_free(sd): frees a side's metrics. */
static void side_free(struct side *sd)
{
	for (int i = 0; i < sd->n; i++)
		metrics_free(&sd->m[i]);
	free(sd->m);
}

/* run_compare(db, o): the --base/--new comparison. */
static int run_compare(sqlite3 *db, const struct opts *o)
{
	struct side b = { 0 }, nw = { 0 };
	int rc = side_load(db, o, o->base, &b);
	if (!rc)
		rc = side_load(db, o, o->newer, &nw);
	if (!rc) {
		struct ltable *t = compare_table(&b, &nw, o);
		if (o->fmt == FMT_JSON) {
			struct json *j = json_new(stdout, true);
			json_begin_object(j);
			json_key(j, "base"); json_str(j, b.label);
			json_key(j, "base_runs"); json_int(j, b.n);
			json_key(j, "new"); json_str(j, nw.label);
			json_key(j, "new_runs"); json_int(j, nw.n);
			json_key(j, "rows"); lt_json_table(j, t);
			json_end_object(j);
			json_free(j);
		} else if (lt_print(t, o->fmt, stdout)) {
			rc = EXIT_FAIL;
		}
		lt_free(t);
	}
	side_free(&b);
	side_free(&nw);
	return rc || fflush(stdout) ? EXIT_FAIL : EXIT_OK;
}

/* parse_window(arg, o): --time A,B into o->t0, o->t1. 0 or -1. */
static int parse_window(const char *arg, struct opts *o)
{
	const char *comma = strchr(arg, ',');
	char a[64];
	if (!comma || (size_t)(comma - arg) >= sizeof(a))
		return -1;
	memcpy(a, arg, (size_t)(comma - arg));
	a[comma - arg] = 0;
	if (*a && tl_parse_time(a, &o->t0))
		return -1;
	if (comma[1] && tl_parse_time(comma + 1, &o->t1))
		return -1;
	return o->t1 < o->t0 ? -1 : 0;
}

/* parse(argc, argv, o): the options; EXIT_OK to go on, else an exit
 * status (-1: --help was printed). */
static int parse(int argc, char **argv, struct opts *o)
{
	static const struct option longs[] = {
		{ "session", required_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'f' },
		{ "time", required_argument, NULL, 't' },
		{ "base", required_argument, NULL, 'B' },
		{ "new", required_argument, NULL, 'N' },
		{ "limit", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	char *end;
	bool timed = false, bad = false;
	*o = (struct opts){ .db = PERFDB_DEFAULT_DB, .t0 = INT64_MIN, .t1 = INT64_MAX, .limit = 20 };
	while (!bad && (c = getopt_long(argc, argv, "s:f:n:h", longs, NULL)) != -1) {
		switch (c) {
		case 's':
			o->session = optarg;
			break;
		case 'B':
			o->base = optarg;
			break;
		case 'N':
			o->newer = optarg;
			break;
		case 'f':
			bad = out_format_parse(optarg, &o->fmt) != 0;
			break;
		case 't':
			bad = parse_window(optarg, o) != 0;
			timed = true;
			break;
		case 'n':
			o->limit = strtol(optarg, &end, 10);
			bad = o->limit < 0 || *end || !*optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return -1;
		default:
			bad = true;
		}
	}
	if (verb_operands(argc, argv, bad, &o->db, usage_text))
		return EXIT_USAGE;
	if (!o->base != !o->newer || (o->base && (o->session || timed))) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* run_picked: the single-label (or compare) report for verb_run. */
static int run_picked(sqlite3 *db, const int64_t *ids, int n, void *arg)
{
	const struct opts *o = arg;
	return o->base ? run_compare(db, o) : run_single(db, o, ids, n);
}

/* cmd_sched: see cmd.h. */
int cmd_sched(int argc, char **argv)
{
	struct opts o;
	int rc = parse(argc, argv, &o);
	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	return verb_run(o.db, o.base ? NULL : o.session, run_picked, &o);
}
