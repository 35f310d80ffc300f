/*
 * falseshare: cacheline sharing between CPUs, the mechanism of the mglru
 * report (mm->lru_gen.bitmap stored on every context switch).
 *
 * Threads pinned to CPUs 0..N-1 each store to a word of the global
 * `fs_shared` in a tight loop, as context_switch() stores
 * mm->lru_gen.bitmap = -1 on every switch. The layout decides whether the
 * words share a cacheline: `packed` puts every thread's word in one 64-byte
 * line (false sharing), `padded` gives each its own line (no sharing),
 * `shared` makes all threads store to one word (true sharing, exactly the
 * report's pattern). The store mode decides whether the line is written at
 * all once the value is set: `always` stores every iteration, `check` loads
 * and stores only if the value differs (the report's fix). One iteration is
 * one op. The struct and its fields have stable names for DWARF-based field
 * attribution and for hardware watchpoints (--verbose prints the addresses).
 *
 * The main thread opens a start gate once every worker is pinned, sleeps
 * until the deadline and raises a stop flag (workloads/harness.h). Output:
 * one metric line on stdout, one human line on stderr. Exit 0 ok, 1 usage,
 * 2 CPU unavailable or failed run.
 *
 * Watched with hardware write-watchpoints (perfdb record -r watch), a store
 * may come back as a SIGTRAP: a debug exception that no perf watchpoint
 * claimed, which some kernels and hypervisors deliver now and then. A trap
 * is taken after the store, so the program counts it and goes on; the
 * metric line then says sigtraps=N and stderr says why.
 */
#define PROG "falseshare"
#include "workloads/harness.h"
#include <getopt.h>
#include <stddef.h>

#define CACHELINE 64
#define MAX_THREADS 8                 /* words of one 64-byte line */
#define FS_MARK (~0UL)                /* the value stored, as lru_gen_use_mm() */

/* layout=packed: thread i writes bitmap_<'a'+i>; all eight share one line. */
struct fs_packed {
	unsigned long bitmap_a, bitmap_b, bitmap_c, bitmap_d;
	unsigned long bitmap_e, bitmap_f, bitmap_g, bitmap_h;
};

/* layout=padded: the same words, each on a cacheline of its own. */
struct fs_padded {
	alignas(CACHELINE) unsigned long bitmap_a;
	alignas(CACHELINE) unsigned long bitmap_b;
	alignas(CACHELINE) unsigned long bitmap_c;
	alignas(CACHELINE) unsigned long bitmap_d;
	alignas(CACHELINE) unsigned long bitmap_e;
	alignas(CACHELINE) unsigned long bitmap_f;
	alignas(CACHELINE) unsigned long bitmap_g;
	alignas(CACHELINE) unsigned long bitmap_h;
};

/* Everything the workers write: one object, line-aligned, nothing else in
 * its lines. layout=shared: every thread writes `bitmap`. */
struct fs_shared {
	alignas(CACHELINE) struct fs_packed packed;
	struct fs_padded padded;
	alignas(CACHELINE) unsigned long bitmap;
};

struct fs_shared fs_shared;

/* Which words the threads write, and how. */
enum layout { LAYOUT_PACKED, LAYOUT_PADDED, LAYOUT_SHARED };
enum store { STORE_ALWAYS, STORE_CHECK };
static const char *const layout_names[] = { "packed", "padded", "shared" };
static const char *const store_names[] = { "always", "check" };

/* One worker thread: its CPU and word, and what it measured. */
struct slot {
	int cpu;                       /* CPU the thread is pinned to */
	int err;                       /* errno of a failure, 0 if none */
	volatile unsigned long *word;  /* the word of fs_shared it writes */
	const char *field;             /* that word's name, for --verbose */
	unsigned long long ops;        /* loop iterations */
	struct stamp t0, t1;           /* just before / after the counted loop */
	pthread_t tid;
};

/* Start gate and stop flag, apart from fs_shared's lines; the workers are
 * threads of this process, so its futex is private. */
static struct gate gate = { .futex_flags = FUTEX_PRIVATE_FLAG };

/* Parsed command line. */
struct config {
	int threads;
	enum layout layout;
	enum store store;
	double seconds;
	bool verbose;
};

const char usage_text[] =
	"Usage: " PROG " [--threads N] [--layout packed|padded|shared]\n"
	"       [--store always|check] [--seconds S] [--verbose]\n"
	"\n"
	"Threads pinned to CPUs 0..N-1 store to words of the global struct\n"
	"fs_shared in a tight loop (as every context switch stores\n"
	"mm->lru_gen.bitmap in the mglru report); prints loop iterations per second.\n"
	"\n"
	"  --threads N     1 to 8 threads (default: online CPUs, at most 8)\n"
	"  --layout L      packed: thread i writes fs_shared.packed.bitmap_<a+i>,\n"
	"                          all in one 64-byte line: false sharing (default)\n"
	"                  padded: thread i writes fs_shared.padded.bitmap_<a+i>,\n"
	"                          each on its own line: no sharing\n"
	"                  shared: every thread writes fs_shared.bitmap: true\n"
	"                          sharing, the pattern of the mglru report\n"
	"  --store M       always: load the word, store ~0UL every iteration\n"
	"                          (default)\n"
	"                  check:  load the word, store ~0UL only if it differs\n"
	"                          (the mglru fix)\n"
	"  --seconds S     measure for S seconds, fractions allowed (default 5)\n"
	"  -v, --verbose   print fs_shared's address and each thread's field,\n"
	"                  offset and address on stderr\n"
	"  -h, --help      show this text\n"
	"\n"
	"Output, one line on stdout:\n"
	"  metric=falseshare_ops_per_sec value=V unit=ops/s better=higher per_thread=P\n"
	"  ops=O threads=N\n"
	"  layout=L store=M seconds=T start_ns=A end_ns=B start_raw_ns=C end_raw_ns=D\n"
	"V is iterations per second of all threads together, P = V / N; [A, B]\n"
	"is the measured interval on CLOCK_MONOTONIC, [C, D] the same on\n"
	"CLOCK_MONOTONIC_RAW, T = (B-A)/1e9.\n"
	"Exit status: 0 ok, 1 usage error, 2 CPU unavailable or run failed.\n";

/* Fills cfg from argv; exits 0 on --help and 1 on any usage error. */
static void parse_args(int argc, char **argv, struct config *cfg)
{
	static const struct option opts[] = {
		{ "threads", required_argument, NULL, 't' },
		{ "layout", required_argument, NULL, 'l' },
		{ "store", required_argument, NULL, 'm' },
		{ "seconds", required_argument, NULL, 's' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	int c, i;

	*cfg = (struct config){ .seconds = 5 };
	cfg->threads = online < 1 ? 1 : online > MAX_THREADS ? MAX_THREADS : (int)online;
	while ((c = getopt_long(argc, argv, "vh", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (!parse_int(optarg, 1, MAX_THREADS, &cfg->threads))
				usage_error("--threads wants a count from 1 to 8", optarg);
			break;
		case 'l':
			if ((i = lookup(optarg, layout_names, 3)) < 0)
				usage_error("--layout wants packed, padded or shared", optarg);
			cfg->layout = (enum layout)i;
			break;
		case 'm':
			if ((i = lookup(optarg, store_names, 2)) < 0)
				usage_error("--store wants always or check", optarg);
			cfg->store = (enum store)i;
			break;
		case 'v': cfg->verbose = true; break;
		default: common_option(c, &cfg->seconds);
		}
	}
	no_operands(argc, argv);
}

/* Points slot i at its word of fs_shared for the given layout. */
static void assign_word(struct slot *s, int i, enum layout layout)
{
	static unsigned long *const packed[MAX_THREADS] = {
		&fs_shared.packed.bitmap_a, &fs_shared.packed.bitmap_b,
		&fs_shared.packed.bitmap_c, &fs_shared.packed.bitmap_d,
		&fs_shared.packed.bitmap_e, &fs_shared.packed.bitmap_f,
		&fs_shared.packed.bitmap_g, &fs_shared.packed.bitmap_h,
	};
	static unsigned long *const padded[MAX_THREADS] = {
		&fs_shared.padded.bitmap_a, &fs_shared.padded.bitmap_b,
		&fs_shared.padded.bitmap_c, &fs_shared.padded.bitmap_d,
		&fs_shared.padded.bitmap_e, &fs_shared.padded.bitmap_f,
		&fs_shared.padded.bitmap_g, &fs_shared.padded.bitmap_h,
	};
	static const char *const names[MAX_THREADS] = {
		"bitmap_a", "bitmap_b", "bitmap_c", "bitmap_d",
		"bitmap_e", "bitmap_f", "bitmap_g", "bitmap_h",
	};
	s->cpu = i;
	s->field = layout == LAYOUT_SHARED ? "bitmap" : names[i];
	s->word = layout == LAYOUT_PACKED ? packed[i]
		: layout == LAYOUT_PADDED ? padded[i] : &fs_shared.bitmap;
}

/* Prints where fs_shared and each thread's word are (stderr, --verbose). */
static void print_layout(const struct slot *slots, int n, enum layout layout)
{
	const char *sub = layout == LAYOUT_PACKED ? "packed."
		: layout == LAYOUT_PADDED ? "padded." : "";
	fprintf(stderr, PROG ": fs_shared at %p, %zu bytes, struct fs_shared; "
		"packed at +%zu, padded at +%zu, bitmap at +%zu\n", (void *)&fs_shared,
		sizeof(fs_shared), offsetof(struct fs_shared, packed),
		offsetof(struct fs_shared, padded), offsetof(struct fs_shared, bitmap));
	for (int i = 0; i < n; i++) {
		size_t off = (size_t)((const char *)slots[i].word - (const char *)&fs_shared);
		fprintf(stderr, PROG ": thread %d cpu=%d field=fs_shared.%s%s offset=%zu "
			"line=%zu addr=%p\n", i, slots[i].cpu, sub, slots[i].field, off,
			off / CACHELINE, (const void *)slots[i].word);
	}
}

/* True once the main thread has raised the stop flag. */
static inline bool stopped(void)
{
	return gate_stopped(&gate);
}

/* Each iteration loads *word and stores FS_MARK to it, until stopped;
 * returns iterations. The load stands for the reads of the same line that
 * the code around such a store does (the switch path reads the mm); without
 * it the stores would just queue in the store buffer and the loop would not
 * notice the line moving. */
static unsigned long long loop_always(volatile unsigned long *word)
{
	unsigned long long n = 0;
	while (!stopped()) {
		(void)*word;
		*word = FS_MARK;
		n++;
	}
	return n;
}

/* Each iteration loads *word and stores FS_MARK only if it holds something
 * else (the same load as loop_always, minus the redundant store), until
 * stopped; returns iterations. */
static unsigned long long loop_check(volatile unsigned long *word)
{
	unsigned long long n = 0;
	while (!stopped()) {
		if (*word != FS_MARK)
			*word = FS_MARK;
		n++;
	}
	return n;
}

static enum store store_mode; /* set before the threads start */

/* SIGTRAPs taken: those the kernel says a hardware breakpoint raised
 * (TRAP_HWBKPT), and the rest (a #DB whose status named nothing comes as
 * TRAP_BRKPT). */
static atomic_ulong traps_hw, traps_other;

/* on_trap: counts the trap; returning resumes after the store. */
static void on_trap(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	atomic_fetch_add(si->si_code == TRAP_HWBKPT ? &traps_hw : &traps_other, 1);
}

/* catch_traps: on_trap as the SIGTRAP handler; false if it cannot be set. */
static bool catch_traps(void)
{
	struct sigaction sa = { .sa_sigaction = on_trap, .sa_flags = SA_SIGINFO | SA_RESTART };
	sigemptyset(&sa.sa_mask);
	return sigaction(SIGTRAP, &sa, NULL) == 0;
}

/* report_traps: the traps taken, if any: sigtraps=N on the metric line
 * (before its interval) and a line on stderr. */
static void report_traps(void)
{
	unsigned long hw = atomic_load(&traps_hw), other = atomic_load(&traps_other);
	if (!hw && !other)
		return;
	printf("sigtraps=%lu ", hw + other);
	fprintf(stderr, PROG ": %lu SIGTRAP%s taken and ignored (%lu with si_code TRAP_HWBKPT, "
		"%lu other): debug exceptions that no perf watchpoint claimed\n",
		hw + other, hw + other == 1 ? "" : "s", hw, other);
}

/* Thread body: pin, wait at the gate, run the loop, record into the slot. */
static void *worker(void *arg)
{
	struct slot *s = arg;
	if (!worker_start(&gate, s->cpu, &s->err))
		return NULL;
	s->t0 = stamp_now();
	s->ops = store_mode == STORE_CHECK ? loop_check(s->word) : loop_always(s->word);
	s->t1 = stamp_now();
	return NULL;
}

/* Prints the metric line (stdout) and the human line (stderr). */
static void report(const struct config *cfg, const struct slot *slots)
{
	unsigned long long ops = 0;
	double total = 0;
	struct stamp t0 = slots[0].t0, t1 = slots[0].t1;
	for (int i = 0; i < cfg->threads; i++) {
		const struct slot *s = &slots[i];
		ops += s->ops;
		total += stamp_rate(s->ops, s->t0, s->t1);
		stamp_cover(&t0, &t1, s->t0, s->t1);
	}
	double secs = stamp_secs(t0, t1);
	const char *layout = layout_names[cfg->layout], *store = store_names[cfg->store];
	printf("metric=falseshare_ops_per_sec value=%.0f unit=ops/s better=higher per_thread=%.0f ops=%llu "
	       "threads=%d layout=%s store=%s seconds=%.6f ", total, total / cfg->threads,
	       ops, cfg->threads, layout, store, secs);
	report_traps();
	print_interval(t0, t1);
	fprintf(stderr, PROG ": %d thread%s, layout %s, store %s, %.3f s: %.0f ops/s, "
		"%.0f per thread\n", cfg->threads, cfg->threads == 1 ? "" : "s", layout,
		store, secs, total, total / cfg->threads);
}

int main(int argc, char **argv)
{
	struct config cfg;
	struct slot slots[MAX_THREADS] = { { 0 } };
	parse_args(argc, argv, &cfg);
	check_cpus(NULL, cfg.threads);

	store_mode = cfg.store;
	if (!catch_traps())
		fprintf(stderr, PROG ": sigaction(SIGTRAP): %s\n", strerror(errno));
	for (int i = 0; i < cfg.threads; i++)
		assign_word(&slots[i], i, cfg.layout);
	if (cfg.verbose)
		print_layout(slots, cfg.threads, cfg.layout);
	int started = 0;
	while (started < cfg.threads) {
		int err = pthread_create(&slots[started].tid, NULL, worker, &slots[started]);
		if (err) {
			fprintf(stderr, PROG ": pthread_create: %s\n", strerror(err));
			break;
		}
		started++;
	}
	bool ok = coordinate(&gate, (unsigned)started, started == cfg.threads, cfg.seconds,
			     NULL, 0, "threads");
	for (int i = 0; i < started; i++)
		pthread_join(slots[i].tid, NULL);
	if (!ok)
		return run_failed();
	report(&cfg, slots);
	return 0;
}
