/* Unit tests of --parse will-it-scale (collect/parse/fmt_will_it_scale.c):
 * hand-made outputs whose values are worked out in the comments, the
 * command lines the task count and kind come from, malformed and cut
 * outputs, and the real outputs of tests/fixtures/parse/will-it-scale/
 * (see its SOURCES) checked against what this file reads from them on
 * its own (sscanf, 0-day's arithmetic). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define PU_FORMAT "will-it-scale"
#include "tests/unit/parse_util.h"

#define FIX "tests/fixtures/parse/will-it-scale/"

/* is_num(got, want, what): one exact check of a value. */
static void is_num(double got, double want, const char *what)
{
	if (!ok(got == want, "%s", what))
		printf("#   got %.17g, want %.17g\n", got, want);
}

/* Six warm-up seconds, then the measured ones, as the binary prints. */
#define WARMUP "testcase:hand-made\nwarmup\nmin:1 max:2 total:3\nmin:1 max:2 total:3\nmin:1 max:2 total:3\n" \
	       "min:1 max:2 total:3\nmin:1 max:2 total:3\nmin:1 max:2 total:3\nmeasurement\n"

/* test_threads: a _threads binary, -t 7, two measured seconds. */
static void test_threads(void)
{
	char *argv[] = { "./tlb_flush2_threads", "-t", "7", "-s", "2", NULL };
	struct parse_result r;
	const struct dist *d;
	/* average 1000 over 7 threads: 1000 / 7 = 142.857..., 0-day prints
	 * 142; the measured seconds' totals 999 and 1001 (the warm-up 3s
	 * are none of them). */
	int rc = run(WARMUP "min:100 max:200 total:999\nmin:100 max:300 total:1001\naverage:1000\n", argv, &r);
	is_int(rc, 0, "a _threads output parses");
	is_num(metric(&r, "ops_per_sec"), 1000, "ops_per_sec is the average: line");
	is_num(metric(&r, "per_thread_ops"), 142, "per_thread_ops = trunc(1000 / 7) = 142");
	ok(isnan(metric(&r, "per_process_ops")), "no per_process_ops for a _threads binary");
	d = dist(&r, "ops_per_sec_each_s");
	ok(d && d->n == 2 && d->v[0] == 999 && d->v[1] == 1001, "ops_per_sec_each_s: the two measured totals, "
	   "999 and 1001, not the warm-up's");
	ok(d && !strcmp(d->unit, "ops/s") && d->better == BETTER_HIGHER &&
	   !strcmp(d->line, "min:100 max:200 total:999"), "its unit, better= and first line");
	ok(r.nmetrics == 2 && !strcmp(r.metrics[0].unit, "ops/s") && r.metrics[1].better == BETTER_HIGHER &&
	   !strcmp(r.metrics[0].line, "average:1000"), "two metrics, ops/s, higher, from the average: line");
	parse_result_free(&r);
}

/* test_processes: a _processes binary without -t is one task. */
static void test_processes(void)
{
	char *one[] = { "/opt/wis/page_fault1_processes", "-s", "1", NULL };
	char *four[] = { "page_fault1_processes", "-nt4", "-s", "1", NULL };
	char *last[] = { "x_processes", "-t", "3", "-s", "1", "-t", "5", NULL };
	char *sflag[] = { "x_processes", "-s", "-t", NULL };
	char *wrapped[] = { "setarch", "linux64", "-R", "./x_threads", "-m", "-t", "3", NULL };
	struct parse_result r;
	const char *out = WARMUP "min:7 max:7 total:7\naverage:7\n";
	run(out, one, &r);
	is_num(metric(&r, "per_process_ops"), 7, "no -t: one process, per_process_ops = 7 / 1");
	ok(isnan(metric(&r, "per_thread_ops")), "no per_thread_ops for a _processes binary");
	parse_result_free(&r);
	run(out, four, &r);
	is_num(metric(&r, "per_process_ops"), 1, "-nt4 (getopt's bundled flags): 7 / 4 = 1.75, 1");
	parse_result_free(&r);
	run(out, last, &r);
	is_num(metric(&r, "per_process_ops"), 1, "-t 3 ... -t 5: the last one counts, 7 / 5 = 1.4, 1");
	parse_result_free(&r);
	run(out, sflag, &r);
	is_num(metric(&r, "per_process_ops"), 7, "-s -t: the -t is -s's argument (one task)");
	parse_result_free(&r);
	run(out, wrapped, &r);
	is_num(metric(&r, "per_thread_ops"), 2, "setarch ... ./x_threads -m -t 3: 7 / 3 = 2.33, 2");
	parse_result_free(&r);
}

/* test_unknown_binary: a command that names no binary yields
 * ops_per_sec alone. */
static void test_unknown_binary(void)
{
	char *argv[] = { "sh", "-c", "./tlb_flush2 -t 2", NULL }, *none[] = { NULL };
	struct parse_result r;
	is_int(run(WARMUP "min:5 max:5 total:5\naverage:5\n", argv, &r), 0, "sh -c '...': parses");
	ok(r.nmetrics == 1 && metric(&r, "ops_per_sec") == 5, "ops_per_sec alone (threads or processes unknown)");
	parse_result_free(&r);
	is_int(run("average:5\n", none, &r), 0, "an empty command: parses");
	parse_result_free(&r);
}

/* test_task_counts: -t must be a task count will-it-scale takes. */
static void test_task_counts(void)
{
	char *zero[] = { "./a_threads", "-t", "0", NULL }, *big[] = { "./a_threads", "-t", "2049", NULL };
	char *junk[] = { "./a_threads", "-t", "2x", NULL }, *none[] = { "./a_threads", "-t", NULL };
	char *neg[] = { "./a_threads", "-t-1", NULL }, *max[] = { "./a_threads", "-t", "2048", NULL };
	struct parse_result r;
	refused("average:1\n", zero, "-t '0' is not a task count", "-t 0: zero tasks is refused");
	refused("average:1\n", big, "(1..2048)", "-t 2049: more than will-it-scale's 2048");
	refused("average:1\n", junk, "'2x'", "-t 2x is not a number");
	refused("average:1\n", neg, "'-1'", "-t-1 is not a number");
	refused("average:1\n", none, "-t without", "-t at the end, without its count");
	run("average:4096\n", max, &r);
	is_num(metric(&r, "per_thread_ops"), 2, "-t 2048: 4096 / 2048 = 2");
	parse_result_free(&r);
	ok(parse_check("will-it-scale", r.error, sizeof(r.error)) == 0, "parse_check takes will-it-scale");
	ok(parse_check("will-it-scale:x", r.error, sizeof(r.error)) < 0, "and no argument after it");
}

/* test_malformed: what the binary never prints fails the run. */
static void test_malformed(void)
{
	char *argv[] = { "./a_threads", "-t", "2", NULL };
	fails(WARMUP "min:1 max:2 total:3\n", argv, "will-it-scale: no average: line", "no average: line");
	fails(WARMUP "min:1 max:2 to", argv, "'min:1 max:2 to' is not min:N", "cut inside a line, before average:");
	fails("", argv, "no average: line", "no output at all");
	fails(WARMUP "average:12abc\n", argv, "is not average:N", "average:12abc");
	fails(WARMUP "average:\n", argv, "is not average:N", "average: without a number");
	fails(WARMUP "average:-5\n", argv, "is not average:N", "average:-5");
	fails(WARMUP "average:1e9\n", argv, "is not average:N", "average:1e9");
	fails(WARMUP "average: 5\n", argv, "is not average:N", "average: 5 (a blank)");
	fails(WARMUP "average:18446744073709551616\n", argv, "is not average:N", "average: 2^64 overflows");
	fails(WARMUP "average:5\naverage:6\n", argv, "printed twice", "two average: lines");
	fails(WARMUP "min:1 max:x total:3\naverage:5\n", argv, "is not min:N max:N total:N", "max:x");
	fails(WARMUP "min:3 max:2 total:5\naverage:5\n", argv, "min <= max <= total", "min > max");
	fails(WARMUP "min:1 max:6 total:5\naverage:5\n", argv, "min <= max <= total", "max > total");
	fails(WARMUP "min:1 max:2 total:3 x\naverage:5\n", argv, "is not min:N", "trailing words");
	fails("min:1 max:2 total:99999999999999999999\naverage:5\n", argv, "is not min:N", "total: 1e20");
	fails("min:\001\377\naverage:5\n", argv, "'min:?" "?'", "control bytes are shown as '?'");
}

/* test_huge: the largest numbers the binary can print. */
static void test_huge(void)
{
	char *argv[] = { "./a_processes", "-t", "3", NULL };
	struct parse_result r;
	/* 2^64 - 1 = 18446744073709551615 = 3 * 6148914691236517205 */
	int rc = run("measurement\nmin:0 max:18446744073709551615 total:18446744073709551615\n"
		     "average:18446744073709551615\n", argv, &r);
	is_int(rc, 0, "2^64 - 1 everywhere parses");
	is_num(metric(&r, "ops_per_sec"), 18446744073709551615.0, "ops_per_sec 2^64 - 1");
	is_num(metric(&r, "per_process_ops"), 6148914691236517205.0, "per_process_ops (2^64 - 1) / 3");
	parse_result_free(&r);
}

/* test_garbage: long lines of any bytes pass through, or fail the run
 * when they start as a result line does. */
static void test_garbage(void)
{
	char *argv[] = { "./a_threads", NULL }, *text = malloc(4096 + 64);
	struct parse_result r;
	size_t n;
	for (n = 0; n < 4096; n++) {	/* every byte but NUL, a newline made 'x' */
		char c = (char)(1 + n % 255);
		text[n] = c == '\n' ? 'x' : c;
	}
	strcpy(text + n, "\naverage:8\n");
	is_int(run(text, argv, &r), 0, "a 4 KB line of every byte passes through");
	is_num(metric(&r, "per_thread_ops"), 8, "and the average: after it counts (one thread: 8)");
	parse_result_free(&r);
	memcpy(text, "min:", 4);
	memset(text + 4, '9', 4092);
	fails(text, argv, "is not min:N", "a 4 KB min: line of digits fails");
	memcpy(text, "average:", 8);
	fails(text, argv, "is not average:N", "a 4 KB average: line of digits fails");
	memcpy(text, "tasks,", 6);
	fails(text, argv, "is not runtest.py's", "a 4 KB tasks, line fails");
	free(text);
}

/* test_csv: runtest.py's CSV, hand-made. */
static void test_csv(void)
{
	char *argv[] = { "./runtest.py", "tlb_flush2", NULL };
	struct parse_result r;
	/* 1 task: processes 1000, threads 900; 2 tasks: 1500 and 1601
	 * (per task 750 and 800.5); 3 tasks made 0 ops in both (0-day's bad
	 * sample: skipped), and the row of 0 tasks is skipped.
	 * per_process_ops = trunc((1000 + 750) / 2) = 875
	 * per_thread_ops = trunc((900 + 800.5) / 2) = trunc(850.25) = 850
	 * workload = 1000 + 900 + 1500 + 1601 = 5001 */
	int rc = run("tasks,processes,processes_idle,threads,threads_idle,linear\n0,0,100,0,100,0\n"
		     "1,1000,50.00,900,49.50,1000\n2,1500,0.00,1601,0.25,2000\n3,0,0.00,0,0.00,3000\n", argv, &r);
	is_int(rc, 0, "a CSV parses");
	is_num(metric(&r, "per_process_ops"), 875, "per_process_ops: the mean over rows, 875");
	is_num(metric(&r, "per_thread_ops"), 850, "per_thread_ops: trunc(850.25) = 850");
	is_num(metric(&r, "workload"), 5001, "workload: both columns summed, 5001");
	is_num(metric(&r, "processes-2"), 1500, "processes-2");
	is_num(metric(&r, "threads-2"), 1601, "threads-2");
	is_num(metric(&r, "per_thread_ops-2"), 800, "per_thread_ops-2 = trunc(1601 / 2) = 800");
	is_num(metric(&r, "per_process_ops-1"), 1000, "per_process_ops-1 = 1000");
	is_num(metric(&r, "threads_idle-1"), 49.5, "threads_idle-1 = 49.5 (%)");
	is_num(metric(&r, "processes_idle-2"), 0, "processes_idle-2 = 0");
	ok(isnan(metric(&r, "threads-3")) && isnan(metric(&r, "threads-0")), "no metric of the skipped rows");
	ok(isnan(metric(&r, "ops_per_sec")) && r.nmetrics == 15, "6 metrics a row, 3 over them, nothing more");
	parse_result_free(&r);
	rc = run("tasks,processes,processes_idle,threads,threads_idle,linear\r\n2,7,1,0,100,0\r\n", argv, &r);
	is_num(metric(&r, "per_process_ops"), 3, "CRLF lines; a threads column of 0 counts (0-day: 7 / 2 = 3)");
	is_num(metric(&r, "per_thread_ops"), 0, "per_thread_ops 0 then");
	parse_result_free(&r);
}

#define HDR "tasks,processes,processes_idle,threads,threads_idle,linear\n"

/* test_csv_malformed: CSVs runtest.py never writes. */
static void test_csv_malformed(void)
{
	char *argv[] = { "./runtest.py", "x", NULL };
	fails(HDR "1,1000,50.00,900,49.00\n", argv, "has 5 columns, not 6", "a missing column");
	fails(HDR "1,1000,50.00,900,49.00,1,2\n", argv, "has 7 columns, not 6", "a column too many");
	fails("tasks,processes,threads\n1,2,3\n", argv, "is not runtest.py's", "another header");
	fails(HDR "0,0,100,0,100,0\n", argv, "no row with a result", "zero tasks only");
	fails(HDR, argv, "no row with a result", "a header alone");
	fails(HDR "1,-1,0.00,900,49.00,900\n", argv, "processes run printed no average", "-1: no average");
	fails(HDR "1,10x,0.00,900,49.00,900\n", argv, "not tasks", "10x");
	fails(HDR "1,100,101,900,49.00,900\n", argv, "not tasks", "idle 101 %");
	fails(HDR "1,100,nan,900,49.00,900\n", argv, "not tasks", "idle nan");
	fails(HDR "2049,100,1,900,49.00,900\n", argv, "not tasks", "2049 tasks");
	fails(HDR "1,100,1,900,49.00,-1\n", argv, "not tasks", "linear -1");
	fails(HDR "1,1234567890123456789012345678901234567890,1,9,1,9\n", argv, "longer than 31", "a 40-digit column");
	fails(HDR "1,100000000000000000000,1,9,1,9\n", argv, "not tasks", "ops 1e20 overflow");
	fails(HDR "1,1,1,1,1,1\rjunk\n", argv, "not tasks", "junk after a CR");
	fails(HDR "1,5,1,5,1,5\n1,6,1,6,1,6\n", argv, "printed twice", "two rows of one task count");
}

/* check_binary(file, argv, tasks, secs, per): a fixture of a binary's
 * run: its metrics against its own average: line, the measured totals
 * read here with sscanf (and the average as the binary computes it
 * from them: their integer mean). */
static void check_binary(const char *file, char *const argv[], unsigned tasks, unsigned secs, const char *per)
{
	char *text = read_file(file), *l, *save = NULL;
	unsigned long long avg = 0, v[64], lo, hi, t, sum = 0;
	unsigned n = 0;
	int measuring = 0;
	struct parse_result r;
	if (!ok(text != NULL, "%s can be read", file))
		return;
	is_int(run(text, argv, &r), 0, "%s parses", file);
	for (l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		measuring |= !strcmp(l, "measurement");
		if (measuring && n < 64 && sscanf(l, "min:%llu max:%llu total:%llu", &lo, &hi, &t) == 3)
			sum += v[n++] = t;
		sscanf(l, "average:%llu", &avg);
	}
	ok(n == secs && avg && sum / secs == avg, "%s: %u measured seconds, their integer mean %llu is its average",
	   file, secs, avg);
	is_num(metric(&r, "ops_per_sec"), (double)avg, "ops_per_sec is its average");
	is_num(metric(&r, per), (double)(avg / tasks), per);
	const struct dist *d = dist(&r, "ops_per_sec_each_s");
	int same = d && d->n == n;
	for (unsigned i = 0; same && i < n; i++)
		same = d->v[i] == (double)v[i];
	ok(same, "%s: ops_per_sec_each_s holds the %u measured totals in order", file, n);
	parse_result_free(&r);
	free(text);
}

/* test_fixture_binaries: the real binaries' outputs. */
static void test_fixture_binaries(void)
{
	char *tlb[] = { "./tlb_flush2_threads", "-t", "2", "-s", "5", NULL };
	char *pf[] = { "./page_fault1_processes", "-t", "2", "-s", "3", NULL };
	char *one[] = { "./tlb_flush2_processes", "-t", "1", "-s", "2", NULL };
	check_binary(FIX "tlb_flush2_threads-t2-s5.out", tlb, 2, 5, "per_thread_ops");
	check_binary(FIX "page_fault1_processes-t2-s3.out", pf, 2, 3, "per_process_ops");
	check_binary(FIX "tlb_flush2_processes-t1-s2.out", one, 1, 2, "per_process_ops");
}

/* test_fixture_csv: runtest.py's real CSV, against 0-day's arithmetic
 * done here on the rows sscanf reads. */
static void test_fixture_csv(void)
{
	char *argv[] = { "./runtest.py", "tlb_flush2", NULL }, *text = read_file(FIX "runtest-tlb_flush2.csv");
	char *l, *save = NULL, name[64];
	double pp = 0, pt = 0, work = 0, p, pi, t, ti, lin;
	unsigned n, rows = 0, good = 0;
	struct parse_result r;
	if (!ok(text != NULL, "the CSV fixture can be read"))
		return;
	is_int(run(text, argv, &r), 0, "runtest.py's CSV parses");
	for (l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (sscanf(l, "%u,%lf,%lf,%lf,%lf,%lf", &n, &p, &pi, &t, &ti, &lin) != 6 || !n)
			continue;
		rows++;
		pp += p / n;
		pt += t / n;
		work += p + t;
		snprintf(name, sizeof(name), "per_thread_ops-%u", n);
		good += metric(&r, name) == floor(t / n);
		snprintf(name, sizeof(name), "processes-%u", n);
		good += metric(&r, name) == p;
		snprintf(name, sizeof(name), "threads_idle-%u", n);
		good += metric(&r, name) == ti;
	}
	ok(rows == 2 && good == 3 * rows, "its 2 rows: per_thread_ops-N, processes-N, threads_idle-N as read");
	is_num(metric(&r, "per_process_ops"), floor(pp / rows), "per_process_ops: 0-day's mean");
	is_num(metric(&r, "per_thread_ops"), floor(pt / rows), "per_thread_ops: 0-day's mean");
	is_num(metric(&r, "workload"), work, "workload: 0-day's sum");
	parse_result_free(&r);
	free(text);
}

/* test_table: the format is in the table, between metric and time. */
static void test_table(void)
{
	size_t n, at[3] = { 99, 99, 99 };
	const struct parse_format *const *f = parse_formats(&n);
	for (size_t i = 0; i < n; i++) {
		const char *name = parse_format_name(f[i]);
		at[0] = strcmp(name, "metric") ? at[0] : i;
		at[1] = strcmp(name, "will-it-scale") ? at[1] : i;
		at[2] = strcmp(name, "time") ? at[2] : i;
	}
	ok(at[0] < at[1] && at[1] < at[2] && at[2] < n, "will-it-scale comes after metric, before time");
	ok(at[1] < n && strstr(parse_format_metrics(f[at[1]]), "per_thread_ops-N"), "its metrics name the CSV's");
}

int main(void)
{
	test_threads();
	test_processes();
	test_unknown_binary();
	test_task_counts();
	test_malformed();
	test_huge();
	test_garbage();
	test_csv();
	test_csv_malformed();
	test_fixture_binaries();
	test_fixture_csv();
	test_table();
	return tap_done();
}
