/*
 * yield: the context-switch benchmark of seed 000.
 *
 * On each of CPUs 0..N-1 two tasks pinned to that CPU call sched_yield() in
 * a loop, so the CPU switches back and forth between them. In the shared-mm
 * mode all 2N tasks are threads of one process (one mm_struct used on every
 * CPU); in the private-mm mode each CPU's two tasks are the threads of their
 * own process (one mm per CPU, the control). The result is context switches
 * per second per CPU, counted from each worker's own getrusage(RUSAGE_THREAD)
 * nvcsw + nivcsw, which the kernel bumps exactly where perf counts its
 * context-switches event: once per switch away from the task.
 *
 * The coordinator (the original process) is outside the measured mm: it
 * forks the worker processes, opens a start gate once every worker is pinned,
 * sleeps until the deadline and raises a stop flag. Output: one metric line
 * on stdout, one human line on stderr. Exit 0 ok, 1 usage, 2 failed run.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sched_setaffinity, RUSAGE_THREAD, when built without -D */
#endif
#include <errno.h>
#include <getopt.h>
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
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PROG "yield"
#define READY_TIMEOUT_NS (10 * 1000000000LL)

/* A moment on both clocks a tool may want to align with perf's timestamps. */
struct stamp {
	long long mono; /* CLOCK_MONOTONIC, ns */
	long long raw;  /* CLOCK_MONOTONIC_RAW, ns */
};

/* One worker task: where it runs and what it measured. */
struct slot {
	int cpu;                      /* CPU the worker is pinned to */
	int err;                      /* errno of a failure, 0 if none */
	unsigned long long yields;    /* sched_yield() calls */
	unsigned long long switches;  /* nvcsw + nivcsw during the loop */
	struct stamp t0, t1;          /* just before / after the counted loop */
};

/* Memory shared by the coordinator and all worker processes. */
struct shm {
	alignas(64) atomic_uint ready; /* workers pinned and waiting at the gate */
	atomic_uint go;                /* 0 until the gate opens (a futex word) */
	alignas(64) atomic_uint stop;  /* read every iteration, written once */
	alignas(64) struct slot slots[];
};

/* Parsed command line. */
struct config {
	int cpus;       /* use CPUs 0..cpus-1 */
	double seconds; /* measuring time */
	bool private_mm;
};

static struct shm *shm;

static const char usage_text[] =
	"Usage: " PROG " [--shared-mm | --private-mm] [--cpus N] [--seconds S]\n"
	"\n"
	"On each of CPUs 0..N-1, two tasks pinned to that CPU call sched_yield()\n"
	"in a loop, so the CPU switches between them; prints context switches per\n"
	"second per CPU (the benchmark of seed 000).\n"
	"\n"
	"  --shared-mm    all 2N tasks are threads of one process: one mm_struct\n"
	"                 is in use on all N CPUs at once, so anything the kernel\n"
	"                 writes into the mm on a context switch bounces between\n"
	"                 the CPUs (default)\n"
	"  --private-mm   one process per CPU, holding that CPU's two tasks as its\n"
	"                 threads: the switches are still between threads of one\n"
	"                 mm, but each mm is used on one CPU only (the control)\n"
	"  --cpus N       use CPUs 0..N-1 (default: all online CPUs)\n"
	"  --seconds S    measure for S seconds, fractions allowed (default 5)\n"
	"  -h, --help     show this text\n"
	"\n"
	"Output, one line on stdout:\n"
	"  metric=ctxsw_per_sec_per_cpu value=V switches=W yields=Y seconds=T\n"
	"  cpus=N mode=shared|private start_ns=A end_ns=B start_raw_ns=C end_raw_ns=D\n"
	"W is the number of switches away from the workers (getrusage\n"
	"RUSAGE_THREAD nvcsw+nivcsw, what perf's context-switches event counts),\n"
	"Y the sched_yield() calls, V = W / T / N. [A, B] is the measured interval\n"
	"on CLOCK_MONOTONIC, [C, D] the same on CLOCK_MONOTONIC_RAW, T = (B-A)/1e9.\n"
	"Exit status: 0 ok, 1 usage error, 2 CPU unavailable or run failed.\n";

/* Prints the usage text to f and exits with status code. */
static void usage(FILE *f, int code)
{
	fputs(usage_text, f);
	exit(code);
}

/* Reports a usage error (one line, then the usage) and exits 1. */
static void usage_error(const char *what, const char *arg)
{
	fprintf(stderr, PROG ": %s%s%s\n", what, arg ? ": " : "", arg ? arg : "");
	usage(stderr, 1);
}

/* Parses a positive decimal number of seconds (at most a million). */
static bool parse_seconds(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !(v > 0 && v <= 1e6))
		return false;
	*out = v;
	return true;
}

/* Parses a decimal integer in [min, max]. */
static bool parse_int(const char *s, long min, long max, int *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return false;
	*out = (int)v;
	return true;
}

/* Fills cfg from argv; exits 0 on --help and 1 on any usage error. */
static void parse_args(int argc, char **argv, struct config *cfg)
{
	static const struct option opts[] = {
		{ "shared-mm", no_argument, NULL, 'S' },
		{ "private-mm", no_argument, NULL, 'P' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "seconds", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool shared = false, private = false;
	int c;

	cfg->cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	cfg->seconds = 5;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'S': shared = true; break;
		case 'P': private = true; break;
		case 'c':
			if (!parse_int(optarg, 1, CPU_SETSIZE, &cfg->cpus))
				usage_error("--cpus wants a count from 1", optarg);
			break;
		case 's':
			if (!parse_seconds(optarg, &cfg->seconds))
				usage_error("--seconds wants a number > 0", optarg);
			break;
		case 'h': usage(stdout, 0); break;
		default: usage(stderr, 1);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument", argv[optind]);
	if (shared && private)
		usage_error("--shared-mm and --private-mm exclude each other", NULL);
	cfg->private_mm = private;
}

/* Exits 2 unless CPUs 0..n-1 are all online and in our affinity mask. */
static void check_cpus(int n)
{
	cpu_set_t allowed;
	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		fprintf(stderr, PROG ": sched_getaffinity: %s\n", strerror(errno));
		exit(2);
	}
	for (int cpu = 0; cpu < n; cpu++) {
		if (!CPU_ISSET(cpu, &allowed)) {
			fprintf(stderr, PROG ": CPU %d is not available (offline or "
				"outside this process's affinity; %d usable)\n",
				cpu, CPU_COUNT(&allowed));
			exit(2);
		}
	}
}

/* Returns the current time on both clocks. */
static struct stamp stamp_now(void)
{
	struct timespec m, r;
	clock_gettime(CLOCK_MONOTONIC, &m);
	clock_gettime(CLOCK_MONOTONIC_RAW, &r);
	return (struct stamp){ m.tv_sec * 1000000000LL + m.tv_nsec,
			       r.tv_sec * 1000000000LL + r.tv_nsec };
}

/* futex(2) on a word of shared memory (not FUTEX_PRIVATE: crosses processes). */
static void futex(atomic_uint *word, int op, unsigned val)
{
	syscall(SYS_futex, (void *)word, op, val, NULL, NULL, 0);
}

/* True once the coordinator has raised the stop flag. */
static inline bool stopped(void)
{
	return atomic_load_explicit(&shm->stop, memory_order_relaxed);
}

/* Counts the caller in as ready, then sleeps until the gate opens. */
static void gate_wait(void)
{
	atomic_fetch_add(&shm->ready, 1);
	while (!atomic_load(&shm->go))
		futex(&shm->go, FUTEX_WAIT, 0);
}

/* Pins the calling thread to one CPU; returns 0 or an errno value. */
static int pin_self(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/* Switches counted by the kernel for the calling thread so far. */
static unsigned long long my_switches(void)
{
	struct rusage ru;
	getrusage(RUSAGE_THREAD, &ru);
	return (unsigned long long)ru.ru_nvcsw + (unsigned long long)ru.ru_nivcsw;
}

/* The measured loop: yields until stopped, recording counts into s. */
static void yield_loop(struct slot *s)
{
	unsigned long long n = 0;
	s->t0 = stamp_now();
	unsigned long long sw0 = my_switches();
	while (!stopped()) {
		sched_yield();
		n++;
	}
	s->switches = my_switches() - sw0;
	s->t1 = stamp_now();
	s->yields = n;
}

/* Thread body of one worker: pin, wait at the gate, run the loop. */
static void *worker(void *arg)
{
	struct slot *s = arg;
	s->err = pin_self(s->cpu);
	if (s->err)
		fprintf(stderr, PROG ": cannot pin to CPU %d: %s\n", s->cpu, strerror(s->err));
	gate_wait();
	if (!s->err && !stopped())
		yield_loop(s);
	return NULL;
}

/* Runs the nslots workers of one process: the first on the calling thread,
 * the others on new threads. A worker that cannot be started is marked
 * failed and counted ready, so the coordinator never waits for it. */
static int run_group(struct slot *first, int nslots)
{
	pthread_t tid[nslots];
	int started = 1;
	while (started < nslots) {
		int err = pthread_create(&tid[started], NULL, worker, &first[started]);
		if (err) {
			fprintf(stderr, PROG ": pthread_create: %s\n", strerror(err));
			for (int j = started; j < nslots; j++) {
				first[j].err = err;
				atomic_fetch_add(&shm->ready, 1);
			}
			break;
		}
		started++;
	}
	worker(&first[0]);
	for (int i = 1; i < started; i++)
		pthread_join(tid[i], NULL);
	return 0;
}

/* Forks one worker process per group of slots; returns how many it forked
 * (fewer than ngroups on failure, after saying why). */
static int spawn_groups(int ngroups, int per_group, pid_t *kids)
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
			_exit(run_group(&shm->slots[g * per_group], per_group));
		}
	}
	return ngroups;
}

/* True if any of the nkids children has already exited. */
static bool a_kid_died(const pid_t *kids, int nkids)
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

/* Waits until n workers are at the gate; false if a child died or 10 s passed. */
static bool wait_ready(unsigned n, const pid_t *kids, int nkids)
{
	long long give_up = stamp_now().mono + READY_TIMEOUT_NS;
	const struct timespec poll = { 0, 1000000 };
	while (atomic_load(&shm->ready) < n) {
		if (a_kid_died(kids, nkids))
			return false;
		if (stamp_now().mono > give_up) {
			fprintf(stderr, PROG ": workers not ready after 10 s\n");
			return false;
		}
		nanosleep(&poll, NULL);
	}
	return true;
}

/* Sleeps until the absolute CLOCK_MONOTONIC time t (ns). */
static void sleep_until(long long t)
{
	struct timespec ts = { t / 1000000000LL, t % 1000000000LL };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* Opens the gate; with ok false, raises the stop flag first so that every
 * worker leaves at once. */
static void open_gate(bool ok)
{
	if (!ok)
		atomic_store(&shm->stop, 1);
	atomic_store(&shm->go, 1);
	futex(&shm->go, FUTEX_WAKE, INT_MAX);
}

/* Coordinator: opens the gate once all n workers are pinned and stops them
 * after the given time; false (workers released to exit) if the start failed. */
static bool coordinate(unsigned n, double seconds, const pid_t *kids, int nkids)
{
	bool ok = wait_ready(n, kids, nkids);
	for (unsigned i = 0; ok && i < n; i++)
		ok = !shm->slots[i].err;
	long long deadline = stamp_now().mono + (long long)(seconds * 1e9);
	open_gate(ok);
	if (ok) {
		sleep_until(deadline);
		atomic_store(&shm->stop, 1);
	}
	return ok;
}

/* Reaps the nkids children; true if every one exited with status 0. */
static bool reap(const pid_t *kids, int nkids)
{
	bool ok = true;
	for (int i = 0; i < nkids; i++) {
		int st = 0;
		if (waitpid(kids[i], &st, 0) != kids[i] || !WIFEXITED(st) || WEXITSTATUS(st))
			ok = false;
	}
	return ok;
}

/* Prints the metric line (stdout) and the human line (stderr). */
static void report(const struct config *cfg, int nslots)
{
	unsigned long long sw = 0, yields = 0;
	struct stamp t0 = shm->slots[0].t0, t1 = shm->slots[0].t1;
	for (int i = 0; i < nslots; i++) {
		const struct slot *s = &shm->slots[i];
		sw += s->switches;
		yields += s->yields;
		if (s->t0.mono < t0.mono) t0 = s->t0;
		if (s->t1.mono > t1.mono) t1 = s->t1;
	}
	double secs = (double)(t1.mono - t0.mono) / 1e9;
	double rate = (double)sw / secs / cfg->cpus;
	const char *mode = cfg->private_mm ? "private" : "shared";
	printf("metric=ctxsw_per_sec_per_cpu value=%.0f switches=%llu yields=%llu "
	       "seconds=%.6f cpus=%d mode=%s start_ns=%lld end_ns=%lld "
	       "start_raw_ns=%lld end_raw_ns=%lld\n",
	       rate, sw, yields, secs, cfg->cpus, mode, t0.mono, t1.mono, t0.raw, t1.raw);
	fprintf(stderr, PROG ": %s mm, %d CPU%s, %.3f s: %.0f context switches/s per CPU "
		"(%llu switches, %llu yields)\n", mode, cfg->cpus,
		cfg->cpus == 1 ? "" : "s", secs, rate, sw, yields);
}

/* Maps the shared area for nslots workers, two per CPU: slots 2c and 2c+1
 * run on CPU c (with --private-mm, in process c; else all in process 0). */
static void setup_shm(int nslots)
{
	size_t size = sizeof(struct shm) + (size_t)nslots * sizeof(struct slot);
	shm = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shm == MAP_FAILED) {
		fprintf(stderr, PROG ": mmap: %s\n", strerror(errno));
		exit(2);
	}
	for (int i = 0; i < nslots; i++)
		shm->slots[i].cpu = i / 2;
}

int main(int argc, char **argv)
{
	struct config cfg;
	parse_args(argc, argv, &cfg);
	check_cpus(cfg.cpus);

	int nslots = 2 * cfg.cpus;
	int ngroups = cfg.private_mm ? cfg.cpus : 1;
	pid_t kids[ngroups];
	setup_shm(nslots);
	int forked = spawn_groups(ngroups, nslots / ngroups, kids);
	bool ok = forked == ngroups;
	if (ok)
		ok = coordinate((unsigned)nslots, cfg.seconds, kids, forked);
	else
		open_gate(false);
	ok = reap(kids, forked) && ok;
	if (!ok) {
		fprintf(stderr, PROG ": run failed\n");
		return 2;
	}
	report(&cfg, nslots);
	return 0;
}
