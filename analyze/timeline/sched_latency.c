/* Wakeup latency per task: see sched_latency.h. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/timeline/sched_latency.h"
#include "lib/alloc.h"
#include "lib/hashmap.h"


/* find(ts, tid): the task tid, or NULL when not seen yet. */
static struct lat_state *find(struct lat_acc *ts, int64_t tid)
{
	uint64_t i;
	return hm_get(&ts->ix, (uint64_t)tid, 0, &i) ? &ts->v[i] : NULL;
}

/* add(ts, tid, st, t): a new task whose first atom is in state st since t. */
static struct lat_state *add(struct lat_acc *ts, int64_t tid, enum atom_state st, int64_t t)
{
	ALLOC_GROW(ts->v, ts->n + 1, ts->cap);
	ts->v[ts->n] = (struct lat_state){ .l = { .tid = tid }, .st = st, .out = t, .wake = t };
	hm_put(&ts->ix, (uint64_t)tid, 0, ts->n);
	return &ts->v[ts->n++];
}

/* switch_in(k, t, count): k gets a CPU at t; a wait ends (and counts when
 * count). */
static void switch_in(struct lat_state *k, int64_t t, bool count)
{
	if (k->st != A_WAITING)
		return;
	k->st = A_RUNNING;
	if (t < k->wake || !count)
		return;
	int64_t d = t - k->wake;
	k->l.count++;
	k->l.total_ns += d;
	if (d > k->l.max_ns || k->l.count == 1) {
		k->l.max_ns = d;
		k->l.max_start = k->wake;
		k->l.max_end = t;
	}
}

/* on_switch(ts, e, count): a sched_switch from e->b to e->a. */
static void on_switch(struct lat_acc *ts, const struct tl_event *e, bool count)
{
	struct lat_state *prev = find(ts, e->b), *next;
	enum atom_state st = e->arg == 0 ? A_WAITING : A_SLEEPING;
	if (!prev)
		prev = add(ts, e->b, st, e->time);
	prev->st = st;
	prev->out = prev->wake = e->time;
	next = find(ts, e->a);
	if (!next)
		next = add(ts, e->a, A_WAITING, e->time);
	switch_in(next, e->time, count);
}

/* on_wakeup(ts, e): task e->a woken at e->time. */
static void on_wakeup(struct lat_acc *ts, const struct tl_event *e)
{
	struct lat_state *k = find(ts, e->a);
	if (!k)
		k = add(ts, e->a, A_SLEEPING, e->time);
	if (k->st != A_SLEEPING || k->out > e->time)
		return;
	k->st = A_WAITING;
	k->wake = e->time;
}

/* cmp_tid: tasks by tid. */
static int cmp_tid(const void *x, const void *y)
{
	const struct lat_task *a = x, *b = y;
	return (a->tid > b->tid) - (a->tid < b->tid);
}

/* lat_begin: see sched_latency.h. */
void lat_begin(struct lat_acc *a, bool waking, int64_t t0, int64_t t1)
{
	memset(a, 0, sizeof(*a));
	hm_init(&a->ix);
	a->waking = waking;
	a->t0 = t0;
	a->t1 = t1;
}

/* lat_feed: see sched_latency.h. */
void lat_feed(struct lat_acc *a, const struct tl_event *e)
{
	if (e->time > a->t1)
		return;
	if (e->kind == TL_SWITCH && e->a >= 0 && e->b >= 0)
		on_switch(a, e, e->time >= a->t0);
	else if (e->kind == TL_SAMPLE && e->a >= 0 && e->b >= TL_WAKING &&
		 (e->b != TL_WAKEUP || !a->waking))
		on_wakeup(a, e);
}

/* lat_finish: see sched_latency.h. */
size_t lat_finish(struct lat_acc *a, struct lat_task **out)
{
	size_t k = 0;
	*out = xcalloc(a->n + 1, sizeof(**out));
	for (size_t i = 0; i < a->n; i++)
		if (a->v[i].l.count && a->v[i].l.tid != 0)
			(*out)[k++] = a->v[i].l;
	if (k)
		qsort(*out, k, sizeof(**out), cmp_tid);
	lat_acc_free(a);
	return k;
}

/* lat_acc_free: see sched_latency.h. */
void lat_acc_free(struct lat_acc *a)
{
	free(a->v);
	hm_free(&a->ix);
	memset(a, 0, sizeof(*a));
}

/* sched_latency: see sched_latency.h. */
size_t sched_latency(const struct tl_event *ev, size_t n, bool waking, int64_t t0, int64_t t1,
		     struct lat_task **out)
{
	struct lat_acc a;
	lat_begin(&a, waking, t0, t1);
	for (size_t i = 0; i < n && ev[i].time <= t1; i++)
		lat_feed(&a, &ev[i]);
	return lat_finish(&a, out);
}

/* lat_merge: see sched_latency.h. */
void lat_merge(struct lat_task *into, const struct lat_task *t)
{
	if (!t->count)
		return;
	if (!into->count || t->max_ns > into->max_ns ||
	    (t->max_ns == into->max_ns && t->max_start < into->max_start)) {
		into->max_ns = t->max_ns;
		into->max_start = t->max_start;
		into->max_end = t->max_end;
	}
	into->count += t->count;
	into->total_ns += t->total_ns;
}
