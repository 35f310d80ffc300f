/* Tests for the parse room's formats of benchmark tools (collect/parse/
 * fmt_perf_bench.c, fmt_hackbench.c, fmt_stress_ng.c, fmt_fio.c): each
 * fixture of
 * tests/fixtures/parse/FORMAT/ (real outputs, see each SOURCES) through
 * parser_new, parser_argv, parser_line and parser_end, with the values
 * expected worked out by hand from the fixture's text; then malformed,
 * truncated and hostile outputs, which must fail with the reason naming
 * what is wrong, and never crash. Run from the repository's root. */
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "collect/parse/parse_int.h"
#include "tap.h"

#define FIX "tests/fixtures/parse/"
#define ARGV(...) ((char *[]){ __VA_ARGS__, NULL })
#define GIB 1073741824.0	/* 1024^3: perf's GB */
#define MIB 1048576.0		/* 1024^2: perf's MB */

/* feed(p, text): text's lines to p, one parser_line each (each with its
 * newline, the last one's when it has one). How many returned 1. */
static int feed(struct parser *p, const char *text)
{
	int shown = 0;
	while (*text) {
		size_t n = strcspn(text, "\n");
		char *line = malloc(n + 2);
		memcpy(line, text, n + (text[n] == '\n'));
		line[n + (text[n] == '\n')] = 0;
		shown += parser_line(p, line);
		free(line);
		text += n + (text[n] == '\n');
	}
	return shown;
}

/* slurp(path): the file's text, malloc'd ("" when it cannot be read,
 * which fails a check). */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 1 << 20);
	size_t n = f ? fread(buf, 1, (1 << 20) - 1, f) : 0;
	ok(f && n > 0, "fixture %s read (%zu bytes)", path, n);
	if (f)
		fclose(f);
	return buf;
}

/* run_text(fmt, text, argv, r): a parser of fmt for argv over text; 0,
 * or -1 with why in r->error (parser_new's reason too). */
static int run_text(const char *fmt, const char *text, char *const argv[], struct parse_result *r)
{
	char err[256];
	struct parser *p = parser_new(fmt, argv, err, sizeof(err));
	int rc, shown;
	memset(r, 0, sizeof(*r));
	if (!p) {
		snprintf(r->error, sizeof(r->error), "parser_new: %.200s", err);
		return -1;
	}
	parser_argv(p, argv);
	shown = feed(p, text);
	rc = parser_end(p, NULL, r);
	parser_free(p);
	if (shown)
		printf("# %s: %d lines were taken as result lines (none should)\n", fmt, shown);
	return shown ? -1 : rc;
}

/* run_file(fmt, path, argv, r): run_text over the file at path. */
static int run_file(const char *fmt, const char *path, char *const argv[], struct parse_result *r)
{
	char *text = slurp(path);
	int rc = run_text(fmt, text, argv, r);
	free(text);
	return rc;
}

/* metric(r, name): r's metric of that name, or NULL. */
static const struct metric *metric(const struct parse_result *r, const char *name)
{
	for (size_t i = 0; i < r->nmetrics; i++)
		if (!strcmp(r->metrics[i].name, name))
			return &r->metrics[i];
	return NULL;
}

/* is_metric(r, name, want, unit, better): r has the metric, of exactly
 * that value, unit and better=. */
static void is_metric(const struct parse_result *r, const char *name, double want, const char *unit,
		      enum metric_better better)
{
	const struct metric *m = metric(r, name);
	if (!ok(m && m->value == want && !strcmp(m->unit, unit) && m->better == better,
		"%s = %.17g %s %s", name, want, unit, metric_better_name(better)))
		printf("#   got %s\n", m ? "another value, unit or better" : "no such metric");
	if (m && m->value != want)
		printf("#   got %.17g\n", m->value);
}

/* fails(rc, r, why, what): the run failed with a reason containing why. */
static void fails(int rc, struct parse_result *r, const char *why, const char *what)
{
	if (!ok(rc == -1 && strstr(r->error, why) && !r->nmetrics, "%s fails: %s", what, why))
		printf("#   got rc %d, '%s'\n", rc, r->error);
	parse_result_free(r);
}

/* ---- parse_number ---- */

static void test_number(void)
{
	const char *end;
	double v;
	ok(!parse_number(" 12.5e2x", &end, &v) && v == 1250 && *end == 'x', "' 12.5e2x' is 1250, x after");
	ok(!parse_number(".5", &end, &v) && v == 0.5 && !*end, "'.5' is 0.5");
	ok(!parse_number("-3.", &end, &v) && v == -3 && !*end, "'-3.' is -3");
	ok(!parse_number("1e", &end, &v) && v == 1 && *end == 'e', "'1e' is 1, the e not taken");
	ok(!parse_number("0x10", &end, &v) && v == 0 && *end == 'x', "'0x10' is 0 then x: no hex");
	ok(parse_number("1e999", &end, &v) == -1, "'1e999' is not finite");
	ok(parse_number("inf", &end, &v) == -1 && parse_number("nan", &end, &v) == -1, "inf and nan are none");
	ok(parse_number(".", &end, &v) == -1 && parse_number("-", &end, &v) == -1 &&
	   parse_number("", &end, &v) == -1, "'.', '-' and '' are none");
	char *big = malloc(4097);
	memset(big, '1', 4096);
	big[4096] = 0;
	ok(parse_number(big, &end, &v) == -1, "4096 digits are refused, not read");
	free(big);
}

/* ---- perf-bench ---- */

static void test_perf_bench_sched(void)
{
	struct parse_result r;
	/* "Total time: 0.138 [sec]", "6.934250 usecs/op", "144211 ops/sec" */
	ok(!run_file("perf-bench", FIX "perf-bench/sched_pipe.txt",
		     ARGV("perf", "bench", "sched", "pipe", "-l", "20000"), &r), "sched pipe: %s", r.error);
	is_int(r.nmetrics, 3, "sched pipe: three metrics");
	is_metric(&r, "seconds", 0.138, "s", BETTER_LOWER);
	is_metric(&r, "usecs_per_op", 6.934250, "us", BETTER_LOWER);
	is_metric(&r, "ops_per_sec", 144211, "ops/s", BETTER_HIGHER);
	ok(r.nmetrics && strstr(r.metrics[0].line, "Total time: 0.138 [sec]"), "seconds' line is perf's");
	parse_result_free(&r);
	/* the same from the header alone, the command being a script */
	ok(!run_file("perf-bench", FIX "perf-bench/sched_pipe.txt", ARGV("./pipe.sh"), &r) && r.nmetrics == 3 &&
	   metric(&r, "ops_per_sec") && metric(&r, "ops_per_sec")->value == 144211,
	   "sched pipe read by its header when the command is not perf bench: %s", r.error);
	parse_result_free(&r);
	/* --format=simple: "0.040", the seconds */
	ok(!run_file("perf-bench", FIX "perf-bench/sched_pipe_simple.txt",
		     ARGV("/usr/bin/perf", "bench", "--format=simple", "sched", "pipe", "-l", "20000"), &r),
	   "sched pipe --format=simple: %s", r.error);
	is_int(r.nmetrics, 1, "simple sched pipe: one metric");
	is_metric(&r, "seconds", 0.040, "s", BETTER_LOWER);
	parse_result_free(&r);
	fails(run_file("perf-bench", FIX "perf-bench/sched_pipe_simple.txt", ARGV("sh", "pipe.sh"), &r), &r,
	      "perf-bench: no \"# Running", "a bare number with no perf bench command");
	/* "Total time: 0.057 [sec]"; simple "0.061" */
	ok(!run_file("perf-bench", FIX "perf-bench/sched_messaging.txt", ARGV("perf", "bench", "sched",
		     "messaging", "-g", "2", "-l", "50"), &r), "sched messaging: %s", r.error);
	is_int(r.nmetrics, 1, "sched messaging: one metric");
	is_metric(&r, "seconds", 0.057, "s", BETTER_LOWER);
	parse_result_free(&r);
	ok(!run_file("perf-bench", FIX "perf-bench/sched_messaging_simple.txt", ARGV("perf", "bench", "-f",
		     "simple", "sched", "messaging", "-g", "2", "-l", "50"), &r), "simple messaging: %s", r.error);
	is_metric(&r, "seconds", 0.061, "s", BETTER_LOWER);
	parse_result_free(&r);
	ok(!run_file("perf-bench", FIX "perf-bench/sched_messaging_simple.txt",
		     ARGV("taskset", "-c", "0", "perf_6.1", "--no-pager", "bench", "-fsimple", "sched",
			  "messaging"), &r),
	   "simple messaging behind taskset, perf_6.1 --no-pager, -fsimple: %s", r.error);
	is_metric(&r, "seconds", 0.061, "s", BETTER_LOWER);
	parse_result_free(&r);
}

static void test_perf_bench_futex(void)
{
	struct parse_result r;
	/* "Averaged 3529216 operations/sec (+- 14.64%), total secs = 1"; the
	 * threads' "[ 3012608 ops/sec ]" are not it */
	ok(!run_file("perf-bench", FIX "perf-bench/futex_hash.txt",
		     ARGV("perf", "bench", "futex", "hash", "-r", "1", "-t", "2"), &r), "futex hash: %s", r.error);
	is_int(r.nmetrics, 1, "futex hash: one metric");
	is_metric(&r, "ops_per_sec", 3529216, "ops/s", BETTER_HIGHER);
	parse_result_free(&r);
	/* simple prints the same lines but the header: "Averaged 2997760 ..." */
	ok(!run_file("perf-bench", FIX "perf-bench/futex_hash_simple.txt",
		     ARGV("perf", "bench", "--format", "simple", "futex", "hash", "-r", "1", "-t", "2"), &r),
	   "futex hash --format simple: %s", r.error);
	is_metric(&r, "ops_per_sec", 2997760, "ops/s", BETTER_HIGHER);
	parse_result_free(&r);
	fails(run_text("perf-bench", "# Running 'futex/hash' benchmark:\nRun summary [PID 1]: 2 threads\n", NULL, &r),
	      &r, "futex/hash: no 'Averaged ... operations/sec' line", "futex hash cut before its result");
	fails(run_text("perf-bench", "# Running 'futex/hash' benchmark:\nAveraged 12x operations/sec (+- 1%)\n",
		       NULL, &r), &r, "'12x' in 'Averaged 12x", "futex hash with 12x operations/sec");
}

static void test_perf_bench_mem(void)
{
	struct parse_result r;
	char *const *memcpy_argv = ARGV("perf", "bench", "mem", "memcpy", "-s", "1MB", "-l", "10");
	/* four functions, GB/sec = 1024^3 bytes/sec:
	 *   28.722426 GB/sec = 28.722426 * 1073741824 = 30840470082.945024 B/s
	 *   16.195066 GB/sec = 17389319706.640384 B/s
	 *   31.400723 GB/sec = 33716269588.938752 B/s
	 *   29.682751 GB/sec = 31871611200.077824 B/s
	 * (doubles: the product by 2^30 is exact, so == holds) */
	ok(!run_file("perf-bench", FIX "perf-bench/mem_memcpy.txt", memcpy_argv, &r), "mem memcpy: %s", r.error);
	is_int(r.nmetrics, 4, "mem memcpy: a metric per function");
	is_metric(&r, "default.bytes_per_sec", 28.722426 * GIB, "B/s", BETTER_HIGHER);
	is_metric(&r, "x86-64-unrolled.bytes_per_sec", 16.195066 * GIB, "B/s", BETTER_HIGHER);
	is_metric(&r, "x86-64-movsq.bytes_per_sec", 31.400723 * GIB, "B/s", BETTER_HIGHER);
	is_metric(&r, "x86-64-movsb.bytes_per_sec", 29.682751 * GIB, "B/s", BETTER_HIGHER);
	ok(metric(&r, "default.bytes_per_sec") && fabs(metric(&r, "default.bytes_per_sec")->value -
	   30840470082.945024) < 1e-3, "28.722426 GB/sec is 30840470082.945024 B/s (MB and GB are 1024's)");
	parse_result_free(&r);
	/* simple: bytes/sec as they are */
	ok(!run_file("perf-bench", FIX "perf-bench/mem_memcpy_simple.txt",
		     ARGV("perf", "bench", "--format=simple", "mem", "memcpy", "-s", "1MB", "-l", "10"), &r),
	   "mem memcpy simple: %s", r.error);
	is_metric(&r, "default.bytes_per_sec", 32463653250.773994, "B/s", BETTER_HIGHER);
	is_metric(&r, "x86-64-movsb.bytes_per_sec", 5369052739.375319, "B/s", BETTER_HIGHER);
	parse_result_free(&r);
	/* one function: bytes_per_sec; 60.656056 GB/sec = 65128944206.086144 B/s */
	ok(!run_file("perf-bench", FIX "perf-bench/mem_memset.txt", NULL, &r), "mem memset: %s", r.error);
	is_int(r.nmetrics, 1, "mem memset -f default: one metric");
	is_metric(&r, "bytes_per_sec", 60.656056 * GIB, "B/s", BETTER_HIGHER);
	parse_result_free(&r);
	ok(!run_file("perf-bench", FIX "perf-bench/mem_memset_simple.txt",
		     ARGV("perf", "bench", "--format=simple", "mem", "memset", "-f", "default"), &r),
	   "mem memset simple: %s", r.error);
	is_metric(&r, "bytes_per_sec", 64329815950.920242, "B/s", BETTER_HIGHER);
	parse_result_free(&r);
	/* 198.433922 MB/sec = 198.433922 * 1048576 = 208073048.195072 B/s */
	ok(!run_file("perf-bench", FIX "perf-bench/mem_memset_mb.txt", NULL, &r), "mem memset in MB/sec: %s", r.error);
	is_metric(&r, "bytes_per_sec", 198.433922 * MIB, "B/s", BETTER_HIGHER);
	parse_result_free(&r);
	fails(run_file("perf-bench", FIX "perf-bench/mem_memset_inf.txt", NULL, &r), &r,
	      "'inf' in '            inf GB/sec' is not a number", "perf's own 'inf GB/sec'");
}

static void test_perf_bench_mem_units(void)
{
	struct parse_result r;
	const char *head = "# Running 'mem/memset' benchmark:\n# function 'default' (Default memset())\n";
	char text[512];
	/* perf prints KB/sec as "%14lfd KB/sec": 976.5625 KB/sec = 976.5625 * 1024 = 1000000 B/s */
	snprintf(text, sizeof(text), "%s      976.562500d KB/sec\n", head);
	ok(!run_text("perf-bench", text, NULL, &r), "KB/sec with perf's 'd': %s", r.error);
	is_metric(&r, "bytes_per_sec", 1000000, "B/s", BETTER_HIGHER);
	parse_result_free(&r);
	snprintf(text, sizeof(text), "%s      512.000000 bytes/sec\n", head);
	ok(!run_text("perf-bench", text, NULL, &r), "bytes/sec: %s", r.error);
	is_metric(&r, "bytes_per_sec", 512, "B/s", BETTER_HIGHER);
	parse_result_free(&r);
	/* --cycles: "%14lf cycles/byte" */
	snprintf(text, sizeof(text), "%s        3.250000 cycles/byte\n", head);
	ok(!run_text("perf-bench", text, NULL, &r), "cycles/byte: %s", r.error);
	is_metric(&r, "cycles_per_byte", 3.25, "cycles/B", BETTER_LOWER);
	parse_result_free(&r);
	/* simple with -c: the bare number is cycles/byte; clustered too */
	const char *simple = "# function 'default' (Default memset())\n2.500000\n";
	ok(!run_text("perf-bench", simple, ARGV("perf", "bench", "-f", "simple", "mem", "memset", "-l", "3", "-c"), &r),
	   "simple with -c: %s", r.error);
	is_metric(&r, "cycles_per_byte", 2.5, "cycles/B", BETTER_LOWER);
	parse_result_free(&r);
	ok(!run_text("perf-bench", simple, ARGV("perf", "bench", "-f", "simple", "mem", "memset", "-cl10"), &r) &&
	   metric(&r, "cycles_per_byte"), "simple with -cl10: cycles: %s", r.error);
	parse_result_free(&r);
	/* -f's value (a function named with a c) and -s's are not -c */
	ok(!run_text("perf-bench", simple, ARGV("perf", "bench", "-fsimple", "mem", "memset", "-fcx", "-s", "-c"),
		     &r) &&
	   metric(&r, "bytes_per_sec") && metric(&r, "bytes_per_sec")->value == 2.5,
	   "simple with -fcx and -s -c (values, not -c): bytes: %s", r.error);
	parse_result_free(&r);
}

static void test_perf_bench_bad(void)
{
	struct parse_result r;
	char err[256], *big;
	struct parser *p;
	const char *pipe = "# Running 'sched/pipe' benchmark:\n     Total time: 0.138 [sec]\n";
	char text[512];
	p = parser_new("perf-bench", ARGV("perf", "bench", "sched", "all"), err, sizeof(err));
	ok(!p && strstr(err, "not 'sched/all'"), "perf bench sched all refused: %s", err);
	p = parser_new("perf-bench", ARGV("perf", "bench", "numa", "mem", "-p", "2"), err, sizeof(err));
	ok(!p && strstr(err, "not 'numa/mem'"), "perf bench numa mem refused: %s", err);
	ok(!parse_check("perf-bench", err, sizeof(err)), "parse_check perf-bench");
	fails(run_file("perf-bench", FIX "perf-bench/sched_pipe.txt", ARGV("perf", "bench", "sched", "messaging"), &r),
	      &r, "the output is of 'sched/pipe', the command runs 'sched/messaging'", "another benchmark's output");
	fails(run_text("perf-bench", "# Running 'numa/mem' benchmark:\n", NULL, &r), &r,
	      "the output is of 'numa/mem', which this format does not read", "numa mem's output");
	fails(run_text("perf-bench", pipe, NULL, &r), &r, "sched/pipe: no 'usecs/op' line", "sched pipe cut short");
	snprintf(text, sizeof(text), "%s  6.9 usecs/op\n", pipe);
	fails(run_text("perf-bench", text, NULL, &r), &r, "sched/pipe: no 'ops/sec' line", "sched pipe cut shorter");
	fails(run_text("perf-bench", "# Running 'sched/messaging' benchmark:\n", NULL, &r), &r,
	      "sched/messaging: no 'Total time:' line", "messaging without its time");
	fails(run_text("perf-bench", "     Total time: 0.1x [sec]\n", NULL, &r), &r, "'0.1x' in", "Total time 0.1x");
	fails(run_text("perf-bench", "     Total time: nan [sec]\n", NULL, &r), &r, "'nan' in", "Total time nan");
	fails(run_text("perf-bench", "     Total time: 1e999 [sec]\n", NULL, &r), &r, "'1e999' in", "a huge exponent");
	fails(run_text("perf-bench", "     Total time: 0.1 sec\n", NULL, &r), &r, "has no '[sec]'", "no [sec]");
	/* 0. and 70 zeros and a 1: too long to be read whole, so no number
	 * (cut to 63 bytes it would read 0) */
	snprintf(text, sizeof(text), "     Total time: 0.%070d1 [sec]\n", 0);
	fails(run_text("perf-bench", text, NULL, &r), &r, "is not a number", "a 73-byte Total time");
	snprintf(text, sizeof(text), "# Running 'futex/hash' benchmark:\nAveraged 1%070d operations/sec (+- 1%%)\n", 0);
	fails(run_text("perf-bench", text, NULL, &r), &r, "is not a number", "a 71-digit Averaged");
	snprintf(text, sizeof(text), "%s  -6.9 usecs/op\n", pipe);
	fails(run_text("perf-bench", text, NULL, &r), &r, "'-6.9' in", "a negative usecs/op");
	snprintf(text, sizeof(text), "%s  6.9 usecs/op\n  6.9 usecs/op\n", pipe);
	fails(run_text("perf-bench", text, NULL, &r), &r, "usecs_per_op printed twice", "two usecs/op lines");
	fails(run_text("perf-bench", "# Running 'mem/memcpy' benchmark:\n   1.0 GB/sec\n", NULL, &r), &r,
	      "comes before its '# function' line", "a rate before any function");
	fails(run_text("perf-bench", "# Running 'mem/memcpy' benchmark:\n# function 'a' (x)\n# function 'b' (y)\n"
		       "   1.0 GB/sec\n", NULL, &r), &r, "function 'a' printed no result", "a function without result");
	fails(run_text("perf-bench", "# Running 'mem/memcpy' benchmark:\n# function 'a' (x)\n"
		       "# Memory allocation failed - maybe size (1TB) is too large?\n", NULL, &r), &r,
	      "function 'a' printed no result", "memory allocation failed");
	fails(run_text("perf-bench", "", ARGV("perf", "bench", "mem", "memset"), &r), &r,
	      "mem/memset: no '# function' line", "no output at all");
	/* a line of 4 KB: a name, a number, a header longer than any buffer */
	big = malloc(4200);
	memset(big, '7', 4096);
	strcpy(big + 4096, " usecs/op\n");
	fails(run_text("perf-bench", big, ARGV("perf", "bench", "sched", "pipe"), &r), &r,
	      "sched/pipe: no 'Total time:' line", "a 4 KB number (ignored, never read)");
	memcpy(big, "# Running '", 11);
	fails(run_text("perf-bench", big, NULL, &r), &r, "which this format does not read", "a 4 KB header");
	memcpy(big, "     Total time: ", 17);
	fails(run_text("perf-bench", big, NULL, &r), &r, "has no '[sec]'", "a 4 KB Total time");
	free(big);
}

/* ---- hackbench ---- */

static void test_hackbench(void)
{
	struct parse_result r;
	char *big;
	/* "Time: 0.093" */
	ok(!run_file("hackbench", FIX "hackbench/process.txt", ARGV("hackbench", "-g", "2", "-l", "100"), &r),
	   "hackbench: %s", r.error);
	is_int(r.nmetrics, 1, "hackbench: one metric");
	is_metric(&r, "seconds", 0.093, "s", BETTER_LOWER);
	ok(r.nmetrics && !strcmp(r.metrics[0].line, "Time: 0.093"), "its line is hackbench's");
	parse_result_free(&r);
	/* "Time: 0.014" */
	ok(!run_file("hackbench", FIX "hackbench/threads_pipe.txt", NULL, &r), "hackbench -T -p: %s", r.error);
	is_metric(&r, "seconds", 0.014, "s", BETTER_LOWER);
	parse_result_free(&r);
	fails(run_text("hackbench", "Running in process mode with 2 groups\n", NULL, &r), &r,
	      "hackbench: no 'Time:' line", "hackbench cut before its time");
	fails(run_text("hackbench", "Time: abc\n", NULL, &r), &r, "'Time: abc' has no number", "Time: abc");
	fails(run_text("hackbench", "Time: 0.5 s\n", NULL, &r), &r, "'Time: 0.5 s' has no number", "Time: 0.5 s");
	fails(run_text("hackbench", "Time: nan\n", NULL, &r), &r, "'Time: nan'", "Time: nan");
	fails(run_text("hackbench", "Time: inf\n", NULL, &r), &r, "'Time: inf'", "Time: inf");
	fails(run_text("hackbench", "Time: 1e400\n", NULL, &r), &r, "'Time: 1e400'", "Time: 1e400");
	fails(run_text("hackbench", "Time: -0.5\n", NULL, &r), &r, "'Time: -0.5'", "Time: -0.5");
	ok(!run_text("hackbench", "Time: 0\n", NULL, &r), "Time: 0 (a run faster than hackbench's clock): %s", r.error);
	is_metric(&r, "seconds", 0, "s", BETTER_LOWER);
	parse_result_free(&r);
	fails(run_text("hackbench", "Time: 0.1\nTime: 0.2\n", NULL, &r), &r, "seconds printed twice", "two Time lines");
	big = malloc(4200);
	memcpy(big, "Time: ", 6);
	memset(big + 6, '9', 4090);
	big[4096] = 0;
	fails(run_text("hackbench", big, NULL, &r), &r, "has no number of seconds", "a Time line of 4 KB");
	free(big);
}

/* ---- stress-ng ---- */

static char tmp[64];	/* a directory for the YAML files the tests write */

/* put(name, text): text as the file tmp/name; its path (static). */
static const char *put(const char *name, const char *text)
{
	static char path[128];
	FILE *f;
	snprintf(path, sizeof(path), "%s/%s", tmp, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return path;
}

/* yaml_run(path, r): the stress-ng parser of a command naming path with
 * --yaml, over no output; parser_end's return. */
static int yaml_run(const char *path, struct parse_result *r)
{
	return run_text("stress-ng", "stress-ng: info:  [1] dispatching hogs: 1 cpu\n",
			ARGV("stress-ng", "--cpu", "1", "--yaml", (char *)path), r);
}

static void test_stress_ng_fixtures(void)
{
	struct parse_result r;
	/* cpu.yaml: bogo-ops-per-second-real-time: 1928.331502,
	 * bogo-ops-per-second-usr-sys-time: 2290.074070 (stress-ng printed
	 * 1928.33 and 2290.07); the other keys are every stressor's */
	ok(!yaml_run(FIX "stress-ng/cpu.yaml", &r), "stress-ng cpu: %s", r.error);
	is_int(r.nmetrics, 2, "stress-ng cpu: two metrics");
	is_metric(&r, "cpu.bogo_ops_per_sec_real", 1928.331502, "ops/s", BETTER_HIGHER);
	is_metric(&r, "cpu.bogo_ops_per_sec_cpu", 2290.074070, "ops/s", BETTER_HIGHER);
	parse_result_free(&r);
	/* cpu_switch.yaml: cpu 622.510032 / 2264.935781, switch 464389.935231 /
	 * 607560.074977 and its own nanosecs-per-context-switch-pipe-method:
	 * 2152.725257 (printed "2152.73 nanosecs per context switch") */
	ok(!run_text("stress-ng", "", ARGV("stress-ng", "--cpu", "1", "--switch", "1",
		     "--yaml=" FIX "stress-ng/cpu_switch.yaml"), &r), "stress-ng cpu and switch: %s", r.error);
	is_int(r.nmetrics, 5, "stress-ng cpu and switch: five metrics");
	is_metric(&r, "cpu.bogo_ops_per_sec_real", 622.510032, "ops/s", BETTER_HIGHER);
	is_metric(&r, "cpu.bogo_ops_per_sec_cpu", 2264.935781, "ops/s", BETTER_HIGHER);
	is_metric(&r, "switch.bogo_ops_per_sec_real", 464389.935231, "ops/s", BETTER_HIGHER);
	is_metric(&r, "switch.bogo_ops_per_sec_cpu", 607560.074977, "ops/s", BETTER_HIGHER);
	is_metric(&r, "switch.nanosecs-per-context-switch-pipe-method", 2152.725257, "", BETTER_UNKNOWN);
	parse_result_free(&r);
	ok(!run_text("stress-ng", "", ARGV("stress-ng", "-Y", FIX "stress-ng/cpu.yaml"), &r) &&
	   r.nmetrics == 2, "-Y FILE: %s", r.error);
	parse_result_free(&r);
	ok(!run_text("stress-ng", "", ARGV("stress-ng", "-Y" FIX "stress-ng/cpu.yaml"), &r) &&
	   r.nmetrics == 2, "-YFILE: %s", r.error);
	parse_result_free(&r);
	fails(yaml_run(FIX "stress-ng/no_metrics.yaml", &r), &r, "has no 'metrics:' list of stressors "
	      "(stress-ng writes it with --metrics)", "stress-ng's file of a run without --metrics");
}

/* the_file(argv): the file after --yaml in argv, or NULL. */
static const char *the_file(char *const *argv)
{
	for (int k = 0; argv[k]; k++)
		if (!strcmp(argv[k], "--yaml"))
			return argv[k + 1];
	return NULL;
}

static void test_stress_ng_argv(void)
{
	char err[256], dir[128], *text = slurp(FIX "stress-ng/cpu.yaml"), *const *run;
	char *const *argv = ARGV("stress-ng", "--cpu", "1", "-t", "2");
	struct parse_result r;
	struct parser *p = parser_new("stress-ng", argv, err, sizeof(err));
	const char *file;
	FILE *f;
	struct stat st;
	if (!ok(p, "stress-ng parser: %s", err))
		return;
	run = parser_argv(p, argv);
	file = the_file(run);
	ok(run != argv && !strcmp(run[0], "stress-ng") && !strcmp(run[4], "2") && run[5] && !strcmp(run[5], "--yaml") &&
	   run[7] && !strcmp(run[7], "--metrics") && !run[8], "the command gets --yaml FILE --metrics at its end");
	snprintf(dir, sizeof(dir), "%.*s", file ? (int)(strrchr(file, '/') - file) : 0, file ? file : "");
	ok(file && !stat(dir, &st) && S_ISDIR(st.st_mode) && (st.st_mode & 0777) == 0700 && stat(file, &st),
	   "FILE is in a private directory (%s), not there yet", dir);
	ok(parser_argv(p, argv) == run, "parser_argv again gives the same command");
	/* what stress-ng would write there */
	f = file ? fopen(file, "w") : NULL;
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	ok(!parser_end(p, NULL, &r) && r.nmetrics == 2 && metric(&r, "cpu.bogo_ops_per_sec_real") &&
	   metric(&r, "cpu.bogo_ops_per_sec_real")->value == 1928.331502, "the file written there is read: %s",
	   r.error);
	parse_result_free(&r);
	parser_free(p);
	ok(dir[0] && stat(dir, &st) == -1, "parser_free removes the directory and the file");
	free(text);

	argv = ARGV("stress-ng", "--cpu", "1", "-M");
	p = parser_new("stress-ng", argv, err, sizeof(err));
	run = p ? parser_argv(p, argv) : NULL;
	ok(run && run[3] && !strcmp(run[3], "-M") && run[4] && !strcmp(run[4], "--yaml") && !run[6],
	   "-M given: no --metrics added");
	parser_free(p);
	argv = ARGV("stress-ng", "--cpu", "1", "--yaml", "mine.yaml");
	p = parser_new("stress-ng", argv, err, sizeof(err));
	ok(p && parser_argv(p, argv) == argv, "a command with its own --yaml runs as it is");
	parser_free(p);
	ok(!parse_check("stress-ng", err, sizeof(err)), "parse_check stress-ng");
	setenv("TMPDIR", "/nonexistent/dir", 1);
	p = parser_new("stress-ng", ARGV("stress-ng", "--cpu", "1"), err, sizeof(err));
	ok(!p && strstr(err, "--parse stress-ng: /nonexistent/dir/perfdb-stress-ng-"), "no TMPDIR: refused: %s", err);
	parser_free(p);
	unsetenv("TMPDIR");
}

static void test_stress_ng_bad(void)
{
	struct parse_result r;
	char big[4200], text[8800], name[64];
	fails(yaml_run("/nonexistent/x.yaml", &r), &r, "stress-ng: no YAML file /nonexistent/x.yaml (No such file",
	      "a missing YAML file");
	fails(yaml_run(put("empty.yaml", ""), &r), &r, "stress-ng: the YAML file", "an empty YAML file");
	fails(yaml_run(put("blank.yaml", " \n\n"), &r), &r, "blank.yaml is empty", "a YAML file of blanks");
	fails(yaml_run(put("nodoc.yaml", "---\n...\n"), &r), &r, "nodoc.yaml is empty", "a YAML file of no document");
	fails(yaml_run(tmp, &r), &r, "not a regular file", "a directory");
	fails(yaml_run(put("bad.yaml", "metrics:\n  - stressor: [cpu\n"), &r), &r, "bad.yaml: line ", "not YAML");
	fails(yaml_run(put("five.yaml", "metrics: 5\n"), &r), &r, "has no 'metrics:' list", "metrics: 5");
	fails(yaml_run(put("seq.yaml", "- metrics\n"), &r), &r, "has no 'metrics:' list", "a list, no mapping");
	fails(yaml_run(put("none.yaml", "metrics: []\n"), &r), &r, "has no 'metrics:' list", "metrics: []");
	fails(yaml_run(put("item.yaml", "metrics:\n  - 5\n"), &r), &r, "metrics item 1 is not a mapping", "an item 5");
	fails(yaml_run(put("who.yaml", "metrics:\n  - bogo-ops: 5\n"), &r), &r, "metrics item 1 has no stressor name",
	      "an item without stressor");
	fails(yaml_run(put("who2.yaml", "metrics:\n  - stressor: '!!'\n"), &r), &r,
	      "metrics item 1 has no stressor name", "a stressor named '!!'");
	fails(yaml_run(put("rates.yaml", "metrics:\n  - stressor: cpu\n    bogo-ops-per-second-real-time: 5\n"), &r),
	      &r, "stress-ng: cpu: no bogo-ops-per-second-real-time and", "a stressor without its cpu rate");
	static const char *const bad[] = { "abc", ".nan", ".inf", "nan", "1e999", "0x10", "[1]", "'5 x'" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "metrics:\n  - stressor: cpu\n    bogo-ops-per-second-real-time: %s\n"
			 "    bogo-ops-per-second-usr-sys-time: 5\n", bad[i]);
		fails(yaml_run(put("num.yaml", text), &r), &r, "stress-ng: cpu: bogo-ops-per-second-real-time: '",
		      bad[i]);
	}
	fails(yaml_run(put("own.yaml", "metrics:\n  - stressor: cpu\n    bogo-ops-per-second-real-time: 1\n"
			   "    bogo-ops-per-second-usr-sys-time: 5\n    ops-per-thing: abc\n"), &r), &r,
	      "stress-ng: cpu: ops-per-thing: 'abc' is not a number", "a stressor's own metric abc");
	fails(yaml_run(put("twice.yaml", "m: &x\n  stressor: cpu\n  bogo-ops-per-second-real-time: 1\n"
			   "  bogo-ops-per-second-usr-sys-time: 5\nmetrics: [*x, *x]\n"), &r), &r,
	      "metric cpu.bogo_ops_per_sec_real printed twice", "one stressor twice (by an alias)");
	/* a 1000-byte key (YAML's longest plain one is 1024): its name is cut
	 * to 63 bytes; a 4 KB stressor name is cut to 40, its rates' names
	 * kept whole */
	memset(big, 'k', 4096);
	big[4096] = 0;
	snprintf(text, sizeof(text), "metrics:\n  - stressor: cpu\n    bogo-ops-per-second-real-time: 1\n"
		 "    bogo-ops-per-second-usr-sys-time: 5\n    %.1000s: 7\n", big);
	ok(!yaml_run(put("big.yaml", text), &r) && r.nmetrics == 3 && strlen(r.metrics[2].name) == 63 &&
	   !strncmp(r.metrics[2].name, "cpu.kkk", 7) && r.metrics[2].value == 7,
	   "a 1000-byte key's name is cut to 63 bytes: %s", r.error);
	parse_result_free(&r);
	snprintf(text, sizeof(text), "metrics:\n  - stressor: %s\n    bogo-ops-per-second-real-time: 1\n"
		 "    bogo-ops-per-second-usr-sys-time: 5\n", big);
	snprintf(name, sizeof(name), "%.40s.bogo_ops_per_sec_real", big);
	ok(!yaml_run(put("big.yaml", text), &r) && r.nmetrics == 2 && metric(&r, name),
	   "a 4 KB stressor name is cut to 40 bytes: %s: %s", name, r.error);
	parse_result_free(&r);
	memset(big, '9', 4096);
	snprintf(text, sizeof(text), "metrics:\n  - stressor: cpu\n    bogo-ops-per-second-real-time: %s\n"
		 "    bogo-ops-per-second-usr-sys-time: 5\n", big);
	fails(yaml_run(put("bignum.yaml", text), &r), &r, "is not a number", "a 4 KB number");
	fails(run_text("stress-ng", "", NULL, &r), &r, "stress-ng: no command, so no YAML file", "no command at all");
	/* a file larger than the cap is not read */
	const char *huge = put("huge.yaml", "");
	ok(!truncate(huge, (16 << 20) + 1), "a sparse file of 16 MiB + 1");
	fails(yaml_run(huge, &r), &r, "larger than 16 MiB", "a YAML file of 16 MiB + 1");
}

/* ---- fio ---- */

static void test_fio_fixtures(void)
{
	struct parse_result r;
	char *const *argv = ARGV("fio", "--name=randread", "--output-format=json");
	/* randread_warning.json: fio's "note: both iodepth >= 1 ..." line, then
	 * the JSON; read: io_bytes 86880256, iops 10579.052369, bw_bytes
	 * 43331798, clat_ns mean 93601.404979 (93.601404979 us), percentile
	 * "50.000000" 72192 (72.192 us), "99.000000" 374784 (374.784 us);
	 * write and trim did no I/O (io_bytes 0) */
	ok(!run_file("fio", FIX "fio/randread_warning.json", argv, &r), "fio randread: %s", r.error);
	is_int(r.nmetrics, 5, "fio randread: five metrics, all of read");
	is_metric(&r, "randread.read.iops", 10579.052369, "ops/s", BETTER_HIGHER);
	is_metric(&r, "randread.read.bw_bytes", 43331798, "B/s", BETTER_HIGHER);
	is_metric(&r, "randread.read.clat_mean_us", 93601.404979 / 1000, "us", BETTER_LOWER);
	is_metric(&r, "randread.read.clat_p50_us", 72.192, "us", BETTER_LOWER);
	is_metric(&r, "randread.read.clat_p99_us", 374.784, "us", BETTER_LOWER);
	parse_result_free(&r);
	/* two_jobs.json: mixed read 249406.593407 iops, 1021569406 B/s, clat
	 * 1634.528844 ns, p50 748, p99 3568; mixed write 107052.947053,
	 * 438488871, 2949.503751, 1800, 3568; seqwrite write 373543.456543,
	 * 1530033998, 2203.462918, 1240, 3152 */
	ok(!run_file("fio", FIX "fio/two_jobs.json", NULL, &r), "fio two jobs: %s", r.error);
	is_int(r.nmetrics, 15, "fio two jobs: three directions did I/O, five metrics each");
	is_metric(&r, "mixed.read.iops", 249406.593407, "ops/s", BETTER_HIGHER);
	is_metric(&r, "mixed.read.bw_bytes", 1021569406, "B/s", BETTER_HIGHER);
	is_metric(&r, "mixed.read.clat_mean_us", 1634.528844 / 1000, "us", BETTER_LOWER);
	is_metric(&r, "mixed.read.clat_p50_us", 0.748, "us", BETTER_LOWER);
	is_metric(&r, "mixed.read.clat_p99_us", 3.568, "us", BETTER_LOWER);
	is_metric(&r, "mixed.write.iops", 107052.947053, "ops/s", BETTER_HIGHER);
	is_metric(&r, "mixed.write.bw_bytes", 438488871, "B/s", BETTER_HIGHER);
	is_metric(&r, "mixed.write.clat_mean_us", 2949.503751 / 1000, "us", BETTER_LOWER);
	is_metric(&r, "mixed.write.clat_p50_us", 1.8, "us", BETTER_LOWER);
	is_metric(&r, "mixed.write.clat_p99_us", 3.568, "us", BETTER_LOWER);
	is_metric(&r, "seqwrite.write.iops", 373543.456543, "ops/s", BETTER_HIGHER);
	is_metric(&r, "seqwrite.write.bw_bytes", 1530033998, "B/s", BETTER_HIGHER);
	is_metric(&r, "seqwrite.write.clat_mean_us", 2203.462918 / 1000, "us", BETTER_LOWER);
	is_metric(&r, "seqwrite.write.clat_p50_us", 1.24, "us", BETTER_LOWER);
	is_metric(&r, "seqwrite.write.clat_p99_us", 3.152, "us", BETTER_LOWER);
	ok(!metric(&r, "seqwrite.read.iops") && !metric(&r, "mixed.trim.iops"), "no metric of a direction without I/O");
	parse_result_free(&r);
}

/* fio_job(dir, body): a fio JSON of one job "j" whose direction dir is
 * body (static). */
static const char *fio_job(const char *dir, const char *body)
{
	static char text[1024];
	snprintf(text, sizeof(text),
		 "{\n  \"jobs\" : [\n    {\n      \"jobname\" : \"j\",\n      \"%s\" : %s\n    }\n  ]\n}\n", dir, body);
	return text;
}

static void test_fio_bad(void)
{
	struct parse_result r;
	struct parser *p;
	char err[256], *text, *line;
	const char *clat = "\"clat_ns\" : { \"mean\" : 2000, "
			   "\"percentile\" : { \"50.000000\" : 1000, \"99.000000\" : 3000 } }";
	char body[512];
	/* a minimal job: the percentiles are read by value of their key */
	snprintf(body, sizeof(body), "{ \"io_bytes\" : 4096, \"iops\" : 1, \"bw_bytes\" : 4096, %s }", clat);
	ok(!run_text("fio", fio_job("write", body), NULL, &r) && r.nmetrics == 5, "a minimal job: %s", r.error);
	is_metric(&r, "j.write.clat_mean_us", 2, "us", BETTER_LOWER);
	is_metric(&r, "j.write.clat_p50_us", 1, "us", BETTER_LOWER);
	is_metric(&r, "j.write.clat_p99_us", 3, "us", BETTER_LOWER);
	parse_result_free(&r);
	snprintf(body, sizeof(body),
		 "{ \"io_bytes\" : 4096, \"iops\" : 1, \"bw_bytes\" : 4096, \"clat_ns\" : { \"mean\" : 2000 } }");
	ok(!run_text("fio", fio_job("read", body), NULL, &r) && r.nmetrics == 3,
	   "no percentiles (--clat_percentiles=0): three metrics: %s", r.error);
	parse_result_free(&r);
	fails(run_text("fio", "fio: no such option\n", NULL, &r), &r, "fio: no JSON in the output", "no JSON at all");
	fails(run_text("fio", "{\n  \"jobs\" : [\n", NULL, &r), &r, "fio: the JSON ends early", "truncated JSON");
	fails(run_text("fio", "{ \"jobs\" : [ } \n", NULL, &r), &r, "fio: unexpected character at byte 13 of its JSON",
	      "broken JSON");
	fails(run_text("fio", "[ { \"jobs\" : [] } ]\n", NULL, &r), &r, "no line starts with '{'", "a JSON array");
	fails(run_text("fio", "{ \"jobs\" : 5 }\n", NULL, &r), &r, "fio: no \"jobs\" array", "jobs: 5");
	fails(run_text("fio", "{ \"fio version\" : \"fio-3.33\" }\n", NULL, &r), &r, "fio: no \"jobs\" array",
	      "no jobs");
	fails(run_text("fio", "{ \"jobs\" : [] }\n", NULL, &r), &r, "fio: no metric in the output", "no job");
	fails(run_text("fio", "{ \"jobs\" : [ 5 ] }\n", NULL, &r), &r, "fio: job 1 is not an object", "a job 5");
	fails(run_text("fio", "{ \"jobs\" : [ { \"read\" : {} } ] }\n", NULL, &r), &r, "fio: job 1 has no jobname",
	      "a job without name");
	fails(run_text("fio", "{ \"jobs\" : [ { \"jobname\" : 7 } ] }\n", NULL, &r), &r, "fio: job 1 has no jobname",
	      "a job named 7 (a number)");
	fails(run_text("fio", "{ \"jobs\" : [ { \"jobname\" : \"%%\" } ] }\n", NULL, &r), &r,
	      "fio: job 1's name '%%' has no letter or digit", "a job named %%");
	fails(run_text("fio", "{ \"jobs\" : [ { \"jobname\" : \"a\" }, { \"jobname\" : \"A\" } ] }\n", NULL, &r), &r,
	      "fio: two jobs named a (numjobs without --group_reporting?)", "two jobs of one name");
	fails(run_text("fio", fio_job("read", "5"), NULL, &r), &r, "fio: j.read has no io_bytes", "read: 5");
	fails(run_text("fio", fio_job("read", "{ \"io_bytes\" : \"4096\" }"), NULL, &r), &r,
	      "fio: j.read has no io_bytes", "io_bytes a string");
	static const char *const bad[] = { "NaN", "Infinity", "-Infinity", "1e999", "-1", "\"1\"", "null", "[1]" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(body, sizeof(body), "{ \"io_bytes\" : 4096, \"iops\" : %s, \"bw_bytes\" : 4096, %s }", bad[i],
			 clat);
		fails(run_text("fio", fio_job("read", body), NULL, &r), &r,
		      "fio: j.read: iops or bw_bytes missing or not a number (finite, >= 0)", bad[i]);
	}
	fails(run_text("fio", fio_job("read", "{ \"io_bytes\" : 1, \"iops\" : 1, \"bw_bytes\" : 1 }"), NULL, &r), &r,
	      "fio: j.read: no clat_ns.mean", "no clat_ns");
	fails(run_text("fio", fio_job("read", "{ \"io_bytes\" : 1, \"iops\" : 1, \"bw_bytes\" : 1, \"clat_ns\" : "
				  "{ \"mean\" : 1, \"percentile\" : 3 } }"), NULL, &r), &r,
	      "fio: j.read: clat_ns.percentile is not an object", "percentile: 3");
	fails(run_text("fio", fio_job("read", "{ \"io_bytes\" : 1, \"iops\" : 1, \"bw_bytes\" : 1, \"clat_ns\" : "
				  "{ \"mean\" : 1, \"percentile\" : { \"99.0\" : \"x\" } } }"), NULL, &r), &r,
	      "fio: j.read: clat_ns percentile 99.0 is not a number", "percentile 99.0: \"x\"");
	text = slurp(FIX "fio/randread_warning.json");
	line = malloc(strlen(text) * 2 + 2);
	sprintf(line, "%s%s", text, strchr(text, '{'));
	fails(run_text("fio", line, NULL, &r), &r, "fio: more than one JSON document",
	      "two reports (--status-interval)");
	free(line);
	free(text);
	/* deep nesting, and a line of 4 KB, never crash */
	line = malloc(8200);
	memset(line, '[', 8192);
	line[0] = '{';
	memcpy(line + 1, "\"a\":", 4);
	line[8192] = 0;
	fails(run_text("fio", line, NULL, &r), &r, "fio: nesting too deep at byte", "8 KB of '['");
	memset(line, ' ', 4096);
	memcpy(line, "{ \"jobs\" : [ { \"jobname\" : \"", 28);
	memset(line + 28, 'n', 4000);
	strcpy(line + 4028, "\" } ] }\n");
	fails(run_text("fio", line, NULL, &r), &r, "fio: no metric in the output", "a 4 KB job name (no direction)");
	free(line);
	/* more than 64 MiB is not kept */
	p = parser_new("fio", NULL, err, sizeof(err));
	line = malloc(1 << 20);
	memset(line, ' ', (1 << 20) - 2);
	line[0] = '{';
	line[(1 << 20) - 2] = '\n';
	line[(1 << 20) - 1] = 0;
	for (int i = 0; p && i < 65; i++)
		parser_line(p, line);
	if (p)
		parser_end(p, NULL, &r);
	fails(p ? -1 : 0, &r, "fio: the JSON output is larger than 64 MiB", "65 lines of 1 MiB");
	parser_free(p);
	free(line);
}

int main(void)
{
	test_number();
	test_perf_bench_sched();
	test_perf_bench_futex();
	test_perf_bench_mem();
	test_perf_bench_mem_units();
	test_perf_bench_bad();
	test_hackbench();
	snprintf(tmp, sizeof(tmp), "/tmp/test_parse_tools-XXXXXX");
	if (ok(mkdtemp(tmp), "a temporary directory")) {
		test_stress_ng_fixtures();
		test_stress_ng_argv();
		test_stress_ng_bad();
		test_fio_fixtures();
		test_fio_bad();
		char rm[128];
		snprintf(rm, sizeof(rm), "rm -rf -- '%s'", tmp);
		ok(system(rm) == 0, "%s removed", tmp);
	}
	return tap_done();
}
