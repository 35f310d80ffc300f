/* Unit tests for analyze/timeline/sched_latency.c on hand-written event sequences:
 * a wakeup to the switch-in, a task switched away still runnable (prev_state
 * 0) waiting from that switch, a preempted one (prev_state 256) not, a task
 * first seen switched in (a latency of 0) or woken (waiting from then), a
 * wakeup of a task not sleeping ignored, sched_waking preferred to sched_wakeup when recorded (the
 * wakeup then ignored), the idle task left out, the window, the largest
 * wait with its start and end, and lat_merge. */
#include <stdlib.h>
#include "analyze/timeline/sched_latency.h"
#include "tests/unit/tap.h"

/* sw(t, cpu, prev, next, state): a switch from prev (prev_state state). */
static struct tl_event sw(int64_t t, int cpu, int64_t prev, int64_t next, int state)
{
	return (struct tl_event){ .time = t, .cpu = cpu, .tid = prev, .a = next, .b = prev,
		.arg = state, .kind = TL_SWITCH, .site = -1 };
}

/* wk(t, cpu, waker, wakee, which): a wakeup of wakee (TL_WAKING ...). */
static struct tl_event wk(int64_t t, int cpu, int64_t waker, int64_t wakee, int which)
{
	return (struct tl_event){ .time = t, .cpu = cpu, .tid = waker, .a = wakee, .b = which,
		.arg = -1, .kind = TL_SAMPLE, .site = -1 };
}

/* find(v, n, tid): task tid's latencies, or NULL. */
static const struct lat_task *find(const struct lat_task *v, size_t n, int64_t tid)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].tid == tid)
			return &v[i];
	return NULL;
}

static void test_basic(void)
{
	struct tl_event ev[] = {
		sw(100, 0, 0, 10, 0),		/* 10 first seen switched in: 0 */
		sw(200, 0, 10, 0, 1),		/* 10 sleeps */
		wk(300, 1, 20, 10, TL_WAKEUP),	/* woken at 300 */
		wk(350, 1, 20, 10, TL_WAKEUP),	/* already waiting: ignored */
		sw(1300, 0, 0, 10, 0),		/* runs at 1300: 1000 */
		sw(1400, 0, 10, 30, 0),		/* 10 still runnable; 30 first seen: 0 */
		sw(1900, 0, 30, 10, 1),		/* 10 back at 1900: 500 */
		wk(1950, 1, 20, 10, TL_WAKEUP),	/* running: ignored */
	};
	struct lat_task *v;
	size_t n = sched_latency(ev, sizeof(ev) / sizeof(*ev), false, INT64_MIN, INT64_MAX, &v);
	const struct lat_task *t10 = find(v, n, 10), *t30 = find(v, n, 30);
	is_int(n, 2, "two tasks with latencies (idle left out)");
	ok(t10 && t10->count == 3 && t10->total_ns == 1500, "task 10: 0 + 1000 + 500 (%lld waits, %lld ns)",
	   t10 ? t10->count : -1, t10 ? (long long)t10->total_ns : -1);
	ok(t10 && t10->max_ns == 1000 && t10->max_start == 300 && t10->max_end == 1300,
	   "task 10's largest wait: 1000 ns from the wakeup at 300 to the switch-in at 1300");
	ok(t30 && t30->count == 1 && t30->total_ns == 0, "task 30 first seen switched in: one wait of 0");
	free(v);
	n = sched_latency(ev, sizeof(ev) / sizeof(*ev), false, 1350, INT64_MAX, &v);
	t10 = find(v, n, 10);
	ok(t10 && t10->count == 1 && t10->total_ns == 500, "window from 1350: only the switch-in at 1900");
	free(v);
}

static void test_wakeup_kinds(void)
{
	struct tl_event ev[] = {
		sw(100, 0, 10, 0, 1),		  /* 10 sleeps */
		wk(200, 1, 20, 10, TL_WAKING),	  /* waking at 200 */
		wk(250, 0, 0, 10, TL_WAKEUP),	  /* wakeup at 250 */
		sw(400, 0, 0, 10, 0),
		wk(500, 1, 20, 40, TL_WAKEUP_NEW), /* new task 40 */
		sw(800, 1, 20, 40, 256),	  /* 20 preempted: runnable */
		sw(900, 1, 40, 20, 1),		  /* 20 back: not counted */
	};
	size_t ne = sizeof(ev) / sizeof(*ev);
	struct lat_task *v;
	size_t n = sched_latency(ev, ne, true, INT64_MIN, INT64_MAX, &v);
	const struct lat_task *t10 = find(v, n, 10), *t40 = find(v, n, 40), *t20 = find(v, n, 20);
	ok(t10 && t10->count == 1 && t10->total_ns == 200, "waking recorded: 10 waits from sched_waking (200 ns)");
	ok(t40 && t40->count == 1 && t40->total_ns == 300, "sched_wakeup_new: 40 waits 300 ns");
	ok(!t20, "a preempted task (prev_state 256) counts no wait, as perf 6.1 reads its state");
	free(v);
	ev[1].b = TL_WAKEUP;
	n = sched_latency(ev, ne, true, INT64_MIN, INT64_MAX, &v);
	t10 = find(v, n, 10);
	ok(!t10, "waking recorded: sched_wakeup events are left out (10 never woken: no wait)");
	free(v);
	n = sched_latency(ev, ne, false, INT64_MIN, INT64_MAX, &v);
	t10 = find(v, n, 10);
	ok(t10 && t10->count == 1 && t10->total_ns == 200,
	   "no waking: the first sched_wakeup counts, a second one of a waiting task is ignored");
	free(v);
	ev[1].time = 50;
	n = sched_latency(ev + 1, ne - 1, false, INT64_MIN, INT64_MAX, &v);
	t10 = find(v, n, 10);
	ok(t10 && t10->count == 1 && t10->total_ns == 350, "a task first seen woken waits from that wakeup (50 to 400)");
	free(v);
}

static void test_merge(void)
{
	struct lat_task a = { .tid = 1, .count = 2, .total_ns = 30, .max_ns = 20, .max_start = 5, .max_end = 25 };
	struct lat_task b = { .tid = 2, .count = 1, .total_ns = 40, .max_ns = 40, .max_start = 7, .max_end = 47 };
	struct lat_task m = { 0 };
	lat_merge(&m, &a);
	lat_merge(&m, &b);
	ok(m.count == 3 && m.total_ns == 70 && m.max_ns == 40 && m.max_start == 7 && m.max_end == 47,
	   "lat_merge adds counts and sums, keeps the larger max with its times");
}

/* test_edges: the window's ends belong to it; of two equal longest waits
 * the first is kept, in one run and in a merge; a wakeup stamped before
 * the task's switch out (another CPU's clock) is not its wakeup. */
static void test_edges(void)
{
	struct tl_event ev[] = {
		sw(100, 0, 0, 10, 0),
		sw(200, 0, 10, 0, 1),		/* 10 sleeps */
		wk(300, 1, 20, 10, TL_WAKEUP),
		sw(1300, 0, 0, 10, 0),		/* 1000 */
		sw(1400, 0, 10, 30, 0),		/* 10 still runnable */
		sw(1900, 0, 30, 10, 1),		/* 500 */
	};
	size_t ne = sizeof(ev) / sizeof(*ev);
	struct lat_task *v;
	size_t n = sched_latency(ev, ne, false, 1300, INT64_MAX, &v);
	const struct lat_task *t10 = find(v, n, 10);
	ok(t10 && t10->count == 2 && t10->total_ns == 1500, "a switch-in at the window's start counts (1000 + 500)");
	free(v);
	n = sched_latency(ev, ne, false, INT64_MIN, 1900, &v);
	t10 = find(v, n, 10);
	ok(t10 && t10->count == 3 && t10->total_ns == 1500, "... and one at the window's end (0 + 1000 + 500)");
	free(v);
	struct tl_event eq[] = {
		sw(100, 0, 10, 0, 1), wk(200, 1, 20, 10, TL_WAKEUP), sw(300, 0, 0, 10, 0),	/* 100 */
		sw(400, 0, 10, 0, 1), wk(500, 1, 20, 10, TL_WAKEUP), sw(600, 0, 0, 10, 0),	/* 100 again */
	};
	n = sched_latency(eq, sizeof(eq) / sizeof(*eq), false, INT64_MIN, INT64_MAX, &v);
	t10 = find(v, n, 10);
	ok(t10 && t10->max_ns == 100 && t10->max_start == 200 && t10->max_end == 300,
	   "two equal longest waits: the first is kept (200 to 300)");
	free(v);
	struct tl_event skew[] = {
		sw(100, 0, 10, 0, 1),		/* 10 sleeps at 100 */
		wk(90, 1, 20, 10, TL_WAKEUP),	/* stamped before it: not its wakeup */
		wk(200, 1, 20, 10, TL_WAKEUP),
		sw(250, 0, 0, 10, 0),
	};
	n = sched_latency(skew, sizeof(skew) / sizeof(*skew), false, INT64_MIN, INT64_MAX, &v);
	t10 = find(v, n, 10);
	ok(t10 && t10->count == 1 && t10->total_ns == 50, "a wakeup stamped before the sleep is ignored: 50 ns from 200");
	free(v);
	struct lat_task a = { .tid = 1, .count = 1, .total_ns = 40, .max_ns = 40, .max_start = 7, .max_end = 47 };
	struct lat_task b = { .tid = 1, .count = 1, .total_ns = 40, .max_ns = 40, .max_start = 3, .max_end = 43 };
	struct lat_task m = { 0 }, m2 = { 0 };
	lat_merge(&m, &a);
	lat_merge(&m, &b);
	lat_merge(&m2, &b);
	lat_merge(&m2, &a);
	ok(m.max_start == 3 && m.max_end == 43 && m2.max_start == 3, "merged equal longest waits: the earlier (3 to 43)");
}

int main(void)
{
	test_basic();
	test_edges();
	test_wakeup_kinds();
	test_merge();
	return tap_done();
}
