/* --parse perf-bench: what `perf bench` prints, in its default format and
 * with --format=simple, for sched pipe, sched messaging, futex hash, mem
 * memcpy and mem memset. The benchmark is named by the command (perf
 * [OPTIONS] bench [-f FORMAT] [-r N] COLLECTION BENCHMARK ...) or by the
 * output's "# Running 'COLLECTION/BENCHMARK' benchmark:" header; the
 * simple format prints a bare number whose meaning only the command
 * gives. perf's mem benchmarks print rates in powers of 1024 (its KB/sec
 * is 1024 bytes a second, MB/sec 1024^2, GB/sec 1024^3). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "collect/parse/parse_int.h"
#include "lib/alloc.h"

enum bench { B_NONE, B_PIPE, B_MESSAGING, B_FUTEX_HASH, B_MEMCPY, B_MEMSET };

static const char *const bench_names[] = {
	[B_NONE] = "", [B_PIPE] = "sched/pipe", [B_MESSAGING] = "sched/messaging",
	[B_FUTEX_HASH] = "futex/hash", [B_MEMCPY] = "mem/memcpy", [B_MEMSET] = "mem/memset",
};

/* One mem function's result: bytes/sec, or cycles/byte with --cycles. */
struct mem_result {
	char func[64];
	double v;
	bool cycles;
	char line[512];
};

struct bench_state {
	enum bench bench;		/* from the command or the header */
	bool simple, cycles;		/* --format=simple; mem --cycles */
	bool seconds, usecs, ops;	/* the lines seen */
	char func[64];			/* the mem function being run */
	bool func_open;			/* its "# function" line came, no result yet */
	struct mem_result *mem;
	size_t nmem, memcap;
};

/* bench_of(name): the benchmark "COLLECTION/BENCHMARK" names; B_NONE
 * for one this format does not read. */
static enum bench bench_of(const char *name)
{
	for (size_t i = 1; i < sizeof(bench_names) / sizeof(bench_names[0]); i++)
		if (!strcmp(bench_names[i], name))
			return (enum bench)i;
	return B_NONE;
}

/* is_perf(arg): whether arg is perf's binary (perf, /usr/bin/perf,
 * perf_6.1, perf-6.1). */
static bool is_perf(const char *arg)
{
	const char *base = strrchr(arg, '/') ? strrchr(arg, '/') + 1 : arg;
	return !strcmp(base, "perf") || !strncmp(base, "perf_", 5) || !strncmp(base, "perf-", 5);
}

/* bench_args(argv): the index of "bench" in argv when argv runs perf
 * bench (perf's own options between them), else -1. */
static int bench_args(char *const argv[])
{
	for (int i = 0; argv[i]; i++) {
		if (!is_perf(argv[i]))
			continue;
		for (int k = i + 1; argv[k]; k++) {
			if (!strcmp(argv[k], "bench"))
				return k;
			if (argv[k][0] != '-')
				break;
		}
	}
	return -1;
}

/* common_opts(s, argv, k): perf bench's own options from argv[k] on
 * (-f/--format FORMAT, -r/--repeat N, in every spelling); the index of
 * the collection's name. */
static int common_opts(struct bench_state *s, char *const argv[], int k)
{
	for (; argv[k] && argv[k][0] == '-'; k++) {
		const char *a = argv[k], *val = NULL;
		if (!strcmp(a, "-f") || !strcmp(a, "--format"))
			val = argv[k + 1] ? argv[++k] : "";
		else if (!strncmp(a, "--format=", 9))
			val = a + 9;
		else if (!strncmp(a, "-f", 2))
			val = a + 2;
		else if ((!strcmp(a, "-r") || !strcmp(a, "--repeat")) && argv[k + 1])
			k++;
		if (val)
			s->simple = !strcmp(val, "simple");
	}
	return k;
}

/* mem_cycles(argv): whether mem's options (argv, after the benchmark's
 * name) ask for cycles (-c, --cycles, or c among clustered short
 * options before one that takes a value). */
static bool mem_cycles(char *const argv[])
{
	static const char *const valued[] = { "--size", "--page", "--function", "--nr_loops", "--chunk" };
	for (int k = 0; argv[k]; k++) {
		const char *a = argv[k];
		if (!strcmp(a, "--cycles"))
			return true;
		for (size_t i = 0; i < sizeof(valued) / sizeof(valued[0]); i++)
			if (!strcmp(a, valued[i]) && argv[k + 1])
				k++;
		if (a[0] != '-' || a[1] == '-')
			continue;
		for (const char *c = a + 1; *c; c++) {
			if (*c == 'c')
				return true;
			if (strchr("spflk", *c)) {
				k += !c[1] && argv[k + 1];
				break;
			}
		}
	}
	return false;
}

/* free_state(state): the state and its mem results. */
static void free_state(void *state)
{
	struct bench_state *s = state;
	free(s->mem);
	free(s);
}

/* start: the benchmark and format the command names, when it is perf
 * bench; one this format does not read is refused. */
static void *start(const char *arg, char *const argv[], char *err, size_t errlen)
{
	struct bench_state *s = xcalloc(1, sizeof(*s));
	char name[128];
	int k;
	(void)arg;
	if (!argv || (k = bench_args(argv)) < 0)
		return s;
	k = common_opts(s, argv, k + 1);
	if (!argv[k])
		return s;
	snprintf(name, sizeof(name), "%s/%s", argv[k], argv[k + 1] ? argv[k + 1] : "");
	if (!(s->bench = bench_of(name))) {
		snprintf(err, errlen, "--parse perf-bench reads sched pipe, sched messaging, futex hash, "
			 "mem memcpy and mem memset, not '%.60s'", name);
		free_state(s);
		return NULL;
	}
	s->cycles = (s->bench == B_MEMCPY || s->bench == B_MEMSET) && mem_cycles(argv + k + 2);
	return s;
}

/* shown(line): how much of line an error quotes: up to its end of
 * line, at most 80 bytes. */
static int shown(const char *line)
{
	size_t n = strcspn(line, "\r\n");
	return n < 80 ? (int)n : 80;
}

/* value(out, text, n, line, v): the n bytes at text (blanks around them
 * allowed) as a number >= 0 in *v; 0, or -1 with out failed (more than
 * 63 bytes are no number: never cut to one). */
static int value(struct parse_result *out, const char *text, size_t n, const char *line, double *v)
{
	char num[64];
	const char *end;
	snprintf(num, sizeof(num), "%.*s", (int)(n < sizeof(num) ? n : sizeof(num) - 1), text);
	if (n >= sizeof(num) || parse_number(num, &end, v) || end[strspn(end, " \t\r\n")] != 0 || *v < 0) {
		text += strspn(text, " \t");
		n = strcspn(text, " \t\r\n");
		parse_fail(out, "perf-bench: '%.*s' in '%.*s' is not a number (finite, >= 0)",
			   n < 40 ? (int)n : 40, text, shown(line), line);
		return -1;
	}
	return 0;
}

/* header(s, line, out): a "# Running 'C/B' benchmark:" line: the
 * benchmark, which must be the command's one. */
static void header(struct bench_state *s, const char *line, struct parse_result *out)
{
	char name[64];
	size_t n = strcspn(line + 11, "'\r\n");
	enum bench b;
	snprintf(name, sizeof(name), "%.*s", (int)(n < sizeof(name) ? n : sizeof(name) - 1), line + 11);
	if (!(b = bench_of(name))) {
		parse_fail(out, "perf-bench: the output is of '%s', which this format does not read", name);
		return;
	}
	if (s->bench && s->bench != b) {
		parse_fail(out, "perf-bench: the output is of '%s', the command runs '%s'", name,
			   bench_names[s->bench]);
		return;
	}
	s->bench = b;
}

/* is_mem(s): whether the benchmark is one of mem's. */
static bool is_mem(const struct bench_state *s)
{
	return s->bench == B_MEMCPY || s->bench == B_MEMSET;
}

/* function(s, line, out): a mem "# function 'NAME' (...)" line: the
 * function whose result comes next (the one before must have had its). */
static void function(struct bench_state *s, const char *line, struct parse_result *out)
{
	size_t n = strcspn(line + 12, "'\r\n");
	if (s->func_open) {
		parse_fail(out, "perf-bench: %s: function '%s' printed no result", bench_names[s->bench], s->func);
		return;
	}
	snprintf(s->func, sizeof(s->func), "%.*s", (int)(n < sizeof(s->func) ? n : sizeof(s->func) - 1),
		 line + 12);
	s->func_open = true;
}

/* mem_result(s, v, cycles, line, out): the open function's result. */
static void mem_result(struct bench_state *s, double v, bool cycles, const char *line,
		       struct parse_result *out)
{
	struct mem_result *m;
	if (!s->func_open) {
		parse_fail(out, "perf-bench: '%.*s' comes before its '# function' line", shown(line), line);
		return;
	}
	ALLOC_GROW(s->mem, s->nmem + 1, s->memcap);
	m = &s->mem[s->nmem++];
	memset(m, 0, sizeof(*m));
	snprintf(m->func, sizeof(m->func), "%s", s->func);
	snprintf(m->line, sizeof(m->line), "%.*s", (int)strcspn(line, "\n"), line);
	m->v = v;
	m->cycles = cycles;
	s->func_open = false;
}

/* rate_unit(word): bytes a second per unit of a mem rate word
 * ("GB/sec"...), or 0 when word is none. perf's "%lfd KB/sec" leaves a
 * 'd' after the number: "dKB/sec" stands for that. */
static double rate_unit(const char *word)
{
	if (!strcmp(word, "bytes/sec"))
		return 1;
	if (!strcmp(word, "KB/sec") || !strcmp(word, "dKB/sec"))
		return 1024.0;
	if (!strcmp(word, "MB/sec"))
		return 1024.0 * 1024.0;
	if (!strcmp(word, "GB/sec"))
		return 1024.0 * 1024.0 * 1024.0;
	return 0;
}

/* unit_line(s, num, unit, line, out): "NUMBER UNIT" (unit the rest of
 * the line): a result when the unit is one of perf bench's. */
static void unit_line(struct bench_state *s, const char *num, const char *unit, const char *line,
		     struct parse_result *out)
{
	double v, per = 0;
	if (!strcmp(unit, "usecs/op") || !strcmp(unit, "ops/sec")) {
		bool us = unit[0] == 'u';
		if (value(out, num, strlen(num), line, &v))
			return;
		parse_metric(out, us ? "usecs_per_op" : "ops_per_sec", v, us ? "us" : "ops/s",
			     us ? BETTER_LOWER : BETTER_HIGHER, line);
		*(us ? &s->usecs : &s->ops) = true;
	} else if (!strcmp(unit, "cycles/byte") || (per = rate_unit(unit)) > 0) {
		bool cycles = unit[0] == 'c';
		if (!value(out, num, strlen(num), line, &v))
			mem_result(s, cycles ? v : v * per, cycles, line, out);
	}
}

/* bare(s, num, line, out): a line of one number: --format=simple's
 * result (seconds for sched's, bytes/sec or cycles/byte for mem's). */
static void bare(struct bench_state *s, const char *num, const char *line, struct parse_result *out)
{
	double v;
	if (!s->simple || s->bench == B_NONE || s->bench == B_FUTEX_HASH || value(out, num, strlen(num), line, &v))
		return;
	if (is_mem(s)) {
		mem_result(s, v, s->cycles, line, out);
		return;
	}
	parse_metric(out, "seconds", v, "s", BETTER_LOWER, line);
	s->seconds = true;
}

/* total_time(s, text, line, out): "Total time: S [sec]" (text past the ':'). */
static void total_time(struct bench_state *s, const char *text, const char *line, struct parse_result *out)
{
	size_t n = strcspn(text, "[");
	double v;
	if (strncmp(text + n, "[sec]", 5)) {
		parse_fail(out, "perf-bench: '%.*s' has no '[sec]'", shown(line), line);
		return;
	}
	if (value(out, text, n, line, &v))
		return;
	parse_metric(out, "seconds", v, "s", BETTER_LOWER, line);
	s->seconds = true;
}

/* averaged(s, text, line, out): futex's "Averaged N operations/sec ..."
 * (text past "Averaged"). */
static void averaged(struct bench_state *s, const char *text, const char *line, struct parse_result *out)
{
	const char *at = text + strspn(text, " ");
	size_t n = strcspn(at, " ");
	double v;
	if (strncmp(at + n, " operations/sec", 15)) {
		parse_fail(out, "perf-bench: '%.*s' has no 'operations/sec'", shown(line), line);
		return;
	}
	if (value(out, at, n, line, &v))
		return;
	parse_metric(out, "ops_per_sec", v, "ops/s", BETTER_HIGHER, line);
	s->ops = true;
}

/* number_line(s, p, n, line, out): a line whose first word (n bytes at
 * p) may be a number: a bare number, or a number and a unit. */
static void number_line(struct bench_state *s, const char *p, size_t n, const char *line,
			struct parse_result *out)
{
	char num[64], unit[64];
	const char *rest = p + n + strspn(p + n, " \t");
	size_t u = strcspn(rest, "\r\n");
	while (u && (rest[u - 1] == ' ' || rest[u - 1] == '\t'))
		u--;
	if (n >= sizeof(num) || u >= sizeof(unit))
		return;
	snprintf(num, sizeof(num), "%.*s", (int)n, p);
	snprintf(unit, sizeof(unit), "%.*s", (int)u, rest);
	/* "1.5d KB/sec": the 'd' goes with the unit */
	if (n > 1 && num[n - 1] == 'd' && !strcmp(unit, "KB/sec")) {
		num[n - 1] = 0;
		snprintf(unit, sizeof(unit), "dKB/sec");
	}
	if (!u)
		bare(s, num, line, out);
	else
		unit_line(s, num, unit, line, out);
}

/* line: the result lines of every benchmark; all are perf's own (they
 * show as they were). */
static int line(void *state, const char *text, struct parse_result *out)
{
	struct bench_state *s = state;
	const char *p = text + strspn(text, " \t");
	size_t n = strcspn(p, " \t\r\n");
	if (!strncmp(text, "# Running '", 11))
		header(s, text, out);
	else if (!strncmp(text, "# function '", 12))
		function(s, text, out);
	else if (!strncmp(p, "Total time:", 11))
		total_time(s, p + 11, text, out);
	else if (!strncmp(p, "Averaged ", 9))
		averaged(s, p + 8, text, out);
	else if (n && *p != '#')
		number_line(s, p, n, text, out);
	return 0;
}

/* mem_metrics(s, out): the mem results: bytes_per_sec (or
 * cycles_per_byte) for one function, FUNCTION.bytes_per_sec for each of
 * several (FUNCTION cut to 40 bytes). */
static void mem_metrics(struct bench_state *s, struct parse_result *out)
{
	char raw[160], name[64];
	for (size_t i = 0; i < s->nmem; i++) {
		const struct mem_result *m = &s->mem[i];
		const char *what = m->cycles ? "cycles_per_byte" : "bytes_per_sec";
		snprintf(raw, sizeof(raw), "%.40s%s%s", s->nmem > 1 ? m->func : "", s->nmem > 1 ? "." : "", what);
		parse_metric(out, parse_name(name, sizeof(name), raw), m->v, m->cycles ? "cycles/B" : "B/s",
			     m->cycles ? BETTER_LOWER : BETTER_HIGHER, m->line);
	}
}

/* end: every line the benchmark prints must have come. */
static void end(void *state, const struct parse_usage *u, struct parse_result *out)
{
	struct bench_state *s = state;
	const char *b = bench_names[s->bench];
	(void)u;
	if (s->bench == B_NONE)
		parse_fail(out, "perf-bench: no \"# Running '...' benchmark:\" line, and the command is "
			   "no perf bench COLLECTION BENCHMARK");
	else if ((s->bench == B_PIPE || s->bench == B_MESSAGING) && !s->seconds)
		parse_fail(out, "perf-bench: %s: no %s", b, s->simple ? "result line" : "'Total time:' line");
	else if (s->bench == B_PIPE && !s->simple && (!s->usecs || !s->ops))
		parse_fail(out, "perf-bench: %s: no '%s' line", b, s->usecs ? "ops/sec" : "usecs/op");
	else if (s->bench == B_FUTEX_HASH && !s->ops)
		parse_fail(out, "perf-bench: %s: no 'Averaged ... operations/sec' line", b);
	else if (is_mem(s) && s->func_open)
		parse_fail(out, "perf-bench: %s: function '%s' printed no result", b, s->func);
	else if (is_mem(s) && !s->nmem)
		parse_fail(out, "perf-bench: %s: no '# function' line with its result", b);
	else if (is_mem(s))
		mem_metrics(s, out);
}

const struct parse_format parse_fmt_perf_bench = {
	.name = "perf-bench",
	.summary = "perf bench sched pipe|messaging, futex hash, mem memcpy|memset (default or --format=simple)",
	.metrics = "seconds (s, lower), usecs_per_op (us, lower), ops_per_sec (ops/s, higher); mem: "
		   "bytes_per_sec (B/s, higher; cycles_per_byte, lower, with --cycles), "
		   "FUNCTION.bytes_per_sec for several functions",
	.start = start,
	.line = line,
	.end = end,
	.free = free_state,
};
