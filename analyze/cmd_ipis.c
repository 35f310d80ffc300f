/* perfdb ipis: TLB-flush IPIs and whether their targets still ran the mm.
 *   perfdb ipis [DB] [-s SESSION] [--format text|md|csv|json]
 *               [--window US] [--limit N] [--timeline]
 * For each flush IPI target (analyze/ipis.h): its class (running, lazy,
 * other, unknown, or ambiguous), the receiver's tlb_flush verdict and the
 * agreement of both, per flushed process, per sender -> target CPU, per
 * callsite and per CPU, and the flush attempts (reason 4) against the IPIs
 * sent. Several sessions (a label naming runs) are added up. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "analyze/ipis.h"
#include "analyze/tl_load.h"
#include "analyze/verb.h"
#include "schema/db.h"
#include "lib/hashmap.h"
#include "reports/legacy_table.h"

static const char usage_text[] =
	"usage: perfdb ipis [DB] [-s SESSION] [--format text|md|csv|json]\n"
	"                   [--window US] [--limit N] [--timeline]\n"
	"  -s, --session S  session id or label (a label naming several sessions:\n"
	"                   all of them, added up); default: the latest session\n"
	"  -w, --window US  ambiguity window in microseconds (default 20): a target\n"
	"                   whose class changed between US before the send and the\n"
	"                   receiver's entry is counted as ambiguous\n"
	"  -n, --limit N    rows of the per-process and per-CPU-pair tables (default\n"
	"                   20, 0: all)\n"
	"  --timeline       also print every CPU's loaded-mm timeline\n"
	"  -f, --format F   text (default), md, csv or json\n";

struct opts {
	const char *db, *session;
	enum out_format fmt;
	int64_t window;
	long limit;
	bool timeline;
};

/* A per-process row: one flushed mm of one session. */
struct proc_row {
	int64_t session, mm, pid;
	const char *comm; /* owned by the row */
	long long attempts;
	struct ipi_counts c;
};

/* A per-CPU row: IPIs it sent and received, and its timeline's states. */
struct cpu_row {
	long long sent, received, wasted, changes;
	int64_t ns[4]; /* user mm running, lazy, init_mm, unknown */
};

/* Everything added up over the sessions. */
struct acc {
	struct ipi_summary sum;
	double seconds;
	int nsessions;
	bool csd_source, ipi_source, no_switch, no_flush, no_events;
	long long csd_unnamed, lost;
	struct proc_row *procs;
	size_t nprocs;
	struct hashmap proc_ix, pair_ix;
	struct ipi_counts *pairs;
	int *pair_cpu; /* sender, target per pair */
	size_t npairs;
	char **sites;
	struct ipi_counts *site_c;
	size_t nsites;
	struct cpu_row *cpus;
	int ncpus;
	struct ltable *timeline;
};

/* oom(): out of memory is fatal, as in reports/table.c. */
static void oom(void)
{
	fputs("perfdb: out of memory\n", stderr);
	abort();
}

/* grow(p, n, size): *p resized to n elements of size bytes, or abort. */
static void grow(void *p, size_t n, size_t size)
{
	void *v = realloc(*(void **)p, (n ? n : 1) * size);
	if (!v)
		oom();
	*(void **)p = v;
}

/* proc_row_of(a, s, mm): the row of mm in session s, created when new. */
static struct proc_row *proc_row_of(struct acc *a, const struct tl_session *s, int64_t mm)
{
	uint64_t v;
	if (hm_get(&a->proc_ix, (uint64_t)s->id, (uint64_t)mm, &v))
		return &a->procs[v];
	const struct ident_proc *p = mm > 0 ? tl_proc_by_id(s, mm) : NULL;
	grow(&a->procs, a->nprocs + 1, sizeof(*a->procs));
	a->procs[a->nprocs] = (struct proc_row){ .session = s->id, .mm = mm,
		.pid = p ? p->pid : -1,
		.comm = strdup(p && p->comm ? p->comm : mm > 0 ? "?" : "[unknown mm]") };
	if (!a->procs[a->nprocs].comm || hm_put(&a->proc_ix, (uint64_t)s->id, (uint64_t)mm, a->nprocs))
		oom();
	return &a->procs[a->nprocs++];
}

/* pair_of(a, sender, target): the counts of one CPU pair. */
static struct ipi_counts *pair_of(struct acc *a, int sender, int target)
{
	uint64_t v;
	if (hm_get(&a->pair_ix, (uint64_t)sender, (uint64_t)target, &v))
		return &a->pairs[v];
	grow(&a->pairs, a->npairs + 1, sizeof(*a->pairs));
	grow(&a->pair_cpu, 2 * (a->npairs + 1), sizeof(*a->pair_cpu));
	memset(&a->pairs[a->npairs], 0, sizeof(*a->pairs));
	a->pair_cpu[2 * a->npairs] = sender;
	a->pair_cpu[2 * a->npairs + 1] = target;
	if (hm_put(&a->pair_ix, (uint64_t)sender, (uint64_t)target, a->npairs))
		oom();
	return &a->pairs[a->npairs++];
}

/* site_of(a, name): the counts of one callsite name (NULL: unknown). */
static struct ipi_counts *site_of(struct acc *a, const char *name)
{
	if (!name)
		name = "[unknown]";
	for (size_t i = 0; i < a->nsites; i++)
		if (!strcmp(a->sites[i], name))
			return &a->site_c[i];
	grow(&a->sites, a->nsites + 1, sizeof(*a->sites));
	grow(&a->site_c, a->nsites + 1, sizeof(*a->site_c));
	if (!(a->sites[a->nsites] = strdup(name)))
		oom();
	memset(&a->site_c[a->nsites], 0, sizeof(*a->site_c));
	return &a->site_c[a->nsites++];
}

/* cpus_upto(a, n): makes a->cpus hold at least n CPUs. */
static void cpus_upto(struct acc *a, int n)
{
	if (n <= a->ncpus)
		return;
	grow(&a->cpus, (size_t)n, sizeof(*a->cpus));
	memset(&a->cpus[a->ncpus], 0, (size_t)(n - a->ncpus) * sizeof(*a->cpus));
	a->ncpus = n;
}

/* add_ipis(a, s, set): adds one session's classified IPIs and attempts. */
static void add_ipis(struct acc *a, const struct tl_session *s, const struct ipi_set *set)
{
	ipi_summarize(&a->sum, set);
	cpus_upto(a, s->ncpus);
	for (size_t i = 0; i < set->nattempts; i++)
		proc_row_of(a, s, set->attempt_mm[i])->attempts++;
	for (size_t i = 0; i < set->n; i++) {
		const struct ipi *p = &set->v[i];
		ipi_count(&proc_row_of(a, s, p->mm)->c, p);
		ipi_count(pair_of(a, p->sender, p->target), p);
		ipi_count(site_of(a, p->site >= 0 ? s->sites[p->site] : NULL), p);
		a->cpus[p->sender].sent++;
		a->cpus[p->target].received++;
		a->cpus[p->target].wasted += p->cls == CL_OTHER;
	}
}

/* seg_state(g): 0 running a user mm, 1 lazy on a user mm, 2 init_mm,
 * 3 unknown. */
static int seg_state(const struct tl_seg *g)
{
	if (!g || g->mm == MM_UNKNOWN)
		return 3;
	if (g->mm == MM_INIT)
		return 2;
	return g->lazy ? 1 : 0;
}

/* add_cpu_times(a, s, tl): each CPU's time in each state over the session. */
static void add_cpu_times(struct acc *a, const struct tl_session *s, const struct timeline *tl)
{
	cpus_upto(a, tl->ncpus);
	for (int c = 0; c < tl->ncpus; c++) {
		const struct tl_cpu *k = &tl->cpus[c];
		int64_t at = s->first_time;
		int state = 3;
		for (size_t i = 0; i < k->n; i++) {
			int64_t t = k->segs[i].start < at ? at : k->segs[i].start;
			if (t > s->last_time)
				break;
			a->cpus[c].ns[state] += t - at;
			at = t;
			state = seg_state(&k->segs[i]);
			a->cpus[c].changes++;
		}
		if (s->last_time > at)
			a->cpus[c].ns[state] += s->last_time - at;
	}
}

/* add_timeline(a, s, tl): the --timeline rows of one session. */
static void add_timeline(struct acc *a, const struct tl_session *s, const struct timeline *tl)
{
	static const char *const states[] = { "running", "lazy", "init_mm", "unknown" };
	static const char *const causes[] = { "switch", "exec", "exit", "fork", "migrate",
		"tlb_flush 0", "csd", "csd", "csd", "ipi", "sample" };
	struct ltable *t = a->timeline;
	for (int c = 0; c < tl->ncpus; c++)
		for (size_t i = 0; i < tl->cpus[c].n; i++) {
			const struct tl_seg *g = &tl->cpus[c].segs[i];
			const struct ident_proc *p = g->mm > 0 ? tl_proc_by_id(s, g->mm) : NULL;
			lt_add_row(t);
			lt_set_int(t, 0, s->id);
			lt_set_int(t, 1, c);
			lt_set_real(t, 2, (double)(g->start - s->first_time) / 1e9);
			if (p) {
				lt_set_int(t, 3, p->pid);
				lt_set_str(t, 4, p->comm);
			}
			lt_set_str(t, 5, states[seg_state(g)]);
			lt_set_str(t, 6, g->cause >= 0 && g->cause <= TL_SAMPLE ? causes[g->cause] : "?");
		}
}

/* analyze_session(a, o, s): builds, matches, classifies and adds one
 * loaded session. 0 or -1 when out of memory. */
static int analyze_session(struct acc *a, const struct opts *o, const struct tl_session *s)
{
	struct timeline tl;
	struct ipi_set set;
	bool csd = s->has_csd;
	if (timeline_build(s->ev, s->nev, &s->ident, s->ncpus, &tl))
		return -1;
	if (ipis_match(s->ev, s->nev, &s->ident, s->ncpus, csd, &set)) {
		timeline_free(&tl);
		return -1;
	}
	ipis_classify(set.v, set.n, &tl, o->window);
	add_ipis(a, s, &set);
	add_cpu_times(a, s, &tl);
	if (a->timeline)
		add_timeline(a, s, &tl);
	a->csd_source |= csd;
	a->ipi_source |= !csd;
	a->no_switch |= !s->has_switch;
	a->no_flush |= !s->has_tlb_flush;
	a->no_events |= !csd && !s->has_ipi_send;
	a->csd_unnamed += s->csd_unnamed;
	a->lost += s->lost;
	a->seconds += tl_duration_s(s);
	a->nsessions++;
	ipi_set_free(&set);
	timeline_free(&tl);
	return 0;
}

/* rate(a, n): n per second over the sessions' time (0 when unknown). */
static double rate(const struct acc *a, long long n)
{
	return a->seconds > 0 ? (double)n / a->seconds : 0;
}

/* pct(n, d): 100 n / d, or 0 when d is 0. */
static double pct(long long n, long long d)
{
	return d ? 100.0 * (double)n / (double)d : 0;
}

/* source_name(a): where the IPIs came from. */
static const char *source_name(const struct acc *a)
{
	if (a->csd_source && a->ipi_source)
		return "csd+ipi_send";
	return a->csd_source ? "csd" : "ipi_send";
}

/* summary_row(t, what, n, a, of): one row of the summary table. */
static void summary_row(struct ltable *t, const char *what, long long n, const struct acc *a, long long of)
{
	lt_add_row(t);
	lt_set_str(t, 0, what);
	lt_set_int(t, 1, n);
	lt_set_real(t, 2, rate(a, n));
	if (of >= 0)
		lt_set_real(t, 3, pct(n, of));
}

/* summary_table(a, o, sessions): the headline numbers. */
static struct ltable *summary_table(const struct acc *a, const struct opts *o, const char *sessions)
{
	char title[1024];
	const struct ipi_counts *c = &a->sum.all;
	snprintf(title, sizeof(title), "TLB-flush IPIs: %s, %.3f s, source %s, ambiguity window %g us",
		 sessions, a->seconds, source_name(a), (double)o->window / 1000);
	struct ltable *t = lt_new(title);
	lt_col(t, "what", COL_STR, 0);
	lt_col(t, "count", COL_INT, 0);
	lt_col(t, "per_sec", COL_REAL, 1);
	lt_col(t, "pct_of_ipis", COL_PCT, 1);
	lt_null_text(t, "");
	summary_row(t, "flush attempts (tlb_flush reason 4)", a->sum.attempts, a, -1);
	summary_row(t, "flush IPIs (requests to remote CPUs)", c->ipis, a, c->ipis);
	summary_row(t, "  that raised an interrupt", c->raised, a, c->ipis);
	for (int k = 0; k < CL_N; k++) {
		char what[64];
		snprintf(what, sizeof(what), "  target %s%s", tl_class_name(k),
			 k == CL_OTHER ? " (wasted)" : "");
		summary_row(t, what, c->cls[k], a, c->ipis);
	}
	summary_row(t, "  target ambiguous (switched meanwhile)", c->ambiguous, a, c->ipis);
	summary_row(t, "  wasted: other mm when it arrived", c->wasted, a, c->ipis);
	for (int r = 0; r < RX_N; r++) {
		char what[64];
		snprintf(what, sizeof(what), "  receiver %s", rx_name(r));
		summary_row(t, what, c->rx[r], a, c->ipis);
	}
	lt_add_row(t);
	lt_set_str(t, 0, "class agrees with receiver (unambiguous)");
	lt_set_int(t, 1, a->sum.agreeing);
	lt_set_real(t, 3, pct(a->sum.agreeing, a->sum.compared));
	return t;
}

/* matrix_row(t, cls, at, v, agree): one row of the agreement matrix. */
static void matrix_row(struct ltable *t, const char *cls, const char *at, const long long *v, double agree)
{
	lt_add_row(t);
	lt_set_str(t, 0, cls);
	lt_set_str(t, 1, at);
	for (int r = 0; r < RX_N; r++)
		lt_set_int(t, 2 + r, v[r]);
	if (agree >= 0)
		lt_set_real(t, 2 + RX_N, agree);
}

/* matrix_agree(cls, v): % of v's traced verdicts (1, 5, 0) that confirm cls. */
static double matrix_agree(enum tl_class cls, const long long *v)
{
	long long n = v[RX_1] + v[RX_5] + v[RX_0], yes = 0;
	for (int r = 0; r < RX_NONE; r++)
		yes += ipi_agrees(cls, r) ? v[r] : 0;
	return cls == CL_UNKNOWN || !n ? -1 : pct(yes, n);
}

/* matrix_table(a): class (and, for ambiguous IPIs, class on arrival)
 * against the receiver's verdict. */
static struct ltable *matrix_table(const struct acc *a)
{
	struct ltable *t = lt_new("Class vs receiver's tlb_flush reason "
				    "(agrees: running=1, lazy=0, other=5)");
	lt_col(t, "class", COL_STR, 0);
	lt_col(t, "on_arrival", COL_STR, 0);
	for (int r = 0; r < RX_N; r++)
		lt_col(t, rx_name(r), COL_INT, 0);
	lt_col(t, "agrees", COL_PCT, 1);
	lt_null_text(t, "-");
	for (int k = 0; k < CL_N; k++)
		matrix_row(t, tl_class_name(k), tl_class_name(k), a->sum.matrix[k], matrix_agree(k, a->sum.matrix[k]));
	for (int k = 0; k < CL_N; k++)
		if (a->sum.amb_at_receipt[k])
			matrix_row(t, "ambiguous", tl_class_name(k), a->sum.amb_matrix[k],
				   matrix_agree(k, a->sum.amb_matrix[k]));
	return t;
}

/* count_cols(t): the class columns of per-group tables; returns the first. */
static int count_cols(struct ltable *t)
{
	int first = lt_col(t, "ipis", COL_INT, 0);
	lt_col(t, "per_sec", COL_REAL, 1);
	for (int k = 0; k < CL_N; k++)
		lt_col(t, tl_class_name(k), COL_INT, 0);
	lt_col(t, "ambiguous", COL_INT, 0);
	lt_col(t, "wasted", COL_INT, 0);
	lt_col(t, "wasted_pct", COL_PCT, 1);
	return first;
}

/* count_cells(t, col, a, c): fills the count_cols cells from c. */
static void count_cells(struct ltable *t, int col, const struct acc *a, const struct ipi_counts *c)
{
	lt_set_int(t, col++, c->ipis);
	lt_set_real(t, col++, rate(a, c->ipis));
	for (int k = 0; k < CL_N; k++)
		lt_set_int(t, col++, c->cls[k]);
	lt_set_int(t, col++, c->ambiguous);
	lt_set_int(t, col++, c->wasted);
	lt_set_real(t, col, pct(c->wasted, c->ipis));
}

/* cmp_proc_rows: processes by IPIs, then attempts, descending. */
static int cmp_proc_rows(const void *x, const void *y)
{
	const struct proc_row *a = x, *b = y;
	if (a->c.ipis != b->c.ipis)
		return a->c.ipis < b->c.ipis ? 1 : -1;
	if (a->attempts != b->attempts)
		return a->attempts < b->attempts ? 1 : -1;
	return (a->pid > b->pid) - (a->pid < b->pid);
}

/* proc_table(a, o): per flushed process (mm). */
static struct ltable *proc_table(struct acc *a, const struct opts *o)
{
	struct ltable *t = lt_new("Per flushed process (mm)");
	int cs = a->nsessions > 1 ? lt_col(t, "session", COL_INT, 0) : -1;
	int cp = lt_col(t, "pid", COL_INT, 0), cc = lt_col(t, "comm", COL_STR, 0);
	int ca = lt_col(t, "attempts", COL_INT, 0), first = count_cols(t);
	lt_null_text(t, "-");
	if (a->nprocs)
		qsort(a->procs, a->nprocs, sizeof(*a->procs), cmp_proc_rows);
	for (size_t i = 0; i < a->nprocs && (!o->limit || (long)i < o->limit); i++) {
		const struct proc_row *r = &a->procs[i];
		lt_add_row(t);
		if (cs >= 0)
			lt_set_int(t, cs, r->session);
		if (r->pid >= 0)
			lt_set_int(t, cp, r->pid);
		lt_set_str(t, cc, r->comm);
		lt_set_int(t, ca, r->attempts);
		count_cells(t, first, a, &r->c);
	}
	return t;
}

/* pair_table(a, o): per sender -> target CPU, busiest first. */
static struct ltable *pair_table(const struct acc *a, const struct opts *o)
{
	struct ltable *t = lt_new("Per sender -> target CPU");
	size_t *ix = malloc((a->npairs ? a->npairs : 1) * sizeof(*ix));
	if (!ix)
		oom();
	lt_col(t, "sender", COL_INT, 0);
	lt_col(t, "target", COL_INT, 0);
	int first = count_cols(t);
	for (size_t i = 0; i < a->npairs; i++)
		ix[i] = i;
	for (size_t i = 1; i < a->npairs; i++) /* insertion sort: few pairs */
		for (size_t j = i; j > 0 && a->pairs[ix[j]].ipis > a->pairs[ix[j - 1]].ipis; j--) {
			size_t x = ix[j];
			ix[j] = ix[j - 1];
			ix[j - 1] = x;
		}
	for (size_t i = 0; i < a->npairs && (!o->limit || (long)i < o->limit); i++) {
		lt_add_row(t);
		lt_set_int(t, 0, a->pair_cpu[2 * ix[i]]);
		lt_set_int(t, 1, a->pair_cpu[2 * ix[i] + 1]);
		count_cells(t, first, a, &a->pairs[ix[i]]);
	}
	free(ix);
	return t;
}

/* site_table(a): per callsite of the queue (or send). */
static struct ltable *site_table(const struct acc *a)
{
	struct ltable *t = lt_new("Per callsite");
	lt_col(t, "callsite", COL_STR, 0);
	int first = count_cols(t);
	for (size_t i = 0; i < a->nsites; i++) {
		if (!a->site_c[i].ipis)
			continue;
		lt_add_row(t);
		lt_set_str(t, 0, a->sites[i]);
		count_cells(t, first, a, &a->site_c[i]);
	}
	return t;
}

/* cpu_table(a): per CPU: IPIs sent, received, wasted, and how its time
 * split between running a user mm, lazy, init_mm and unknown. */
static struct ltable *cpu_table(const struct acc *a)
{
	static const char *const names[] = { "user_mm_pct", "lazy_pct", "init_mm_pct", "unknown_pct" };
	struct ltable *t = lt_new("Per CPU: IPIs and the loaded mm over time");
	lt_col(t, "cpu", COL_INT, 0);
	lt_col(t, "sent", COL_INT, 0);
	lt_col(t, "received", COL_INT, 0);
	lt_col(t, "wasted_received", COL_INT, 0);
	for (int k = 0; k < 4; k++)
		lt_col(t, names[k], COL_PCT, 1);
	lt_col(t, "mm_changes", COL_INT, 0);
	for (int c = 0; c < a->ncpus; c++) {
		const struct cpu_row *r = &a->cpus[c];
		int64_t total = r->ns[0] + r->ns[1] + r->ns[2] + r->ns[3];
		lt_add_row(t);
		lt_set_int(t, 0, c);
		lt_set_int(t, 1, r->sent);
		lt_set_int(t, 2, r->received);
		lt_set_int(t, 3, r->wasted);
		for (int k = 0; k < 4; k++)
			lt_set_real(t, 4 + k, pct(r->ns[k], total));
		lt_set_int(t, 8, r->changes);
	}
	return t;
}

/* notes(a, v, n): caveats about the data, appended to v (at most 6). */
static void notes(const struct acc *a, const char **v, int *n)
{
	if (a->ipi_source)
		v[(*n)++] = "no csd:csd_queue_cpu events: IPIs are ipi_send_cpu/ipi_send_cpumask "
			    "targets at TLB-flush callsites or right after a flush attempt, "
			    "receivers' verdicts the next reason 1/5 flush within 1 ms, classes "
			    "taken at the send";
	if (a->no_events)
		v[(*n)++] = "no ipi:ipi_send_* events either: no IPIs can be seen";
	if (a->no_switch)
		v[(*n)++] = "no sched:sched_switch events: targets are unknown";
	if (a->no_flush)
		v[(*n)++] = "no tlb:tlb_flush events: no receiver verdicts, no attempts";
	if (a->csd_unnamed)
		v[(*n)++] = "some csd functions have no symbol (import without kallsyms?): "
			    "they are not counted";
	if (a->lost)
		v[(*n)++] = "the recording lost events: counts are lower bounds";
}

/* print_json(a, o, ts, ids, nids): the JSON document; ts are the
 * per-process, pair, callsite, CPU and timeline tables (NULL: absent). */
static void print_json(const struct acc *a, const struct opts *o, struct ltable **ts,
		       const int64_t *ids, int nids)
{
	struct json *j = json_new(stdout, true);
	const struct ipi_counts *c = &a->sum.all;
	const char *nv[8];
	int nn = 0;
	json_begin_object(j);
	json_key(j, "sessions");
	json_begin_array(j);
	for (int i = 0; i < nids; i++)
		json_int(j, ids[i]);
	json_end_array(j);
	json_key(j, "seconds"); json_real(j, a->seconds);
	json_key(j, "source"); json_str(j, source_name(a));
	json_key(j, "window_us"); json_real(j, (double)o->window / 1000);
	json_key(j, "attempts"); json_int(j, a->sum.attempts);
	json_key(j, "ipis"); json_int(j, c->ipis);
	json_key(j, "interrupts"); json_int(j, c->raised);
	json_key(j, "wasted"); json_int(j, c->wasted);
	json_key(j, "attempts_per_sec"); json_real(j, rate(a, a->sum.attempts));
	json_key(j, "ipis_per_sec"); json_real(j, rate(a, c->ipis));
	json_key(j, "wasted_per_sec"); json_real(j, rate(a, c->wasted));
	json_key(j, "targets");
	json_begin_object(j);
	for (int k = 0; k < CL_N; k++) {
		json_key(j, tl_class_name(k));
		json_int(j, c->cls[k]);
	}
	json_key(j, "ambiguous"); json_int(j, c->ambiguous);
	json_end_object(j);
	json_key(j, "ambiguous_on_arrival");
	json_begin_object(j);
	for (int k = 0; k < CL_N; k++) {
		json_key(j, tl_class_name(k));
		json_int(j, a->sum.amb_at_receipt[k]);
	}
	json_end_object(j);
	json_key(j, "receiver");
	json_begin_object(j);
	for (int r = 0; r < RX_N; r++) {
		json_key(j, rx_name(r));
		json_int(j, c->rx[r]);
	}
	json_end_object(j);
	json_key(j, "matrix");
	json_begin_object(j);
	for (int k = 0; k <= CL_N; k++) {
		json_key(j, k < CL_N ? tl_class_name(k) : "ambiguous");
		json_begin_object(j);
		for (int r = 0; r < RX_N; r++) {
			json_key(j, rx_name(r));
			json_int(j, a->sum.matrix[k][r]);
		}
		json_end_object(j);
	}
	json_end_object(j);
	json_key(j, "ambiguous_matrix");
	json_begin_object(j);
	for (int k = 0; k < CL_N; k++) {
		json_key(j, tl_class_name(k));
		json_begin_object(j);
		for (int r = 0; r < RX_N; r++) {
			json_key(j, rx_name(r));
			json_int(j, a->sum.amb_matrix[k][r]);
		}
		json_end_object(j);
	}
	json_end_object(j);
	json_key(j, "agreement");
	json_begin_object(j);
	json_key(j, "rule"); json_str(j, "running=reason1 lazy=reason0 other=reason5");
	json_key(j, "compared"); json_int(j, a->sum.compared);
	json_key(j, "agreeing"); json_int(j, a->sum.agreeing);
	json_key(j, "pct");
	if (a->sum.compared)
		json_real(j, pct(a->sum.agreeing, a->sum.compared));
	else
		json_null(j);
	json_key(j, "alt_rule"); json_str(j, "running,lazy=reason1 other=reason5");
	json_key(j, "alt_agreeing"); json_int(j, a->sum.agreeing_alt);
	json_key(j, "alt_pct");
	if (a->sum.compared)
		json_real(j, pct(a->sum.agreeing_alt, a->sum.compared));
	else
		json_null(j);
	json_key(j, "on_arrival_compared"); json_int(j, a->sum.compared_rx);
	json_key(j, "on_arrival_agreeing"); json_int(j, a->sum.agreeing_rx);
	json_key(j, "on_arrival_pct");
	if (a->sum.compared_rx)
		json_real(j, pct(a->sum.agreeing_rx, a->sum.compared_rx));
	else
		json_null(j);
	json_end_object(j);
	static const char *const keys[] = { "processes", "pairs", "callsites", "cpus", "timeline" };
	for (int i = 0; i < 5; i++)
		if (ts[i]) {
			json_key(j, keys[i]);
			lt_json_table(j, ts[i]);
		}
	notes(a, nv, &nn);
	json_key(j, "notes");
	json_begin_array(j);
	for (int i = 0; i < nn; i++)
		json_str(j, nv[i]);
	json_end_array(j);
	json_end_object(j);
	json_free(j);
}

/* sessions_text(s, ids, n): "session 3" or "sessions 1, 2, 5". */
static void sessions_text(char *buf, size_t len, const int64_t *ids, int n)
{
	size_t at = (size_t)snprintf(buf, len, "session%s ", n > 1 ? "s" : "");
	for (int i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%lld", i ? ", " : "", (long long)ids[i]);
}

/* print_all(a, o, ids, n): prints every table in o->fmt. */
static int print_all(struct acc *a, const struct opts *o, const int64_t *ids, int n)
{
	char sessions[256];
	sessions_text(sessions, sizeof(sessions), ids, n);
	struct ltable *ts[7] = { proc_table(a, o), pair_table(a, o), site_table(a), cpu_table(a),
		a->timeline, summary_table(a, o, sessions), matrix_table(a) };
	int rc = 0;
	if (o->fmt == FMT_JSON) {
		print_json(a, o, ts, ids, n);
	} else {
		const struct ltable *order[7] = { ts[5], ts[6], ts[0], ts[1], ts[2], ts[3], ts[4] };
		const char *nv[8];
		int nn = 0;
		rc = lt_print_all(order, a->timeline ? 7 : 6, o->fmt, stdout);
		notes(a, nv, &nn);
		for (int i = 0; i < nn && o->fmt != FMT_CSV; i++)
			printf("%snote: %s\n", i ? "" : "\n", nv[i]);
	}
	for (int i = 0; i < 7; i++)
		lt_free(ts[i]);
	a->timeline = NULL;
	return rc || fflush(stdout) ? EXIT_FAIL : EXIT_OK;
}

/* acc_free(a): frees the accumulated rows. */
static void acc_free(struct acc *a)
{
	for (size_t i = 0; i < a->nprocs; i++)
		free((char *)a->procs[i].comm);
	for (size_t i = 0; i < a->nsites; i++)
		free(a->sites[i]);
	free(a->procs);
	free(a->pairs);
	free(a->pair_cpu);
	free(a->sites);
	free(a->site_c);
	free(a->cpus);
	hm_free(&a->proc_ix);
	hm_free(&a->pair_ix);
	lt_free(a->timeline);
}

/* timeline_table(): the empty --timeline table. */
static struct ltable *timeline_table(void)
{
	struct ltable *t = lt_new("Loaded mm per CPU over time");
	lt_col(t, "session", COL_INT, 0);
	lt_col(t, "cpu", COL_INT, 0);
	lt_col(t, "time_s", COL_REAL, 6);
	lt_col(t, "pid", COL_INT, 0);
	lt_col(t, "comm", COL_STR, 0);
	lt_col(t, "state", COL_STR, 0);
	lt_col(t, "cause", COL_STR, 0);
	lt_null_text(t, "-");
	return t;
}

/* run(db, o, ids, n): analyzes and prints sessions ids. */
static int run(sqlite3 *db, const struct opts *o, const int64_t *ids, int n)
{
	struct acc a = { 0 };
	char err[512];
	hm_init(&a.proc_ix);
	hm_init(&a.pair_ix);
	if (o->timeline)
		a.timeline = timeline_table();
	for (int i = 0; i < n; i++) {
		struct tl_session s;
		if (tl_load(db, ids[i], LOAD_TLB, &s, err, sizeof(err))) {
			fprintf(stderr, "perfdb: %s: %s\n", o->db, err);
			acc_free(&a);
			return EXIT_FAIL;
		}
		if (analyze_session(&a, o, &s))
			oom();
		tl_session_free(&s);
	}
	int rc = print_all(&a, o, ids, n);
	acc_free(&a);
	return rc;
}

/* parse(argc, argv, o): the options; EXIT_OK to go on, else an exit status
 * (-1: --help was printed). */
static int parse(int argc, char **argv, struct opts *o)
{
	static const struct option longs[] = {
		{ "session", required_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'f' },
		{ "window", required_argument, NULL, 'w' },
		{ "limit", required_argument, NULL, 'n' },
		{ "timeline", no_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	char *end;
	bool bad = false;
	*o = (struct opts){ .db = PERFDB_DEFAULT_DB, .window = IPIS_WINDOW_NS, .limit = 20 };
	while (!bad && (c = getopt_long(argc, argv, "s:f:w:n:h", longs, NULL)) != -1) {
		switch (c) {
		case 's':
			o->session = optarg;
			break;
		case 'f':
			bad = out_format_parse(optarg, &o->fmt) != 0;
			break;
		case 'w': /* read as seconds (1e9 per unit), so microseconds -> ns */
			bad = tl_parse_time(optarg, &o->window) != 0;
			o->window /= 1000000;
			break;
		case 'n':
			o->limit = strtol(optarg, &end, 10);
			bad = o->limit < 0 || *end || !*optarg;
			break;
		case 'T':
			o->timeline = true;
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
	return EXIT_OK;
}

/* run_picked: run() for the sessions verb_run picked. */
static int run_picked(sqlite3 *db, const int64_t *ids, int n, void *arg)
{
	return run(db, arg, ids, n);
}

/* cmd_ipis: see cmd.h. */
int cmd_ipis(int argc, char **argv)
{
	struct opts o;
	int rc = parse(argc, argv, &o);
	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	return verb_run(o.db, o.session, run_picked, &o);
}
