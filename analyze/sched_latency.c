/* Wakeup latency per task: see sched_latency.h. */
#include <stdbool.h>
#include <stdlib.h>
#include "analyze/sched_latency.h"
#include "lib/alloc.h"
#include "lib/hashmap.h"

/* A task's latest atom. */
enum atom_state { A_SLEEPING, A_WAITING, A_RUNNING };

struct task {
	struct lat_task l;
	enum atom_state st;
	int64_t out, wake;	/* when it was switched away; when it began to wait */
};

/* The tasks, by tid through a map to their index. */
struct tasks {
	struct hashmap ix;
	struct task *v;
	size_t n, cap;
};

/* find(ts, tid): the task tid, or NULL when not seen yet. */
static struct task *find(struct tasks *ts, int64_t tid)
{
	uint64_t i;
	return hm_get(&ts->ix, (uint64_t)tid, 0, &i) ? &ts->v[i] : NULL;
}

/* add(ts, tid, st, t): a new task whose first atom is in state st since t. */
static struct task *add(struct tasks *ts, int64_t tid, enum atom_state st, int64_t t)
{
	ALLOC_GROW(ts->v, ts->n + 1, ts->cap);
	ts->v[ts->n] = (struct task){ .l = { .tid = tid }, .st = st, .out = t, .wake = t };
	hm_put(&ts->ix, (uint64_t)tid, 0, ts->n);
	return &ts->v[ts->n++];
}

/* switch_in(k, t, count): k gets a CPU at t; a wait ends (and counts when
 * count). */
static void switch_in(struct task *k, int64_t t, bool count)
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
static void on_switch(struct tasks *ts, const struct tl_event *e, bool count)
{
	struct task *prev = find(ts, e->b), *next;
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
static void on_wakeup(struct tasks *ts, const struct tl_event *e)
{
	struct task *k = find(ts, e->a);
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

/* sched_latency: see sched_latency.h. */
size_t sched_latency(const struct tl_event *ev, size_t n, bool waking, int64_t t0, int64_t t1,
		     struct lat_task **out)
{
	struct tasks ts = { 0 };
	size_t k = 0;
	hm_init(&ts.ix);
	for (size_t i = 0; i < n && ev[i].time <= t1; i++) {
		const struct tl_event *e = &ev[i];
		if (e->kind == TL_SWITCH && e->a >= 0 && e->b >= 0)
			on_switch(&ts, e, e->time >= t0);
		else if (e->kind == TL_SAMPLE && e->a >= 0 && e->b >= TL_WAKING &&
			 (e->b != TL_WAKEUP || !waking))
			on_wakeup(&ts, e);
	}
	*out = xcalloc(ts.n + 1, sizeof(**out));
	for (size_t i = 0; i < ts.n; i++)
		if (ts.v[i].l.count && ts.v[i].l.tid != 0)
			(*out)[k++] = ts.v[i].l;
	if (k)
		qsort(*out, k, sizeof(**out), cmp_tid);
	free(ts.v);
	hm_free(&ts.ix);
	return k;
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
