/*
 * falseshare: cacheline sharing between CPUs, the mechanism of seed 000.
 *
 * Threads pinned to CPUs 0..N-1 each store to a word of the global
 * `fs_shared` in a tight loop, as context_switch() stores
 * mm->lru_gen.bitmap = -1 on every switch. The layout decides whether the
 * words share a cacheline: `packed` puts every thread's word in one 64-byte
 * line (false sharing), `padded` gives each its own line (no sharing),
 * `shared` makes all threads store to one word (true sharing, exactly the
 * seed's pattern). The store mode decides whether the line is written at
 * all once the value is set: `always` stores every iteration, `check` loads
 * and stores only if the value differs (the seed's fix). One iteration is
 * one op. The struct and its fields have stable names for DWARF-based field
 * attribution and for hardware watchpoints (--verbose prints the addresses).
 *
 * The main thread opens a start gate once every worker is pinned, sleeps
 * until the deadline and raises a stop flag. Output: one metric line on
 * stdout, one human line on stderr. Exit 0 ok, 1 usage, 2 CPU unavailable
 * or failed run.
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
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define PROG "falseshare"
#define CACHELINE 64
#define MAX_THREADS 8                 /* words of one 64-byte line */
#define FS_MARK (~0UL)                /* the value stored, as lru_gen_use_mm() */
#define READY_TIMEOUT_NS (10 * 1000000000LL)

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

/* A moment on both clocks a tool may want to align with perf's timestamps. */
struct stamp {
	long long mono; /* CLOCK_MONOTONIC, ns */
	long long raw;  /* CLOCK_MONOTONIC_RAW, ns */
};

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

/* Start gate and stop flag, apart from fs_shared's lines. */
static struct {
	alignas(CACHELINE) atomic_uint ready; /* threads pinned and waiting */
	atomic_uint go;                       /* 0 until the gate opens (futex word) */
	alignas(CACHELINE) atomic_uint stop;  /* read every iteration, written once */
} gate;

/* Parsed command line. */
struct config {
	int threads;
	enum layout layout;
	enum store store;
	double seconds;
	bool verbose;
};

static const char usage_text[] =
	"Usage: " PROG " [--threads N] [--layout packed|padded|shared]\n"
	"       [--store always|check] [--seconds S] [--verbose]\n"
	"\n"
	"Threads pinned to CPUs 0..N-1 store to words of the global struct\n"
	"fs_shared in a tight loop (as every context switch stores\n"
	"mm->lru_gen.bitmap in seed 000); prints loop iterations per second.\n"
	"\n"
	"  --threads N     1 to 8 threads (default: online CPUs, at most 8)\n"
	"  --layout L      packed: thread i writes fs_shared.packed.bitmap_<a+i>,\n"
	"                          all in one 64-byte line: false sharing (default)\n"
	"                  padded: thread i writes fs_shared.padded.bitmap_<a+i>,\n"
	"                          each on its own line: no sharing\n"
	"                  shared: every thread writes fs_shared.bitmap: true\n"
	"                          sharing, the pattern of seed 000\n"
	"  --store M       always: load the word, store ~0UL every iteration\n"
	"                          (default)\n"
	"                  check:  load the word, store ~0UL only if it differs\n"
	"                          (seed 000's fix)\n"
	"  --seconds S     measure for S seconds, fractions allowed (default 5)\n"
	"  -v, --verbose   print fs_shared's address and each thread's field,\n"
	"                  offset and address on stderr\n"
	"  -h, --help      show this text\n"
	"\n"
	"Output, one line on stdout:\n"
	"  metric=falseshare_ops_per_sec value=V per_thread=P ops=O threads=N\n"
	"  layout=L store=M seconds=T start_ns=A end_ns=B start_raw_ns=C end_raw_ns=D\n"
	"V is iterations per second of all threads together, P = V / N; [A, B]\n"
	"is the measured interval on CLOCK_MONOTONIC, [C, D] the same on\n"
	"CLOCK_MONOTONIC_RAW, T = (B-A)/1e9.\n"
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

/* Returns the index of s in names[0..n-1], or -1. */
static int lookup(const char *s, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

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
		case 's':
			if (!parse_seconds(optarg, &cfg->seconds))
				usage_error("--seconds wants a number > 0", optarg);
			break;
		case 'v': cfg->verbose = true; break;
		case 'h': usage(stdout, 0); break;
		default: usage(stderr, 1);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument", argv[optind]);
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

/* Returns the current time on both clocks. */
static struct stamp stamp_now(void)
{
	struct timespec m, r;
	clock_gettime(CLOCK_MONOTONIC, &m);
	clock_gettime(CLOCK_MONOTONIC_RAW, &r);
	return (struct stamp){ m.tv_sec * 1000000000LL + m.tv_nsec,
			       r.tv_sec * 1000000000LL + r.tv_nsec };
}

/* futex(2) on a word of this process's memory. */
static void futex(atomic_uint *word, int op, unsigned val)
{
	syscall(SYS_futex, (void *)word, op, val, NULL, NULL, 0);
}

/* True once the main thread has raised the stop flag. */
static inline bool stopped(void)
{
	return atomic_load_explicit(&gate.stop, memory_order_relaxed);
}

/* Pins the calling thread to one CPU; returns 0 or an errno value. */
static int pin_self(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
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

/* Thread body: pin, wait at the gate, run the loop, record into the slot. */
static void *worker(void *arg)
{
	struct slot *s = arg;
	s->err = pin_self(s->cpu);
	if (s->err)
		fprintf(stderr, PROG ": cannot pin to CPU %d: %s\n", s->cpu, strerror(s->err));
	atomic_fetch_add(&gate.ready, 1);
	while (!atomic_load(&gate.go))
		futex(&gate.go, FUTEX_WAIT_PRIVATE, 0);
	if (s->err || stopped())
		return NULL;
	s->t0 = stamp_now();
	s->ops = store_mode == STORE_CHECK ? loop_check(s->word) : loop_always(s->word);
	s->t1 = stamp_now();
	return NULL;
}

/* Waits until n threads are at the gate; false after 10 s. */
static bool wait_ready(unsigned n)
{
	long long give_up = stamp_now().mono + READY_TIMEOUT_NS;
	const struct timespec poll = { 0, 1000000 };
	while (atomic_load(&gate.ready) < n) {
		if (stamp_now().mono > give_up) {
			fprintf(stderr, PROG ": threads not ready after 10 s\n");
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

/* Opens the gate once the n started threads are pinned, stops them after
 * the given time. With ok false (a thread failed to start), or on a failure
 * found here, releases them with the stop flag up and returns false. */
static bool coordinate(const struct slot *slots, unsigned n, bool ok, double seconds)
{
	ok = ok && wait_ready(n);
	for (unsigned i = 0; ok && i < n; i++)
		ok = !slots[i].err;
	long long deadline = stamp_now().mono + (long long)(seconds * 1e9);
	if (!ok)
		atomic_store(&gate.stop, 1);
	atomic_store(&gate.go, 1);
	futex(&gate.go, FUTEX_WAKE_PRIVATE, INT_MAX);
	if (ok) {
		sleep_until(deadline);
		atomic_store(&gate.stop, 1);
	}
	return ok;
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
		total += (double)s->ops * 1e9 / (double)(s->t1.mono - s->t0.mono);
		if (s->t0.mono < t0.mono) t0 = s->t0;
		if (s->t1.mono > t1.mono) t1 = s->t1;
	}
	double secs = (double)(t1.mono - t0.mono) / 1e9;
	const char *layout = layout_names[cfg->layout], *store = store_names[cfg->store];
	printf("metric=falseshare_ops_per_sec value=%.0f per_thread=%.0f ops=%llu "
	       "threads=%d layout=%s store=%s seconds=%.6f start_ns=%lld end_ns=%lld "
	       "start_raw_ns=%lld end_raw_ns=%lld\n", total, total / cfg->threads, ops,
	       cfg->threads, layout, store, secs, t0.mono, t1.mono, t0.raw, t1.raw);
	fprintf(stderr, PROG ": %d thread%s, layout %s, store %s, %.3f s: %.0f ops/s, "
		"%.0f per thread\n", cfg->threads, cfg->threads == 1 ? "" : "s", layout,
		store, secs, total, total / cfg->threads);
}

int main(int argc, char **argv)
{
	struct config cfg;
	struct slot slots[MAX_THREADS] = { { 0 } };
	parse_args(argc, argv, &cfg);
	check_cpus(cfg.threads);

	store_mode = cfg.store;
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
	bool ok = coordinate(slots, (unsigned)started, started == cfg.threads, cfg.seconds);
	for (int i = 0; i < started; i++)
		pthread_join(slots[i].tid, NULL);
	if (!ok) {
		fprintf(stderr, PROG ": run failed\n");
		return 2;
	}
	report(&cfg, slots);
	return 0;
}
