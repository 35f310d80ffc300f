/* libFuzzer harness: a workload's stdout through one --parse format
 * (collect/parse/parse.h), as perfdb bench reads a run. The input's first
 * byte picks the format (its index in parse_formats(), modulo their
 * count; regex: gets a fixed spec of two expressions, a format taking
 * another argument is skipped); the rest is the output, fed to
 * parser_line a line at a time, each with its newline. Then parser_end
 * with a fixed usage, each distribution summarized as parse_store would
 * (lib/dist.h), and everything freed. TMPDIR is a temporary directory
 * of the harness's own, so a format that makes files for its command
 * (parser_argv) makes them there, and it must leave none behind once the
 * parser is freed. Each contract broken aborts: a
 * parser_line return other than 0 or 1, a result that does not say what
 * parser_end returned, an empty or unterminated name, a value that is not
 * finite, a summary out of order. */
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "collect/parse/parse_int.h"
#include "lib/dist.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The regex format's spec: two expressions, units and better= both ways. */
static const char regex_spec[] = "regex:ops=/([0-9.eE+-]+) ops\\/s/ops/s,higher,lat=/^lat[a-z]*[:=] *(.*)$/us,lower";

static char workdir[64];
static volatile uint64_t sink;

/* need(cond, what): aborts (a finding) naming the contract broken. */
static void need(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "fuzz_parse: %s\n", what);
		abort();
	}
}

/* str_ok(s, len): s is NUL-terminated within its len bytes. */
static int str_ok(const char *s, size_t len)
{
	return memchr(s, 0, len) != NULL;
}

/* cleanup(): the temporary directory goes at exit (when empty, as each
 * input leaves it). */
static void cleanup(void)
{
	if (workdir[0])
		rmdir(workdir);
}

/* LLVMFuzzerInitialize: a temporary directory, as TMPDIR (the current
 * directory stays: libFuzzer's paths are relative to it). */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	const char *tmp = getenv("TMPDIR");
	snprintf(workdir, sizeof(workdir), "%s/fuzz_parse.XXXXXX", tmp && *tmp && strlen(tmp) < 40 ? tmp : "/tmp");
	need(mkdtemp(workdir) != NULL, "cannot make a temporary directory");
	need(setenv("TMPDIR", workdir, 1) == 0, "cannot set TMPDIR");
	atexit(cleanup);
	return 0;
}

/* dir_empty(): whether the temporary directory holds nothing. */
static int dir_empty(void)
{
	DIR *d = opendir(workdir);
	struct dirent *e;
	int empty = 1;
	need(d != NULL, "cannot read the temporary directory");
	while (empty && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = 0;
	closedir(d);
	return empty;
}

/* check_result(r, rc): r says what parser_end's rc says; its strings are
 * terminated, its values finite; each distribution's summary in order. */
static void check_result(const struct parse_result *r, int rc)
{
	need(str_ok(r->error, sizeof(r->error)), "error not terminated");
	if (rc) {
		need(rc == -1 && r->error[0], "parser_end failed without a reason");
		need(!r->nmetrics && !r->ndists && !r->metrics && !r->dists, "a failed result holds metrics");
		return;
	}
	need(!r->error[0], "parser_end succeeded with a reason");
	need(r->nmetrics || r->ndists, "parser_end succeeded with nothing");
	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct metric *m = &r->metrics[i];
		need(str_ok(m->name, sizeof(m->name)) && m->name[0], "a metric without a name");
		need(str_ok(m->unit, sizeof(m->unit)) && str_ok(m->line, sizeof(m->line)), "unterminated unit or line");
		need(isfinite(m->value), "a metric value not finite");
		need(m->better <= BETTER_LOWER, "better= out of range");
		sink += strlen(m->line) + strlen(m->unit);
	}
	for (size_t i = 0; i < r->ndists; i++) {
		const struct dist *d = &r->dists[i];
		struct dist_summary s;
		need(str_ok(d->name, sizeof(d->name)) && d->name[0], "a distribution without a name");
		need(str_ok(d->unit, sizeof(d->unit)) && str_ok(d->line, sizeof(d->line)), "unterminated unit or line");
		need(d->n >= 1 && d->n <= d->cap && d->v, "a distribution without samples");
		double *copy = malloc(d->n * sizeof(*copy));
		memcpy(copy, d->v, d->n * sizeof(*copy));
		for (size_t k = 0; k < d->n; k++)
			need(isfinite(copy[k]), "a sample not finite");
		dist_summarize(copy, d->n, d->better != BETTER_HIGHER, &s);
		need(s.count == d->n && s.min <= s.p50 && s.p50 <= s.p90 && s.p90 <= s.p99 && s.p99 <= s.max,
		     "a summary out of order");
		need(!isnan(s.mean) && !isnan(s.stddev) && !isnan(s.bamean95) && !isnan(s.bamean99),
		     "a summary with NaN (the store's NOT NULL columns)");
		free(copy);
	}
}

/* LLVMFuzzerTestOneInput(data, size): one run of the format data[0]
 * picks over the output data[1..size); 0 (a broken contract aborts). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n;
	const struct parse_format *const *formats = parse_formats(&n);
	char err[512], *argv[4] = { NULL, "-t", "2", NULL };
	const struct parse_usage usage = { 1500000000, 1000000000, 250000000 };
	struct parse_result r;
	if (!size)
		return 0;
	const struct parse_format *f = formats[data[0] % n];
	const char *spec = f->name;
	if (f->takes_arg && strcmp(f->name, "regex"))
		return 0;	/* its argument is unknown here */
	if (f->takes_arg)
		spec = regex_spec;
	argv[0] = (char *)f->name;
	struct parser *p = parser_new(spec, argv, err, sizeof(err));
	if (!p) {	/* a format may refuse "-t 2" (thpscale's first word is its thread count) */
		argv[1] = NULL;
		p = parser_new(spec, argv, err, sizeof(err));
	}
	if (!p)
		return 0;
	char *const *cmd = parser_argv(p, argv);
	for (size_t i = 0; cmd[i]; i++)
		sink += strlen(cmd[i]);
	char *text = malloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = 0;
	for (size_t at = 0; at < size - 1;) {
		const char *nl = memchr(text + at, '\n', size - 1 - at);
		size_t len = nl ? (size_t)(nl - (text + at)) + 1 : size - 1 - at;
		char *line = malloc(len + 1);
		memcpy(line, text + at, len);
		line[len] = 0;
		int k = parser_line(p, line);
		need(k == 0 || k == 1, "parser_line returned neither 0 nor 1");
		free(line);
		at += len;
	}
	free(text);
	int rc = parser_end(p, &usage, &r);
	check_result(&r, rc);
	parse_result_free(&r);
	parser_free(p);
	need(dir_empty(), "a file left behind in the temporary directory after parser_free");
	return 0;
}
