/* Wakeup latency per task, as `perf sched latency` measures it: the time
 * from a task becoming runnable to its switch-in on a CPU. Pure functions
 * over a session's events (analyze/timeline/mm_timeline.h), so the unit tests feed
 * hand-written sequences.
 *
 * Per task (tid), the state of its latest scheduling "atom":
 *  - a sched_switch away from it starts an atom: waiting for a CPU since
 *    then when prev_state is 0 (still runnable, e.g. sched_yield), else
 *    sleeping: as perf 6.1 reads the state, a preempted task (prev_state
 *    TASK_REPORT_MAX, 0x100 on 6.x kernels) sleeps too, so its wait for the
 *    CPU is not counted;
 *  - a wakeup of a sleeping task makes it wait since the wakeup (one at or
 *    before the switch away is ignored): sched_wakeup_new, and
 *    sched_waking when the session recorded it, else sched_wakeup (as perf
 *    6.4 and later; perf 6.1 to 6.3 ignore sched_waking);
 *  - a switch to a waiting task ends the wait: one latency, switch-in time
 *    minus wait start;
 *  - a task first seen being switched in waits since that switch (a
 *    latency of 0), one first seen woken sleeps until that wakeup.
 * The idle task (tid 0) is left out. Only switch-ins inside [t0, t1] count;
 * earlier events set the state. */
#ifndef PERFDB_SCHED_LATENCY_H
#define PERFDB_SCHED_LATENCY_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "analyze/timeline/mm_timeline.h"
#include "lib/hashmap.h"

/* One task's latencies: how many, their sum and the largest, with when
 * that wait started (the wakeup) and ended (the switch-in), perf clock ns. */
struct lat_task {
	int64_t tid;
	long long count;
	int64_t total_ns, max_ns, max_start, max_end;
};

/* sched_latency(ev, n, waking, t0, t1, out): the latencies of every task
 * with at least one in [t0, t1], in tid order, into *out (malloc'ed);
 * waking: the session recorded sched_waking (its sched_wakeup events are
 * then left out). Returns how many tasks. Never fails (allocation follows
 * lib/alloc.h). */
size_t sched_latency(const struct tl_event *ev, size_t n, bool waking, int64_t t0, int64_t t1,
		     struct lat_task **out);

/* A task's latest atom. */
enum atom_state { A_SLEEPING, A_WAITING, A_RUNNING };

struct lat_state {
	struct lat_task l;
	enum atom_state st;
	int64_t out, wake;	/* when it was switched away; when it began to wait */
};

/* The same measure one event at a time (sched_latency is begin, feed,
 * finish), for events streamed from a database: state per task, not per
 * event. */
struct lat_acc {
	struct hashmap ix;	/* tid -> index in v */
	struct lat_state *v;
	size_t n, cap;
	bool waking;
	int64_t t0, t1;
};

/* lat_begin(a, waking, t0, t1): starts a measure as sched_latency's. */
void lat_begin(struct lat_acc *a, bool waking, int64_t t0, int64_t t1);

/* lat_feed(a, e): takes the next event (time order; those after t1 are
 * left out). */
void lat_feed(struct lat_acc *a, const struct tl_event *e);

/* lat_finish(a, out): sched_latency's result of the events fed; a is left
 * empty. */
size_t lat_finish(struct lat_acc *a, struct lat_task **out);

/* lat_acc_free(a): drops a measure not finished. */
void lat_acc_free(struct lat_acc *a);

/* lat_merge(into, t): adds task t's latencies to into (a process's, or
 * several sessions'): counts and sums added, the larger max kept (the
 * earlier one on a tie). */
void lat_merge(struct lat_task *into, const struct lat_task *t);
#endif
