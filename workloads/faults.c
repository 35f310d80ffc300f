/*
 * faults: the latency of huge-page-sized anonymous faults on memory that
 * was fragmented first with file pages: the idea of mmtests' thpscale
 * (how long a fault takes when a transparent huge page is hard to find,
 * and how often it gets one).
 *
 * A fragmenter thread first lays down --fragment bytes of page cache: page
 * by page it writes to a private anonymous mapping and then to a temporary
 * file (made in $TMPDIR or /tmp, unlinked at once), so that the two kinds
 * of page come from the allocator in turn; then it unmaps the anonymous
 * pages, leaving free single pages between cached file pages. The file
 * stays open, its pages cached, until the program exits.
 *
 * Then --threads N threads (not pinned), each with a region of its own
 * (aligned to the huge page size, the PMD size: 2 MiB on x86-64;
 * MADV_HUGEPAGE on it with --madvise, else the system's THP setting
 * decides), fault their region one huge-page-sized chunk at a time after
 * a common start gate (workloads/harness.h). A fault
 * is timed on CLOCK_MONOTONIC around the first store to the chunk (with
 * --fill, also the writing of the rest of the chunk, as thpscale times
 * it), and classified as huge (the chunk got a PMD-mapped huge page) or
 * base (anything else: a base page, or an mTHP folio smaller than the
 * chunk); see chunk_is_huge for how. The rest of the chunk is always
 * written before the next chunk, timed or not.
 *
 * Output on stdout, after the threads are joined (so no two threads' lines
 * mix): per fault a sample line of its kind and one of fault-both, then
 * the ratio of huge faults; on stderr the THP setting and a human line.
 * Exit 0 ok, 1 usage, 2 failed run.
 */
#define PROG "faults"
#include "workloads/harness.h"
#include <getopt.h>
#include <stdint.h>

#define MAX_THREADS 256
#define MAX_BYTES (1ULL << 40)             /* --size and --fragment: 1 TiB */
#define DEFAULT_SIZE (256ULL << 20)
#define DEFAULT_FRAGMENT (512ULL << 20)
#define FALLBACK_CHUNK (2UL << 20)          /* when sysfs does not say */
#define THP_DIR "/sys/kernel/mm/transparent_hugepage"

/* Parsed command line. */
struct config {
	int threads;
	unsigned long long size;     /* bytes to fault, all threads together */
	unsigned long long fragment; /* page cache to lay down first */
	bool madvise;                /* MADV_HUGEPAGE on the regions */
	bool fill;                   /* time the rest of the chunk too */
	bool hold;                   /* after the output, wait for stdin's end */
};

/* One timed fault. */
struct fault {
	long long ns; /* first store (and, with --fill, the rest of the chunk) */
	bool huge;    /* the chunk got a PMD-mapped huge page */
};

/* One faulting thread: its region and what it measured. */
struct worker {
	pthread_t tid;
	size_t nchunks;        /* chunks to fault */
	char *map;             /* the mapping, as mmap returned it */
	size_t maplen;
	char *region;          /* its first chunk-aligned byte */
	struct fault *faults;  /* nchunks of them */
	int err;               /* errno of a failure, 0 if none */
	const char *what;      /* the call that failed */
};

/* The fragmenter's job and result. */
struct frag {
	size_t bytes;   /* page cache to lay down (whole pages) */
	int fd;         /* the unlinked file holding it, -1 if none */
	double secs;    /* how long it took */
	int err;        /* errno of a failure, 0 if none */
	const char *what;
};

/* Set in main before any thread starts, read-only after. */
static size_t page_size, chunk_size;
static struct config cfg;
static struct gate gate = { .futex_flags = FUTEX_PRIVATE_FLAG };

const char usage_text[] =
	"Usage: " PROG " [--threads N] [--size BYTES] [--fragment BYTES] [--madvise]\n"
	"       [--fill] [--hold]\n"
	"\n"
	"A thread first fills --fragment bytes of page cache of a temporary file,\n"
	"each file page allocated right after an anonymous page that is freed\n"
	"afterwards, so free memory is left in single pages between file pages.\n"
	"Then N threads fault --size bytes of anonymous memory, each its own\n"
	"region, one huge-page-sized (PMD-sized, aligned) chunk at a time, timing\n"
	"each fault and telling whether the chunk got a huge page (the idea of\n"
	"mmtests' thpscale).\n"
	"\n"
	"  --threads N       1 to 256 faulting threads, not pinned (default 1)\n"
	"  --size BYTES      anonymous memory to fault in all, with an optional\n"
	"                    suffix K, M or G (powers of 1024; default 256M); each\n"
	"                    thread faults BYTES / N / HUGE chunks, rounded down,\n"
	"                    at least one; HUGE is the PMD size (2M on x86-64)\n"
	"  --fragment BYTES  page cache to lay down first, in whole pages; 0 for\n"
	"                    none (default 512M)\n"
	"  --madvise         madvise(MADV_HUGEPAGE) on the regions (default: the\n"
	"                    system's THP setting alone decides)\n"
	"  --fill            time the writing of the whole chunk after its first\n"
	"                    store, as thpscale does (for a base chunk, the faults\n"
	"                    of its other pages); default: the first store alone\n"
	"  --hold            after the output, wait until stdin ends (EOF) before\n"
	"                    unmapping: for a look at /proc/PID/smaps\n"
	"  -h, --help        show this text\n"
	"\n"
	"Output on stdout, per fault, thread by thread, two lines:\n"
	"  metric=fault-KIND-N sample=USEC unit=us better=lower\n"
	"  metric=fault-both-N sample=USEC unit=us better=lower\n"
	"then one line:\n"
	"  metric=faults_huge_ratio value=R unit=fraction better=higher faults=F\n"
	"  huge=H threads=N madvise=yes|no fill=yes|no thp=E defrag=D\n"
	"KIND is huge (the chunk got a PMD-mapped huge page) or base (anything\n"
	"else), USEC the fault's time in microseconds, R = H / F. On stderr the\n"
	"THP setting (E and D: the selected words of " THP_DIR "/\n"
	"enabled and defrag, \"absent\" without THP) and a summary.\n"
	"Exit status: 0 ok, 1 usage error, 2 run failed.\n";

/* --- command line ---------------------------------------------------------- */

/* Parses s, a decimal count of bytes with an optional suffix K, M or G (or
 * k, m, g: powers of 1024), into *out; false (and *out untouched) unless it
 * is all that and at most MAX_BYTES. */
static bool parse_bytes(const char *s, unsigned long long *out)
{
	char *end;
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	int shift = 0;
	switch (*end) {
	case 'K': case 'k': shift = 10; end++; break;
	case 'M': case 'm': shift = 20; end++; break;
	case 'G': case 'g': shift = 30; end++; break;
	}
	if (errno || *end || v > (MAX_BYTES >> shift))
		return false;
	*out = v << shift;
	return true;
}

/* Fills cfg from argv; exits 0 on --help and 1 on any usage error. */
static void parse_args(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "threads", required_argument, NULL, 't' },
		{ "size", required_argument, NULL, 'S' },
		{ "fragment", required_argument, NULL, 'f' },
		{ "madvise", no_argument, NULL, 'm' },
		{ "fill", no_argument, NULL, 'F' },
		{ "hold", no_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	cfg = (struct config){ .threads = 1, .size = DEFAULT_SIZE, .fragment = DEFAULT_FRAGMENT };
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (!parse_int(optarg, 1, MAX_THREADS, &cfg.threads))
				usage_error("--threads wants a count from 1 to 256", optarg);
			break;
		case 'S':
			if (!parse_bytes(optarg, &cfg.size) || !cfg.size)
				usage_error("--size wants bytes (K, M, G allowed), more than 0", optarg);
			break;
		case 'f':
			if (!parse_bytes(optarg, &cfg.fragment))
				usage_error("--fragment wants bytes (K, M, G allowed)", optarg);
			break;
		case 'm': cfg.madvise = true; break;
		case 'F': cfg.fill = true; break;
		case 'H': cfg.hold = true; break;
		case 'h': usage(stdout, 0); break;
		default: usage(stderr, 1);
		}
	}
	no_operands(argc, argv);
}

/* --- the system's THP setting ---------------------------------------------- */

/* Reads the first line of THP_DIR/name into buf (len bytes, newline cut);
 * false if it cannot be read. */
static bool read_thp_file(const char *name, char *buf, size_t len)
{
	char path[128];
	snprintf(path, sizeof(path), THP_DIR "/%s", name);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	bool ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return ok;
}

/* The selected word of THP_DIR/name ("always [madvise] never" gives
 * "madvise") into buf; "absent" when the file cannot be read, "unknown"
 * when no word is in brackets. */
static void thp_mode(const char *name, char *buf, size_t len)
{
	char line[256], *open, *close;
	if (!read_thp_file(name, line, sizeof(line))) {
		snprintf(buf, len, "absent");
		return;
	}
	open = strchr(line, '[');
	close = open ? strchr(open, ']') : NULL;
	if (!close) {
		snprintf(buf, len, "unknown");
		return;
	}
	*close = 0;
	snprintf(buf, len, "%s", open + 1);
}

/* The huge page size, from THP_DIR/hpage_pmd_size; FALLBACK_CHUNK when it
 * cannot be read or makes no sense. */
static size_t pmd_size(void)
{
	char line[64];
	if (!read_thp_file("hpage_pmd_size", line, sizeof(line)))
		return FALLBACK_CHUNK;
	unsigned long long v = strtoull(line, NULL, 10);
	return v >= page_size && v % page_size == 0 && v <= (1ULL << 30) ? (size_t)v : FALLBACK_CHUNK;
}

/* --- the fragmenter ---------------------------------------------------------- */

/* Opens a new file in $TMPDIR (or /tmp when unset or empty) and unlinks it
 * at once; returns its descriptor, or -1 with errno set. */
static int open_unlinked_tmpfile(void)
{
	const char *dir = getenv("TMPDIR");
	char path[PATH_MAX];
	if (!dir || !*dir)
		dir = "/tmp";
	if ((size_t)snprintf(path, sizeof(path), "%s/perfdb-faults-XXXXXX", dir) >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	int fd = mkstemp(path);
	if (fd >= 0)
		unlink(path);
	return fd;
}

/* Writes fr->bytes of fr->fd page by page, each page of the file right
 * after the first store to a page of a private anonymous mapping of the
 * same size (MADV_NOHUGEPAGE: base pages), then unmaps that mapping, so
 * each freed anonymous page sits between cached file pages. Sets fr->err
 * and fr->what on a failure. */
static void lay_down(struct frag *fr)
{
	char *anon = mmap(NULL, fr->bytes, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *page = malloc(page_size);
	if (anon == MAP_FAILED || !page) {
		fr->err = errno;
		fr->what = anon == MAP_FAILED ? "mmap" : "malloc";
		goto out;
	}
	memset(page, 0x5a, page_size);
	madvise(anon, fr->bytes, MADV_NOHUGEPAGE); /* fails only without THP: fine */
	for (size_t off = 0; off < fr->bytes; off += page_size) {
		anon[off] = 1;
		ssize_t n = pwrite(fr->fd, page, page_size, (off_t)off);
		if (n != (ssize_t)page_size) {
			fr->err = n < 0 ? errno : ENOSPC; /* a short write: the disk is full */
			fr->what = "pwrite";
			break;
		}
	}
out:
	if (anon != MAP_FAILED)
		munmap(anon, fr->bytes);
	free(page);
}

/* Thread body of the fragmenter (arg: its struct frag): makes the file and
 * lays the page cache down, timing it. */
static void *fragmenter(void *arg)
{
	struct frag *fr = arg;
	struct stamp t0 = stamp_now();
	errno = 0;
	fr->fd = open_unlinked_tmpfile();
	if (fr->fd < 0) {
		fr->err = errno;
		fr->what = "cannot make a file in $TMPDIR or /tmp";
		return NULL;
	}
	lay_down(fr);
	fr->secs = stamp_secs(t0, stamp_now());
	return NULL;
}

/* Runs the fragmenter on a thread of its own for bytes (rounded down to
 * whole pages; nothing for 0) and waits for it. Returns its result; fd -1
 * when no file was made. */
static struct frag fragment(unsigned long long bytes)
{
	struct frag fr = { .bytes = (size_t)(bytes / page_size * page_size), .fd = -1 };
	pthread_t tid;
	if (!fr.bytes)
		return fr;
	int err = pthread_create(&tid, NULL, fragmenter, &fr);
	if (err) {
		fr.err = err;
		fr.what = "pthread_create";
		return fr;
	}
	pthread_join(tid, NULL);
	return fr;
}

/* --- the faulting threads ---------------------------------------------------- */

/* Nanoseconds on CLOCK_MONOTONIC. */
static inline long long now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* Maps w's region (w->nchunks chunks, chunk-aligned: one chunk more is
 * mapped than used), madvises it with --madvise, and allocates its fault
 * records. False, with w->err and w->what, on a failure. */
static bool prepare(struct worker *w)
{
	size_t len = w->nchunks * chunk_size;
	w->maplen = len + chunk_size;
	w->map = mmap(NULL, w->maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (w->map == MAP_FAILED) {
		w->map = NULL;
		w->err = errno, w->what = "mmap";
		return false;
	}
	uintptr_t a = ((uintptr_t)w->map + chunk_size - 1) & ~(uintptr_t)(chunk_size - 1);
	w->region = (char *)a;
	if (cfg.madvise && madvise(w->region, len, MADV_HUGEPAGE)) {
		w->err = errno, w->what = "madvise(MADV_HUGEPAGE)";
		return false;
	}
	if (!(w->faults = calloc(w->nchunks, sizeof(*w->faults)))) {
		w->err = errno, w->what = "calloc";
		return false;
	}
	return true;
}

/* Whether the chunk at c, of which only the first page has been written,
 * got a PMD-mapped huge page: mincore(2) on its last page. In a private
 * anonymous mapping that only this thread touches, that page is resident
 * exactly when the fault mapped one folio over the whole chunk, since
 * anonymous faults map no neighbours (no fault-around) and every smaller
 * folio (an mTHP size) ends before it. It works as any user and on any
 * kernel; /proc/self/pagemap has no THP flag in its entries (only the PFN,
 * which needs CAP_SYS_ADMIN, and then /proc/kpageflags, root only).
 * Returns 1 huge, 0 base, or -1 with errno set when it cannot tell (the
 * run then fails: no fault is reported under a guessed kind). */
static int chunk_is_huge(char *c)
{
	unsigned char vec = 0;
	if (mincore(c + chunk_size - page_size, page_size, &vec))
		return -1;
	return vec & 1;
}

/* Faults the chunk at c into *f: times its first store (with --fill, plus
 * the writing of the rest of the chunk), classifies it, writes the rest.
 * Returns 0, or the errno of chunk_is_huge. */
static int fault_chunk(char *c, struct fault *f)
{
	long long t0 = now_ns();
	*(volatile char *)c = 1;
	long long t1 = now_ns();
	int huge = chunk_is_huge(c);
	if (huge < 0)
		return errno;
	long long t2 = now_ns();
	memset(c, 2, chunk_size);
	long long t3 = now_ns();
	f->ns = t1 - t0 + (cfg.fill ? t3 - t2 : 0);
	f->huge = huge;
	return 0;
}

/* Thread body of a faulting thread (arg: its worker): prepares, waits at
 * the gate (counted failed if it could not prepare), faults its chunks in
 * order. */
static void *fault_worker(void *arg)
{
	struct worker *w = arg;
	bool ready = prepare(w);
	if (!ready)
		atomic_fetch_add(&gate.failed, 1);
	gate_wait(&gate);
	if (!ready || gate_stopped(&gate))
		return NULL;
	for (size_t i = 0; i < w->nchunks && !w->err; i++) {
		if ((w->err = fault_chunk(w->region + i * chunk_size, &w->faults[i])))
			w->what = "mincore";
	}
	return NULL;
}

/* Starts the n workers, opens the gate once all are ready (with the stop
 * flag up if one could not start or prepare), joins them. True if every
 * one ran to its end. */
static bool run_faults(struct worker *ws, int n)
{
	int started = 0;
	while (started < n) {
		int err = pthread_create(&ws[started].tid, NULL, fault_worker, &ws[started]);
		if (err) {
			fprintf(stderr, PROG ": pthread_create: %s\n", strerror(err));
			break;
		}
		started++;
	}
	bool ok = wait_ready(&gate, (unsigned)started, NULL, 0, "threads");
	ok = ok && started == n && !atomic_load(&gate.failed);
	open_gate(&gate, ok);
	for (int i = 0; i < started; i++)
		pthread_join(ws[i].tid, NULL);
	for (int i = 0; i < started; i++) {
		if (ws[i].err) {
			fprintf(stderr, PROG ": thread %d: %s: %s\n", i, ws[i].what, strerror(ws[i].err));
			ok = false;
		}
	}
	return ok;
}

/* --- results ----------------------------------------------------------------- */

/* Totals over all faults, for the ratio and the summary. */
struct totals {
	size_t faults, huge;
	long long huge_ns, base_ns; /* sums */
};

/* Prints the two sample lines of every fault, thread by thread, adding
 * them up into *t. */
static void print_samples(const struct worker *ws, struct totals *t)
{
	for (int i = 0; i < cfg.threads; i++) {
		for (size_t j = 0; j < ws[i].nchunks; j++) {
			const struct fault *f = &ws[i].faults[j];
			double us = (double)f->ns / 1e3;
			printf("metric=fault-%s-%d sample=%.3f unit=us better=lower\n",
			       f->huge ? "huge" : "base", cfg.threads, us);
			printf("metric=fault-both-%d sample=%.3f unit=us better=lower\n", cfg.threads, us);
			t->faults++;
			t->huge += f->huge;
			*(f->huge ? &t->huge_ns : &t->base_ns) += f->ns;
		}
	}
}

/* Mean in microseconds of sum_ns over n faults, into buf; "-" for none. */
static const char *mean_us(long long sum_ns, size_t n, char *buf, size_t len)
{
	if (n)
		snprintf(buf, len, "%.1f us", (double)sum_ns / 1e3 / (double)n);
	else
		snprintf(buf, len, "-");
	return buf;
}

/* Prints every result line (stdout) and the summary (stderr); thp and
 * defrag are the THP setting's words. */
static void report(const struct worker *ws, const struct frag *fr, const char *thp,
		   const char *defrag)
{
	struct totals t = { 0 };
	char hm[32], bm[32];
	print_samples(ws, &t);
	printf("metric=faults_huge_ratio value=%.6f unit=fraction better=higher faults=%zu huge=%zu "
	       "threads=%d madvise=%s fill=%s thp=%s defrag=%s\n",
	       (double)t.huge / (double)t.faults, t.faults, t.huge, cfg.threads,
	       cfg.madvise ? "yes" : "no", cfg.fill ? "yes" : "no", thp, defrag);
	fprintf(stderr, PROG ": %d thread%s, %zu faults of %zu KiB (%s timed): %zu huge (mean %s), "
		"%zu base (mean %s); page cache laid down first: %.1f MiB in %.2f s\n",
		cfg.threads, cfg.threads == 1 ? "" : "s", t.faults, chunk_size >> 10,
		cfg.fill ? "whole chunk" : "first store", t.huge,
		mean_us(t.huge_ns, t.huge, hm, sizeof(hm)), t.faults - t.huge,
		mean_us(t.base_ns, t.faults - t.huge, bm, sizeof(bm)), (double)fr->bytes / (1 << 20),
		fr->secs);
}

/* Reads stdin to its end (--hold), whatever it holds. */
static void wait_for_eof(void)
{
	char buf[512];
	ssize_t n;
	while ((n = read(STDIN_FILENO, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		;
}

/* Unmaps the regions and frees the records of the n workers. */
static void release(struct worker *ws, int n)
{
	for (int i = 0; i < n; i++) {
		if (ws[i].map)
			munmap(ws[i].map, ws[i].maplen);
		free(ws[i].faults);
	}
	free(ws);
}

/* Exits 1 with a usage error unless every thread gets at least one chunk. */
static size_t chunks_per_thread(void)
{
	unsigned long long per = cfg.size / (unsigned long long)cfg.threads / chunk_size;
	if (!per) {
		char msg[96];
		snprintf(msg, sizeof(msg), "--size gives less than one %zu KiB chunk per thread",
			 chunk_size >> 10);
		usage_error(msg, NULL);
	}
	return (size_t)per;
}

int main(int argc, char **argv)
{
	char thp[32], defrag[32];
	parse_args(argc, argv);
	page_size = (size_t)sysconf(_SC_PAGESIZE);
	chunk_size = pmd_size();
	size_t per = chunks_per_thread();
	thp_mode("enabled", thp, sizeof(thp));
	thp_mode("defrag", defrag, sizeof(defrag));
	fprintf(stderr, PROG ": THP enabled=%s defrag=%s, huge page %zu KiB\n", thp, defrag,
		chunk_size >> 10);

	struct frag fr = fragment(cfg.fragment);
	if (fr.err) {
		fprintf(stderr, PROG ": fragmenter: %s: %s\n", fr.what, strerror(fr.err));
		return run_failed();
	}
	struct worker *ws = calloc((size_t)cfg.threads, sizeof(*ws));
	if (!ws)
		return run_failed();
	for (int i = 0; i < cfg.threads; i++)
		ws[i].nchunks = per;
	if (!run_faults(ws, cfg.threads))
		return run_failed();
	report(ws, &fr, thp, defrag);
	fflush(stdout);
	if (cfg.hold)
		wait_for_eof();
	release(ws, cfg.threads);
	if (fr.fd >= 0)
		close(fr.fd);
	return 0;
}
