/*
 * tlbflush: the will-it-scale tlb_flush2 benchmark of seed 001, with control
 * over what the other CPUs are doing when the flush IPIs arrive.
 *
 * Each task, pinned to its own CPU, maps 1 MiB of private anonymous memory
 * and walks it page by page: write a byte, drop the page with
 * madvise(MADV_DONTNEED) (a TLB flush on every CPU in the mm's cpumask that
 * the kernel decides to interrupt), read it back as zero. One page is one op.
 * Then it unmaps the region and maps a new one, as tlb_flush2 does. Tasks are
 * threads of one process (flushes must reach each other) or one process each
 * (the control). Optional helper threads in the tasks' mm sit on the remaining
 * CPUs and spin, sleep or yield, so a flush finds those CPUs running the mm,
 * idle and lazily holding it, or switching between it and other tasks.
 *
 * The coordinator (the original process) forks the worker processes, opens a
 * start gate once every worker is pinned, sleeps until the deadline and raises
 * a stop flag. Output: one metric line on stdout, one human line on stderr.
 * Exit 0 ok, 1 usage, 2 CPU unavailable or failed run.
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
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PROG "tlbflush"
#define REGION_SIZE (1 << 20)          /* tlb_flush2's MEMORYSIZE */
#define HELPER_SLEEP_NS 100000          /* --others sleep: 100 us naps */
#define READY_TIMEOUT_NS (10 * 1000000000LL)

/* What the helper threads on the CPUs without a task do. */
enum others { OTHERS_NONE, OTHERS_SPIN, OTHERS_SLEEP, OTHERS_YIELD };
static const char *const others_names[] = { "none", "spin", "sleep", "yield" };

/* A moment on both clocks a tool may want to align with perf's timestamps. */
struct stamp {
	long long mono; /* CLOCK_MONOTONIC, ns */
	long long raw;  /* CLOCK_MONOTONIC_RAW, ns */
};

/* One worker (a flushing task or a helper): where it runs, what it measured. */
struct slot {
	int cpu;                 /* CPU the worker is pinned to */
	int group;               /* index of the process it runs in */
	bool helper;             /* a helper, not a flushing task */
	int err;                 /* errno of a failure, 0 if none */
	unsigned long long ops;  /* pages written and dropped (tasks only) */
	struct stamp t0, t1;     /* just before / after the counted loop */
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
	int cpus[CPU_SETSIZE]; /* --cpus LIST, in the order given */
	int ncpus;
	int tasks;             /* 0 until set: then the default applies */
	bool processes;
	enum others others;
	double seconds;
};

static struct shm *shm;

static const char usage_text[] =
	"Usage: " PROG " [--tasks N] [--threads | --processes]\n"
	"       [--others spin|sleep|yield|none] [--cpus LIST] [--seconds S]\n"
	"\n"
	"will-it-scale tlb_flush2: each task, pinned to its own CPU, maps 1 MiB of\n"
	"anonymous memory and, page by page, writes a byte, drops the page with\n"
	"madvise(MADV_DONTNEED) and checks it reads back as zero (one op), then\n"
	"unmaps it and starts over. Each drop flushes the TLB of the other CPUs\n"
	"the kernel thinks may cache the mm's translations.\n"
	"\n"
	"  --tasks N       N flushing tasks, on the first N CPUs of LIST\n"
	"                  (default: every CPU of LIST; 1 when --others is given)\n"
	"  --threads       the tasks are threads of one process, so every flush\n"
	"                  targets the other tasks' CPUs (default)\n"
	"  --processes     each task is a process of its own (no shared mm: the\n"
	"                  control)\n"
	"  --others KIND   put one helper thread on each CPU of LIST left over by\n"
	"                  the tasks, in the tasks' mm (with --processes: helper j\n"
	"                  joins task j mod N's process). KIND is\n"
	"                    spin   busy loop: the CPU keeps running the mm\n"
	"                    sleep  nanosleep(100 us) in a loop: the CPU goes idle\n"
	"                           and keeps the mm loaded lazily\n"
	"                    yield  sched_yield() in a loop: in and out of the\n"
	"                           kernel, and giving the CPU to any other runnable\n"
	"                           task, which runs another mm\n"
	"                    none   no helpers (default)\n"
	"  --cpus LIST     CPUs to use, e.g. 0-3,6 (default: all online CPUs)\n"
	"  --seconds S     measure for S seconds, fractions allowed (default 5)\n"
	"  -h, --help      show this text\n"
	"\n"
	"Output, one line on stdout:\n"
	"  metric=tlbflush_ops_per_sec value=V per_task=P task_values=V0,V1,...\n"
	"  ops=O tasks=N mode=threads|processes others=KIND cpus=K cpu_list=L\n"
	"  seconds=T start_ns=A end_ns=B start_raw_ns=C end_raw_ns=D\n"
	"V is ops per second of all tasks together, P = V / N, Vi task i's own\n"
	"rate, K the number of CPUs in L; [A, B] is the measured interval on\n"
	"CLOCK_MONOTONIC, [C, D] the same on CLOCK_MONOTONIC_RAW, T = (B-A)/1e9.\n"
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

/* Parses a decimal integer in [min, max] at the start of s; *end gets the rest. */
static bool parse_int_prefix(const char *s, long min, long max, int *out, char **end)
{
	errno = 0;
	if (*s < '0' || *s > '9')
		return false;
	long v = strtol(s, end, 10);
	if (errno || v < min || v > max)
		return false;
	*out = (int)v;
	return true;
}

/* Parses a CPU list such as "0-3,6" into cfg (no repeats); false if malformed. */
static bool parse_cpu_list(const char *s, struct config *cfg)
{
	bool seen[CPU_SETSIZE] = { false };
	cfg->ncpus = 0;
	for (;;) {
		int lo, hi;
		char *end;
		if (!parse_int_prefix(s, 0, CPU_SETSIZE - 1, &lo, &end))
			return false;
		hi = lo;
		if (*end == '-' && !parse_int_prefix(end + 1, lo, CPU_SETSIZE - 1, &hi, &end))
			return false;
		for (int cpu = lo; cpu <= hi; cpu++) {
			if (seen[cpu])
				return false;
			seen[cpu] = true;
			cfg->cpus[cfg->ncpus++] = cpu;
		}
		if (*end == '\0')
			return true;
		if (*end != ',')
			return false;
		s = end + 1;
	}
}

/* Maps a --others argument to its kind; false if unknown. */
static bool parse_others(const char *s, enum others *out)
{
	for (int i = 0; i < 4; i++) {
		if (!strcmp(s, others_names[i])) {
			*out = (enum others)i;
			return true;
		}
	}
	return false;
}

/* Fills cfg from argv (before defaults); exits 0 on --help, 1 on a usage error. */
static void parse_args(int argc, char **argv, struct config *cfg)
{
	static const struct option opts[] = {
		{ "tasks", required_argument, NULL, 't' },
		{ "threads", no_argument, NULL, 'T' },
		{ "processes", no_argument, NULL, 'P' },
		{ "others", required_argument, NULL, 'o' },
		{ "cpus", required_argument, NULL, 'C' },
		{ "seconds", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool threads = false;
	char *dummy;
	int c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (!parse_int_prefix(optarg, 1, CPU_SETSIZE, &cfg->tasks, &dummy) || *dummy)
				usage_error("--tasks wants a count from 1", optarg);
			break;
		case 'T': threads = true; break;
		case 'P': cfg->processes = true; break;
		case 'o':
			if (!parse_others(optarg, &cfg->others))
				usage_error("--others wants spin, sleep, yield or none", optarg);
			break;
		case 'C':
			if (!parse_cpu_list(optarg, cfg))
				usage_error("--cpus wants a list like 0-3,6 without repeats", optarg);
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
	if (threads && cfg->processes)
		usage_error("--threads and --processes exclude each other", NULL);
}

/* Applies the defaults: all online CPUs, and the default task count. */
static void apply_defaults(struct config *cfg)
{
	if (cfg->ncpus == 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		for (int cpu = 0; cpu < n && cpu < CPU_SETSIZE; cpu++)
			cfg->cpus[cfg->ncpus++] = cpu;
	}
	if (cfg->tasks == 0)
		cfg->tasks = cfg->others == OTHERS_NONE ? cfg->ncpus : 1;
}

/* Exits 2 unless every listed CPU is usable and there are enough of them. */
static void check_cpus(const struct config *cfg)
{
	cpu_set_t allowed;
	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		fprintf(stderr, PROG ": sched_getaffinity: %s\n", strerror(errno));
		exit(2);
	}
	for (int i = 0; i < cfg->ncpus; i++) {
		if (!CPU_ISSET(cfg->cpus[i], &allowed)) {
			fprintf(stderr, PROG ": CPU %d is not available (offline or "
				"outside this process's affinity; %d usable)\n",
				cfg->cpus[i], CPU_COUNT(&allowed));
			exit(2);
		}
	}
	if (cfg->tasks > cfg->ncpus) {
		fprintf(stderr, PROG ": %d tasks need %d CPUs, only %d available\n",
			cfg->tasks, cfg->tasks, cfg->ncpus);
		exit(2);
	}
	if (cfg->others != OTHERS_NONE && cfg->tasks == cfg->ncpus) {
		fprintf(stderr, PROG ": --others %s needs a CPU beyond the %d tasks' CPUs\n",
			others_names[cfg->others], cfg->tasks);
		exit(2);
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

/* Writes, drops and re-reads each page of one fresh region until the region
 * is done or the stop flag is up; adds the pages done to *ops. Returns 0 or
 * an errno value (EFAULT: a dropped page did not read back as zero). */
static int flush_region(long page, unsigned long long *ops)
{
	char *region = mmap(NULL, REGION_SIZE, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (region == MAP_FAILED)
		return errno;
	int err = 0;
	for (long off = 0; off < REGION_SIZE && !stopped(); off += page) {
		volatile char *p = region + off;
		*p = 1;
		if (madvise(region + off, (size_t)page, MADV_DONTNEED)) {
			err = errno;
			break;
		}
		if (*p != 0) {
			err = EFAULT;
			break;
		}
		(*ops)++;
	}
	munmap(region, REGION_SIZE);
	return err;
}

/* The measured loop of a flushing task, recording into s. */
static void task_loop(struct slot *s)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned long long ops = 0;
	s->t0 = stamp_now();
	while (!stopped() && !s->err)
		s->err = flush_region(page, &ops);
	s->t1 = stamp_now();
	s->ops = ops;
	if (s->err)
		fprintf(stderr, PROG ": task on CPU %d: %s\n", s->cpu, strerror(s->err));
}

/* The loop of a helper: spin, nap or yield until stopped. */
static void helper_loop(enum others kind)
{
	const struct timespec nap = { 0, HELPER_SLEEP_NS };
	while (!stopped()) {
		if (kind == OTHERS_SLEEP)
			nanosleep(&nap, NULL);
		else if (kind == OTHERS_YIELD)
			sched_yield();
	}
}

static enum others helper_kind; /* set before forking, read by helpers */

/* Thread body of one worker: pin, wait at the gate, run its loop. */
static void *worker(void *arg)
{
	struct slot *s = arg;
	s->err = pin_self(s->cpu);
	if (s->err)
		fprintf(stderr, PROG ": cannot pin to CPU %d: %s\n", s->cpu, strerror(s->err));
	gate_wait();
	if (s->err || stopped())
		return NULL;
	if (s->helper)
		helper_loop(helper_kind);
	else
		task_loop(s);
	return NULL;
}

/* Runs the workers of process `group` out of nslots: the first on the calling
 * thread, the others on new threads. A worker that cannot be started is
 * marked failed and counted ready, so the coordinator never waits for it. */
static int run_group(int group, int nslots)
{
	struct slot *mine[nslots];
	pthread_t tid[nslots];
	int n = 0, started = 1;
	for (int i = 0; i < nslots; i++)
		if (shm->slots[i].group == group)
			mine[n++] = &shm->slots[i];
	if (n == 0)
		return 0;
	while (started < n) {
		int err = pthread_create(&tid[started], NULL, worker, mine[started]);
		if (err) {
			fprintf(stderr, PROG ": pthread_create: %s\n", strerror(err));
			for (int j = started; j < n; j++) {
				mine[j]->err = err;
				atomic_fetch_add(&shm->ready, 1);
			}
			break;
		}
		started++;
	}
	worker(mine[0]);
	for (int i = 1; i < started; i++)
		pthread_join(tid[i], NULL);
	return 0;
}

/* Forks one worker process per group; returns how many it forked (fewer
 * than ngroups on failure, after saying why). */
static int spawn_groups(int ngroups, int nslots, pid_t *kids)
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
			_exit(run_group(g, nslots));
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

/* Prints the list of the given CPUs, comma-separated, to f. */
static void print_cpu_list(FILE *f, const struct config *cfg)
{
	for (int i = 0; i < cfg->ncpus; i++)
		fprintf(f, "%s%d", i ? "," : "", cfg->cpus[i]);
}

/* Prints the metric line (stdout) and the human line (stderr). */
static void report(const struct config *cfg)
{
	unsigned long long ops = 0;
	double total = 0;
	struct stamp t0 = shm->slots[0].t0, t1 = shm->slots[0].t1;
	const char *mode = cfg->processes ? "processes" : "threads";
	printf("metric=tlbflush_ops_per_sec value=");
	for (int i = 0; i < cfg->tasks; i++) {
		const struct slot *s = &shm->slots[i];
		ops += s->ops;
		total += (double)s->ops * 1e9 / (double)(s->t1.mono - s->t0.mono);
		if (s->t0.mono < t0.mono) t0 = s->t0;
		if (s->t1.mono > t1.mono) t1 = s->t1;
	}
	printf("%.0f per_task=%.0f task_values=", total, total / cfg->tasks);
	for (int i = 0; i < cfg->tasks; i++) {
		const struct slot *s = &shm->slots[i];
		printf("%s%.0f", i ? "," : "",
		       (double)s->ops * 1e9 / (double)(s->t1.mono - s->t0.mono));
	}
	double secs = (double)(t1.mono - t0.mono) / 1e9;
	printf(" ops=%llu tasks=%d mode=%s others=%s cpus=%d cpu_list=", ops,
	       cfg->tasks, mode, others_names[cfg->others], cfg->ncpus);
	print_cpu_list(stdout, cfg);
	printf(" seconds=%.6f start_ns=%lld end_ns=%lld start_raw_ns=%lld end_raw_ns=%lld\n",
	       secs, t0.mono, t1.mono, t0.raw, t1.raw);
	fprintf(stderr, PROG ": %d task%s (%s), others %s, CPUs ", cfg->tasks,
		cfg->tasks == 1 ? "" : "s", mode, others_names[cfg->others]);
	print_cpu_list(stderr, cfg);
	fprintf(stderr, ", %.3f s: %.0f ops/s, %.0f per task\n", secs, total,
		total / cfg->tasks);
}

/* Maps the shared area for nslots workers: tasks on the first CPUs, then
 * helpers; each assigned to its process. */
static void setup_shm(const struct config *cfg, int nslots)
{
	size_t size = sizeof(struct shm) + (size_t)nslots * sizeof(struct slot);
	shm = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shm == MAP_FAILED) {
		fprintf(stderr, PROG ": mmap: %s\n", strerror(errno));
		exit(2);
	}
	for (int i = 0; i < nslots; i++) {
		struct slot *s = &shm->slots[i];
		s->cpu = cfg->cpus[i];
		s->helper = i >= cfg->tasks;
		s->group = cfg->processes ? (s->helper ? i - cfg->tasks : i) % cfg->tasks : 0;
	}
}

int main(int argc, char **argv)
{
	static struct config cfg = { .seconds = 5 };
	parse_args(argc, argv, &cfg);
	apply_defaults(&cfg);
	check_cpus(&cfg);

	int nslots = cfg.others == OTHERS_NONE ? cfg.tasks : cfg.ncpus;
	int ngroups = cfg.processes ? cfg.tasks : 1;
	pid_t kids[ngroups];
	helper_kind = cfg.others;
	setup_shm(&cfg, nslots);
	int forked = spawn_groups(ngroups, nslots, kids);
	bool ok = forked == ngroups;
	if (ok)
		ok = coordinate((unsigned)nslots, cfg.seconds, kids, forked);
	else
		open_gate(false);
	ok = reap(kids, forked) && ok;
	for (int i = 0; ok && i < nslots; i++)
		ok = !shm->slots[i].err;
	if (!ok) {
		fprintf(stderr, PROG ": run failed\n");
		return 2;
	}
	report(&cfg);
	return 0;
}
