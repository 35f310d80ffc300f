/* Unit tests of --parse thpscale (collect/parse/fmt_thpscale.c):
 * hand-made outputs whose distributions are worked out in the comments,
 * the thread count from the command or the output, malformed and cut
 * outputs, and the real outputs of tests/fixtures/parse/thpscale/ (see
 * its SOURCES) checked against what this file reads from them on its
 * own (sscanf of the fault lines, as mmtests' ExtractThpscale splits
 * them). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define PU_FORMAT "thpscale"
#include "tests/unit/parse_util.h"

#define FIX "tests/fixtures/parse/thpscale/"

/* holds(d, v, n): d's samples are exactly v[0..n), in that order. */
static bool holds(const struct dist *d, const double *v, size_t n)
{
	if (!d || d->n != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (d->v[i] != v[i])
			return false;
	return true;
}

/* The head thpscale prints before its fault lines (2 threads). */
#define HEAD "Running with 2 threads\nUsing default advice\nUsing default advice\n" \
	     "Artifical sum for offset 0x0000000000000000: -7877\n\nanoninit 0        48893\n" \
	     "anoninit 1        49102\nfileinit 0         3049\nfileinit 1          662\n"
/* Four faults: thread 0 huge 100 us, base 20; thread 1 huge 300, base 40. */
#define FAULTS "fault 0 huge          100 1796429232.701334 1\nfault 0 base           20 1796429232.701335 1\n" \
	       "fault 1 huge          300 1796429232.9 0\nfault 1 base           40 1796429233.1 -1\n"

/* test_kinds: each fault in its kind's distribution and in both's. */
static void test_kinds(void)
{
	/* 16777216 / 2 threads / 2 MiB / 2 = 2 faults a thread, 4 lines */
	char *argv[] = { "./thpscale", "2", "16777216", "workfile", "1", NULL };
	double huge[] = { 100, 300 }, base[] = { 20, 40 }, both[] = { 100, 20, 300, 40 };
	struct parse_result r;
	const struct dist *d;
	is_int(run(HEAD FAULTS "faulting done\n", argv, &r), 0, "four faults of two threads parse");
	ok(r.nmetrics == 0 && r.ndists == 3, "three distributions, no metric");
	ok(holds(dist(&r, "fault-huge-2"), huge, 2), "fault-huge-2: 100, 300 (mean 200)");
	ok(holds(dist(&r, "fault-base-2"), base, 2), "fault-base-2: 20, 40 (mean 30)");
	ok(holds(dist(&r, "fault-both-2"), both, 4), "fault-both-2: 100, 20, 300, 40 in order (mean 115)");
	d = dist(&r, "fault-base-2");
	ok(d && !strcmp(d->unit, "us") && d->better == BETTER_LOWER &&
	   !strcmp(d->line, "fault 0 base           20 1796429232.701335 1"), "us, lower, its first line");
	parse_result_free(&r);
}

/* test_thread_count: N from the command or the Running line. */
static void test_thread_count(void)
{
	char *sh[] = { "sh", "-c", "./thpscale 1 4194304 f 0", NULL }, *none[] = { NULL };
	char *other[] = { "/opt/mm/thpscale", "3", NULL }, *alone[] = { "thpscale", NULL };
	double one[] = { 7 };
	struct parse_result r;
	is_int(run("Running with 1 thread \nfault 0 base 7 1.2 1\n", sh, &r), 0,
	       "no thpscale in argv: N from 'Running with 1 thread ' (its trailing blank)");
	ok(holds(dist(&r, "fault-base-1"), one, 1) && holds(dist(&r, "fault-both-1"), one, 1) && r.ndists == 2,
	   "fault-base-1 and fault-both-1: 7; no fault-huge-1 (no huge fault)");
	parse_result_free(&r);
	is_int(run("Running with 12 threads\nfault 11 huge 5 1.2 1\n", none, &r), 0, "an empty command: N 12");
	ok(dist(&r, "fault-huge-12") != NULL, "fault-huge-12");
	parse_result_free(&r);
	fails("Running with 2 threads\nfault 0 huge 5 1.2 1\n", other, "runs 2 threads, the command 3",
	      "the output's N differs from the command's");
	is_int(run("fault 0 huge 5 1.2 1\n", alone, &r), -1, "thpscale without NR_THREADS: N unknown");
	ok(strstr(r.error, "no thread count") != NULL, "a fault line before any thread count fails");
	parse_result_free(&r);
	fails("Running with 0 threads\n", none, "is not Running with N threads", "Running with 0");
	fails("Running with 2 threadbare\n", none, "is not Running with N threads", "Running with 2 threadbare");
}

/* test_bad_commands: NR_THREADS must be a thread count. */
static void test_bad_commands(void)
{
	char *zero[] = { "./thpscale", "0", "1", "f", "0", NULL }, *junk[] = { "thpscale", "2x", NULL };
	char *big[] = { "thpscale", "1000001", NULL }, *neg[] = { "thpscale", "-1", NULL };
	char err[256];
	refused("", zero, "NR_THREADS '0' is not a thread count", "0 threads (thpscale would divide by it)");
	refused("", junk, "'2x'", "2x threads");
	refused("", big, "(1..1000000)", "more than a million threads");
	refused("", neg, "'-1'", "-1 threads");
	ok(parse_check("thpscale", err, sizeof(err)) == 0, "parse_check takes thpscale");
	ok(parse_check("thpscale:4", err, sizeof(err)) < 0, "and no argument after it");
}

/* test_cut: fewer fault lines than MAPSIZE makes fails the run. */
static void test_cut(void)
{
	char *argv[] = { "./thpscale", "2", "16777216", "workfile", "1", NULL };
	char *bigger[] = { "./thpscale", "2", "25165824", "workfile", "1", NULL };
	char *word[] = { "./thpscale", "2", "16M", "workfile", "1", NULL };
	struct parse_result r;
	fails(HEAD "fault 0 huge 100 1.1 1\nfault 0 base 20 1.2 1\nfault 1 huge 300 1.3 0\n", argv,
	      "3 fault lines, where NR_THREADS and MAPSIZE make 4", "three of four fault lines");
	fails(HEAD FAULTS "fault 1 base 40 1.4 1\n", argv, "5 fault lines", "five of four");
	fails(HEAD "fault 0 huge 100 1.1 1\nfault 0 base 20 1.2 1\nfault 1 huge 300 1.3 0\nfault 1 base   4",
	      argv, "is not fault THREAD", "the last line cut inside its latency");
	/* 25165824 / 2 / 2 MiB / 2 = 3 (of 3.0): 6 lines */
	fails(HEAD FAULTS, bigger, "where NR_THREADS and MAPSIZE make 6", "24 MiB on 2 threads: 6 faults");
	is_int(run(HEAD FAULTS, word, &r), 0, "MAPSIZE 16M (not a number): no count to check");
	parse_result_free(&r);
	fails(HEAD "anoninit 0 1\n", argv, "thpscale: no fault line", "no fault line at all");
	fails("", argv, "thpscale: no fault line", "no output at all");
}

/* test_malformed: fault lines thpscale never prints fail the run;
 * lines that are no fault line pass through. */
static void test_malformed(void)
{
	char *argv[] = { "./thpscale", "2", NULL };
	struct parse_result r;
	fails("fault 0 giant 10 1.2 1\n", argv, "is not fault THREAD", "a kind neither huge nor base");
	fails("fault x huge 10 1.2 1\n", argv, "is not fault THREAD", "thread x");
	fails("fault 0 huge 1e3 1.2 1\n", argv, "is not fault THREAD", "latency 1e3");
	fails("fault 0 huge -10 1.2 1\n", argv, "is not fault THREAD", "latency -10");
	fails("fault 0 huge 10.5 1.2 1\n", argv, "is not fault THREAD", "latency 10.5");
	fails("fault 0 huge 10 1.2 2\n", argv, "is not fault THREAD", "locality 2");
	fails("fault 0 huge 10 1.2 1 x\n", argv, "is not fault THREAD", "a word more");
	fails("fault 0 huge 10 12 1\n", argv, "is not fault THREAD", "a time without its '.'");
	fails("fault 0 huge 10\n", argv, "is not fault THREAD", "a line without time and locality");
	fails("fault 0 hugebase 10 1.2 1\n", argv, "is not fault THREAD", "hugebase");
	fails("fault 2 huge 10 1.2 1\n", argv, "a fault of thread 2, of 2 threads", "thread 2 of 2 (0 and 1)");
	/* a latency wrapped by a clock that stepped back: 2^64 - 5 us */
	fails("fault 0 huge 18446744073709551611 1.2 1\n", argv, "(USEC up to a day)", "a wrapped latency");
	fails("fault 0 huge 86400000001 1.2 1\n", argv, "(USEC up to a day)", "a day and 1 us");
	fails("fault 0 huge 99999999999999999999999 1.2 1\n", argv, "is not fault", "a 23-digit latency");
	is_int(run("fault 0 huge 86400000000 1.2 1\r\n", argv, &r), 0, "a day exactly, a CRLF line");
	ok(r.ndists == 2 && r.dists[0].v[0] == 86400000000.0, "its latency 86400000000 us");
	parse_result_free(&r);
	is_int(run("faulty\nfault\n fault 0 huge 1 1.2 1\nfaults: 3\nfault 1 base\t7\t1.2\t0\n", argv, &r), 0,
	       "'faulty', 'fault', ' fault ...', 'faults: 3' pass through; tabs separate as blanks");
	ok(r.ndists == 2 && r.dists[0].n == 1 && r.dists[0].v[0] == 7, "one fault read: base 7");
	parse_result_free(&r);
}

/* test_garbage: long lines of any bytes pass through. */
static void test_garbage(void)
{
	char *argv[] = { "./thpscale", "1", NULL }, *text = malloc(4096 + 64);
	struct parse_result r;
	size_t n;
	for (n = 0; n < 4096; n++) {	/* every byte but NUL, a newline made 'x' */
		char c = (char)(1 + n % 255);
		text[n] = c == '\n' ? 'x' : c;
	}
	strcpy(text + n, "\nfault 0 base 3 1.2 1\n");
	is_int(run(text, argv, &r), 0, "a 4 KB line of every byte passes through");
	ok(r.ndists == 2 && r.dists[0].v[0] == 3, "and the fault after it counts");
	parse_result_free(&r);
	memcpy(text, "fault 0 base ", 13);
	memset(text + 13, '7', 4083);
	fails(text, argv, "is not fault THREAD", "a 4 KB fault line of digits fails");
	memcpy(text, "Running with ", 13);
	fails(text, argv, "is not Running with N", "a 4 KB Running line of digits fails");
	text[13] = '\377';
	fails(text, argv, "'Running with ?777", "its bytes shown as '?'");
	free(text);
}

/* Each fault as this file reads it: kind and latency. */
struct seen {
	double v[3][256];		/* base, huge, both */
	size_t n[3];
};

/* read_faults(text, s): the fault lines of text, split on blanks as
 * mmtests does (field 2 the kind, field 3 the latency), into s. */
static void read_faults(char *text, struct seen *s)
{
	char *l, *save = NULL, kind[16];
	unsigned long long usec;
	int thread;
	memset(s, 0, sizeof(*s));
	for (l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (strncmp(l, "fault ", 6) || sscanf(l, "fault %d %15s %llu", &thread, kind, &usec) != 3)
			continue;
		int k = !strcmp(kind, "huge");
		if (s->n[k] < 256 && s->n[2] < 256) {
			s->v[k][s->n[k]++] = (double)usec;
			s->v[2][s->n[2]++] = (double)usec;
		}
	}
}

/* check_fixture(file, argv, threads, faults): a real output: its
 * distributions hold the faults read here, kind by kind, in order. */
static void check_fixture(const char *file, char *const argv[], int threads, size_t faults)
{
	static const char *kinds[] = { "base", "huge", "both" };
	char *text = read_file(file), name[64];
	struct parse_result r;
	struct seen s;
	if (!ok(text != NULL, "%s can be read", file))
		return;
	is_int(run(text, argv, &r), 0, "%s parses", file);
	read_faults(text, &s);
	ok(s.n[2] == faults, "%s: %zu fault lines read here", file, faults);
	for (int k = 0; k < 3; k++) {
		snprintf(name, sizeof(name), "fault-%s-%d", kinds[k], threads);
		if (!s.n[k])
			ok(!dist(&r, name), "%s: no %s (no such fault)", file, name);
		else
			ok(holds(dist(&r, name), s.v[k], s.n[k]), "%s: %s holds its %zu faults", file, name, s.n[k]);
	}
	parse_result_free(&r);
	free(text);
}

/* test_fixtures: the real outputs (commands as SOURCES says). */
static void test_fixtures(void)
{
	char *two1[] = { "./thpscale", "2", "134217728", "workfile", "1", NULL };
	char *two0[] = { "./thpscale", "2", "134217728", "workfile", "0", NULL };
	char *one1[] = { "./thpscale", "1", "67108864", "workfile", "1", NULL };
	check_fixture(FIX "thpscale-2-128M-madv1.out", two1, 2, 32);
	check_fixture(FIX "thpscale-2-128M-madv0.out", two0, 2, 32);
	check_fixture(FIX "thpscale-1-64M-madv1.out", one1, 1, 16);
}

/* test_table: the format is in the table, before time. */
static void test_table(void)
{
	size_t n, at = 99, time = 99;
	const struct parse_format *const *f = parse_formats(&n);
	for (size_t i = 0; i < n; i++) {
		at = strcmp(parse_format_name(f[i]), "thpscale") ? at : i;
		time = strcmp(parse_format_name(f[i]), "time") ? time : i;
	}
	ok(at < time && time < n, "thpscale comes before time");
	ok(at < n && strstr(parse_format_metrics(f[at]), "fault-both-N"), "its metrics name fault-both-N");
}

int main(void)
{
	test_kinds();
	test_thread_count();
	test_bad_commands();
	test_cut();
	test_malformed();
	test_garbage();
	test_fixtures();
	test_table();
	return tap_done();
}
