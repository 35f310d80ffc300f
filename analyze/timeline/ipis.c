/* Matching TLB-flush IPIs to their receivers, classifying them against the
 * loaded-mm timelines, and counting them (see ipis.h). Pure code. */
#include "analyze/timeline/ipis.h"
#include "lib/alloc.h"
#include "lib/hashmap.h"
#include "lib/search.h"

#include <stdlib.h>
#include <string.h>

/* rx_name: see ipis.h. */
const char *rx_name(enum ipi_rx r)
{
	static const char *const names[] = { "reason1", "reason5", "reason0", "none" };
	return r < RX_N ? names[r] : "?";
}

/* why_name: see ipis.h. */
const char *why_name(enum ipi_why w)
{
	static const char *const names[] = { "not_seen", "no_csd", "recording_end",
		"untraced_task", "lost_events" };
	return w < WHY_N ? names[w] : "?";
}

/* unknown_name: see ipis.h. */
const char *unknown_name(enum ipi_unknown u)
{
	static const char *const names[] = { "no_history", "flushed_mm_unknown", "untraced_switch",
		"target_mm_unknown", "lazy_unsure" };
	return u < UNK_N ? names[u] : "?";
}

/* ipi_at(m, i): the IPI of index i (one not handed to the sink yet). */
static struct ipi *ipi_at(const struct ipi_matcher *m, size_t i)
{
	return &m->out->v[i - m->out->base];
}

/* gone(m, i): whether IPI i was handed to the sink (its match was final:
 * see is_final). */
static bool gone(const struct ipi_matcher *m, long i)
{
	return i >= 0 && (size_t)i < m->released;
}

/* add_ipi(m, e, target): appends an IPI sent by e to target and returns its
 * index. */
static long add_ipi(struct ipi_matcher *m, const struct tl_event *e, int target)
{
	struct ipi_set *s = m->out;
	ALLOC_GROW(s->v, s->n + 1, s->cap);
	int64_t mm = ident_mm(m->id, e->tid, e->time);
	s->v[s->n] = (struct ipi){ .send = e->time, .receipt = -1,
		.mm = mm > 0 ? mm : MM_UNKNOWN, .sender = e->cpu, .target = target,
		.site = e->site, .reason = -1, .cls = CL_UNVERIFIED };
	return (long)(s->base + s->n++);
}

/* add_attempt(m, e): records a flush attempt (reason 4) of e's task's mm
 * (with a sink: hands it over). */
static void add_attempt(struct ipi_matcher *m, const struct tl_event *e)
{
	struct ipi_set *s = m->out;
	int64_t mm = ident_mm(m->id, e->tid, e->time);
	if (m->sink) {
		m->sink->attempt(m->sink->ctx, mm > 0 ? mm : MM_UNKNOWN);
		return;
	}
	ALLOC_GROW(s->attempt_mm, s->nattempts + 1, s->attempt_cap);
	s->attempt_mm[s->nattempts++] = mm > 0 ? mm : MM_UNKNOWN;
}

/* await_push(m, cpu, i): IPI i, queued on cpu, waits for its ipi_send. */
static void await_push(struct ipi_matcher *m, int cpu, size_t i)
{
	ALLOC_GROW(m->await[cpu], m->nawait[cpu] + 1, m->capawait[cpu]);
	m->await[cpu][m->nawait[cpu]++] = i;
}

/* on_send(m, e): an ipi_send to e->arg raises the interrupt of the IPIs its
 * CPU just queued for that target. */
static void on_send(struct ipi_matcher *m, const struct tl_event *e)
{
	for (size_t k = 0; k < m->nawait[e->cpu]; k++) {
		struct ipi *p = ipi_at(m, m->await[e->cpu][k]);
		if (p->target == e->arg)
			p->raised = 1;
	}
}

/* on_csd(m, e): the "csd" source: queues, receivers' entries and exits. */
static void on_csd(struct ipi_matcher *m, const struct tl_event *e)
{
	uint64_t v;
	if (e->kind == TL_CSD_QUEUE) {
		if (!e->flush || e->arg < 0 || e->arg >= m->ncpus)
			return;
		long i = add_ipi(m, e, e->arg);
		await_push(m, e->cpu, (size_t)i);
		hm_put(&m->pending, (uint64_t)e->arg, (uint64_t)e->a, (uint64_t)i + 1);
		return;
	}
	if (e->kind == TL_CSD_ENTRY) {
		m->running[e->cpu] = -1;
		if (e->flush && hm_get(&m->pending, (uint64_t)e->cpu, (uint64_t)e->a, &v)) {
			hm_del(&m->pending, (uint64_t)e->cpu, (uint64_t)e->a);
			if (gone(m, (long)v - 1) || e->time - ipi_at(m, v - 1)->send > IPIS_MAX_RX_NS)
				return;	/* (one gone was sent over IPIS_MAX_RX_NS ago) */
			m->running[e->cpu] = (long)v - 1;
			ipi_at(m, v - 1)->receipt = e->time;
		}
	} else if (e->kind == TL_CSD_EXIT) {
		m->running[e->cpu] = -1;
	}
}

/* on_flush(m, e, csd_source): a tlb_flush of reason 0, 1 or 5 is the
 * verdict of the IPI whose function runs on its CPU ("csd"), or, of reason
 * 1 or 5, the verdict and the receipt of the last IPI sent to the CPU
 * within IPIS_FALLBACK_RX_NS ("ipi"); reason 4 is a flush attempt. */
static void on_flush(struct ipi_matcher *m, const struct tl_event *e, bool csd_source)
{
	long i = csd_source ? m->running[e->cpu] : m->last_to[e->cpu];
	if (e->arg == 4)
		add_attempt(m, e);
	if (i < 0 || gone(m, i) || ipi_at(m, (size_t)i)->reason >= 0)
		return;	/* (one gone was sent over IPIS_FALLBACK_RX_NS ago) */
	struct ipi *p = ipi_at(m, (size_t)i);
	if (csd_source) {
		if (e->arg == 0 || e->arg == 1 || e->arg == 5)
			p->reason = (int8_t)e->arg;
	} else if ((e->arg == 1 || e->arg == 5) && e->time - p->send <= IPIS_FALLBACK_RX_NS) {
		p->reason = (int8_t)e->arg;
		p->receipt = e->time;
		m->last_to[e->cpu] = -1;
	}
}

/* on_event(m, e, csd_source): one event of the match (other samples only
 * tell the timelines who runs). */
static void on_event(struct ipi_matcher *m, const struct tl_event *e, bool csd_source)
{
	if (e->kind == TL_SAMPLE)
		return;
	if (e->kind == TL_IPI_SEND) {
		int64_t at = m->attempt_at[e->cpu];
		if (csd_source) {
			on_send(m, e);
			return;
		}
		if (!(e->flush || (at >= 0 && e->time - at <= IPIS_ATTEMPT_NS)) ||
		    e->arg < 0 || e->arg >= m->ncpus)
			return;
		long i = add_ipi(m, e, e->arg);
		ipi_at(m, (size_t)i)->raised = 1;
		m->last_to[e->arg] = i;
		return;
	}
	if (e->kind != TL_CSD_QUEUE)
		m->nawait[e->cpu] = 0;
	m->attempt_at[e->cpu] = e->kind == TL_FLUSH && e->arg == 4 ? e->time : -1;
	if (e->kind == TL_FLUSH) {
		on_flush(m, e, csd_source);
		return;
	}
	if (csd_source && (e->kind == TL_CSD_QUEUE || e->kind == TL_CSD_ENTRY ||
			   e->kind == TL_CSD_EXIT))
		on_csd(m, e);
}

/* cpus_upto(m, n): m's per-CPU state holds at least n CPUs (new ones:
 * nothing pending). */
static void cpus_upto(struct ipi_matcher *m, size_t n)
{
	if (n <= m->cap)
		return;
	size_t k = m->cap ? m->cap : 1;
	while (k < n)
		k *= 2;
	m->running = xreallocarray(m->running, k, sizeof(*m->running));
	m->last_to = xreallocarray(m->last_to, k, sizeof(*m->last_to));
	m->attempt_at = xreallocarray(m->attempt_at, k, sizeof(*m->attempt_at));
	m->await = xreallocarray(m->await, k, sizeof(*m->await));
	m->nawait = xreallocarray(m->nawait, k, sizeof(*m->nawait));
	m->capawait = xreallocarray(m->capawait, k, sizeof(*m->capawait));
	for (size_t c = m->cap; c < k; c++) {
		m->running[c] = m->last_to[c] = m->attempt_at[c] = -1;
		m->await[c] = NULL;
		m->nawait[c] = m->capawait[c] = 0;
	}
	m->cap = k;
}

/* is_final(m, i): whether nothing later can change IPI i's match: it
 * waits for no ipi_send on its sender, and its receipt ("csd": an entry
 * within IPIS_MAX_RX_NS; "ipi": a flush within IPIS_FALLBACK_RX_NS) and
 * verdict (a flush while its function runs) can come no more. Events come
 * in time order, so nothing later is older than m->now. */
static bool is_final(const struct ipi_matcher *m, size_t i)
{
	const struct ipi *p = ipi_at(m, i);
	if (p->sender >= 0 && (size_t)p->sender < m->cap)
		for (size_t k = 0; k < m->nawait[p->sender]; k++)
			if (m->await[p->sender][k] == i)
				return false;
	if (!m->csd_source)
		return p->target < 0 || (size_t)p->target >= m->cap ||
		       m->last_to[p->target] != (long)i || m->now - p->send > IPIS_FALLBACK_RX_NS;
	if (p->receipt < 0)
		return m->now - p->send > IPIS_MAX_RX_NS;
	return p->target < 0 || (size_t)p->target >= m->cap || m->running[p->target] != (long)i;
}

/* release(m, all): hands the sink the IPIs whose match is final (all: every
 * one left, at the end), in the order they were sent; drops their room
 * once half of it is theirs. */
static void release(struct ipi_matcher *m, bool all)
{
	struct ipi_set *s = m->out;
	while (m->released < s->base + s->n && (all || is_final(m, m->released)))
		m->sink->ipi(m->sink->ctx, ipi_at(m, m->released++));
	size_t done = m->released - s->base;
	if (done >= 1024 && done * 2 >= s->n) {
		memmove(s->v, s->v + done, (s->n - done) * sizeof(*s->v));
		s->n -= done;
		s->base = m->released;
	}
}

/* ipis_begin: see ipis.h. */
void ipis_begin(struct ipi_matcher *m, const struct ident *id, int ncpus, bool grow,
		bool csd_source, const struct ipi_sink *sink, struct ipi_set *out)
{
	memset(m, 0, sizeof(*m));
	memset(out, 0, sizeof(*out));
	m->out = out;
	m->sink = sink;
	m->id = id;
	m->grow = grow;
	m->csd_source = csd_source;
	m->ncpus = ncpus > 0 ? ncpus : 0;
	out->csd_source = csd_source;
	hm_init(&m->pending);
	cpus_upto(m, m->ncpus ? (size_t)m->ncpus : 1);
}

/* ipis_feed: see ipis.h. */
void ipis_feed(struct ipi_matcher *m, const struct tl_event *e)
{
	if (m->grow) {
		int n = e->cpu + 1;
		if ((e->kind == TL_CSD_QUEUE || e->kind == TL_IPI_SEND) && e->arg >= n &&
		    e->arg < 65536)
			n = e->arg + 1;
		if (n > m->ncpus && n <= 65536) {
			cpus_upto(m, (size_t)n);
			m->ncpus = n;
		}
	}
	if (e->cpu >= 0 && e->cpu < m->ncpus)
		on_event(m, e, m->csd_source);
	if (m->sink) {
		m->now = e->time;
		release(m, false);
	}
}

/* ipis_finish: see ipis.h. */
void ipis_finish(struct ipi_matcher *m)
{
	if (m->sink)
		release(m, true);
	hm_free(&m->pending);
	for (size_t c = 0; m->await && c < m->cap; c++)
		free(m->await[c]);
	free(m->await);
	free(m->nawait);
	free(m->capawait);
	free(m->running);
	free(m->last_to);
	free(m->attempt_at);
	memset(m, 0, sizeof(*m));
}

/* ipis_match: see ipis.h. */
void ipis_match(const struct tl_event *ev, size_t n, const struct ident *id,
		int ncpus, bool csd_source, struct ipi_set *out)
{
	struct ipi_matcher m;
	ipis_begin(&m, id, ncpus, false, csd_source, NULL, out);
	for (size_t i = 0; i < n; i++)
		ipis_feed(&m, &ev[i]);
	ipis_finish(&m);
}

/* ipi_set_free: see ipis.h. */
void ipi_set_free(struct ipi_set *s)
{
	free(s->v);
	free(s->attempt_mm);
	memset(s, 0, sizeof(*s));
}

/* ends_before(sp, t): whether lost span sp ends before time *t. */
static bool ends_before(const void *sp, const void *t)
{
	return ((const struct lost_span *)sp)->time < *(const int64_t *)t;
}

/* lost_near(l, cpu, from, to): whether perf lost records of cpu that
 * may lie in [from, to]: a span of cpu (or of an unknown CPU) overlaps it. */
static bool lost_near(const struct lost_spans *l, int cpu, int64_t from, int64_t to)
{
	if (!l || l->whole)
		return l && l->whole;
	/* from the first span ending at or after from */
	for (size_t i = lower_bound(l->v, l->n, sizeof(*l->v), &from, ends_before); i < l->n; i++)
		if ((l->v[i].cpu == cpu || l->v[i].cpu < 0) && l->v[i].since < to)
			return true;
	return false;
}

/* why_unverified(p, tl, csd_source, lost): why IPI p has no receiver, as
 * far as the recording tells (see ipis_classify). */
static enum ipi_why why_unverified(const struct ipi *p, const struct timeline *tl,
				   bool csd_source, const struct lost_spans *lost)
{
	if (!csd_source)
		return WHY_NO_CSD;
	if (p->target < 0 || p->target >= tl->ncpus || tl->cpus[p->target].last <= p->send)
		return WHY_END;
	if (lost_near(lost, p->target, p->send, p->send + IPIS_FALLBACK_RX_NS))
		return WHY_LOST;
	if (timeline_untraced_near(tl, p->target, p->send, p->send + IPIS_FALLBACK_RX_NS))
		return WHY_UNTRACED;
	return WHY_NONE;
}

/* ipi_classify_one: see ipis.h. */
void ipi_classify_one(struct ipi *p, const struct timeline *tl, int64_t window_ns, bool csd_source,
		      const struct lost_spans *lost)
{
	int64_t from = p->send > INT64_MIN + window_ns ? p->send - window_ns : p->send;
	p->near_send = !timeline_stable(tl, p->target, from, p->send, p->mm);
	p->why = WHY_NONE;
	if (p->receipt >= 0) {
		const struct tl_seg *g = timeline_at(tl, p->target, p->receipt);
		p->cls = (uint8_t)timeline_seg_class(g, p->mm);
		if (p->cls == CL_UNKNOWN)
			p->why = (uint8_t)(!g ? UNK_NO_HISTORY : p->mm <= 0 ? UNK_FLUSHED_MM :
					   g->mm == MM_UNKNOWN ? (g->cause == TL_CAUSE_UNTRACED ? UNK_UNTRACED :
								  UNK_TARGET_MM) : UNK_LAZY_UNSURE);
	} else {
		p->cls = CL_UNVERIFIED;
		p->why = (uint8_t)why_unverified(p, tl, csd_source, lost);
	}
}

/* ipis_classify: see ipis.h. */
void ipis_classify(struct ipi_set *set, const struct timeline *tl, int64_t window_ns,
		   const struct lost_spans *lost)
{
	for (size_t i = 0; i < set->n; i++)
		ipi_classify_one(&set->v[i], tl, window_ns, set->csd_source, lost);
}

/* ipi_rx_of: see ipis.h. */
enum ipi_rx ipi_rx_of(const struct ipi *p)
{
	switch (p->reason) {
	case 1:
		return RX_1;
	case 5:
		return RX_5;
	case 0:
		return RX_0;
	default:
		return RX_NONE;
	}
}

/* ipi_agrees: see ipis.h. */
bool ipi_agrees(enum tl_class cls, enum ipi_rx rx)
{
	return (cls == CL_RUNNING && (rx == RX_1 || rx == RX_NONE)) ||
	       (cls == CL_LAZY && rx == RX_0) || (cls == CL_OTHER && rx == RX_5);
}

/* ipi_wasted_agrees: see ipis.h. */
bool ipi_wasted_agrees(enum tl_class cls, enum ipi_rx rx)
{
	return (cls == CL_OTHER) == (rx == RX_5);
}

/* ipi_count: see ipis.h. */
void ipi_count(struct ipi_counts *c, const struct ipi *p)
{
	c->ipis++;
	c->raised += p->raised;
	c->wasted += p->cls == CL_OTHER;
	c->near_send += p->near_send;
	c->cls[p->cls < CL_N ? p->cls : CL_UNKNOWN]++;
	c->rx[ipi_rx_of(p)]++;
}

/* ipi_summarize_one: see ipis.h. */
void ipi_summarize_one(struct ipi_summary *s, const struct ipi *p, bool verdicts)
{
	enum ipi_rx rx = ipi_rx_of(p);
	int cls = p->cls < CL_N ? p->cls : CL_UNKNOWN;
	ipi_count(&s->all, p);
	s->matrix[cls][rx]++;
	if (p->near_send)
		s->near_send_cls[cls]++;
	if (cls == CL_UNVERIFIED)
		s->why[p->why < WHY_N ? p->why : WHY_NONE]++;
	if (cls == CL_UNKNOWN)
		s->unknown[p->why < UNK_N ? p->why : UNK_NO_HISTORY]++;
	if (!verdicts || (cls != CL_RUNNING && cls != CL_LAZY && cls != CL_OTHER))
		return;
	s->compared++;
	s->agreeing += ipi_agrees(cls, rx);
	s->wasted_agreeing += ipi_wasted_agrees(cls, rx);
}

/* ipi_summarize: see ipis.h. */
void ipi_summarize(struct ipi_summary *s, const struct ipi_set *set)
{
	s->attempts += (long long)set->nattempts;
	for (size_t i = 0; i < set->n; i++)
		ipi_summarize_one(s, &set->v[i], set->verdicts);
}

/* ipis_remote_runner: see ipis.h. */
bool ipis_remote_runner(const struct timeline *tl, int cpu, int64_t t, int64_t mm)
{
	if (mm <= 0)
		return false;
	for (int c = 0; c < tl->ncpus; c++)
		if (c != cpu && timeline_class(tl, c, t, mm) == CL_RUNNING)
			return true;
	return false;
}

/* ipi_seen_event: see ipis.h. */
void ipi_seen_event(struct ipi_seen *s, const struct timeline *tl, const struct ident *id,
		    const struct tl_event *e)
{
	if (e->kind != TL_FLUSH || e->arg != 4)
		return;
	s->remote_flushes += ipis_remote_runner(tl, e->cpu, e->time, ident_mm(id, e->tid, e->time));
}

/* ipi_seen_ipi: see ipis.h. */
void ipi_seen_ipi(struct ipi_seen *s, const struct timeline *tl, const struct ipi *p)
{
	s->ipis_to_running += p->mm > 0 && timeline_class(tl, p->target, p->send, p->mm) == CL_RUNNING;
}

/* ipis_visibility: see ipis.h. */
enum ipi_visibility ipis_visibility(const struct ipi_seen *s)
{
	if (s->remote_flushes >= IPIS_UNSEEN_MIN && s->ipis_to_running * IPIS_UNSEEN_PER < s->remote_flushes)
		return IPIS_NOT_SEEN;
	return s->ipis_to_running > 0 ? IPIS_SEEN : IPIS_UNTOLD;
}
