/*
 * harness: the coordinator/worker scaffolding shared by the reproducer
 * programs in workloads/ (yield, tlbflush, falseshare, faults).
 *
 * Each program is a single .c file compiled on its own. Before including
 * this header it defines PROG, its name as a string literal (the prefix of
 * every message), and it defines `const char usage_text[]`, its --help text.
 * Everything here is static inline, so a program that uses only part of it
 * compiles cleanly under -Wall -Wextra -Werror. The header also brings the
 * C and POSIX headers it needs, which the programs share.
 *
 * Every run has the same shape: workers, each pinned to one CPU, count
 * themselves in at a start gate (struct gate) and sleep on its futex word;
 * the coordinator waits until all of them are there, opens the gate, sleeps
 * until the deadline and raises the stop flag that the workers' measured
 * loops poll. Workers time their loops with struct stamp, and the metric
 * line ends with the interval covering them all on CLOCK_MONOTONIC and
 * CLOCK_MONOTONIC_RAW. Exit statuses: 1 for a usage error, 2 for an
 * unavailable CPU or a failed run.
 */
#ifndef PERFDB_WORKLOADS_HARNESS_H
#define PERFDB_WORKLOADS_HARNESS_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sched_setaffinity, RUSAGE_THREAD, when built without -D */
#endif
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef PROG
#error "define PROG (the program's name) before including workloads/harness.h"
#endif

#define READY_TIMEOUT_NS (10 * 1000000000LL)

/* The program's --help text, defined by the program. */
extern const char usage_text[];

/* A moment on both clocks a tool may want to align with perf's timestamps. */
struct stamp {
	long long mono; /* CLOCK_MONOTONIC, ns */
	long long raw;  /* CLOCK_MONOTONIC_RAW, ns */
};

/* Start gate and stop flag, in memory all workers see: a MAP_SHARED mapping
 * (map_shared) when they are in several processes, a static when they are
 * threads of one. All zero, it is closed and uses shared futexes; set
 * futex_flags to FUTEX_PRIVATE_FLAG when every worker is a thread of this
 * process. The stop flag, read every iteration, has a cacheline of its own. */
struct gate {
	alignas(64) atomic_uint ready; /* workers pinned (or failed) and waiting */
	atomic_uint go;                /* 0 until the gate opens (a futex word) */
	atomic_uint failed;            /* workers that could not pin or start */
	int futex_flags;               /* 0, or FUTEX_PRIVATE_FLAG */
	alignas(64) atomic_uint stop;  /* read every iteration, written once */
};

/* --- command line ------------------------------------------------------ */

/* Prints usage_text to f and exits with status code. */
static inline void usage(FILE *f, int code)
{
	fputs(usage_text, f);
	exit(code);
}

/* Reports a usage error on stderr: "PROG: what[: arg]", then the usage;
 * exits 1. arg may be NULL. */
static inline void usage_error(const char *what, const char *arg)
{
	fprintf(stderr, PROG ": %s%s%s\n", what, arg ? ": " : "", arg ? arg : "");
	usage(stderr, 1);
}

/* Parses s, a positive decimal number of seconds (at most a million), into
 * *out; false (and *out untouched) if s is anything else. */
static inline bool parse_seconds(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !(v > 0 && v <= 1e6))
		return false;
	*out = v;
	return true;
}

/* Parses s, all of it a decimal integer in [min, max] (strtol syntax), into
 * *out; false (and *out untouched) otherwise. */
static inline bool parse_int(const char *s, long min, long max, int *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return false;
	*out = (int)v;
	return true;
}

/* Handles a getopt_long result c that the program's own options did not
 * take, for the options every program has: 's' (--seconds S) parses optarg
 * into *seconds; 'h' (-h, --help) prints the usage on stdout and exits 0;
 * anything else (an unknown option, a missing argument) prints the usage
 * on stderr and exits 1. */
static inline void common_option(int c, double *seconds)
{
	switch (c) {
	case 's':
		if (!parse_seconds(optarg, seconds))
			usage_error("--seconds wants a number > 0", optarg);
		break;
	case 'h': usage(stdout, 0); break;
	default: usage(stderr, 1);
	}
}

/* Call after the getopt_long loop: exits 1 with a usage error if an operand
 * (a non-option argument) is left in argv. */
static inline void no_operands(int argc, char **argv)
{
	if (optind < argc)
		usage_error("unexpected argument", argv[optind]);
}

/* Returns the index of s in names[0..n-1], or -1 if it is not there. */
static inline int lookup(const char *s, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

/* --- CPUs and clocks ----------------------------------------------------- */

/* Exits 2, saying why on stderr, unless each of the n CPUs list[0..n-1]
 * (CPUs 0..n-1 when list is NULL) is online and in this process's affinity
 * mask. The first unusable CPU in that order is the one reported. */
static inline void check_cpus(const int *list, int n)
{
	cpu_set_t allowed;
	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		fprintf(stderr, PROG ": sched_getaffinity: %s\n", strerror(errno));
		exit(2);
	}
	for (int i = 0; i < n; i++) {
		int cpu = list ? list[i] : i;
		if (!CPU_ISSET(cpu, &allowed)) {
			fprintf(stderr, PROG ": CPU %d is not available (offline or "
				"outside this process's affinity; %d usable)\n",
				cpu, CPU_COUNT(&allowed));
			exit(2);
		}
	}
}

/* Pins the calling thread to one CPU; returns 0 or an errno value. */
static inline int pin_self(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/* Returns the current time on both clocks. */
static inline struct stamp stamp_now(void)
{
	struct timespec m, r;
	clock_gettime(CLOCK_MONOTONIC, &m);
	clock_gettime(CLOCK_MONOTONIC_RAW, &r);
	return (struct stamp){ m.tv_sec * 1000000000LL + m.tv_nsec,
			       r.tv_sec * 1000000000LL + r.tv_nsec };
}

/* Sleeps until the absolute CLOCK_MONOTONIC time t (ns), through signals. */
static inline void sleep_until(long long t)
{
	struct timespec ts = { t / 1000000000LL, t % 1000000000LL };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* --- the gate: worker side ---------------------------------------------- */

/* futex(2) with op (FUTEX_WAIT or FUTEX_WAKE, made private by
 * g->futex_flags) on the gate's go word. */
static inline void gate_futex(struct gate *g, int op, unsigned val)
{
	syscall(SYS_futex, (void *)&g->go, op | g->futex_flags, val, NULL, NULL, 0);
}

/* True once the coordinator has raised the stop flag (a relaxed load: the
 * measured loops call it every iteration). */
static inline bool gate_stopped(struct gate *g)
{
	return atomic_load_explicit(&g->stop, memory_order_relaxed);
}

/* Counts the caller in as ready, then sleeps until the gate opens. */
static inline void gate_wait(struct gate *g)
{
	atomic_fetch_add(&g->ready, 1);
	while (!atomic_load(&g->go))
		gate_futex(g, FUTEX_WAIT, 0);
}

/* Start of a worker thread: pins it to cpu, storing 0 or the errno value in
 * *err (a failure is said on stderr and counted in g->failed), then waits at
 * the gate. True if the worker is to run its measured loop: it is pinned
 * and the stop flag was not raised when the gate opened. */
static inline bool worker_start(struct gate *g, int cpu, int *err)
{
	*err = pin_self(cpu);
	if (*err) {
		fprintf(stderr, PROG ": cannot pin to CPU %d: %s\n", cpu, strerror(*err));
		atomic_fetch_add(&g->failed, 1);
	}
	gate_wait(g);
	return !*err && !gate_stopped(g);
}

/* Runs the n workers of the calling process, body(items[i]) for each:
 * items[0] on the calling thread, the others on new threads, then joins
 * them. Workers whose thread cannot be created are said on stderr and
 * counted failed and ready, so the coordinator never waits for them.
 * Returns 0, the exit status of a worker process. */
static inline int run_workers(struct gate *g, void *const *items, int n,
			      void *(*body)(void *))
{
	if (n <= 0)
		return 0;
	pthread_t tid[n];
	int started = 1;
	while (started < n) {
		int err = pthread_create(&tid[started], NULL, body, items[started]);
		if (err) {
			fprintf(stderr, PROG ": pthread_create: %s\n", strerror(err));
			atomic_fetch_add(&g->failed, (unsigned)(n - started));
			atomic_fetch_add(&g->ready, (unsigned)(n - started));
			break;
		}
		started++;
	}
	body(items[0]);
	for (int i = 1; i < started; i++)
		pthread_join(tid[i], NULL);
	return 0;
}

/* --- the gate: coordinator side ------------------------------------------ */

/* Maps size bytes of zeroed memory that children forked later share with
 * this process; exits 2, saying why, if it cannot. */
static inline void *map_shared(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, PROG ": mmap: %s\n", strerror(errno));
		exit(2);
	}
	return p;
}

/* True (after saying which on stderr) if any of the nkids children has
 * already exited; reaps that one. */
static inline bool a_kid_died(const pid_t *kids, int nkids)
{
	for (int i = 0; i < nkids; i++) {
		if (waitpid(kids[i], NULL, WNOHANG) == kids[i]) {
			fprintf(stderr, PROG ": worker process %d died before the start\n",
				(int)kids[i]);
			return true;
		}
	}
	return false;
}

/* Waits until n workers are at the gate. False, said on stderr, if one of
 * the nkids worker processes died first (nkids 0: threads of this process)
 * or if 10 s passed: "PROG: <who> not ready after 10 s". */
static inline bool wait_ready(struct gate *g, unsigned n, const pid_t *kids, int nkids,
			      const char *who)
{
	long long give_up = stamp_now().mono + READY_TIMEOUT_NS;
	const struct timespec poll = { 0, 1000000 };
	while (atomic_load(&g->ready) < n) {
		if (a_kid_died(kids, nkids))
			return false;
		if (stamp_now().mono > give_up) {
			fprintf(stderr, PROG ": %s not ready after 10 s\n", who);
			return false;
		}
		nanosleep(&poll, NULL);
	}
	return true;
}

/* Opens the gate and wakes every waiter; with ok false, raises the stop
 * flag first so that every worker leaves at once. */
static inline void open_gate(struct gate *g, bool ok)
{
	if (!ok)
		atomic_store(&g->stop, 1);
	atomic_store(&g->go, 1);
	gate_futex(g, FUTEX_WAKE, INT_MAX);
}

/* Coordinator: with ok true, waits until the n workers are at the gate
 * (see wait_ready for kids, nkids and who), opens it if none failed to pin
 * or start, and raises the stop flag `seconds` after opening. Returns false,
 * with the workers released to exit at once, if ok was false or the start
 * failed; true after a full run. */
static inline bool coordinate(struct gate *g, unsigned n, bool ok, double seconds,
			      const pid_t *kids, int nkids, const char *who)
{
	ok = ok && wait_ready(g, n, kids, nkids, who) && !atomic_load(&g->failed);
	long long deadline = stamp_now().mono + (long long)(seconds * 1e9);
	open_gate(g, ok);
	if (ok) {
		sleep_until(deadline);
		atomic_store(&g->stop, 1);
	}
	return ok;
}

/* Forks up to ngroups worker processes into kids[]; child g exits with
 * child(g, arg), or 2 if this process is already gone (it gets SIGKILL when
 * this process dies). Returns how many it forked: fewer than ngroups after
 * a failed fork, said on stderr. */
static inline int spawn_children(int ngroups, pid_t *kids, int (*child)(int, int), int arg)
{
	fflush(NULL);
	for (int g = 0; g < ngroups; g++) {
		kids[g] = fork();
		if (kids[g] < 0) {
			fprintf(stderr, PROG ": fork: %s\n", strerror(errno));
			return g;
		}
		if (kids[g] == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() == 1)
				_exit(2);
			_exit(child(g, arg));
		}
	}
	return ngroups;
}

/* Reaps the nkids children; true if every one exited with status 0. */
static inline bool reap(const pid_t *kids, int nkids)
{
	bool ok = true;
	for (int i = 0; i < nkids; i++) {
		int st = 0;
		if (waitpid(kids[i], &st, 0) != kids[i] || !WIFEXITED(st) || WEXITSTATUS(st))
			ok = false;
	}
	return ok;
}

/* A whole run with workers in ngroups processes (ngroups >= 1), g in shared
 * memory: forks them (spawn_children with child and arg), coordinates the
 * n workers for `seconds`, and reaps them. True if all went well: every
 * process forked, every worker started, every child exited 0. */
static inline bool run_processes(struct gate *g, int ngroups, int (*child)(int, int),
				 int arg, unsigned n, double seconds)
{
	pid_t kids[ngroups];
	int forked = spawn_children(ngroups, kids, child, arg);
	bool ok = coordinate(g, n, forked == ngroups, seconds, kids, forked, "workers");
	return reap(kids, forked) && ok;
}

/* --- results ------------------------------------------------------------- */

/* Widens the interval [*t0, *t1] (by CLOCK_MONOTONIC) to cover [s0, s1]. */
static inline void stamp_cover(struct stamp *t0, struct stamp *t1,
			       struct stamp s0, struct stamp s1)
{
	if (s0.mono < t0->mono) *t0 = s0;
	if (s1.mono > t1->mono) *t1 = s1;
}

/* Seconds from t0 to t1 on CLOCK_MONOTONIC. */
static inline double stamp_secs(struct stamp t0, struct stamp t1)
{
	return (double)(t1.mono - t0.mono) / 1e9;
}

/* n events over [t0, t1], per second (CLOCK_MONOTONIC). */
static inline double stamp_rate(unsigned long long n, struct stamp t0, struct stamp t1)
{
	return (double)n * 1e9 / (double)(t1.mono - t0.mono);
}

/* Ends the metric line on stdout with the measured interval [t0, t1]:
 * "start_ns=A end_ns=B start_raw_ns=C end_raw_ns=D" and a newline. */
static inline void print_interval(struct stamp t0, struct stamp t1)
{
	printf("start_ns=%lld end_ns=%lld start_raw_ns=%lld end_raw_ns=%lld\n",
	       t0.mono, t1.mono, t0.raw, t1.raw);
}

/* The end of a failed run: says so on stderr and returns 2, the exit status. */
static inline int run_failed(void)
{
	fprintf(stderr, PROG ": run failed\n");
	return 2;
}

#endif
