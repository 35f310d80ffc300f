/* Unit tests of collect/parse's core and its first three formats: which
 * specs parse_check takes and why it refuses the others, a parser's life
 * (parser_new, parser_line, parser_end) in the metric, time and regex
 * formats, parse_name, and what parser_end leaves in its result on
 * success and on failure. Every expected value is worked out from the
 * contracts (parse.h, parse_int.h, metric_line.h), not read from a run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "collect/parse/parse_int.h"
#include "tests/unit/tap.h"

static char err[512];

/* check_err(spec): parse_check(spec)'s message, or "(accepted)" when it
 * takes spec. Static buffer. */
static const char *check_err(const char *spec)
{
	strcpy(err, "(untouched)");
	return parse_check(spec, err, sizeof(err)) ? err : "(accepted)";
}

/* starts(s, prefix): whether s starts with prefix. */
static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* run(spec, lines, u, r): a parser of spec fed the NULL-terminated lines
 * (results[i] set to each parser_line's return, when results is not
 * NULL), ended with usage u into *r; parser_end's return, or -2 when
 * parser_new refused spec (why in err). */
static int run(const char *spec, const char *const *lines, int *results, const struct parse_usage *u,
	       struct parse_result *r)
{
	char *argv[] = { "workload", NULL };
	struct parser *p = parser_new(spec, argv, err, sizeof(err));
	int rc;
	memset(r, 0, sizeof(*r));
	if (!p)
		return -2;
	for (size_t i = 0; lines[i]; i++) {
		int k = parser_line(p, lines[i]);
		if (results)
			results[i] = k;
	}
	rc = parser_end(p, u, r);
	parser_free(p);
	return rc;
}

/* is_empty(r): whether r holds no metric and no distribution (nor their
 * arrays). */
static int is_empty(const struct parse_result *r)
{
	return !r->nmetrics && !r->metrics && !r->ndists && !r->dists;
}

/* fails(spec, lines, u, want, what): the run fails saying exactly want,
 * leaving its result empty. */
static void fails(const char *spec, const char *const *lines, const struct parse_usage *u, const char *want,
		  const char *what)
{
	struct parse_result r;
	int rc = run(spec, lines, NULL, u, &r);
	if (!ok(rc == -1 && !strcmp(r.error, want) && is_empty(&r), "%s", what))
		printf("#   rc %d, %zu metrics, %zu dists, error '%s'\n#   want '%s'\n", rc, r.nmetrics,
		       r.ndists, r.error, want);
	parse_result_free(&r);
}

/* metric_is(r, i, name, v, unit, better, line): r's metric i is that. */
static int metric_is(const struct parse_result *r, size_t i, const char *name, double v, const char *unit,
		     enum metric_better better, const char *line)
{
	const struct metric *m = &r->metrics[i];
	if (i < r->nmetrics && !strcmp(m->name, name) && m->value == v && !strcmp(m->unit, unit) &&
	    m->better == better && !strcmp(m->line, line))
		return 1;
	if (i < r->nmetrics)
		printf("#   metric %zu: '%s' %.17g '%s' %d '%s'\n", i, m->name, m->value, m->unit, m->better,
		       m->line);
	else
		printf("#   no metric %zu (%zu)\n", i, r->nmetrics);
	return 0;
}

/* ---- parse_check ---- */

/* test_check_names: the format names, an unknown one, arguments given to
 * a format without and none to one with. */
static void test_check_names(void)
{
	size_t n;
	const struct parse_format *const *f = parse_formats(&n);
	char want[512];
	int at = snprintf(want, sizeof(want), "--parse: no format 'nope'; the formats are");
	int named = 1;
	for (size_t i = 0; i < n; i++) {
		at += snprintf(want + at, sizeof(want) - (size_t)at, "%s %s", i ? "," : "", parse_format_name(f[i]));
		named &= *parse_format_summary(f[i]) && *parse_format_metrics(f[i]);
	}
	ok(n >= 3 && named, "%zu formats, each with a summary and what it yields", n);
	is_str(check_err("nope"), want, "an unknown name lists every format, in the table's order");
	is_str(check_err("nope:x=/(1)/"), want, "an unknown name with an argument: the same");
	ok(strstr(want, " metric,") && strstr(want, " time") && strstr(want, " regex"),
	   "metric, time and regex are among them");
	is_str(check_err("metric"), "(accepted)", "metric");
	is_str(check_err("time"), "(accepted)", "time");
	ok(starts(check_err("metri"), "--parse: no format 'metri'; the formats are "), "a prefix of a name is no name");
	ok(starts(check_err("metrics"), "--parse: no format 'metrics'; "), "nor is a name with more after it");
	is_str(check_err("metric:x"), "--parse metric takes no argument (no ':')", "metric:x");
	is_str(check_err("time:"), "--parse time takes no argument (no ':')", "time: (an empty argument)");
	is_str(check_err("regex"), "--parse regex needs its argument: regex:...", "regex without its argument");
	is_str(check_err("regex:"), "--parse regex: no NAME=/RE/ given", "regex: with an empty one");
}

/* test_check_regex: what regex: refuses, and how far it goes. */
static void test_check_regex(void)
{
	char spec[1024], unit[40];
	is_str(check_err("regex:ops=/ops: ([0-9.]+)/ops/s,higher,lat=/lat ([0-9]+)/us,lower"), "(accepted)",
	       "two expressions with units and better=");
	ok(starts(check_err("regex:a=/([0-9]+/"), "--parse regex: a: /([0-9]+/: ") &&
	   strlen(err) > strlen("--parse regex: a: /([0-9]+/: "), "a bad expression: regcomp's reason after it (%s)",
	   err);
	is_str(check_err("regex:a=/[0-9]+/"), "--parse regex: a: /[0-9]+/ has no group ( ) around the value",
	       "an expression without a group");
	is_str(check_err("regex:a=/([0-9]+)"), "--parse regex: a: the expression has no closing '/' (or is too long)",
	       "an unclosed '/'");
	is_str(check_err("regex:a=/([0-9]+)\\/"), "--parse regex: a: the expression has no closing '/' (or is too long)",
	       "an escaped '/' does not close it");
	is_str(check_err("regex:a b=/(1)/"), "--parse regex: 'a b' is not a metric name ([A-Za-z0-9_.:-])",
	       "a name with a blank");
	is_str(check_err("regex:=/(1)/"), "--parse regex: expected NAME=/RE/ at '=/(1)/'", "no name");
	is_str(check_err("regex:a=(1)"), "--parse regex: expected NAME=/RE/ at 'a=(1)'", "no '/' after NAME=");
	is_str(check_err("regex:a=/(1)/s,b"), "--parse regex: expected NAME=/RE/ at 'b'",
	       "after the unit: neither better= nor NAME=/RE/");
	memset(unit, 'u', 31);
	unit[31] = 0;
	snprintf(spec, sizeof(spec), "regex:a=/(1)/%s,lower", unit);
	is_str(check_err(spec), "(accepted)", "a unit of 31 bytes");
	snprintf(spec, sizeof(spec), "regex:a=/(1)/%su,lower", unit);
	is_str(check_err(spec), "--parse regex: a: unit longer than 31 bytes", "a unit of 32 bytes");
	int at = snprintf(spec, sizeof(spec), "regex:");
	for (int i = 0; i < 16; i++)
		at += snprintf(spec + at, sizeof(spec) - (size_t)at, "%sm%d=/(%d)/", i ? "," : "", i, i);
	is_str(check_err(spec), "(accepted)", "16 expressions");
	snprintf(spec + at, sizeof(spec) - (size_t)at, ",m16=/(16)/");
	is_str(check_err(spec), "--parse regex: more than 16 expressions", "17 expressions");
	ok(!parser_new("regex:a=/[0-9]+/", NULL, err, sizeof(err)) &&
	   !strcmp(err, "--parse regex: a: /[0-9]+/ has no group ( ) around the value"),
	   "parser_new refuses what parse_check refuses, saying the same");
	ok(!parser_new("nope", NULL, err, sizeof(err)) && starts(err, "--parse: no format 'nope'"),
	   "parser_new of an unknown name");
}

/* ---- metric ---- */

/* test_metric_values: values and samples, which lines are result lines,
 * and the lines kept. */
static void test_metric_values(void)
{
	const char *const lines[] = {
		"warming up\n",
		"metric=ops value=12.5 unit=ops/s better=higher\n",
		"metric=lat sample=3 unit=us better=lower threads=4\n",
		"metric=lat sample=1\n",
		"metric=lat sample=-2.5e1 unit=ms better=higher\n",
		"done, metric=x value=1\n",
		"metric=elapsed value=0.25\r\n",
		"metric=nonl value=7",
		NULL,
	};
	int res[8];
	struct parse_result r;
	int rc = run(NULL, lines, res, NULL, &r);
	ok(rc == 0 && !r.error[0], "metric (the default, spec NULL): parses (%s)", r.error);
	ok(!res[0] && res[1] && res[2] && res[3] && res[4] && !res[5] && res[6] && res[7],
	   "parser_line: 1 for each metric= line, 0 for the workload's own (%d%d%d%d%d%d%d%d)", res[0], res[1],
	   res[2], res[3], res[4], res[5], res[6], res[7]);
	ok(r.nmetrics == 3 && r.ndists == 1, "3 metrics and 1 distribution (%zu, %zu)", r.nmetrics, r.ndists);
	ok(metric_is(&r, 0, "ops", 12.5, "ops/s", BETTER_HIGHER, "metric=ops value=12.5 unit=ops/s better=higher"),
	   "ops: 12.5 ops/s, higher, its line without the newline");
	ok(metric_is(&r, 1, "elapsed", 0.25, "", BETTER_UNKNOWN, "metric=elapsed value=0.25"),
	   "elapsed: no unit, no better=, the line without its CR LF");
	ok(metric_is(&r, 2, "nonl", 7, "", BETTER_UNKNOWN, "metric=nonl value=7"), "a last line without a newline");
	if (r.ndists == 1) {
		const struct dist *d = &r.dists[0];
		ok(!strcmp(d->name, "lat") && d->n == 3 && d->v[0] == 3 && d->v[1] == 1 && d->v[2] == -25,
		   "lat: the samples 3, 1, -25 in the order they came");
		ok(!strcmp(d->unit, "us") && d->better == BETTER_LOWER &&
		   !strcmp(d->line, "metric=lat sample=3 unit=us better=lower threads=4"),
		   "lat: unit, better= and line of its first sample (later ones' differ)");
	}
	parse_result_free(&r);
	ok(is_empty(&r) && !r.error[0], "parse_result_free empties the result");
}

/* test_metric_fails: what fails a metric run, with what reason. */
static void test_metric_fails(void)
{
	const char *const twice[] = { "metric=x value=1\n", "metric=y value=3\n", "metric=x value=2\n", NULL };
	const char *const both[] = { "metric=x value=1\n", "metric=x sample=2\n", NULL };
	const char *const both2[] = { "metric=x sample=2\n", "metric=x sample=3\n", "metric=x value=1\n", NULL };
	const char *const none[] = { "hello\n", "metrics=1\n", " metric=x value=1\n", NULL };
	const char *const empty[] = { NULL };
	const char *const noval[] = { "metric=x\n", "metric=y value=1\n", NULL };
	const char *const noname[] = { "metric= value=1\n", NULL };
	const char *const nan_[] = { "metric=x value=abc unit=s\n", NULL };
	const char *const inf_[] = { "metric=x value=inf\n", NULL };
	const char *const bad_better[] = { "metric=x value=1 better=sideways\n", NULL };
	const char *const two_values[] = { "metric=x value=1 sample=2\n", NULL };
	const char *const first[] = { "metric=a value=1\n", "metric=a value=2\n", "metric=b\n", NULL };
	const char *const msg = "printed no metric line (metric=NAME value=V ...) on stdout";
	int res[3];
	struct parse_result r;
	fails("metric", twice, NULL, "metric x printed twice (1 and 2)", "a metric printed twice fails, naming it");
	fails("metric", both, NULL, "metric x printed as a value and as samples", "a value, then samples of it");
	fails("metric", both2, NULL, "metric x printed as a value and as samples", "samples, then a value of it");
	fails("metric", none, NULL, msg, "only the workload's own lines: the default message");
	fails("metric", empty, NULL, msg, "no line at all: the default message");
	fails("metric", noval, NULL, "metric x: no value= (or sample=)", "metric=x alone: metric_line's reason");
	fails("metric", noname, NULL, "malformed metric line 'metric= value=1' (metric=NAME value=V ...)",
	      "an empty name: metric_line's reason, the line without its newline");
	fails("metric", nan_, NULL, "metric x: value 'abc' is not a number", "a value that is no number");
	fails("metric", inf_, NULL, "metric x: value 'inf' is not a number", "an infinite value");
	fails("metric", bad_better, NULL, "metric x: better= must be higher or lower", "better=sideways");
	fails("metric", two_values, NULL, "metric x: more than one value= or sample=", "value= and sample=");
	fails("metric", first, NULL, "metric a printed twice (1 and 2)", "only the first reason is kept");
	run("metric", noval, res, NULL, &r);
	ok(res[0] == 0 && res[1] == 1,
	   "a malformed metric= line is the workload's own (0, shown as it was); a good one after it still 1");
	parse_result_free(&r);
	run("metric", twice, res, NULL, &r);
	ok(res[2] == 1, "a well-formed line printed twice is still a result line");
	parse_result_free(&r);
}

/* ---- time ---- */

/* test_time: the usage as three metrics, exactly; none without it. */
static void test_time(void)
{
	const char *const lines[] = { "metric=x value=1\n", "12.5 ops/s\n", NULL };
	const struct parse_usage u = { 1500000000, 250000000, 123456789 }, zero = { 0, 0, 0 };
	int res[2];
	struct parse_result r;
	fails("time", lines, NULL, "time: the run's usage is unknown", "time without a usage fails");
	int rc = run("time", lines, res, &u, &r);
	ok(rc == 0 && r.nmetrics == 3 && r.ndists == 0, "time with a usage: 3 metrics");
	ok(!res[0] && !res[1], "time reads no line: a metric= line too is the workload's own");
	if (r.nmetrics == 3) {
		ok(metric_is(&r, 0, "elapsed_s", 1.5, "s", BETTER_LOWER, "(the run's wall time)"),
		   "elapsed_s 1.5 s, lower");
		ok(metric_is(&r, 1, "user_s", 0.25, "s", BETTER_LOWER, "(the run's user time)"), "user_s 0.25 s");
		/* 123456789 ns / 1e9 correctly rounded is the double nearest
		 * 0.123456789, as the literal is */
		ok(metric_is(&r, 2, "sys_s", 0.123456789, "s", BETTER_LOWER, "(the run's system time)"),
		   "sys_s 0.123456789 s");
	}
	parse_result_free(&r);
	rc = run("time", lines + 2, NULL, &zero, &r);
	ok(rc == 0 && r.nmetrics == 3 && r.metrics[0].value == 0 && r.metrics[2].value == 0,
	   "a usage of zeros: three metrics of 0, not 'no metric'");
	parse_result_free(&r);
}

/* ---- regex ---- */

/* test_regex: values from the first group, units and better=, lines. */
static void test_regex(void)
{
	const char *spec = "regex:ops=/ops: ([0-9.]+)/ops/s,higher,lat=/latency (([0-9]+)\\.[0-9]+) us\\/op/us,lower,"
			   "n=/^count=([0-9]+)$/,w=/^w=(.*)/";
	const char *const lines[] = {
		"starting\n",
		"ops: 12.5 (4 threads)\n",
		"latency 40.75 us/op\n",
		"count=7\n",
		"w=-3e2\n",
		NULL,
	};
	int res[5];
	struct parse_result r;
	int rc = run(spec, lines, res, NULL, &r);
	ok(rc == 0 && r.nmetrics == 4 && r.ndists == 0, "regex: 4 metrics (%s)", rc == -2 ? err : r.error);
	ok(!res[0] && !res[1] && !res[2] && !res[3] && !res[4], "every line is the workload's own (0)");
	if (r.nmetrics == 4) {
		ok(metric_is(&r, 0, "ops", 12.5, "ops/s", BETTER_HIGHER, "ops: 12.5 (4 threads)"),
		   "ops 12.5, unit ops/s (a '/' after the expression's end), higher, its line");
		ok(metric_is(&r, 1, "lat", 40.75, "us", BETTER_LOWER, "latency 40.75 us/op"),
		   "lat: the first group (40.75), not the one inside it (40); \\/ in RE is a '/'");
		ok(metric_is(&r, 2, "n", 7, "", BETTER_UNKNOWN, "count=7"),
		   "an expression anchored with $ matches a line that ends in its newline");
		ok(metric_is(&r, 3, "w", -300, "", BETTER_UNKNOWN, "w=-3e2"),
		   "a group of .* holds the value, not the line's newline");
	}
	parse_result_free(&r);
}

/* test_regex_fails: a second matching line, no match, no number. */
static void test_regex_fails(void)
{
	const char *const twice[] = { "ops: 12.5\n", "ops: 13\n", NULL };
	const char *const one[] = { "ops: 1\n", NULL };
	const char *const word[] = { "v=abc\n", NULL };
	const char *const blank[] = { "v= \n", NULL };
	const char *const alt[] = { "w\n", NULL };
	char longv[128], *const longl[] = { longv, NULL };
	fails("regex:ops=/ops: ([0-9.]+)/", twice, NULL, "metric ops printed twice (12.5 and 13)",
	      "a second matching line fails as a metric printed twice");
	fails("regex:ops=/ops: ([0-9]+)/,lat=/lat ([0-9]+)/", one, NULL, "regex: lat: no line of the output matched",
	      "an expression no line matched fails, naming its metric");
	fails("regex:v=/v=([^ ]*)/", word, NULL, "regex: v: 'abc' (the group's text) is not a number",
	      "a group that is not a number");
	fails("regex:v=/v=([^ ]*)/", blank, NULL, "regex: v: '' (the group's text) is not a number",
	      "an empty group");
	fails("regex:v=/v=([0-9]+)|w/", alt, NULL, "regex: v: no line of the output matched",
	      "a match where the group took no part is no match");
	snprintf(longv, sizeof(longv), "v=1%070d", 0);
	fails("regex:v=/v=([0-9]+)/", (const char *const *)longl, NULL,
	      "regex: v: '1000000000000000000000000000000000000000' (the group's text) is not a number",
	      "a group of 71 digits (past 63 bytes) is not taken cut");
}

/* ---- parse_name, parser_end ---- */

/* test_name: parse_name's normalization and cuts. */
static void test_name(void)
{
	char b[64];
	is_str(parse_name(b, sizeof(b), "Page Faults/sec"), "page_faults_sec", "blanks and '/' become one '_' each run");
	is_str(parse_name(b, sizeof(b), "  Total time (s)  "), "total_time_s", "no '_' at either end");
	is_str(parse_name(b, sizeof(b), "a--b.c:d_E"), "a--b.c:d_e", "[a-z0-9_.:-] kept, upper case lowered");
	is_str(parse_name(b, sizeof(b), "\xc3\x84rger \xc3\xa9t\xc3\xa9"), "rger_t", "bytes past ASCII are gaps");
	is_str(parse_name(b, sizeof(b), "!!!"), "", "nothing to keep: empty");
	is_str(parse_name(b, sizeof(b), ""), "", "empty: empty");
	is_str(parse_name(b, 5, "abcdefg"), "abcd", "cut to len - 1 bytes");
	is_str(parse_name(b, 4, "a b"), "a_b", "a gap that fits");
	is_str(parse_name(b, 3, "a b"), "a", "a gap at the cut: the name cut before it, not the words joined");
	is_str(parse_name(b, 4, "ab cd"), "ab", "a gap at the cut: no '_' at the end");
	ok(parse_name(b, sizeof(b), "x") == b, "returns out");
}

/* test_end: what parser_end leaves in *out, and a parser's other calls. */
static void test_end(void)
{
	const char *const good[] = { "metric=a value=1\n", "metric=s sample=2\n", NULL };
	char *argv[] = { "w", "-t", "2", NULL };
	struct parse_result r;
	struct parser *p = parser_new("metric", argv, err, sizeof(err));
	memset(&r, 0x5a, sizeof(r));
	ok(p && parser_argv(p, argv) == argv, "a format without an argv hook runs argv itself");
	if (p) {
		parser_line(p, good[0]);
		parser_line(p, good[1]);
		ok(parser_end(p, NULL, &r) == 0 && r.nmetrics == 1 && r.ndists == 1 && !r.error[0] &&
		   r.metrics && r.dists && r.dists[0].n == 1, "success: *out full (from whatever it held), no error");
		parse_result_free(&r);
		memset(&r, 0x5a, sizeof(r));
		ok(parser_end(p, NULL, &r) == -1 && is_empty(&r) &&
		   !strcmp(r.error, "printed no metric line (metric=NAME value=V ...) on stdout"),
		   "a second parser_end: the lines went with the first");
		parse_result_free(&r);
		parser_line(p, "metric=a value=1\n");
		parser_line(p, "metric=a value=1\n");
		ok(parser_end(p, NULL, &r) == -1 && is_empty(&r) && !strcmp(r.error, "metric a printed twice (1 and 1)"),
		   "failure: *out empty, the error kept");
		parse_result_free(&r);
	}
	parser_free(p);
	parser_free(NULL);	/* fine: a crash fails the test */
}

/* main: runs every test; exit status 0 when all passed. */
int main(void)
{
	test_check_names();
	test_check_regex();
	test_metric_values();
	test_metric_fails();
	test_time();
	test_regex();
	test_regex_fails();
	test_name();
	test_end();
	return tap_done();
}
