/* Unit tests for analyze/timeline/mm_timeline.c and analyze/timeline/ipis.c on hand-written
 * event sequences: task identity (threads, exec generations, kernel
 * threads, unknown tasks), every loaded-mm rule (switch to a user task,
 * lazy on idle and kernel threads, init_mm after a lazy reason-0 flush,
 * exec, exit, fork reusing a tid, a session starting mid-flight, switches
 * the kernel did not trace, seen from a sample or from a sched_switch's
 * outgoing task), every class judged on arrival, unverified IPIs (no
 * receiver: never guessed, and why), switched_near_send, csd pairing,
 * receiver verdicts, interrupts raised, attempts, the ipi_send fallback,
 * the summary's agreement, and the guard on flush IPIs that cannot be seen
 * (its counts, its verdict, the kallsyms names it gives). */
#include "analyze/timeline/ipis.h"
#include "analyze/timeline/mm_timeline.h"
#include "lib/kallsyms.h"
#include "tests/unit/tap.h"

/* The identity of the tests: process A (pid 100, threads 100 and 101)
 * execs at 5000 (row 11 after, row 10 before); B (pid 200) existed before
 * the recording (start 0); C (pid 300) forks at 7000; kworker (pid 30) and
 * idle (pid 0) have no mm. */
static struct ident_thread threads[] = {
	{ 200, 200, 0 }, { 101, 100, TIME_NONE }, { 100, 100, TIME_NONE },
	{ 30, 30, TIME_NONE }, { 300, 300, 7000 },
};
static struct ident_proc procs[] = {
	{ 11, 100, 5000, INT64_MAX, 1, "a-new" }, { 10, 100, TIME_NONE, 5000, 1, "a" },
	{ 20, 200, 0, INT64_MAX, 1, "b" }, { 30, 30, TIME_NONE, INT64_MAX, 0, "kworker" },
	{ 1, 0, TIME_NONE, INT64_MAX, 0, "swapper" }, { 40, 300, 7000, INT64_MAX, 1, "c" },
};
static struct ident id = { threads, 5, procs, 6 };

/* Event constructors. */
static struct tl_event sw(int64_t t, int cpu, int64_t prev, int64_t next)
{
	return (struct tl_event){ .time = t, .cpu = cpu, .tid = prev, .a = next, .b = prev,
		.kind = TL_SWITCH, .site = -1 };
}

static struct tl_event ev(int64_t t, int cpu, int64_t tid, int kind, int64_t a, int arg)
{
	return (struct tl_event){ .time = t, .cpu = cpu, .tid = tid, .a = a, .arg = arg,
		.kind = (uint8_t)kind, .site = -1 };
}

static struct tl_event queue(int64_t t, int cpu, int64_t tid, int target, int64_t csd)
{
	struct tl_event e = ev(t, cpu, tid, TL_CSD_QUEUE, csd, target);
	e.flush = 1;
	e.site = 0;
	return e;
}

static struct tl_event entry(int64_t t, int cpu, int64_t tid, int64_t csd, int kind)
{
	struct tl_event e = ev(t, cpu, tid, kind, csd, -1);
	e.flush = 1;
	return e;
}

static struct tl_event flush(int64_t t, int cpu, int64_t tid, int reason)
{
	return ev(t, cpu, tid, TL_FLUSH, -1, reason);
}

static void test_identity(void)
{
	ident_sort(&id);
	is_int(ident_mm(&id, 101, 10), 10, "a thread resolves to its process's mm");
	is_int(ident_mm(&id, 100, 4999), 10, "before the exec: the old mm");
	is_int(ident_mm(&id, 101, 5000), 11, "from the exec on: the new mm (exec_gen row)");
	is_int(ident_mm(&id, 200, -5), 20, "a process from before the recording (start 0) is found before 0");
	is_int(ident_mm(&id, 0, 10), MM_KERNEL, "idle has no mm");
	is_int(ident_mm(&id, 30, 10), MM_KERNEL, "a kernel thread has no mm");
	is_int(ident_mm(&id, 999, 10), MM_UNKNOWN, "an unknown task has an unknown mm");
	is_int(ident_mm(&id, 300, 8000), 40, "a forked process from its start");
	is_int(ident_mm(&id, -1, 8000), MM_UNKNOWN, "tid -1 (no thread) is unknown");
	ok(ident_proc_of(&id, 101, 10) >= 0 && !strcmp(id.procs[ident_proc_of(&id, 101, 10)].comm, "a"),
	   "ident_proc_of gives the process row");
}

/* build(v, n, tl): a timeline of 3 CPUs from v. */
static void build(const struct tl_event *v, size_t n, struct timeline *tl)
{
	timeline_build(v, n, &id, 3, tl);
}

static void test_switch_rules(void)
{
	struct tl_event v[] = {
		sw(100, 1, 0, 101),     /* A runs */
		sw(1000, 1, 101, 0),    /* idle: A lazily */
		flush(1600, 1, 0, 0),   /* lazy + reason 0: init_mm */
		sw(2500, 1, 0, 200),    /* B runs */
		sw(3500, 1, 200, 30),   /* kworker: B lazily */
		sw(4000, 1, 30, 999),   /* unknown task */
		flush(4100, 1, 999, 0), /* reason 0 while running: no change */
	};
	struct timeline tl;
	build(v, sizeof(v) / sizeof(*v), &tl);
	is_int(timeline_class(&tl, 1, 50, 10), CL_UNKNOWN, "before any history: unknown");
	is_int(timeline_class(&tl, 1, 100, 10), CL_RUNNING, "switch to a thread of A: running A");
	is_int(timeline_class(&tl, 1, 150, 20), CL_OTHER, "... and other for B");
	is_int(timeline_class(&tl, 1, 1000, 10), CL_LAZY, "switch to idle keeps A, lazily");
	is_int(timeline_class(&tl, 1, 1700, 10), CL_OTHER, "a reason-0 flush while lazy: init_mm, other for A");
	is_int(timeline_at(&tl, 1, 1700)->mm, MM_INIT, "the loaded mm is init_mm");
	is_int(timeline_class(&tl, 1, 2600, 20), CL_RUNNING, "switch to B: running B");
	is_int(timeline_class(&tl, 1, 3600, 20), CL_LAZY, "switch to a kernel thread keeps B, lazily");
	is_int(timeline_class(&tl, 1, 3600, 10), CL_OTHER, "... other for A");
	is_int(timeline_class(&tl, 1, 4050, 20), CL_UNKNOWN, "switch to an unknown task: unknown");
	is_int(tl.cpus[1].n, 6, "one segment per change (a reason-0 flush while running adds none)");
	is_int(timeline_class(&tl, 1, 2600, MM_UNKNOWN), CL_UNKNOWN, "an unknown flushed mm: unknown");
	ok(timeline_stable(&tl, 1, 100, 999, 10), "no change in [100, 999]");
	ok(!timeline_stable(&tl, 1, 900, 1000, 10), "running -> lazy in [900, 1000] is a change");
	ok(timeline_stable(&tl, 1, 1000, 1500, 20), "A running -> A lazy is no change for B (other)");
	timeline_free(&tl);
}

static void test_exec_exit_fork(void)
{
	struct tl_event v[] = {
		sw(100, 0, 0, 100),
		ev(5000, 0, 100, TL_EXEC, 100, -1), /* A execs: new mm 11 */
		ev(6000, 0, 100, TL_EXIT, 100, -1), /* exits: lazy */
		sw(6100, 0, 100, 200),
		sw(6200, 0, 200, 100),              /* back to the exited task: lazy */
		ev(7000, 2, 200, TL_FORK, 100, -1), /* tid 100 reused: alive again */
		sw(7100, 0, 100, 0),
		sw(7200, 0, 0, 100),
	};
	struct timeline tl;
	build(v, sizeof(v) / sizeof(*v), &tl);
	is_int(timeline_class(&tl, 0, 4999, 10), CL_RUNNING, "before the exec: running the old mm");
	is_int(timeline_class(&tl, 0, 5000, 10), CL_OTHER, "after the exec: the old mm is gone");
	is_int(timeline_class(&tl, 0, 5000, 11), CL_RUNNING, "... and the new one runs");
	is_int(timeline_class(&tl, 0, 6000, 11), CL_LAZY, "an exiting task holds its mm lazily");
	is_int(timeline_class(&tl, 0, 6150, 20), CL_RUNNING, "switch to B");
	is_int(timeline_class(&tl, 0, 6250, 20), CL_LAZY, "a switch to an exited task is lazy");
	is_int(timeline_class(&tl, 0, 7250, 11), CL_RUNNING, "after a fork reuses the tid, it runs its mm");
	timeline_free(&tl);
}

/* classify_lost(v, n, csd, lost, set): matches and classifies v with a
 * 20 us window and what lost says perf lost (NULL: nothing); the
 * recording traced tlb_flush. */
static void classify_lost(const struct tl_event *v, size_t n, bool csd, const struct lost_spans *lost,
			  struct ipi_set *set)
{
	struct timeline tl;
	build(v, n, &tl);
	ipis_match(v, n, &id, 3, csd, set);
	set->verdicts = true;
	ipis_classify(set, &tl, 20000, lost);
	timeline_free(&tl);
}

/* classify(v, n, csd, set): classify_lost without lost events. */
static void classify(const struct tl_event *v, size_t n, bool csd, struct ipi_set *set)
{
	classify_lost(v, n, csd, NULL, set);
}

static void test_midflight(void)
{
	struct tl_event v[] = {
		flush(300, 2, 30, 3),     /* a kernel thread's sample says nothing */
		flush(400, 2, 200, 3),    /* B's: B runs on CPU 2 */
		flush(450, 2, 101, 3),    /* A's: A runs now (a switch not recorded) */
		sw(900, 1, 30, 0),        /* first switch to idle: lazy, mm unknown */
		flush(950, 1, 0, 0),      /* reason 0 while lazy: init_mm is known */
	};
	struct timeline tl;
	build(v, sizeof(v) / sizeof(*v), &tl);
	is_int(timeline_class(&tl, 2, 350, 20), CL_UNKNOWN, "mid-flight: unknown before a user task's sample");
	is_int(timeline_class(&tl, 2, 400, 20), CL_RUNNING, "a user task's sample starts the history");
	is_int(timeline_class(&tl, 2, 420, 20), CL_UNKNOWN, "between B's sample and A's the untraced switch may have happened: unknown");
	is_int(timeline_at(&tl, 2, 420)->cause, TL_CAUSE_UNTRACED, "... a stretch marked untraced, from 1 ns after B's sample");
	is_int(timeline_at(&tl, 2, 401)->mm, MM_UNKNOWN, "... holding B's or A's mm: unknown");
	is_int(timeline_class(&tl, 2, 500, 10), CL_RUNNING, "a later sample of another task: that task runs");
	is_int(timeline_class(&tl, 2, 500, 20), CL_OTHER, "... and B's mm is gone");
	ok(timeline_untraced_near(&tl, 2, 410, 420) && !timeline_untraced_near(&tl, 2, 450, 900),
	   "timeline_untraced_near sees the stretch, not after it");
	is_int(tl.cpus[2].last, 450, "a CPU's last event time");
	is_int(tl.cpus[0].last, TIME_NONE, "a CPU without events: none");
	is_int(timeline_class(&tl, 1, 920, 20), CL_UNKNOWN, "idle with an unknown lazy mm: unknown");
	is_int(timeline_class(&tl, 1, 960, 20), CL_OTHER, "then init_mm: other");
	/* why an IPI received there is unknown */
	static const struct { int target; int64_t receipt, mm; enum ipi_unknown why; const char *what; } u[] = {
		{ 2, 350, 20, UNK_NO_HISTORY, "no history of the target yet" },
		{ 2, 420, 20, UNK_UNTRACED, "in the untraced stretch between B's sample and A's" },
		{ 2, 500, MM_UNKNOWN, UNK_FLUSHED_MM, "the flushed mm not known" },
		{ 1, 920, 20, UNK_TARGET_MM, "idle holding an mm no task named" },
	};
	for (size_t i = 0; i < sizeof(u) / sizeof(*u); i++) {
		struct ipi p = { .send = u[i].receipt - 10, .receipt = u[i].receipt, .mm = u[i].mm, .sender = 0,
				 .target = u[i].target, .site = -1, .reason = -1 };
		ipi_classify_one(&p, &tl, 20000, true, NULL);
		ok(p.cls == CL_UNKNOWN && p.why == u[i].why, "unknown_why %s: %s (class %d, why %d)",
		   unknown_name(u[i].why), u[i].what, p.cls, p.why);
	}
	timeline_free(&tl);
}

/* A CPU leaves idle without a trace and runs the workload's thread, which
 * perf records nothing of until its own sched_switch out: the outgoing
 * task (prev_pid) says which mm the CPU held, so the idle task after it
 * holds A's mm lazily, not B's. */
static void test_untraced_idle_exit(void)
{
	struct tl_event v[] = {
		sw(6000, 1, 0, 200),      /* B runs on CPU 1 */
		sw(7000, 1, 200, 0),      /* idle: B lazily */
		flush(7500, 1, 0, 3),     /* an idle sample: still idle */
		/* untraced: idle -> 101 (A, mm 11); 101 runs, no events */
		sw(9000, 1, 101, 0),      /* A's thread switches out to idle */
		queue(10000, 0, 100, 1, 0xc1),
		entry(10500, 1, 0, 0xc1, TL_CSD_ENTRY), flush(10600, 1, 0, 0),
		entry(10700, 1, 0, 0xc1, TL_CSD_EXIT),
		/* the same from a sample: idle -> A, then A's own sample */
		sw(20000, 1, 0, 200), sw(21000, 1, 200, 0),
		ev(23000, 1, 101, TL_SAMPLE, -1, -1),
		sw(24000, 1, 101, 30),    /* A to a kernel thread: A lazily */
	};
	struct timeline tl;
	build(v, sizeof(v) / sizeof(*v), &tl);
	is_int(timeline_class(&tl, 1, 7200, 20), CL_LAZY, "idle after B: B lazily");
	is_int(timeline_class(&tl, 1, 8000, 20), CL_UNKNOWN, "after idle's last sample, before A's switch out: unknown");
	is_int(timeline_at(&tl, 1, 7501)->cause, TL_CAUSE_UNTRACED, "... the untraced stretch starts 1 ns after idle's last sample");
	is_int(timeline_at(&tl, 1, 9500)->mm, 11, "after A's own switch out: A's mm is loaded");
	is_int(timeline_class(&tl, 1, 9500, 11), CL_LAZY, "... lazily (idle)");
	is_int(timeline_class(&tl, 1, 9500, 20), CL_OTHER, "... and B's mm is not");
	is_int(timeline_class(&tl, 1, 22000, 11), CL_UNKNOWN, "idle after B, then A's sample: unknown in between");
	is_int(timeline_class(&tl, 1, 23000, 11), CL_RUNNING, "A's sample: A runs");
	is_int(timeline_class(&tl, 1, 24500, 11), CL_LAZY, "A's switch to a kernel thread: A lazily");
	timeline_free(&tl);

	struct ipi_set set;
	classify(v, sizeof(v) / sizeof(*v), true, &set);
	if (ok(set.n == 1, "one IPI to the idle CPU")) {
		is_int(set.v[0].cls, CL_LAZY, "it finds A's mm held lazily (not B's: not other)");
		ok(ipi_agrees(set.v[0].cls, ipi_rx_of(&set.v[0])), "... as the receiver's reason 0 says");
	}
	ipi_set_free(&set);
}

/* A switch out of the idle task that the kernel does not trace (recordings
 * show a CPU that never traces leaving idle): the task's own samples say it
 * runs again, so flush IPIs reaching it run its mm (receiver reason 1), not
 * a lazy one. */
static void test_unrecorded_switch(void)
{
	struct tl_event v[] = {
		sw(6000, 0, 0, 100), sw(6000, 1, 0, 101), /* A (mm 11) on both */
		sw(10000, 1, 101, 0),                     /* CPU 1 idles: A lazily */
		/* ... and runs 101 again: no sched_switch, only its samples */
		ev(20000, 1, 101, TL_FLUSH, -1, 4),
		queue(45000, 0, 100, 1, 0xb1),
		entry(47000, 1, 101, 0xb1, TL_CSD_ENTRY), flush(47100, 1, 101, 1),
		entry(47200, 1, 101, 0xb1, TL_CSD_EXIT),
		/* a switch to B; switch_mm's reason-0 flush is traced with the
		 * previous task still current: no switch back to A */
		sw(50000, 1, 101, 200), flush(50500, 1, 101, 0),
		queue(60000, 0, 100, 1, 0xb1),
		entry(100000, 1, 200, 0xb1, TL_CSD_ENTRY), flush(100100, 1, 200, 5),
		entry(100200, 1, 200, 0xb1, TL_CSD_EXIT),
		/* B to idle, then a kernel thread's sample: B stays loaded lazily */
		sw(200000, 1, 200, 0), flush(300000, 1, 30, 3),
	};
	struct timeline tl;
	build(v, sizeof(v) / sizeof(*v), &tl);
	is_int(timeline_class(&tl, 1, 10000, 11), CL_LAZY, "idle after A: lazy");
	is_int(timeline_class(&tl, 1, 15000, 11), CL_UNKNOWN, "then unsure until A's sample: idle or A, one of the two");
	is_int(timeline_at(&tl, 1, 15000)->lazy, SEG_UNSURE, "... A's mm held, running or lazily");
	struct ipi q = { .send = 14990, .receipt = 15000, .mm = 11, .target = 1, .site = -1, .reason = -1 };
	ipi_classify_one(&q, &tl, 20000, true, NULL);
	ok(q.cls == CL_UNKNOWN && q.why == UNK_LAZY_UNSURE, "unknown_why lazy_unsure: A's mm held, running or lazily");
	is_int(timeline_class(&tl, 1, 20000, 11), CL_RUNNING, "A's sample on the idle CPU: A runs again");
	is_int(timeline_at(&tl, 1, 20000)->cause, TL_SAMPLE, "... a switch known from the sample");
	is_int(timeline_class(&tl, 1, 50600, 20), CL_RUNNING, "switch_mm's reason-0 flush of the previous task: B still runs");
	is_int(timeline_class(&tl, 1, 300000, 20), CL_LAZY, "a kernel thread's sample after idle: B lazily");
	timeline_free(&tl);

	struct ipi_set set;
	classify(v, sizeof(v) / sizeof(*v), true, &set);
	is_int(set.n, 2, "two flush IPIs to the CPU");
	if (set.n == 2) {
		is_int(set.v[0].cls, CL_RUNNING, "the IPI finds A running, not lazy");
		ok(!set.v[0].near_send, "... no switch near the send (A's sample 25 us before it)");
		ok(ipi_agrees(set.v[0].cls, ipi_rx_of(&set.v[0])), "... and agrees with the receiver's reason 1");
		is_int(set.v[1].cls, CL_OTHER, "the next finds B running: other");
		ok(ipi_agrees(set.v[1].cls, ipi_rx_of(&set.v[1])), "... and agrees with the receiver's reason 5");
	}
	ipi_set_free(&set);
}

static void test_classes(void)
{
	struct tl_event v[] = {
		sw(6000, 0, 0, 100), sw(6000, 1, 0, 101), sw(6000, 2, 0, 200), /* after A's exec */
		/* running: CPU 1 runs A; received at +5 us, reason 1 */
		flush(100000, 0, 100, 4), queue(100100, 0, 100, 1, 0xa1),
		ev(100200, 0, 100, TL_IPI_SEND, -1, 1),
		entry(105000, 1, 101, 0xa1, TL_CSD_ENTRY), flush(105500, 1, 101, 1),
		entry(106000, 1, 101, 0xa1, TL_CSD_EXIT),
		/* other: CPU 2 runs B; reason 5; piggybacked (no ipi_send) */
		queue(200000, 0, 100, 2, 0xa2), flush(200100, 0, 100, 3),
		entry(203000, 2, 200, 0xa2, TL_CSD_ENTRY), flush(203100, 2, 200, 5),
		entry(203200, 2, 200, 0xa2, TL_CSD_EXIT),
		/* a tlb_flush after the function's exit is not its verdict */
		flush(203300, 2, 200, 1),
		/* lazy: CPU 1 goes idle long before; reason 0 */
		sw(300000, 1, 101, 0),
		queue(400000, 0, 100, 1, 0xa1),
		entry(404000, 1, 0, 0xa1, TL_CSD_ENTRY), flush(404100, 1, 0, 0),
		entry(404200, 1, 0, 0xa1, TL_CSD_EXIT),
		/* other via init_mm: CPU 1 left A for init_mm above */
		queue(500000, 0, 100, 1, 0xa1),
		entry(505000, 1, 0, 0xa1, TL_CSD_ENTRY), flush(505100, 1, 0, 5),
		entry(505200, 1, 0, 0xa1, TL_CSD_EXIT),
		/* switched_near_send: CPU 2 switched to A 10 us before the send */
		sw(590000, 2, 200, 101),
		queue(600000, 0, 100, 2, 0xa2),
		entry(602000, 2, 101, 0xa2, TL_CSD_ENTRY), entry(602500, 2, 101, 0xa2, TL_CSD_EXIT),
		/* CPU 2 switches away between send and receipt: other on arrival */
		queue(700000, 0, 100, 2, 0xa2), sw(701000, 2, 101, 200),
		entry(790000, 2, 200, 0xa2, TL_CSD_ENTRY), flush(790100, 2, 200, 5),
		entry(790200, 2, 200, 0xa2, TL_CSD_EXIT),
		/* unknown: a kernel thread sends (its flush mm is unknown) */
		sw(800000, 0, 100, 30), queue(800100, 0, 30, 2, 0xa2),
		/* a stale queue (entry lost) is replaced by the next one */
		queue(900000, 0, 30, 1, 0xa1), queue(950000, 0, 30, 1, 0xa1),
		entry(951000, 1, 0, 0xa1, TL_CSD_ENTRY), entry(951500, 1, 0, 0xa1, TL_CSD_EXIT),
	};
	struct ipi_set set;
	classify(v, sizeof(v) / sizeof(*v), true, &set);
	if (!ok(set.n == 9, "nine flush IPIs")) {
		printf("#   got %zu\n", set.n);
		ipi_set_free(&set);
		return;
	}
	is_int(set.nattempts, 1, "one attempt (reason 4)");
	is_int(set.attempt_mm[0], 11, "attempt of A's mm");
	is_int(set.v[0].cls, CL_RUNNING, "running");
	is_int(set.v[0].reason, 1, "receiver reason 1");
	is_int(set.v[0].receipt, 105000, "receipt at the matching entry");
	ok(set.v[0].raised && !set.v[0].near_send, "raised an interrupt, no switch near the send");
	is_int(set.v[0].mm, 11, "flushed mm: the sender's task's");
	is_int(set.v[1].cls, CL_OTHER, "other");
	is_int(set.v[1].reason, 5, "receiver reason 5");
	ok(!set.v[1].raised, "no ipi_send: piggybacked, not raised");
	is_int(set.v[2].cls, CL_LAZY, "lazy");
	is_int(set.v[2].reason, 0, "receiver reason 0");
	is_int(set.v[3].cls, CL_OTHER, "other: the target left for init_mm");
	ok(set.v[4].near_send, "a switch 10 us before the send: switched_near_send");
	is_int(set.v[4].cls, CL_RUNNING, "... and its class is the one on arrival: running");
	is_int(set.v[4].reason, -1, "no flush traced in the function: no verdict");
	ok(!set.v[5].near_send, "a switch between send and receipt is not near the send");
	is_int(set.v[5].cls, CL_OTHER, "... other: what it found on arrival");
	is_int(set.v[6].cls, CL_UNVERIFIED, "never received: unverified");
	is_int(set.v[6].why, WHY_END, "... the target has no event after the send: the recording ended");
	is_int(set.v[7].receipt, -1, "a stale queue keeps no receipt");
	is_int(set.v[7].cls, CL_UNVERIFIED, "... unverified");
	is_int(set.v[7].why, WHY_NONE, "... for no reason the recording shows");
	is_int(set.v[8].receipt, 951000, "the newer queue of the csd gets it");
	is_int(set.v[8].cls, CL_UNKNOWN, "a kernel thread's flush: unknown mm, unknown");
	is_int(set.v[8].why, UNK_FLUSHED_MM, "... why: the flushed mm is not known");

	struct ipi_summary s = { 0 };
	ipi_summarize(&s, &set);
	is_int(s.all.ipis, 9, "summary: ipis");
	is_int(s.all.cls[CL_RUNNING], 2, "summary: running");
	is_int(s.all.cls[CL_OTHER], 3, "summary: other");
	is_int(s.all.cls[CL_LAZY], 1, "summary: lazy");
	is_int(s.all.cls[CL_UNKNOWN], 1, "summary: unknown");
	is_int(s.all.cls[CL_UNVERIFIED], 2, "summary: unverified");
	long long sum = 0;
	for (int k = 0; k < CL_N; k++)
		sum += s.all.cls[k];
	is_int(sum, s.all.ipis, "summary: the classes add up to the IPIs");
	is_int(s.all.wasted, 3, "summary: wasted = other");
	is_int(s.all.near_send, 1, "summary: switched_near_send, a count besides the classes");
	is_int(s.near_send_cls[CL_RUNNING], 1, "summary: ... by class on arrival");
	is_int(s.all.rx[RX_NONE], 4, "summary: no verdict");
	is_int(s.why[WHY_END], 1, "summary: unverified, recording ended");
	is_int(s.why[WHY_NONE], 1, "summary: unverified, no reason seen");
	is_int(s.unknown[UNK_FLUSHED_MM], 1, "summary: unknown, the flushed mm not known");
	is_int(s.compared, 6, "agreement over the received IPIs of class running, lazy or other");
	is_int(s.agreeing, 6, "all agree (running with none too)");
	is_int(s.wasted_agreeing, 6, "other exactly where reason 5");
	is_int(s.matrix[CL_OTHER][RX_5], 3, "matrix: other x reason 5");
	is_int(s.matrix[CL_UNVERIFIED][RX_NONE], 2, "matrix: unverified x none");
	ipi_set_free(&set);
}

/* A receiver missing: the target ran another mm at the send, but no entry
 * was recorded, so the IPI is unverified (not other, not wasted); why:
 * lost events when the recording lost some, an untraced task when the
 * target switched without a trace around the send. */
static void test_unverified(void)
{
	struct tl_event v[] = {
		sw(6000, 0, 0, 100), sw(6000, 1, 0, 200), /* A on CPU 0, B on CPU 1 */
		queue(10000, 0, 100, 1, 0xd1),             /* no entry for it */
		flush(20000, 1, 200, 3),
		/* CPU 1 runs C (pid 300), whose events perf does not record;
		 * then the outgoing task of a switch is A's thread: untraced */
		sw(2030000, 1, 200, 300),
		queue(2040000, 0, 100, 1, 0xd2),
		sw(2050000, 1, 101, 200),
		/* received: other, reason 5 */
		queue(2060000, 0, 100, 1, 0xd3),
		entry(2061000, 1, 200, 0xd3, TL_CSD_ENTRY), flush(2061100, 1, 200, 5),
		entry(2061200, 1, 200, 0xd3, TL_CSD_EXIT),
	};
	struct ipi_set set;
	classify(v, sizeof(v) / sizeof(*v), true, &set);
	if (!ok(set.n == 3, "three IPIs")) {
		ipi_set_free(&set);
		return;
	}
	is_int(set.v[0].cls, CL_UNVERIFIED, "no receiver: unverified, though the target ran another mm at the send");
	is_int(set.v[0].why, WHY_NONE, "... no reason seen (the untraced switch comes 2 ms later)");
	is_int(set.v[1].cls, CL_UNVERIFIED, "no receiver while the target ran an untraced task: unverified");
	is_int(set.v[1].why, WHY_UNTRACED, "... why: the target switched without a trace");
	is_int(set.v[2].cls, CL_OTHER, "the received one: other");
	struct ipi_summary s = { 0 };
	ipi_summarize(&s, &set);
	is_int(s.all.wasted, 1, "wasted counts the received other only");
	is_int(s.all.cls[CL_UNVERIFIED], 2, "two unverified");
	ipi_set_free(&set);

	/* an entry of the csd 200 ms after the queue belongs to a later queue
	 * perf did not record */
	struct tl_event late[] = {
		sw(6000, 0, 0, 100), sw(6000, 1, 0, 200),
		queue(10000, 0, 100, 1, 0xd4),
		entry(200010000, 1, 200, 0xd4, TL_CSD_ENTRY), flush(200010100, 1, 200, 5),
		entry(200010200, 1, 200, 0xd4, TL_CSD_EXIT),
	};
	classify(late, sizeof(late) / sizeof(*late), true, &set);
	if (ok(set.n == 1, "a late entry: one IPI")) {
		is_int(set.v[0].receipt, -1, "... an entry 200 ms after the queue is not its receipt");
		is_int(set.v[0].cls, CL_UNVERIFIED, "... so it is unverified");
		is_int(set.v[0].reason, -1, "... without the later function's verdict");
	}
	ipi_set_free(&set);

	struct lost_spans whole = { NULL, 0, true };
	classify_lost(v, sizeof(v) / sizeof(*v), true, &whole, &set);
	if (ok(set.n == 3, "lost events, not said where: three IPIs")) {
		is_int(set.v[0].why, WHY_LOST, "... why: the recording lost events");
		is_int(set.v[1].why, WHY_LOST, "... lost events come before an untraced switch (a lost switch looks the same)");
		is_int(set.v[2].cls, CL_OTHER, "... a received one keeps its class");
	}
	ipi_set_free(&set);

	/* LOST records: CPU 0 lost all along (not the target), CPU 1 what
	 * came after 5 us up to its LOST record at 15 us: the first IPI's
	 * receiver may be among it, the second's (sent at 2.04 ms) not */
	const struct lost_span sp[] = { { 1, 5000, 15000 }, { 0, 6000, 3000000 } };
	struct lost_spans where = { sp, 2, false };
	classify_lost(v, sizeof(v) / sizeof(*v), true, &where, &set);
	if (ok(set.n == 3, "LOST records on the target CPU and elsewhere: three IPIs")) {
		is_int(set.v[0].why, WHY_LOST, "... a span of the target CPU overlaps send .. send + 1 ms: lost events");
		is_int(set.v[1].why, WHY_UNTRACED, "... none near the second: its untraced switch, not the other CPU's loss");
	}
	ipi_set_free(&set);
	/* a LOST record stamped after the window covers it: span (5 us, 3 ms] */
	const struct lost_span late_sp[] = { { 1, 5000, 3000000 } };
	struct lost_spans late_where = { late_sp, 1, false };
	classify_lost(v, sizeof(v) / sizeof(*v), true, &late_where, &set);
	if (ok(set.n == 3, "a LOST record stamped 3 ms, after both sends"))
		is_int(set.v[1].why, WHY_LOST, "... covers the second IPI's 1 ms after the send: lost events");
	ipi_set_free(&set);
}

/* test_edges: every window at its limit. switched_near_send's 20 us: a
 * switch exactly 20 us before the send is outside it, one 1 ns later
 * inside; an ipi_send raises the IPIs of its target only; the "ipi"
 * source: a verdict exactly IPIS_FALLBACK_RX_NS after the send is taken,
 * a send exactly IPIS_ATTEMPT_NS after an attempt is a flush IPI; a LOST
 * span that starts where an IPI's receiver window ends does not count,
 * one of an unknown CPU does; a target with no event after the send
 * ended the recording, whatever was lost; a kernel thread's flush is of
 * an unknown mm. */
static void test_edges(void)
{
	struct tl_event v[] = {
		sw(6000, 0, 0, 100), sw(6000, 1, 0, 200), sw(6000, 2, 0, 200),
		sw(80000, 1, 200, 101),				/* exactly 20 us before */
		queue(100000, 0, 100, 1, 0xe1), queue(100000, 0, 100, 2, 0xe2),
		ev(100100, 0, 100, TL_IPI_SEND, -1, 1),		/* raises CPU 1's only */
		entry(105000, 1, 101, 0xe1, TL_CSD_ENTRY), entry(105100, 1, 101, 0xe1, TL_CSD_EXIT),
		entry(106000, 2, 200, 0xe2, TL_CSD_ENTRY), entry(106100, 2, 200, 0xe2, TL_CSD_EXIT),
		sw(180001, 1, 101, 200),			/* 19.999 us before */
		queue(200000, 0, 100, 1, 0xe1),
		entry(205000, 1, 200, 0xe1, TL_CSD_ENTRY), entry(205100, 1, 200, 0xe1, TL_CSD_EXIT),
		sw(300000, 0, 100, 30), queue(300100, 0, 30, 1, 0xe3),	/* a kernel thread's */
		sw(300200, 0, 30, 100),
		queue(400000, 0, 100, 2, 0xe4),			/* CPU 2: no event after it */
	};
	struct ipi_set set;
	classify(v, sizeof(v) / sizeof(*v), true, &set);
	if (ok(set.n == 5, "edges: five IPIs (%zu)", set.n)) {
		ok(!set.v[0].near_send, "a switch exactly 20 us before the send: not near it");
		ok(set.v[0].raised && !set.v[1].raised, "an ipi_send to CPU 1 raises the IPI to CPU 1, not CPU 2's");
		ok(set.v[2].near_send, "a switch 19.999 us before the send: near it");
		is_int(set.v[3].mm, MM_UNKNOWN, "a kernel thread's flush: of an unknown mm");
		is_int(set.v[4].why, WHY_END, "a target with no event after the send: the recording ended");
	}
	ipi_set_free(&set);
	const struct lost_span at_end[] = { { 1, 300100 + IPIS_FALLBACK_RX_NS, 300100 + 2 * IPIS_FALLBACK_RX_NS },
					    { 2, 300000, 500000 } };
	struct lost_spans w = { at_end, 2, false };
	struct tl_event more[sizeof(v) / sizeof(*v) + 1];
	memcpy(more, v, sizeof(v));
	more[sizeof(v) / sizeof(*v)] = sw(3000000, 1, 200, 0);	/* CPU 1 goes on past the sends */
	classify_lost(more, sizeof(more) / sizeof(*more), true, &w, &set);
	if (ok(set.n == 5, "edges with LOST spans: five IPIs")) {
		is_int(set.v[3].why, WHY_NONE, "a span starting where the IPI's 1 ms ends: not lost there");
		is_int(set.v[4].why, WHY_END, "... a target without a later event ended, though its CPU lost events");
	}
	ipi_set_free(&set);
	const struct lost_span unknown_cpu[] = { { -1, 300000, 300200 } };
	w = (struct lost_spans){ unknown_cpu, 1, false };
	classify_lost(more, sizeof(more) / sizeof(*more), true, &w, &set);
	if (ok(set.n == 5, "edges with a LOST span of an unknown CPU"))
		is_int(set.v[3].why, WHY_LOST, "... it may be the target's: lost events");
	ipi_set_free(&set);

	struct tl_event first[] = { ev(1000, 1, 100, TL_SAMPLE, -1, -1) };
	struct timeline tl;
	build(first, 1, &tl);
	is_int(timeline_class(&tl, 1, 1500, 10), CL_RUNNING, "a CPU's first sample, before any switch: its task's mm runs");
	timeline_free(&tl);

	struct tl_event fb[] = {
		sw(0, 1, 0, 200),
		ev(1000, 0, 100, TL_IPI_SEND, -1, 1), flush(1000 + IPIS_FALLBACK_RX_NS, 1, 200, 5),
		flush(3000000, 0, 100, 4), ev(3000000 + IPIS_ATTEMPT_NS, 0, 100, TL_IPI_SEND, -1, 1),
	};
	fb[1].flush = 1;
	classify(fb, sizeof(fb) / sizeof(*fb), false, &set);
	if (ok(set.n == 2, "ipi source: a send exactly %d ns after an attempt is a flush IPI", IPIS_ATTEMPT_NS))
		is_int(set.v[0].reason, 5, "ipi source: a verdict exactly 1 ms after the send is taken");
	ipi_set_free(&set);
}

static void test_fallback(void)
{
	struct tl_event v[] = {
		sw(0, 1, 0, 200),
		ev(1000, 0, 100, TL_IPI_SEND, -1, 1),           /* not a flush callsite */
		ev(2000, 0, 100, TL_IPI_SEND, -1, 1),
		flush(2500, 1, 200, 3), flush(3000, 1, 200, 5), /* its verdict */
		ev(10000, 0, 100, TL_IPI_SEND, -1, 1),
		flush(2000000, 1, 200, 5),                      /* too late (> 1 ms) */
		flush(3000000, 0, 100, 4),                      /* an attempt, then */
		ev(3001000, 0, 100, TL_IPI_SEND, -1, 1),        /* a send: a flush IPI */
		flush(4000000, 0, 100, 4), flush(4000500, 0, 100, 3),
		ev(4001000, 0, 100, TL_IPI_SEND, -1, 1),        /* another event between */
		flush(5000000, 0, 100, 4),
		ev(5100000, 0, 100, TL_IPI_SEND, -1, 1),        /* 100 us later */
	};
	v[2].flush = v[5].flush = 1;
	struct ipi_set set;
	classify(v, sizeof(v) / sizeof(*v), false, &set);
	is_int(set.n, 3, "fallback: flush-callsite sends and a send right after an attempt are IPIs");
	is_int(set.nattempts, 3, "fallback: attempts");
	if (set.n == 3) {
		is_int(set.v[2].send, 3001000, "fallback: the send right after an attempt");
		is_int(set.v[0].reason, 5, "fallback: the next reason 5 on the target is the verdict");
		is_int(set.v[0].receipt, 3000, "fallback: ... and the receipt");
		is_int(set.v[0].cls, CL_OTHER, "fallback: classed at the verdict");
		is_int(set.v[1].reason, -1, "fallback: a verdict after 1 ms is not taken");
		is_int(set.v[1].cls, CL_UNVERIFIED, "fallback: no verdict: unverified");
		is_int(set.v[1].why, WHY_NO_CSD, "fallback: ... why: no csd events");
		ok(set.v[0].raised, "fallback: a send is an interrupt");
	}
	ipi_set_free(&set);
}

static void test_agrees(void)
{
	ok(ipi_agrees(CL_RUNNING, RX_1) && ipi_agrees(CL_RUNNING, RX_NONE) && ipi_agrees(CL_LAZY, RX_0) &&
	   ipi_agrees(CL_OTHER, RX_5), "agreement: running=1 or none, lazy=0, other=5");
	ok(!ipi_agrees(CL_RUNNING, RX_5) && !ipi_agrees(CL_OTHER, RX_1) && !ipi_agrees(CL_UNKNOWN, RX_1) &&
	   !ipi_agrees(CL_LAZY, RX_NONE) && !ipi_agrees(CL_UNVERIFIED, RX_NONE), "disagreement otherwise");
	ok(ipi_wasted_agrees(CL_OTHER, RX_5) && ipi_wasted_agrees(CL_LAZY, RX_0) &&
	   !ipi_wasted_agrees(CL_RUNNING, RX_5) && !ipi_wasted_agrees(CL_OTHER, RX_NONE),
	   "wasted agreement: other exactly where reason 5");
	is_str(tl_class_name(CL_OTHER), "other", "class names");
	is_str(tl_class_name(CL_UNVERIFIED), "unverified", "class names: unverified");
	is_str(rx_name(RX_NONE), "none", "verdict names");
	is_str(why_name(WHY_UNTRACED), "untraced_task", "why names");
}

/* seen(v, n, s): the guard's counts over v (csd IPIs). */
static void seen(const struct tl_event *v, size_t n, struct ipi_seen *s)
{
	struct timeline tl;
	struct ipi_set set;
	build(v, n, &tl);
	ipis_match(v, n, &id, 3, true, &set);
	*s = (struct ipi_seen){ 0, 0 };
	for (size_t i = 0; i < n; i++)
		ipi_seen_event(s, &tl, &id, &v[i]);
	for (size_t i = 0; i < set.n; i++)
		ipi_seen_ipi(s, &tl, &set.v[i]);
	ipi_set_free(&set);
	timeline_free(&tl);
}

/* The guard: flushes of an mm another CPU runs, and no flush IPI to it
 * (a kernel that flushes other CPUs' TLBs with a hypercall). */
static void test_seen(void)
{
	enum { N = IPIS_UNSEEN_MIN };
	struct tl_event v[3 + 2 * N + 4];
	struct ipi_seen s;
	struct timeline tl;
	size_t n = 0;
	v[n++] = sw(6000, 0, 0, 100);	/* A's thread 100 on CPU 0 */
	v[n++] = sw(6000, 1, 0, 101);	/* A's thread 101 spins on CPU 1 */
	v[n++] = sw(6000, 2, 0, 200);	/* B on CPU 2 */
	for (int i = 0; i < N; i++) {	/* A flushes on CPU 0, no IPI */
		v[n++] = flush(100000 + 10000 * i, 0, 100, 4);
		v[n++] = flush(100100 + 10000 * i, 0, 100, 3);
	}
	build(v, n, &tl);
	ok(ipis_remote_runner(&tl, 0, 100000, 11), "remote runner: CPU 1 runs A while CPU 0 flushes");
	ok(ipis_remote_runner(&tl, 0, 100000, 20), "remote runner: B runs on CPU 2");
	ok(!ipis_remote_runner(&tl, 2, 100000, 20), "... but not for CPU 2 itself");
	ok(!ipis_remote_runner(&tl, 0, 100000, 40), "no CPU runs C");
	ok(!ipis_remote_runner(&tl, 0, 100000, MM_UNKNOWN), "an unknown mm has no runner");
	timeline_free(&tl);
	seen(v, n - 2, &s);
	is_int(s.remote_flushes, N - 1, "guard: each attempt with another CPU running the mm counts");
	is_int(s.ipis_to_running, 0, "guard: no flush IPI");
	is_int(ipis_visibility(&s), IPIS_UNTOLD, "guard: one flush short of the minimum: untold");
	seen(v, n, &s);
	is_int(s.remote_flushes, N, "guard: the minimum");
	is_int(ipis_visibility(&s), IPIS_NOT_SEEN, "guard: that many flushes, no IPI: not seen");
	/* the same with one flush IPI to the CPU running A: seen */
	v[n++] = flush(900000, 0, 100, 4);
	v[n++] = queue(900100, 0, 100, 1, 0xa1);
	v[n++] = entry(905000, 1, 101, 0xa1, TL_CSD_ENTRY);
	v[n++] = entry(906000, 1, 101, 0xa1, TL_CSD_EXIT);
	seen(v, n, &s);
	is_int(s.ipis_to_running, 1, "guard: a flush IPI to a CPU running the mm counts");
	is_int(ipis_visibility(&s), IPIS_SEEN, "guard: one such IPI: seen");
	/* fewer than one IPI per IPIS_UNSEEN_PER such flushes: not seen (an
	 * IPI taken for a flush's may be another's) */
	s = (struct ipi_seen){ 2 * IPIS_UNSEEN_PER, 1 };
	is_int(ipis_visibility(&s), IPIS_NOT_SEEN, "guard: 1 IPI to a running CPU in 200 such flushes: not seen");
	s.ipis_to_running = 2;
	is_int(ipis_visibility(&s), IPIS_SEEN, "guard: 2 in 200 (one per 100): seen");
	s = (struct ipi_seen){ IPIS_UNSEEN_MIN - 1, 1 };
	is_int(ipis_visibility(&s), IPIS_SEEN, "guard: too few flushes to tell, and an IPI: seen");
	/* the spinner gone idle (lazy) before the flushes: nothing to tell */
	v[2] = sw(7000, 1, 101, 0);
	seen(v, n - 4, &s);
	is_int(s.remote_flushes, 0, "guard: a lazy CPU is no runner (the kernel may skip it)");
	is_int(ipis_visibility(&s), IPIS_UNTOLD, "guard: no runner elsewhere: untold");
}

/* The flush functions that may flush without IPIs, from kallsyms text. */
static void test_flush_names(void)
{
	static const char text[] =
		"ffffffff8133a8e0 t __pfx_kvm_flush_tlb_multi\n"
		"ffffffff8133a8f0 t kvm_flush_tlb_multi\n"
		"ffffffff8133c3e0 t pvm_flush_tlb_multi\r\n"
		"ffffffff8133c3e0 t pvm_flush_tlb_multi\n"
		"ffffffff81330000 t __traceiter_xen_mmu_flush_tlb_multi\n"
		"ffffffff81330100 T trace_raw_output_hyperv_mmu_flush_tlb_multi\n"
		"ffffffff81330200 T xen_flush_tlb_multi\n"
		"ffffffffc0001000 t hyperv_flush_tlb_multi\t[hv_vmbus]\n"
		"ffffffff8134b6d0 T native_flush_tlb_multi\n"
		"ffffffff8134b820 T flush_tlb_multi\n"
		"ffffffff82000000 d kvm2_flush_tlb_multi\n"
		"ffffffff8134c000 T broadcast_tlb_flush\n"
		"garbage line\n"
		"ffffffff8134d000 t zz_flush_tlb_multi";	/* no newline at the end */
	static const char *const want[] = { "broadcast_tlb_flush", "hyperv_flush_tlb_multi",
		"kvm_flush_tlb_multi", "pvm_flush_tlb_multi", "xen_flush_tlb_multi", "zz_flush_tlb_multi" };
	struct ksym_names l = { 0 };
	size_t n = kallsyms_flush_no_ipi(text, sizeof(text) - 1, &l);
	is_int(n, 6, "flush names: the paravirtualized flush_tlb_multi variants and broadcast_tlb_flush, "
	       "once each (not native, __pfx_, tracepoint helpers, data symbols)");
	for (size_t i = 0; i < n && i < 6; i++)
		is_str(l.v[i], want[i], "flush names: sorted");
	struct strbuf b = STRBUF_INIT;
	kallsyms_flush_no_ipi_words(&l, &b);
	is_str(sb_str(&b), "paravirtualized and broadcast flush functions: broadcast_tlb_flush, "
	       "hyperv_flush_tlb_multi, kvm_flush_tlb_multi, pvm_flush_tlb_multi, xen_flush_tlb_multi, "
	       "zz_flush_tlb_multi; one of them may flush without IPIs", "flush names: in words");
	ksym_names_free(&l);
	ksym_names_add(&l, "pvm_flush_tlb_multi", 19);
	sb_reset(&b);
	kallsyms_flush_no_ipi_words(&l, &b);
	is_str(sb_str(&b), "paravirtualized flush function: pvm_flush_tlb_multi, which may flush without IPIs",
	       "flush names: one in words");
	sb_free(&b);
	ksym_names_free(&l);
	static const char native[] = "ffffffff8134b6d0 T native_flush_tlb_multi\n";
	is_int(kallsyms_flush_no_ipi(native, sizeof(native) - 1, &l), 0,
	       "flush names: a kernel with the native one only has none");
	ksym_names_free(&l);
}

int main(void)
{
	test_identity();
	test_switch_rules();
	test_exec_exit_fork();
	test_midflight();
	test_untraced_idle_exit();
	test_classes();
	test_unverified();
	test_unrecorded_switch();
	test_fallback();
	test_edges();
	test_agrees();
	test_seen();
	test_flush_names();
	return tap_done();
}
