/* Unit tests for analyze/timeline/sched.c on hand-written event sequences: how a
 * switch's two sides relate (same mm, other mm, idle or kernel thread,
 * unknown), per-CPU counts and idle time, per-process switches, run time
 * and CPUs, the window (earlier events only set the state, the first
 * switch's prev runs from the window's start, the last next until its
 * end), exec giving a new mm, migrations, switches the kernel did not
 * trace (inferred from samples, counted apart), the CPUs a process counts as
 * running on, and process lifetimes; which CPUs or tasks a perf command
 * line recorded (analyze/rec_scope.h) and CPU lists. */
#include <string.h>
#include "analyze/rec_scope.h"
#include "analyze/timeline/sched.h"
#include "lib/cpulist.h"
#include "tests/unit/tap.h"

/* Process A (pid 100: threads 100, 101) execs at 5000 (rows 10, 11); B
 * (pid 200); kworker (pid 30); idle (pid 0). */
static struct ident_thread threads[] = {
	{ 100, 100, TIME_NONE }, { 101, 100, TIME_NONE }, { 200, 200, 0 }, { 30, 30, TIME_NONE },
};
static struct ident_proc procs[] = {
	{ 10, 100, TIME_NONE, 5000, 1, "a" }, { 11, 100, 5000, INT64_MAX, 1, "a2" },
	{ 20, 200, 0, 9000, 1, "b" }, { 30, 30, TIME_NONE, INT64_MAX, 0, "kworker" },
	{ 1, 0, TIME_NONE, INT64_MAX, 0, "swapper" },
};
static struct ident id = { threads, 4, procs, 5 };

static struct tl_event sw(int64_t t, int cpu, int64_t prev, int64_t next)
{
	return (struct tl_event){ .time = t, .cpu = cpu, .tid = prev, .a = next, .b = prev,
		.kind = TL_SWITCH, .site = -1 };
}

static struct tl_event mig(int64_t t, int64_t tid, int from, int to)
{
	return (struct tl_event){ .time = t, .cpu = to, .tid = -1, .a = tid, .b = from, .arg = to,
		.kind = TL_MIGRATE, .site = -1 };
}

/* smp(t, cpu, tid, kind, arg): an event that only says tid is current. */
static struct tl_event smp(int64_t t, int cpu, int64_t tid, int kind, int arg)
{
	return (struct tl_event){ .time = t, .cpu = cpu, .tid = tid, .a = -1, .b = -1, .arg = arg,
		.kind = (uint8_t)kind, .site = -1 };
}

/* slot(pid, start): the procs index of a process row after sorting. */
static size_t slot(int64_t pid, int64_t start)
{
	for (size_t i = 0; i < id.nprocs; i++)
		if (id.procs[i].pid == pid && id.procs[i].start == start)
			return i;
	return id.nprocs;
}

static void test_kinds(void)
{
	ident_sort(&id);
	is_int(sw_kind_of(&id, 100, 101, 10), SW_SAME_MM, "threads of one process: same mm");
	is_int(sw_kind_of(&id, 100, 200, 10), SW_OTHER_MM, "two processes: other mm");
	is_int(sw_kind_of(&id, 100, 0, 10), SW_IDLE_KTHREAD, "to idle");
	is_int(sw_kind_of(&id, 30, 200, 10), SW_IDLE_KTHREAD, "from a kernel thread");
	is_int(sw_kind_of(&id, 100, 999, 10), SW_UNKNOWN, "to an unknown task");
	is_int(sw_kind_of(&id, 999, 0, 10), SW_IDLE_KTHREAD, "from an unknown task to idle: idle/kthread");
	is_int(sw_kind_of(&id, 0, 999, 10), SW_IDLE_KTHREAD, "from idle to an unknown task: idle/kthread");
	is_int(sw_kind_of(&id, 999, 30, 10), SW_IDLE_KTHREAD, "from an unknown task to a kernel thread: idle/kthread");
}

/* A process the recording never named nor saw with a user mm (its exec
 * on a CPU perf did not record: only its samples made its row) is
 * unknown, not a kernel thread: its threads' switches were same-mm ones
 * perf could not show. */
static void test_unnamed(void)
{
	struct ident_thread th[] = { { 300, 300, TIME_NONE }, { 301, 300, TIME_NONE },
				     { 30, 30, TIME_NONE } };
	struct ident_proc pr[] = { { 40, 300, TIME_NONE, INT64_MAX, 0, "" },
				   { 30, 30, TIME_NONE, INT64_MAX, 0, "kworker" } };
	struct ident u = { th, 3, pr, 2 };
	ident_sort(&u);
	is_int(ident_mm(&u, 300, 10), MM_UNKNOWN, "an unnamed process without a user mm: unknown mm");
	is_int(sw_kind_of(&u, 300, 301, 10), SW_UNKNOWN, "between its threads: unknown, not idle/kthread");
	is_int(sw_kind_of(&u, 30, 30, 10), SW_IDLE_KTHREAD, "a named kernel thread stays one");
}

static void test_account(void)
{
	struct tl_event v[] = {
		sw(500, 0, 30, 100),   /* before the window: sets the state only */
		sw(1500, 0, 100, 101), /* same mm */
		sw(2000, 0, 101, 0),   /* to idle */
		mig(2100, 101, 0, 1),
		sw(3000, 0, 0, 200),   /* from idle */
		sw(3500, 1, 200, 101), /* CPU 1's first switch: 200 ran since t0 */
		sw(4000, 0, 200, 100), /* other mm */
		sw(6000, 0, 100, 101), /* after A's exec: same (new) mm */
		sw(9500, 0, 101, 0),   /* after the window: not counted */
	};
	struct sched_result r;
	sched_account(v, sizeof(v) / sizeof(*v), &id, 2, 1000, 9000, &r);
	const struct sched_cpu *c0 = &r.cpus[0], *c1 = &r.cpus[1];
	is_int(c0->switches, 5, "CPU 0: switches inside the window");
	is_int(c0->kind[SW_SAME_MM], 2, "CPU 0: same mm (before and after the exec)");
	is_int(c0->kind[SW_OTHER_MM], 1, "CPU 0: other mm");
	is_int(c0->kind[SW_IDLE_KTHREAD], 2, "CPU 0: to or from idle");
	is_int(c0->idle_ns, 1000, "CPU 0: idle 2000..3000");
	is_int(c1->switches, 1, "CPU 1: one switch");
	is_int(c0->mig_out, 1, "migration out of CPU 0");
	is_int(c1->mig_in, 1, "migration into CPU 1");
	const struct sched_proc *a = &r.procs[slot(100, TIME_NONE)], *a2 = &r.procs[slot(100, 5000)];
	const struct sched_proc *b = &r.procs[slot(200, 0)];
	is_int(a->switches, 2, "A (before its exec): switches away from its threads");
	is_int(a2->switches, 1, "A after its exec: the switch at 6000");
	is_int(b->switches, 2, "B: two switches away");
	is_int(a->run_ns, (1500 - 1000) + (2000 - 1500), "A: from the window's start to 2000 on CPU 0");
	is_int(a2->run_ns, (6000 - 4000) + (9000 - 6000) + (9000 - 3500),
	       "A after exec: a stretch across the exec counts for the process it ended in; until the window's end");
	is_int(b->run_ns, (4000 - 3000) + (3500 - 1000), "B: CPU 0 3000..4000, CPU 1 from t0 to 3500");
	is_int(b->ncpus_ran, 2, "B ran on two CPUs");
	sched_result_free(&r);
}

static void test_cpu_share(void)
{
	struct tl_event v[] = {
		sw(1000, 1, 0, 200),   /* B runs 10 ns on CPU 1 before pinning */
		sw(1010, 1, 200, 0),
		sw(1010, 0, 0, 200),   /* then 10000 ns on CPU 0 */
		sw(11010, 0, 200, 0),
	};
	struct sched_result r;
	sched_account(v, sizeof(v) / sizeof(*v), &id, 2, 1000, 20000, &r);
	is_int(r.procs[slot(200, 0)].ncpus_ran, 1, "a CPU with under 1%% of the run time does not count");
	is_int(r.procs[slot(200, 0)].run_ns, 10010, "... its run time does");
	is_int(r.cpus[1].idle_ns, 20000 - 1010, "idle runs until the window's end");
	sched_result_free(&r);
}

/* The window's ends belong to it (a switch at t0 and a migration at t1
 * count), and a CPU holding exactly SCHED_CPU_SHARE of a process's run
 * time counts as one it ran on. */
static void test_edges(void)
{
	struct tl_event v[] = {
		sw(1000, 1, 0, 200),   /* at t0: B on CPU 1 for 100 ns (1% of its run time) */
		sw(1100, 1, 200, 0),
		sw(1100, 0, 0, 200),   /* then 9900 ns on CPU 0 */
		sw(11000, 0, 200, 0),
		mig(20000, 200, 0, 1), /* at t1 */
	};
	struct sched_result r;
	sched_account(v, sizeof(v) / sizeof(*v), &id, 2, 1000, 20000, &r);
	is_int(r.cpus[1].switches, 2, "a switch at the window's start counts");
	is_int(r.procs[slot(200, 0)].run_ns, 10000, "B ran 10000 ns");
	is_int(r.procs[slot(200, 0)].ncpus_ran, 2, "a CPU with exactly 1%% of the run time counts");
	ok(r.cpus[0].mig_out == 1 && r.cpus[1].mig_in == 1, "a migration at the window's end counts");
	sched_result_free(&r);
}

/* A kernel that never traces CPU 1 leaving idle (as some recordings show): a
 * sample of another task than the one CPU 1 switched to ends the idle. */
static void test_untraced(void)
{
	struct tl_event ex = smp(6000, 1, 100, TL_EXEC, -1);
	ex.a = 100;
	ex.b = 101;
	struct tl_event v[] = {
		smp(1500, 1, 200, TL_SAMPLE, -1), /* CPU 1's first sample: B since t0 */
		sw(2000, 1, 200, 0),              /* into idle, traced */
		smp(2500, 1, 30, TL_FLUSH, 0),    /* a reason-0 flush says nothing */
		smp(3000, 1, 200, TL_SAMPLE, -1), /* B again: idle ended untraced */
		sw(4000, 1, 200, 101),            /* traced */
		ex,                               /* 101 execs as 100: a rename */
		sw(7000, 1, 200, 0),              /* prev 200 is not current (100): untraced */
		smp(8000, 1, 101, TL_SAMPLE, -1), /* idle ended untraced */
	};
	struct sched_result r;
	sched_account(v, sizeof(v) / sizeof(*v), &id, 2, 1000, 9000, &r);
	const struct sched_cpu *c1 = &r.cpus[1];
	is_int(c1->idle_ns, (3000 - 2000) + (8000 - 7000), "CPU 1: idle ends at the next sample of a task");
	is_int(c1->switches, 3, "CPU 1: traced switches only");
	is_int(c1->untraced, 3, "CPU 1: untraced switches at 3000, 7000 and 8000");
	is_int(c1->kind[SW_IDLE_KTHREAD], 2, "CPU 1: the traced idle switches");
	is_int(r.procs[slot(200, 0)].run_ns, (2000 - 1000) + (4000 - 3000), "B: until idle, then from its sample");
	is_int(r.procs[slot(200, 0)].switches, 3, "B: the traced switches away from it (prev 200)");
	is_int(r.procs[slot(100, 5000)].run_ns, (7000 - 4000) + (9000 - 8000),
	       "A after its exec: 4000..7000 (the exec renamed the task), 8000 to the end");
	sched_result_free(&r);
}

static void test_lifetime(void)
{
	struct ident_proc p = { .start = 2000, .end = 5000 };
	is_int(sched_lifetime(&p, 1000, 9000), 3000, "lifetime inside the window");
	p.start = TIME_NONE;
	p.end = INT64_MAX;
	is_int(sched_lifetime(&p, 1000, 9000), 8000, "a process alive throughout: the window");
	p.start = 9500;
	is_int(sched_lifetime(&p, 1000, 9000), 0, "a process after the window: 0");
}

/* scope_is(cmdline, kind, cpus): rec_scope_parse's answer. */
static void scope_is(const char *cmdline, enum rec_scope_kind kind, const char *cpus)
{
	struct rec_scope s;
	rec_scope_parse(cmdline, &s);
	ok(s.kind == kind && (!cpus || !strcmp(s.cpus, cpus)), "%s: scope %d%s%s (got %d %s)",
	   cmdline ? cmdline : "(none)", kind, cpus ? " " : "", cpus ? cpus : "", s.kind, s.cpus);
}

static void test_scope(void)
{
	scope_is("/usr/bin/perf record -o d/perf.data -q -a -C 0 -m 1024 -e sched:sched_switch -- "
		 "/p/perfdb record __exec d/status -- yield -C 1", SCOPE_CPUS, "0");
	scope_is("/usr/bin/perf record -o d -a -m 1024 -e sched:sched_switch -- yield", SCOPE_ALL, NULL);
	scope_is("/usr/bin/perf record -o d -m 1024 -F 999 -e cpu-clock -g -- yield", SCOPE_TASKS, NULL);
	scope_is("perf record -e cpu-clock sleep 1", SCOPE_TASKS, NULL);
	scope_is("perf record -e cpu-clock -a sleep 1", SCOPE_ALL, NULL);
	scope_is("perf record -e cpu-clock", SCOPE_ALL, NULL);
	scope_is("perf record -p 123 -e cpu-clock", SCOPE_TASKS, NULL);
	scope_is("perf record --all-cpus -e cpu-clock -- sleep 1", SCOPE_ALL, NULL);
	scope_is("perf record --cpu=1-2 -e cpu-clock", SCOPE_CPUS, "1-2");
	scope_is("perf record --cpu 0,2 sleep 1", SCOPE_CPUS, "0,2");
	scope_is("perf record -aC1 sleep 1", SCOPE_CPUS, "1");
	scope_is("perf record -o -C -e cpu-clock -- sleep 1", SCOPE_TASKS, NULL);
	scope_is("perf sched record -- sleep 1", SCOPE_ALL, NULL);
	scope_is("perf sched record -C 3 -- sleep 1", SCOPE_CPUS, "3");
	scope_is("perf c2c record -u -- ./w", SCOPE_TASKS, NULL);
	scope_is("perf c2c record -a -u -- ./w", SCOPE_ALL, NULL);
	scope_is("perf mem record -t load -a", SCOPE_ALL, NULL);
	scope_is("perf record -C x -- sleep 1", SCOPE_UNKNOWN, NULL);
	scope_is("perf report -i x", SCOPE_UNKNOWN, NULL);
	scope_is(NULL, SCOPE_UNKNOWN, NULL);
	is_int(cpulist_has("0-3,8", 2), 1, "0-3,8 has 2");
	is_int(cpulist_has("0-3,8", 5), 0, "0-3,8 has not 5");
	is_int(cpulist_has("0-3,8", 8), 1, "0-3,8 has 8");
	is_int(cpulist_has("1\n", 1), 1, "a trailing newline");
	is_int(cpulist_has("3-1", 2), -1, "a backwards range: malformed");
	is_int(cpulist_has("", 0), -1, "empty: malformed");
	is_int(cpulist_has("0,", 0), -1, "a trailing comma: malformed");
	is_int(cpulist_has("x", 0), -1, "garbage: malformed");
}

int main(void)
{
	test_kinds();
	test_unnamed();
	test_account();
	test_cpu_share();
	test_untraced();
	test_lifetime();
	test_edges();
	test_scope();
	return tap_done();
}
