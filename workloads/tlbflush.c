/*
 * tlbflush: the will-it-scale tlb_flush2 benchmark of the lazy mm_cpumask
 * report (flush IPIs to CPUs that no longer run the mm), with control
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
 * idle and lazily holding it, or switching between it and other tasks; with
 * "share" each helper's CPU also runs a process of its own (another mm), both
 * yielding, so flushes race with that CPU switching to another mm.
 *
 * The coordinator (the original process) forks the worker processes, opens a
 * start gate once every worker is pinned, sleeps until the deadline and raises
 * a stop flag (workloads/harness.h). Output: one metric line on stdout, one
 * human line on stderr. Exit 0 ok, 1 usage, 2 CPU unavailable or failed run.
 */
#define PROG "tlbflush"
#include "workloads/harness.h"
#include <getopt.h>

#define REGION_SIZE (1 << 20)          /* tlb_flush2's MEMORYSIZE */
#define HELPER_SLEEP_NS 100000          /* --others sleep: 100 us naps */

/* What the helper threads on the CPUs without a task do. */
enum others { OTHERS_NONE, OTHERS_SPIN, OTHERS_SLEEP, OTHERS_YIELD, OTHERS_SHARE };
static const char *const others_names[] = { "none", "spin", "sleep", "yield", "share" };

/* One worker (a flushing task or a helper): where it runs, what it measured. */
struct slot {
	int cpu;                 /* CPU the worker is pinned to */
	int group;               /* index of the process it runs in */
	bool helper;             /* a helper or an intruder, not a flushing task */
	int err;                 /* errno of a failure, 0 if none */
	unsigned long long ops;  /* pages written and dropped (tasks only) */
	struct stamp t0, t1;     /* just before / after the counted loop */
};

/* Memory shared by the coordinator and all worker processes. */
struct shm {
	struct gate gate;
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

const char usage_text[] =
	"Usage: " PROG " [--tasks N] [--threads | --processes]\n"
	"       [--others spin|sleep|yield|share|none] [--cpus LIST] [--seconds S]\n"
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
	"                    share  yield, and a process of its own (another mm)\n"
	"                           on the same CPU yields too: the CPU switches\n"
	"                           between the tasks' mm and that one all the time\n"
	"                    none   no helpers (default)\n"
	"  --cpus LIST     CPUs to use, e.g. 0-3,6 (default: all online CPUs)\n"
	"  --seconds S     measure for S seconds, fractions allowed (default 5)\n"
	"  -h, --help      show this text\n"
	"\n"
	"Output, two lines on stdout:\n"
	"  metric=tlbflush_ops_per_sec value=V unit=ops/s better=higher per_task=P\n"
	"  task_values=V0,V1,...\n"
	"  ops=O tasks=N mode=threads|processes others=KIND cpus=K cpu_list=L\n"
	"  seconds=T start_ns=A end_ns=B start_raw_ns=C end_raw_ns=D\n"
	"  metric=tlbflush_ops_per_sec_per_task value=P unit=ops/s better=higher tasks=N\n"
	"(the second is will-it-scale's per_thread_ops)\n"
	"V is ops per second of all tasks together, P = V / N, Vi task i's own\n"
	"rate, K the number of CPUs in L; [A, B] is the measured interval on\n"
	"CLOCK_MONOTONIC, [C, D] the same on CLOCK_MONOTONIC_RAW, T = (B-A)/1e9.\n"
	"Exit status: 0 ok, 1 usage error, 2 CPU unavailable or run failed.\n";

/* Parses a decimal integer in [min, max] at the start of s, which must begin
 * with a digit; *end gets the rest. */
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
	int c, i;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (!parse_int_prefix(optarg, 1, CPU_SETSIZE, &cfg->tasks, &dummy) || *dummy)
				usage_error("--tasks wants a count from 1", optarg);
			break;
		case 'T': threads = true; break;
		case 'P': cfg->processes = true; break;
		case 'o':
			if ((i = lookup(optarg, others_names, 5)) < 0)
				usage_error("--others wants spin, sleep, yield, share or none", optarg);
			cfg->others = (enum others)i;
			break;
		case 'C':
			if (!parse_cpu_list(optarg, cfg))
				usage_error("--cpus wants a list like 0-3,6 without repeats", optarg);
			break;
		default: common_option(c, &cfg->seconds);
		}
	}
	no_operands(argc, argv);
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
static void check_config(const struct config *cfg)
{
	check_cpus(cfg->cpus, cfg->ncpus);
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

/* True once the coordinator has raised the stop flag. */
static inline bool stopped(void)
{
	return gate_stopped(&shm->gate);
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
		else if (kind == OTHERS_YIELD || kind == OTHERS_SHARE)
			sched_yield();
	}
}

static enum others helper_kind; /* set before forking, read by helpers */

/* Thread body of one worker (arg: its slot): pin, wait at the gate, run its
 * loop. */
static void *worker(void *arg)
{
	struct slot *s = arg;
	if (!worker_start(&shm->gate, s->cpu, &s->err))
		return NULL;
	if (s->helper)
		helper_loop(helper_kind);
	else
		task_loop(s);
	return NULL;
}

/* Body of worker process `group`: runs the workers of that group among the
 * nslots. Returns its exit status. */
static int run_group(int group, int nslots)
{
	void *mine[nslots];
	int n = 0;
	for (int i = 0; i < nslots; i++)
		if (shm->slots[i].group == group)
			mine[n++] = &shm->slots[i];
	return run_workers(&shm->gate, mine, n, worker);
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
		total += stamp_rate(s->ops, s->t0, s->t1);
		stamp_cover(&t0, &t1, s->t0, s->t1);
	}
	printf("%.0f unit=ops/s better=higher per_task=%.0f task_values=", total, total / cfg->tasks);
	for (int i = 0; i < cfg->tasks; i++) {
		const struct slot *s = &shm->slots[i];
		printf("%s%.0f", i ? "," : "", stamp_rate(s->ops, s->t0, s->t1));
	}
	double secs = stamp_secs(t0, t1);
	printf(" ops=%llu tasks=%d mode=%s others=%s cpus=%d cpu_list=", ops,
	       cfg->tasks, mode, others_names[cfg->others], cfg->ncpus);
	print_cpu_list(stdout, cfg);
	printf(" seconds=%.6f ", secs);
	print_interval(t0, t1);
	printf("metric=tlbflush_ops_per_sec_per_task value=%.0f unit=ops/s better=higher tasks=%d\n",
	       total / cfg->tasks, cfg->tasks);
	fprintf(stderr, PROG ": %d task%s (%s), others %s, CPUs ", cfg->tasks,
		cfg->tasks == 1 ? "" : "s", mode, others_names[cfg->others]);
	print_cpu_list(stderr, cfg);
	fprintf(stderr, ", %.3f s: %.0f ops/s, %.0f per task\n", secs, total,
		total / cfg->tasks);
}

/* Maps the shared area for nslots workers: tasks on the first CPUs, then
 * helpers, then ("share") one intruder per helper on the helper's CPU, in
 * a process of its own after the tasks' ngroups; each assigned to its
 * process. */
static void setup_shm(const struct config *cfg, int nslots, int ngroups)
{
	shm = map_shared(sizeof(struct shm) + (size_t)nslots * sizeof(struct slot));
	for (int i = 0; i < nslots; i++) {
		struct slot *s = &shm->slots[i];
		if (i >= cfg->ncpus) {
			s->cpu = cfg->cpus[cfg->tasks + i - cfg->ncpus];
			s->helper = true;
			s->group = ngroups + i - cfg->ncpus;
			continue;
		}
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
	check_config(&cfg);

	int nslots = cfg.others == OTHERS_NONE ? cfg.tasks : cfg.ncpus;
	int ngroups = cfg.processes ? cfg.tasks : 1;
	int intruders = cfg.others == OTHERS_SHARE ? cfg.ncpus - cfg.tasks : 0;
	helper_kind = cfg.others;
	setup_shm(&cfg, nslots + intruders, ngroups);
	bool ok = run_processes(&shm->gate, ngroups + intruders, run_group, nslots + intruders,
				(unsigned)(nslots + intruders), cfg.seconds);
	for (int i = 0; ok && i < nslots + intruders; i++)
		ok = !shm->slots[i].err;
	if (!ok)
		return run_failed();
	report(&cfg);
	return 0;
}
