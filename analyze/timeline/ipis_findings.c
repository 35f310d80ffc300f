/* `perfdb ipis` as findings (see ipis_findings.h): streams each session's
 * events (tl_stream) into its loaded-mm timelines and the matching of its
 * flush IPIs, classifies its
 * flush IPIs (ipis.h), adds every session up by process, CPU pair,
 * callsite and CPU, and fills the document's scalars and tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/timeline/ipis.h"
#include "analyze/timeline/ipis_findings.h"
#include "analyze/timeline/ipis_unseen.h"
#include "analyze/lost_note.h"
#include "analyze/session_info.h"
#include "analyze/timeline/tl_load.h"
#include "lib/alloc.h"
#include "lib/hashmap.h"

/* A per-process row: one flushed mm of one session. */
struct proc_row {
	int64_t session, mm, pid;
	char *comm;
	long long attempts;
	struct ipi_counts c;
};

/* A sender -> target CPU pair. */
struct pair_row {
	int sender, target;
	struct ipi_counts c;
};

/* A callsite of the queue (or the send). */
struct site_row {
	char *name;
	struct ipi_counts c;
};

/* The states of a CPU's timeline, in the order of the "cpus" columns. */
enum { ST_USER, ST_LAZY, ST_INIT, ST_UNKNOWN, ST_N };

/* A per-CPU row: IPIs it sent and received, and its timeline's states. */
struct cpu_row {
	long long sent, received, wasted, changes;
	int64_t ns[ST_N];
};

/* Everything added up over the sessions. */
struct acc {
	struct ipi_summary sum;
	double seconds;
	int nsessions;
	bool csd_source, ipi_source, no_switch, no_flush;
	long long csd_unnamed, lost_events, lost_samples;
	struct proc_row *procs;
	size_t nprocs, cap_procs;
	struct hashmap proc_ix, pair_ix;
	struct pair_row *pairs;
	size_t npairs, cap_pairs;
	struct site_row *sites;
	size_t nsites, cap_sites;
	struct cpu_row *cpus;
	int ncpus;
	struct table *timeline;	/* NULL without --timeline */
	struct ipis_unseen unseen;	/* the guard: sessions whose flush IPIs were not seen */
};

/* proc_of(a, s, mm): the row of mm in session s, created when new. */
static struct proc_row *proc_of(struct acc *a, const struct tl_session *s, int64_t mm)
{
	uint64_t v;
	if (hm_get(&a->proc_ix, (uint64_t)s->id, (uint64_t)mm, &v))
		return &a->procs[v];
	const struct ident_proc *p = mm > 0 ? tl_proc_by_id(s, mm) : NULL;
	ALLOC_GROW(a->procs, a->nprocs + 1, a->cap_procs);
	a->procs[a->nprocs] = (struct proc_row){ .session = s->id, .mm = mm,
		.pid = p ? p->pid : -1,
		.comm = xstrdup(p && p->comm ? p->comm : mm > 0 ? "?" : "[unknown mm]") };
	hm_put(&a->proc_ix, (uint64_t)s->id, (uint64_t)mm, a->nprocs);
	return &a->procs[a->nprocs++];
}

/* pair_of(a, sender, target): the counts of one CPU pair. */
static struct ipi_counts *pair_of(struct acc *a, int sender, int target)
{
	uint64_t v;
	if (hm_get(&a->pair_ix, (uint64_t)sender, (uint64_t)target, &v))
		return &a->pairs[v].c;
	ALLOC_GROW(a->pairs, a->npairs + 1, a->cap_pairs);
	a->pairs[a->npairs] = (struct pair_row){ .sender = sender, .target = target };
	hm_put(&a->pair_ix, (uint64_t)sender, (uint64_t)target, a->npairs);
	return &a->pairs[a->npairs++].c;
}

/* site_of(a, name): the counts of one callsite name (NULL: unknown). */
static struct ipi_counts *site_of(struct acc *a, const char *name)
{
	if (!name)
		name = "[unknown]";
	for (size_t i = 0; i < a->nsites; i++)
		if (!strcmp(a->sites[i].name, name))
			return &a->sites[i].c;
	ALLOC_GROW(a->sites, a->nsites + 1, a->cap_sites);
	a->sites[a->nsites] = (struct site_row){ .name = xstrdup(name) };
	return &a->sites[a->nsites++].c;
}

/* cpus_upto(a, n): makes a->cpus hold at least n CPUs. */
static void cpus_upto(struct acc *a, int n)
{
	if (n <= a->ncpus)
		return;
	a->cpus = xreallocarray(a->cpus, (size_t)n, sizeof(*a->cpus));
	memset(&a->cpus[a->ncpus], 0, (size_t)(n - a->ncpus) * sizeof(*a->cpus));
	a->ncpus = n;
}

/* add_ipis(a, s, set): adds one session's classified IPIs and attempts. */
static void add_ipis(struct acc *a, const struct tl_session *s, const struct ipi_set *set)
{
	ipi_summarize(&a->sum, set);
	cpus_upto(a, s->ncpus);
	for (size_t i = 0; i < set->nattempts; i++)
		proc_of(a, s, set->attempt_mm[i])->attempts++;
	for (size_t i = 0; i < set->n; i++) {
		const struct ipi *p = &set->v[i];
		ipi_count(&proc_of(a, s, p->mm)->c, p);
		ipi_count(pair_of(a, p->sender, p->target), p);
		ipi_count(site_of(a, p->site >= 0 ? s->sites[p->site] : NULL), p);
		a->cpus[p->sender].sent++;
		a->cpus[p->target].received++;
		a->cpus[p->target].wasted += p->cls == CL_OTHER;
	}
}

/* seg_state(g): the ST_* state segment g (NULL: none yet) puts its CPU in
 * (unsure whether running or lazy: unknown). */
static int seg_state(const struct tl_seg *g)
{
	if (!g || g->mm == MM_UNKNOWN || g->lazy == SEG_UNSURE)
		return ST_UNKNOWN;
	if (g->mm == MM_INIT)
		return ST_INIT;
	return g->lazy == SEG_LAZY ? ST_LAZY : ST_USER;
}

/* add_cpu_times(a, s, tl): each CPU's time in each state over the session. */
static void add_cpu_times(struct acc *a, const struct tl_session *s, const struct timeline *tl)
{
	cpus_upto(a, tl->ncpus);
	for (int c = 0; c < tl->ncpus; c++) {
		const struct tl_cpu *k = &tl->cpus[c];
		int64_t at = s->first_time;
		int state = ST_UNKNOWN;
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

/* timeline_table(): the empty "timeline" table. */
static struct table *timeline_table(void)
{
	struct table *t = table_new("timeline", "Loaded mm per CPU over time");
	table_col(t, "session", COL_INT, 0);
	table_col(t, "cpu", COL_INT, 0);
	table_col(t, "time_s", COL_REAL, 6);
	table_col(t, "pid", COL_INT, 0);
	table_col(t, "comm", COL_STR, 0);
	table_col(t, "state", COL_STR, 0);
	table_col(t, "cause", COL_STR, 0);
	table_null_text(t, "-");
	return t;
}

/* seg_state_name(g): the "timeline" state of segment g. */
static const char *seg_state_name(const struct tl_seg *g)
{
	static const char *const states[] = { "running", "lazy", "init_mm", "unknown" };
	if (g->lazy == SEG_UNSURE && g->mm > 0)
		return "running or lazy";
	return states[seg_state(g)];
}

/* add_timeline(t, s, tl): the "timeline" rows of one session: each
 * segment's start (seconds into the session), holder, state and cause. */
static void add_timeline(struct table *t, const struct tl_session *s, const struct timeline *tl)
{
	static const char *const causes[] = { "switch", "exec", "exit", "fork", "migrate",
		"tlb_flush 0", "csd", "csd", "csd", "ipi", "sample", "untraced switch" };
	for (int c = 0; c < tl->ncpus; c++)
		for (size_t i = 0; i < tl->cpus[c].n; i++) {
			const struct tl_seg *g = &tl->cpus[c].segs[i];
			const struct ident_proc *p = g->mm > 0 ? tl_proc_by_id(s, g->mm) : NULL;
			table_add_row(t);
			table_set_int(t, 0, s->id);
			table_set_int(t, 1, c);
			table_set_real(t, 2, (double)(g->start - s->first_time) / 1e9);
			if (p) {
				table_set_int(t, 3, p->pid);
				table_set_str(t, 4, p->comm);
			}
			table_set_str(t, 5, seg_state_name(g));
			table_set_str(t, 6, g->cause >= 0 && g->cause <= TL_CAUSE_UNTRACED ?
				      causes[g->cause] : "?");
		}
}

/* add_counts(c, x): adds the counts x to c. */
static void add_counts(struct ipi_counts *c, const struct ipi_counts *x)
{
	c->ipis += x->ipis;
	c->raised += x->raised;
	c->wasted += x->wasted;
	c->near_send += x->near_send;
	for (int k = 0; k < CL_N; k++)
		c->cls[k] += x->cls[k];
	for (int k = 0; k < RX_N; k++)
		c->rx[k] += x->rx[k];
}

/* session_done(a, s, tl): adds what one session's timelines give, and its
 * flags and totals. */
static void session_done(struct acc *a, const struct tl_session *s, const struct timeline *tl)
{
	bool csd = s->has_csd;
	add_cpu_times(a, s, tl);
	if (a->timeline)
		add_timeline(a->timeline, s, tl);
	a->csd_source |= csd;
	a->ipi_source |= !csd;
	a->no_switch |= !s->has_switch;
	a->no_flush |= !s->has_tlb_flush;
	a->csd_unnamed += s->csd_unnamed;
	a->lost_events += s->lost_events;
	a->lost_samples += s->lost_samples;
	a->seconds += tl_duration_s(s);
	a->nsessions++;
}

/* The first pass over a session's events: its timelines. */
struct tpass {
	const struct tl_session *s;
	struct tl_builder tb;
	struct timeline tl;
};

/* tpass_event, tpass_restart: struct tl_feed's, over a tpass. */
static void tpass_event(void *ctx, const struct tl_event *e)
{
	timeline_feed(&((struct tpass *)ctx)->tb, e);
}

static void tpass_restart(void *ctx)
{
	struct tpass *t = ctx;
	timeline_finish(&t->tb, 0);
	timeline_free(&t->tl);
	timeline_begin(&t->tb, &t->s->ident, t->s->ncpus, true, &t->tl);
}

/* One mm's or callsite's IPIs in a session while they stream, with when
 * it first had an attempt or an IPI: its row is made in that order (as
 * add_ipis makes them: the attempts' mms first). */
struct staged {
	int64_t key;		/* mm, or callsite index (-1: unknown) */
	long long attempts, first_attempt, first_ipi;
	struct ipi_counts c;
};

/* The second pass over a session's events: IPIs classified and added as
 * the match hands them over (ipi_sink), the per-mm and per-callsite
 * counts staged until the session ends. */
struct mpass {
	struct acc *a;
	const struct tl_session *s;
	const struct timeline *tl;
	int64_t window_ns;
	struct lost_spans lost;
	struct ipi_matcher im;
	struct ipi_set set;
	struct staged *mms, *sites;
	size_t nmms, cap_mms, nsites, cap_sites;
	struct hashmap mm_ix, site_ix;
	long long attempts, ipis;
	struct ipi_seen seen;	/* the guard's counts (ipis.h) */
	bool restarted;
};

/* staged_of(v, n, cap, ix, key): the entry of key, added when new. */
static struct staged *staged_of(struct staged **v, size_t *n, size_t *cap, struct hashmap *ix,
				int64_t key)
{
	uint64_t i;
	if (hm_get(ix, (uint64_t)key, 0, &i))
		return &(*v)[i];
	ALLOC_GROW(*v, *n + 1, *cap);
	(*v)[*n] = (struct staged){ .key = key, .first_attempt = -1, .first_ipi = -1 };
	hm_put(ix, (uint64_t)key, 0, *n);
	return &(*v)[(*n)++];
}

/* mpass_attempt, mpass_ipi: struct ipi_sink's, over an mpass. */
static void mpass_attempt(void *ctx, int64_t mm)
{
	struct mpass *m = ctx;
	struct staged *g = staged_of(&m->mms, &m->nmms, &m->cap_mms, &m->mm_ix, mm);
	if (g->first_attempt < 0)
		g->first_attempt = m->attempts;
	g->attempts++;
	m->attempts++;
}

static void mpass_ipi(void *ctx, struct ipi *p)
{
	struct mpass *m = ctx;
	struct acc *a = m->a;
	struct staged *g = staged_of(&m->mms, &m->nmms, &m->cap_mms, &m->mm_ix, p->mm);
	struct staged *k = staged_of(&m->sites, &m->nsites, &m->cap_sites, &m->site_ix, p->site);
	ipi_classify_one(p, m->tl, m->window_ns, m->s->has_csd, &m->lost);
	ipi_summarize_one(&a->sum, p, m->s->has_tlb_flush);
	ipi_seen_ipi(&m->seen, m->tl, p);
	if (g->first_ipi < 0)
		g->first_ipi = m->ipis;
	if (k->first_ipi < 0)
		k->first_ipi = m->ipis;
	ipi_count(&g->c, p);
	ipi_count(&k->c, p);
	ipi_count(pair_of(a, p->sender, p->target), p);
	cpus_upto(a, m->s->ncpus);
	a->cpus[p->sender].sent++;
	a->cpus[p->target].received++;
	a->cpus[p->target].wasted += p->cls == CL_OTHER;
	m->ipis++;
}

/* mpass_event, mpass_restart: struct tl_feed's, over an mpass (the first
 * pass found the events in order, so the second cannot restart). */
static void mpass_event(void *ctx, const struct tl_event *e)
{
	struct mpass *m = ctx;
	ipi_seen_event(&m->seen, m->tl, &m->s->ident, e);
	ipis_feed(&m->im, e);
}

static void mpass_restart(void *ctx)
{
	((struct mpass *)ctx)->restarted = true;
}

/* staged_order: mms by first attempt, then those without one by first
 * IPI; callsites by first IPI. */
static int staged_order(const void *x, const void *y)
{
	const struct staged *p = x, *q = y;
	if ((p->first_attempt < 0) != (q->first_attempt < 0))
		return p->first_attempt < 0 ? 1 : -1;
	if (p->first_attempt != q->first_attempt)
		return p->first_attempt < q->first_attempt ? -1 : 1;
	return (p->first_ipi > q->first_ipi) - (p->first_ipi < q->first_ipi);
}

/* mpass_done(m): the session's staged rows into its accumulator. */
static void mpass_done(struct mpass *m)
{
	struct acc *a = m->a;
	a->sum.attempts += m->attempts;
	if (m->nmms)
		qsort(m->mms, m->nmms, sizeof(*m->mms), staged_order);
	if (m->nsites)
		qsort(m->sites, m->nsites, sizeof(*m->sites), staged_order);
	for (size_t i = 0; i < m->nmms; i++) {
		struct proc_row *r = proc_of(a, m->s, m->mms[i].key);
		r->attempts += m->mms[i].attempts;
		add_counts(&r->c, &m->mms[i].c);
	}
	for (size_t i = 0; i < m->nsites; i++) {
		int64_t k = m->sites[i].key;
		if (m->sites[i].c.ipis)
			add_counts(site_of(a, k >= 0 ? m->s->sites[k] : NULL), &m->sites[i].c);
	}
}

/* mpass_free(m): frees what m holds. */
static void mpass_free(struct mpass *m)
{
	ipis_finish(&m->im);
	ipi_set_free(&m->set);
	free(m->mms);
	free(m->sites);
	hm_free(&m->mm_ix);
	hm_free(&m->site_ix);
}

/* match_streamed(db, a, o, s, tl, seen, err, errlen): the second pass of
 * a session whose events came in order: its IPIs matched, classified on
 * its timelines tl and added as they become final; the guard's counts into
 * seen. 0 or -1. */
static int match_streamed(sqlite3 *db, struct acc *a, const struct ipis_opts *o, struct tl_session *s,
			  const struct timeline *tl, struct ipi_seen *seen, char *err, size_t errlen)
{
	struct mpass m = { .a = a, .s = s, .tl = tl, .window_ns = o->window_ns,
		.lost = { s->lost_v, s->nlost_v, !s->lost_rows && s->lost > 0 } };
	struct ipi_sink sink = { mpass_attempt, mpass_ipi, &m };
	struct tl_feed f = { mpass_event, mpass_restart, &m };
	hm_init(&m.mm_ix);
	hm_init(&m.site_ix);
	ipis_begin(&m.im, &s->ident, s->ncpus, true, s->has_csd, &sink, &m.set);
	int rc = tl_stream(db, s, LOAD_TLB, &f, err, errlen);
	if (!rc && m.restarted) {
		snprintf(err, errlen, "session %lld changed while it was read", (long long)s->id);
		rc = -1;
	}
	if (!rc) {
		ipis_finish(&m.im);
		mpass_done(&m);
		*seen = m.seen;
	}
	mpass_free(&m);
	return rc;
}

/* The second pass of a session whose ids are out of time order (tl_stream
 * restarts it sorted): every IPI kept, then classified and added. */
struct bpass {
	const struct tl_session *s;
	const struct timeline *tl;
	struct ipi_matcher im;
	struct ipi_set set;
	struct ipi_seen seen;	/* the guard's counts of the flush attempts */
};

/* bpass_event, bpass_restart: struct tl_feed's, over a bpass. */
static void bpass_event(void *ctx, const struct tl_event *e)
{
	struct bpass *b = ctx;
	ipi_seen_event(&b->seen, b->tl, &b->s->ident, e);
	ipis_feed(&b->im, e);
}

static void bpass_restart(void *ctx)
{
	struct bpass *b = ctx;
	ipis_finish(&b->im);
	ipi_set_free(&b->set);
	b->seen = (struct ipi_seen){ 0, 0 };
	ipis_begin(&b->im, &b->s->ident, b->s->ncpus, true, b->s->has_csd, NULL, &b->set);
}

/* match_sorted(db, a, o, s, tl, seen, err, errlen): the second pass of a
 * session out of order (the guard's counts into seen). 0 or -1. */
static int match_sorted(sqlite3 *db, struct acc *a, const struct ipis_opts *o, struct tl_session *s,
			const struct timeline *tl, struct ipi_seen *seen, char *err, size_t errlen)
{
	struct bpass b = { .s = s, .tl = tl };
	struct tl_feed f = { bpass_event, bpass_restart, &b };
	ipis_begin(&b.im, &s->ident, s->ncpus, true, s->has_csd, NULL, &b.set);
	int rc = tl_stream(db, s, LOAD_TLB, &f, err, errlen);
	ipis_finish(&b.im);
	if (!rc) {
		struct lost_spans lost = { s->lost_v, s->nlost_v, !s->lost_rows && s->lost > 0 };
		b.set.verdicts = s->has_tlb_flush;
		ipis_classify(&b.set, tl, o->window_ns, &lost);
		add_ipis(a, s, &b.set);
		for (size_t i = 0; i < b.set.n; i++)
			ipi_seen_ipi(&b.seen, tl, &b.set.v[i]);
		*seen = b.seen;
	}
	ipi_set_free(&b.set);
	return rc;
}

/* stream_session(db, a, o, id, err, errlen): opens session id, builds its
 * timelines from one pass over its events, matches its IPIs in a second
 * (an IPI's class looks at its target's timeline after the send) and adds
 * it. 0 or -1. */
static int stream_session(sqlite3 *db, struct acc *a, const struct ipis_opts *o, int64_t id,
			  char *err, size_t errlen)
{
	struct tl_session s;
	struct tpass t = { .s = &s };
	struct ipi_seen seen = { 0, 0 };
	struct tl_feed f = { tpass_event, tpass_restart, &t };
	if (tl_open(db, id, LOAD_TLB, &s, err, errlen))
		return -1;
	timeline_begin(&t.tb, &s.ident, s.ncpus, true, &t.tl);
	int rc = tl_stream(db, &s, LOAD_TLB, &f, err, errlen);
	timeline_finish(&t.tb, s.ncpus);
	if (!rc)
		rc = s.unordered ? match_sorted(db, a, o, &s, &t.tl, &seen, err, errlen) :
				   match_streamed(db, a, o, &s, &t.tl, &seen, err, errlen);
	if (!rc) {
		session_done(a, &s, &t.tl);
		ipis_unseen_add(&a->unseen, db, id, &seen);
	}
	timeline_free(&t.tl);
	tl_session_free(&s);
	return rc;
}

/* acc_free(a): frees the accumulated rows (not a->timeline once it was
 * handed to the document). */
static void acc_free(struct acc *a)
{
	for (size_t i = 0; i < a->nprocs; i++)
		free(a->procs[i].comm);
	for (size_t i = 0; i < a->nsites; i++)
		free(a->sites[i].name);
	free(a->procs);
	free(a->pairs);
	free(a->sites);
	free(a->cpus);
	hm_free(&a->proc_ix);
	hm_free(&a->pair_ix);
	table_free(a->timeline);
	ipis_unseen_free(&a->unseen);
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

/* class_obj(parent, key, v): {running, lazy, other, unknown, unverified}
 * of v. */
static void class_obj(struct dval *parent, const char *key, const long long *v)
{
	struct dval *o = dv_obj(parent, key);
	for (int k = 0; k < CL_N; k++)
		dv_int(o, tl_class_name(k), v[k]);
}

/* rx_obj(parent, key, v): {reason1, reason5, reason0, none} of v. */
static void rx_obj(struct dval *parent, const char *key, const long long *v)
{
	struct dval *o = dv_obj(parent, key);
	for (int r = 0; r < RX_N; r++)
		dv_int(o, rx_name(r), v[r]);
}

/* pct_or_null(o, key, n, d): 100 n / d, or null when d is 0. */
static void pct_or_null(struct dval *o, const char *key, long long n, long long d)
{
	if (d)
		dv_real(o, key, pct(n, d));
	else
		dv_null(o, key);
}

#define AGREE_RULE "running=reason1|none lazy=reason0 other=reason5"
#define WASTED_RULE "other exactly where reason5"

/* agreement_obj(f, s): how often the class and the receiver's verdict
 * agree, by the whole rule and by other = reason 5 alone. */
static void agreement_obj(struct dval *f, const struct ipi_summary *s)
{
	struct dval *g = dv_obj(f, "agreement");
	dv_str(g, "rule", AGREE_RULE);
	dv_int(g, "compared", s->compared);
	dv_int(g, "agreeing", s->agreeing);
	pct_or_null(g, "pct", s->agreeing, s->compared);
	dv_str(g, "wasted_rule", WASTED_RULE);
	dv_int(g, "wasted_agreeing", s->wasted_agreeing);
	pct_or_null(g, "wasted_pct", s->wasted_agreeing, s->compared);
}

/* seen_int(f, key, v, unseen): dv_int, or null when the flush IPIs could
 * not be seen (the count measures nothing). seen_rate: the same of a rate. */
static void seen_int(struct dval *f, const char *key, long long v, bool unseen)
{
	if (unseen)
		dv_null(f, key);
	else
		dv_int(f, key, v);
}

static void seen_rate(struct dval *f, const char *key, const struct acc *a, long long v, bool unseen)
{
	if (unseen)
		dv_null(f, key);
	else
		dv_real(f, key, rate(a, v));
}

/* unseen_objs(f): the IPI objects of scalars, null: the flush IPIs could
 * not be seen. */
static void unseen_objs(struct dval *f)
{
	static const char *const keys[] = { "targets", "unverified_why", "unknown_why", "switched_near_send_by_class",
		"receiver", "matrix", "agreement" };
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++)
		dv_null(f, keys[i]);
}

/* scalars(a, o, f): the scalar and object findings (the IPI ones null when
 * no session's flush IPIs could be seen, ipis_unseen_all). */
static void scalars(const struct acc *a, const struct ipis_opts *o, struct dval *f)
{
	const struct ipi_counts *c = &a->sum.all;
	bool unseen = ipis_unseen_all(&a->unseen);
	struct dval *m;
	dv_real(f, "seconds", a->seconds);
	dv_str(f, "source", source_name(a));
	dv_real(f, "window_us", (double)o->window_ns / 1000);
	dv_int(f, "attempts", a->sum.attempts);
	seen_int(f, "ipis", c->ipis, unseen);
	seen_int(f, "interrupts", c->raised, unseen);
	seen_int(f, "wasted", c->wasted, unseen);
	seen_int(f, "unverified", c->cls[CL_UNVERIFIED], unseen);
	seen_int(f, "switched_near_send", c->near_send, unseen);
	dv_real(f, "attempts_per_sec", rate(a, a->sum.attempts));
	seen_rate(f, "ipis_per_sec", a, c->ipis, unseen);
	seen_rate(f, "wasted_per_sec", a, c->wasted, unseen);
	dv_int(f, "lost_events", a->lost_events);
	dv_int(f, "lost_samples", a->lost_samples);
	if (unseen) {
		unseen_objs(f);
		return;
	}
	class_obj(f, "targets", c->cls);
	m = dv_obj(f, "unverified_why");
	for (int w = 0; w < WHY_N; w++)
		dv_int(m, why_name(w), a->sum.why[w]);
	m = dv_obj(f, "unknown_why");
	for (int w = 0; w < UNK_N; w++)
		dv_int(m, unknown_name(w), a->sum.unknown[w]);
	class_obj(f, "switched_near_send_by_class", a->sum.near_send_cls);
	rx_obj(f, "receiver", c->rx);
	m = dv_obj(f, "matrix");
	for (int k = 0; k < CL_N; k++)
		rx_obj(m, tl_class_name(k), a->sum.matrix[k]);
	agreement_obj(f, &a->sum);
}

/* summary_row(t, what, level, n, a, of, of_name): one row of the summary
 * table: a count (level 1, 2: a part of the row above it), its rate and
 * its share of of, called of_name (of_name NULL: no share; of 0: none
 * known). */
static void summary_row(struct table *t, const char *what, int level, long long n,
			const struct acc *a, long long of, const char *of_name)
{
	table_add_row(t);
	table_set_str(t, 0, what);
	table_set_int(t, 1, level);
	table_set_int(t, 2, n);
	table_set_real(t, 3, rate(a, n));
	if (of_name && of)
		table_set_real(t, 4, pct(n, of));
	table_set_str(t, 5, of_name);
}

/* summary_cols(t): the summary's columns: what (indented by level, which
 * only csv and json show), count, per_sec, pct and pct_of (what pct is a
 * share of: csv and json). */
static void summary_cols(struct table *t)
{
	int what = table_col(t, "what", COL_STR, 0);
	int level = table_col(t, "level", COL_INT, 0);
	table_col_indent(t, what, level);
	table_col_show(t, level, SHOW_DATA);
	table_col(t, "count", COL_INT, 0);
	table_col(t, "per_sec", COL_REAL, 1);
	table_col(t, "pct", COL_PCT, 1);
	table_col_show(t, table_col(t, "pct_of", COL_STR, 0), SHOW_DATA);
	table_caption(t, "classes: what the target ran when the IPI arrived (its receiver's entry); "
		      "they add up to the IPIs");
	table_caption(t, "pct: share of the flush IPIs; on the last two rows, of the received "
		      "IPIs of a known class whose receiver traced tlb_flush");
}

/* Summary labels of the classes and of why an IPI is unverified. */
static const char *const class_what[CL_N] = {
	"on arrival: target running the mm",
	"on arrival: target lazy (idle or a kernel thread after the mm)",
	"on arrival: target on another mm (wasted)",
	"on arrival: target unknown (no history yet, or the mm unknown)",
	"unverified: no receiver recorded",
};
static const char *const why_what[WHY_N] = {
	"no reason seen", "no csd events (receivers only by reason 1/5)",
	"the recording ended first", "target ran a task perf recorded nothing of",
	"the recording lost events",
};
static const char *const unknown_what[UNK_N] = {
	"no history of the target yet", "the flushed mm not known (sender a kernel thread or unnamed)",
	"the target switched without a trace (its mm not known)", "the target's mm not known",
	"unsure whether the target ran the mm or held it lazily",
};

/* unseen_row(t, what, level): a count of flush IPIs the recording cannot
 * show (ipis_unseen_all): a row of nulls for programs (csv, json) and one
 * saying "not seen" for people (text, md). */
static void unseen_row(struct table *t, const char *what, int level)
{
	for (int human = 0; human < 2; human++) {
		table_add_row(t);
		table_row_show(t, human ? SHOW_HUMAN : SHOW_DATA);
		table_set_str(t, 0, what);
		table_set_int(t, 1, level);
		if (human)
			table_set_str(t, 2, "not seen");
	}
}

/* ipi_row(t, what, level, n, a, of, of_name, unseen): summary_row, or
 * unseen_row when unseen; null_rate: its per_sec null as well. */
static void ipi_row(struct table *t, const char *what, int level, long long n, const struct acc *a,
		    long long of, const char *of_name, bool unseen, bool null_rate)
{
	if (unseen) {
		unseen_row(t, what, level);
		return;
	}
	summary_row(t, what, level, n, a, of, of_name);
	if (null_rate)
		table_set_null(t, 3);
}

/* guard_rows(t, a): when a session's flush IPIs were not seen, what shows
 * it: the attempts with another CPU running the flushed mm, and the flush
 * IPIs to such a CPU (over every session). */
static void guard_rows(struct table *t, const struct acc *a)
{
	if (!ipis_unseen_any(&a->unseen))
		return;
	summary_row(t, "with another CPU running the flushed mm", 1, a->unseen.all.remote_flushes, a,
		    a->sum.attempts, "attempts");
	summary_row(t, "flush IPIs to a CPU running the flushed mm", 1, a->unseen.all.ipis_to_running, a,
		    0, NULL);
}

/* ipi_rows(t, a, o, unseen): the summary's rows of flush IPIs, "not seen"
 * when unseen. */
static void ipi_rows(struct table *t, const struct acc *a, const struct ipis_opts *o, bool unseen)
{
	const struct ipi_counts *c = &a->sum.all;
	char what[96];
	ipi_row(t, "flush IPIs (requests to remote CPUs)", 0, c->ipis, a, c->ipis, "ipis", unseen, false);
	ipi_row(t, "that raised an interrupt", 1, c->raised, a, c->ipis, "ipis", unseen, false);
	for (int k = 0; k < CL_N; k++) {
		ipi_row(t, class_what[k], 1, c->cls[k], a, c->ipis, "ipis", unseen, false);
		for (int w = 0; k == CL_UNKNOWN && !unseen && w < UNK_N; w++)
			if (a->sum.unknown[w])
				summary_row(t, unknown_what[w], 2, a->sum.unknown[w], a, c->ipis, "ipis");
	}
	for (int w = 0; w < WHY_N; w++)
		if (a->sum.why[w])
			summary_row(t, why_what[w], 2, a->sum.why[w], a, c->ipis, "ipis");
	snprintf(what, sizeof(what), "target switched in the %g us before the send (not a class)",
		 (double)o->window_ns / 1000);
	ipi_row(t, what, 1, c->near_send, a, c->ipis, "ipis", unseen, false);
	for (int r = 0; r < RX_N; r++) {
		snprintf(what, sizeof(what), "receiver %s", rx_name(r));
		ipi_row(t, what, 1, c->rx[r], a, c->ipis, "ipis", unseen, false);
	}
	ipi_row(t, "receiver's reason agrees with the class", 0, a->sum.agreeing, a, a->sum.compared,
		"compared", unseen, true);
	ipi_row(t, "other exactly where reason 5 (wrong CPU)", 0, a->sum.wasted_agreeing, a,
		a->sum.compared, "compared", unseen, true);
}

/* summary_table(a, o, desc): the headline numbers of sessions desc. */
static struct table *summary_table(const struct acc *a, const struct ipis_opts *o, const char *desc)
{
	char *title = xasprintf("TLB-flush IPIs: %s, %.3f s, source %s", desc, a->seconds,
				source_name(a));
	struct table *t = table_new("summary", title);
	free(title);
	summary_cols(t);
	summary_row(t, "flush attempts (tlb_flush reason 4)", 0, a->sum.attempts, a, 0, NULL);
	guard_rows(t, a);
	ipi_rows(t, a, o, ipis_unseen_all(&a->unseen));
	return t;
}

/* matrix_agree(cls, v): % of v's IPIs whose verdict confirms cls, or -1
 * when there is none or cls is neither running, lazy nor other. */
static double matrix_agree(enum tl_class cls, const long long *v)
{
	long long n = 0, yes = 0;
	for (int r = 0; r < RX_N; r++) {
		n += v[r];
		yes += ipi_agrees(cls, r) ? v[r] : 0;
	}
	return (cls != CL_RUNNING && cls != CL_LAZY && cls != CL_OTHER) || !n ? -1 : pct(yes, n);
}

/* matrix_table(a): class on arrival against the receiver's verdict. */
static struct table *matrix_table(const struct acc *a)
{
	struct table *t = table_new("class_vs_receiver", "Class on arrival vs receiver's "
				    "tlb_flush reason (agrees: running=1 or none, lazy=0, other=5)");
	table_col(t, "class", COL_STR, 0);
	for (int r = 0; r < RX_N; r++)
		table_col(t, rx_name(r), COL_INT, 0);
	table_col(t, "agrees", COL_PCT, 1);
	table_col(t, "switched_near_send", COL_INT, 0);
	table_null_text(t, "-");
	if (ipis_unseen_all(&a->unseen))
		table_null_text(t, "not seen");
	for (int k = 0; k < CL_N; k++) {
		double agree = a->no_flush ? -1 : matrix_agree(k, a->sum.matrix[k]);
		table_add_row(t);
		table_set_str(t, 0, tl_class_name(k));
		if (ipis_unseen_all(&a->unseen))
			continue;
		for (int r = 0; r < RX_N; r++)
			table_set_int(t, 1 + r, a->sum.matrix[k][r]);
		if (agree >= 0)
			table_set_real(t, 1 + RX_N, agree);
		table_set_int(t, 2 + RX_N, a->sum.near_send_cls[k]);
	}
	return t;
}

/* count_cols(t): the class columns of per-group tables; returns the first. */
static int count_cols(struct table *t)
{
	int first = table_col(t, "ipis", COL_INT, 0);
	table_col(t, "per_sec", COL_REAL, 1);
	for (int k = 0; k < CL_N; k++)
		table_col(t, tl_class_name(k), COL_INT, 0);
	table_col(t, "switched_near_send", COL_INT, 0);
	table_col(t, "wasted", COL_INT, 0);
	table_col(t, "wasted_pct", COL_PCT, 1);
	return first;
}

/* count_cells(t, col, a, c): fills the count_cols cells from c. */
static void count_cells(struct table *t, int col, const struct acc *a, const struct ipi_counts *c)
{
	table_set_int(t, col++, c->ipis);
	table_set_real(t, col++, rate(a, c->ipis));
	for (int k = 0; k < CL_N; k++)
		table_set_int(t, col++, c->cls[k]);
	table_set_int(t, col++, c->near_send);
	table_set_int(t, col++, c->wasted);
	table_set_real(t, col, pct(c->wasted, c->ipis));
}

/* unseen_caption(t, a, rows): when some session's flush IPIs could not be
 * seen, says so under a table of flush IPIs: their counts are "-" in rows
 * of theirs (rows), or their IPIs in no row. */
static void unseen_caption(struct table *t, const struct acc *a, bool rows)
{
	if (!ipis_unseen_any(&a->unseen))
		return;
	char *ids = ipis_unseen_ids(&a->unseen);
	table_caption(t, "flush IPIs cannot be seen in session%s %s (see the warning): %s",
		      a->unseen.n > 1 ? "s" : "", ids, rows ? "their counts are - (not seen), not 0" :
		      "no row holds theirs");
	free(ids);
}

/* shown(t, n, limit): how many of n rows a table limited to limit (0: all)
 * shows; says so in a caption when that is fewer. */
static size_t shown(struct table *t, size_t n, long long limit)
{
	if (!limit || (unsigned long long)limit >= n)
		return n;
	table_caption(t, "the %lld busiest of %zu (-n 0: all)", limit, n);
	return (size_t)limit;
}

/* cmp_procs: processes by IPIs, then attempts, descending, then by pid. */
static int cmp_procs(const void *x, const void *y)
{
	const struct proc_row *a = x, *b = y;
	if (a->c.ipis != b->c.ipis)
		return a->c.ipis < b->c.ipis ? 1 : -1;
	if (a->attempts != b->attempts)
		return a->attempts < b->attempts ? 1 : -1;
	return (a->pid > b->pid) - (a->pid < b->pid);
}

/* proc_table(a, limit): per flushed process (mm), busiest first; a
 * session column when several sessions are added up. */
static struct table *proc_table(struct acc *a, long long limit)
{
	struct table *t = table_new("processes", "Per flushed process (mm)");
	int cs = a->nsessions > 1 ? table_col(t, "session", COL_INT, 0) : -1;
	int cp = table_col(t, "pid", COL_INT, 0), cc = table_col(t, "comm", COL_STR, 0);
	int ca = table_col(t, "attempts", COL_INT, 0), first = count_cols(t);
	table_null_text(t, "-");
	unseen_caption(t, a, true);
	if (a->nprocs)
		qsort(a->procs, a->nprocs, sizeof(*a->procs), cmp_procs);
	size_t n = shown(t, a->nprocs, limit);
	for (size_t i = 0; i < n; i++) {
		const struct proc_row *r = &a->procs[i];
		table_add_row(t);
		if (cs >= 0)
			table_set_int(t, cs, r->session);
		if (r->pid >= 0)
			table_set_int(t, cp, r->pid);
		table_set_str(t, cc, r->comm);
		table_set_int(t, ca, r->attempts);
		if (!ipis_unseen_has(&a->unseen, r->session))
			count_cells(t, first, a, &r->c);
	}
	return t;
}

/* cmp_pairs: CPU pairs by IPIs, descending, then by sender and target. */
static int cmp_pairs(const void *x, const void *y)
{
	const struct pair_row *a = x, *b = y;
	if (a->c.ipis != b->c.ipis)
		return a->c.ipis < b->c.ipis ? 1 : -1;
	if (a->sender != b->sender)
		return a->sender < b->sender ? -1 : 1;
	return (a->target > b->target) - (a->target < b->target);
}

/* pair_table(a, limit): per sender -> target CPU, busiest first (the
 * pairs are sorted: pair_ix is no longer used). */
static struct table *pair_table(struct acc *a, long long limit)
{
	struct table *t = table_new("pairs", "Per sender -> target CPU");
	table_col(t, "sender", COL_INT, 0);
	table_col(t, "target", COL_INT, 0);
	int first = count_cols(t);
	unseen_caption(t, a, false);
	if (a->npairs)
		qsort(a->pairs, a->npairs, sizeof(*a->pairs), cmp_pairs);
	size_t n = shown(t, a->npairs, limit);
	for (size_t i = 0; i < n; i++) {
		table_add_row(t);
		table_set_int(t, 0, a->pairs[i].sender);
		table_set_int(t, 1, a->pairs[i].target);
		count_cells(t, first, a, &a->pairs[i].c);
	}
	return t;
}

/* site_table(a): per callsite of the queue (or send) that flushed. */
static struct table *site_table(const struct acc *a)
{
	struct table *t = table_new("callsites", "Per callsite");
	table_col(t, "callsite", COL_STR, 0);
	int first = count_cols(t);
	unseen_caption(t, a, false);
	for (size_t i = 0; i < a->nsites; i++) {
		if (!a->sites[i].c.ipis)
			continue;
		table_add_row(t);
		table_set_str(t, 0, a->sites[i].name);
		count_cells(t, first, a, &a->sites[i].c);
	}
	return t;
}

/* cpu_table(a): per CPU: IPIs sent, received, wasted, and how its time
 * split between running a user mm, lazy, init_mm and unknown. */
static struct table *cpu_table(const struct acc *a)
{
	static const char *const names[] = { "user_mm_pct", "lazy_pct", "init_mm_pct", "unknown_pct" };
	struct table *t = table_new("cpus", "Per CPU: IPIs and the loaded mm over time");
	table_col(t, "cpu", COL_INT, 0);
	table_col(t, "sent", COL_INT, 0);
	table_col(t, "received", COL_INT, 0);
	table_col(t, "wasted_received", COL_INT, 0);
	for (int k = 0; k < ST_N; k++)
		table_col(t, names[k], COL_PCT, 1);
	table_col(t, "mm_changes", COL_INT, 0);
	if (ipis_unseen_all(&a->unseen))
		table_null_text(t, "not seen");
	for (int c = 0; c < a->ncpus; c++) {
		const struct cpu_row *r = &a->cpus[c];
		int64_t total = r->ns[ST_USER] + r->ns[ST_LAZY] + r->ns[ST_INIT] + r->ns[ST_UNKNOWN];
		table_add_row(t);
		table_set_int(t, 0, c);
		if (!ipis_unseen_all(&a->unseen)) {
			table_set_int(t, 1, r->sent);
			table_set_int(t, 2, r->received);
			table_set_int(t, 3, r->wasted);
		}
		for (int k = 0; k < ST_N; k++)
			table_set_real(t, 4 + k, pct(r->ns[k], total));
		table_set_int(t, 4 + ST_N, r->changes);
	}
	return t;
}

/* unverified_note(a, d): how many IPIs are unverified and why. */
static void unverified_note(const struct acc *a, struct doc *d)
{
	const struct ipi_summary *s = &a->sum;
	char why[512];
	size_t at = 0;
	if (!s->all.cls[CL_UNVERIFIED])
		return;
	why[0] = 0;
	for (int w = WHY_N - 1; w >= 0; w--)
		if (s->why[w] && at < sizeof(why))
			at += (size_t)snprintf(why + at, sizeof(why) - at, "%s%s: %lld",
					       at ? "; " : "", why_what[w], s->why[w]);
	doc_note(d, "unverified flush IPIs: %lld of %lld, whose receiver was not recorded (%s); "
		 "they are counted in no other class, so running, lazy, other and wasted are lower "
		 "bounds", s->all.cls[CL_UNVERIFIED], s->all.ipis, why);
}

/* caveats(a, o, d): the data-quality warning and the notes. */
static void caveats(const struct acc *a, const struct ipis_opts *o, struct doc *d)
{
	unverified_note(a, d);
	doc_note(d, "switched_near_send: the target's class for the flushed mm changed in the "
		 "%g us before the send (-w), the sender's view of why it sent; each such IPI "
		 "keeps its class on arrival", (double)o->window_ns / 1000);
	if (a->ipi_source)
		doc_note(d, "no csd:csd_queue_cpu events: IPIs are ipi_send_cpu/ipi_send_cpumask "
			 "targets at TLB-flush callsites or right after a flush attempt; a receiver is "
			 "the target's next reason 1/5 flush within 1 ms, and IPIs without one are "
			 "unverified");
	if (a->no_switch)
		doc_note(d, "no sched:sched_switch events: targets are known only from samples");
	if (a->no_flush)
		doc_note(d, "no tlb:tlb_flush events: no receiver verdicts, no attempts");
	if (a->csd_unnamed)
		doc_note(d, "%lld csd queues' functions have no symbol (imported without "
			 "kallsyms?): they are not counted", a->csd_unnamed);
}

/* fill(a, o, desc, d): the whole document from the sums. The summary is
 * the main table (what csv prints): one row per headline number, the
 * totals every other table breaks down by class, process, pair, callsite
 * or CPU. */
static void fill(struct acc *a, const struct ipis_opts *o, const char *desc, struct doc *d)
{
	struct dval *f = doc_findings(d);
	scalars(a, o, f);
	ipis_unseen_findings(&a->unseen, f);
	dv_table(f, summary_table(a, o, desc));
	dv_table(f, matrix_table(a));
	dv_table(f, proc_table(a, o->rows));
	dv_table(f, pair_table(a, o->rows));
	dv_table(f, site_table(a));
	dv_table(f, cpu_table(a));
	if (a->timeline)
		dv_table(f, a->timeline);
	a->timeline = NULL;
	doc_set_main(d, "summary");
	caveats(a, o, d);
}

/* ipis_findings: see ipis_findings.h. */
int ipis_findings(sqlite3 *db, const int64_t *ids, int n, const struct ipis_opts *o,
		  struct doc *d, char *err, size_t errlen)
{
	struct acc a = { .timeline = o->timeline ? timeline_table() : NULL };
	hm_init(&a.proc_ix);
	hm_init(&a.pair_ix);
	for (int i = 0; i < n; i++)
		if (stream_session(db, &a, o, ids[i], err, errlen)) {
			acc_free(&a);
			return -1;
		}
	char *desc = session_desc(db, ids, n);
	fill(&a, o, desc, d);
	lost_note(db, ids, n, INT64_MIN, INT64_MAX, "IPI and attempt counts are lower bounds, and IPIs "
		  "whose receiver was lost are unverified", d);
	ipis_unseen_warn(&a.unseen, d);
	free(desc);
	acc_free(&a);
	return 0;
}
