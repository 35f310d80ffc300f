/*
 * yield: the context-switch benchmark of the mglru report (lru_gen.bitmap
 * stored on every context switch, bouncing between CPUs).
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
 * sleeps until the deadline and raises a stop flag (workloads/harness.h).
 * Output: one metric line on stdout, one human line on stderr. Exit 0 ok,
 * 1 usage, 2 failed run.
 */
#define PROG "yield"
#include "workloads/harness.h"
#include <getopt.h>
#include <sys/resource.h>

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
	struct gate gate;
	alignas(64) struct slot slots[];
};

/* Parsed command line. */
struct config {
	int cpus;       /* use CPUs 0..cpus-1 */
	double seconds; /* measuring time */
	bool private_mm;
};

static struct shm *shm;

const char usage_text[] =
	"Usage: " PROG " [--shared-mm | --private-mm] [--cpus N] [--seconds S]\n"
	"\n"
	"On each of CPUs 0..N-1, two tasks pinned to that CPU call sched_yield()\n"
	"in a loop, so the CPU switches between them; prints context switches per\n"
	"second per CPU (the benchmark of the mglru lru_gen.bitmap report).\n"
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
	"  metric=ctxsw_per_sec_per_cpu value=V unit=switches/s/CPU better=higher\n"
	"  switches=W yields=Y seconds=T\n"
	"  cpus=N mode=shared|private start_ns=A end_ns=B start_raw_ns=C end_raw_ns=D\n"
	"W is the number of switches away from the workers (getrusage\n"
	"RUSAGE_THREAD nvcsw+nivcsw, what perf's context-switches event counts),\n"
	"Y the sched_yield() calls, V = W / T / N. [A, B] is the measured interval\n"
	"on CLOCK_MONOTONIC, [C, D] the same on CLOCK_MONOTONIC_RAW, T = (B-A)/1e9.\n"
	"Exit status: 0 ok, 1 usage error, 2 CPU unavailable or run failed.\n";

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
		default: common_option(c, &cfg->seconds);
		}
	}
	no_operands(argc, argv);
	if (shared && private)
		usage_error("--shared-mm and --private-mm exclude each other", NULL);
	cfg->private_mm = private;
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
	while (!gate_stopped(&shm->gate)) {
		sched_yield();
		n++;
	}
	s->switches = my_switches() - sw0;
	s->t1 = stamp_now();
	s->yields = n;
}

/* Thread body of one worker (arg: its slot): pin, wait at the gate, run the
 * loop. */
static void *worker(void *arg)
{
	struct slot *s = arg;
	if (worker_start(&shm->gate, s->cpu, &s->err))
		yield_loop(s);
	return NULL;
}

/* Body of worker process `group`: runs its per_group workers, the slots
 * from group * per_group on. Returns its exit status. */
static int run_group(int group, int per_group)
{
	void *mine[per_group];
	for (int i = 0; i < per_group; i++)
		mine[i] = &shm->slots[group * per_group + i];
	return run_workers(&shm->gate, mine, per_group, worker);
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
		stamp_cover(&t0, &t1, s->t0, s->t1);
	}
	double secs = stamp_secs(t0, t1);
	double rate = (double)sw / secs / cfg->cpus;
	const char *mode = cfg->private_mm ? "private" : "shared";
	printf("metric=ctxsw_per_sec_per_cpu value=%.0f unit=switches/s/CPU better=higher "
	       "switches=%llu yields=%llu "
	       "seconds=%.6f cpus=%d mode=%s ", rate, sw, yields, secs, cfg->cpus, mode);
	print_interval(t0, t1);
	fprintf(stderr, PROG ": %s mm, %d CPU%s, %.3f s: %.0f context switches/s per CPU "
		"(%llu switches, %llu yields)\n", mode, cfg->cpus,
		cfg->cpus == 1 ? "" : "s", secs, rate, sw, yields);
}

/* Maps the shared area for nslots workers, two per CPU: slots 2c and 2c+1
 * run on CPU c (with --private-mm, in process c; else all in process 0). */
static void setup_shm(int nslots)
{
	shm = map_shared(sizeof(struct shm) + (size_t)nslots * sizeof(struct slot));
	for (int i = 0; i < nslots; i++)
		shm->slots[i].cpu = i / 2;
}

int main(int argc, char **argv)
{
	struct config cfg;
	parse_args(argc, argv, &cfg);
	check_cpus(NULL, cfg.cpus);

	int nslots = 2 * cfg.cpus;
	int ngroups = cfg.private_mm ? cfg.cpus : 1;
	setup_shm(nslots);
	if (!run_processes(&shm->gate, ngroups, run_group, nslots / ngroups,
			   (unsigned)nslots, cfg.seconds))
		return run_failed();
	report(&cfg, nslots);
	return 0;
}
