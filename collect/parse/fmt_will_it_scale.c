/* --parse will-it-scale: the output of a will-it-scale test binary
 * (TEST_threads or TEST_processes: "min:N max:N total:N" each second,
 * "measurement" after the warm-up seconds, then "average:N") or of its
 * runtest.py (the CSV "tasks,processes,processes_idle,threads,
 * threads_idle,linear", a row per task count). The ops per task are
 * computed as Intel's 0-day (lkp-tests) does: the ops over the task
 * count, the mean over the CSV's rows, truncated to an integer. The task
 * count of a binary is its -t N (1 without), threads or processes its
 * name's ending. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "collect/parse/parse_int.h"
#include "lib/alloc.h"

#define MAX_TASKS 2048		/* will-it-scale's own limit (its main.c) */
#define HEADER "tasks,processes,processes_idle,threads,threads_idle,linear"
#define NCOLS 6

enum kind { KIND_UNKNOWN, KIND_THREADS, KIND_PROCESSES };

struct wis_state {
	enum kind kind;			/* of the binary the command runs */
	uint64_t tasks;			/* its -t N */
	bool measuring;			/* past the "measurement" line */
	bool average;			/* an average: line was read */
	bool csv;			/* runtest.py's header was read */
	size_t rows;			/* the CSV's rows with a result */
	double per_process, per_thread;	/* their ops per task, summed */
	double workload;		/* their ops, both columns summed */
};

/* kind_of(path): what a will-it-scale binary of that path runs its test
 * in, from its name's ending. */
static enum kind kind_of(const char *path)
{
	const char *b = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t n = strlen(b);
	if (n > 8 && !strcmp(b + n - 8, "_threads"))
		return KIND_THREADS;
	if (n > 10 && !strcmp(b + n - 10, "_processes"))
		return KIND_PROCESSES;
	return KIND_UNKNOWN;
}

/* tasks_arg(args, t): the last -t argument among the binary's args (as
 * its getopt, "mt:s:hvn", reads them: "-t N", "-tN", "-nt N") into *t,
 * left alone without one; -1 when a -t has no argument. */
static int tasks_arg(char *const args[], const char **t)
{
	for (size_t i = 0; args[i]; i++) {
		const char *a = args[i];
		if (!strcmp(a, "--"))
			break;
		for (size_t j = 1; a[0] == '-' && a[j]; j++) {
			if (a[j] != 't' && a[j] != 's')
				continue;
			const char *v = a[j + 1] ? a + j + 1 : args[i + 1];
			if (!v)
				return a[j] == 't' ? -1 : 0;
			i += !a[j + 1];
			*t = a[j] == 't' ? v : *t;
			break;
		}
	}
	return 0;
}

/* take_tasks(args, w, err, errlen): the binary's task count (args: what
 * follows it) into w; -1 with why in err when -t is not 1..MAX_TASKS. */
static int take_tasks(char *const args[], struct wis_state *w, char *err, size_t errlen)
{
	const char *t = "1", *end;
	if (tasks_arg(args, &t) < 0) {
		snprintf(err, errlen, "--parse will-it-scale: -t without its task count");
		return -1;
	}
	if (!(end = parse_u64(t, &w->tasks)) || *end || w->tasks < 1 || w->tasks > MAX_TASKS) {
		char b[64];
		snprintf(err, errlen, "--parse will-it-scale: -t '%s' is not a task count (1..%d)",
			 parse_shown(b, sizeof(b), t), MAX_TASKS);
		return -1;
	}
	return 0;
}

/* start: the kind and task count of the first will-it-scale binary argv
 * runs (none: a runtest.py CSV, or an output that yields ops_per_sec
 * only); NULL with why in err on a bad -t. */
static void *start(const char *arg, char *const argv[], char *err, size_t errlen)
{
	struct wis_state *w = xcalloc(1, sizeof(*w));
	(void)arg;
	for (size_t i = 0; argv && argv[i]; i++) {
		if (!(w->kind = kind_of(argv[i])))
			continue;
		if (take_tasks(argv + i + 1, w, err, errlen) < 0) {
			free(w);
			return NULL;
		}
		break;
	}
	return w;
}

/* second(w, s, out): "min:N max:N total:N", one second's ops of the
 * slowest and fastest task and of all; a measured second's total is a
 * sample of ops_per_sec_each_s. */
static void second(struct wis_state *w, const char *s, struct parse_result *out)
{
	uint64_t lo, hi = 0, total = 0;
	const char *p = parse_u64(s + 4, &lo);
	char b[64];
	if (p && !strncmp(p, " max:", 5))
		p = parse_u64(p + 5, &hi);
	else
		p = NULL;
	if (p && !strncmp(p, " total:", 7))
		p = parse_u64(p + 7, &total);
	else
		p = NULL;
	if (!p || !parse_at_end(p) || lo > hi || hi > total) {
		parse_fail(out, "will-it-scale: '%s' is not min:N max:N total:N (min <= max <= total)",
			   parse_shown(b, sizeof(b), s));
		return;
	}
	if (w->measuring)
		parse_sample(out, "ops_per_sec_each_s", (double)total, "ops/s", BETTER_HIGHER, s);
}

/* per_task_name(k): the metric of the ops per task of a kind. */
static const char *per_task_name(enum kind k)
{
	return k == KIND_THREADS ? "per_thread_ops" : "per_process_ops";
}

/* average(w, s, out): "average:N", the mean ops per second of all tasks
 * over the measured seconds: ops_per_sec, and (the binary known) the
 * ops per task, the integer quotient as 0-day prints it. */
static void average(struct wis_state *w, const char *s, struct parse_result *out)
{
	uint64_t v;
	const char *p = parse_u64(s + 8, &v);
	char b[64];
	if (!p || !parse_at_end(p)) {
		parse_fail(out, "will-it-scale: '%s' is not average:N", parse_shown(b, sizeof(b), s));
		return;
	}
	w->average = true;
	parse_metric(out, "ops_per_sec", (double)v, "ops/s", BETTER_HIGHER, s);
	if (w->kind)
		parse_metric(out, per_task_name(w->kind), (double)(v / w->tasks), "ops/s", BETTER_HIGHER, s);
}

/* header(w, s, out): a line starting "tasks,": runtest.py's header, or
 * a CSV this format does not know (fails out). */
static void header(struct wis_state *w, const char *s, struct parse_result *out)
{
	size_t n = strlen(HEADER);
	char b[64];
	if (strncmp(s, HEADER, n) || !parse_at_end(s + n)) {
		parse_fail(out, "will-it-scale: the CSV header '%s' is not runtest.py's (" HEADER ")",
			   parse_shown(b, sizeof(b), s));
		return;
	}
	w->csv = true;
}

/* split(s, col, ncol): s's comma-separated fields (to its newline, a
 * CR before it dropped) into col, the first ncol of them, each
 * NUL-terminated; how many there are, -1 when one of those is longer
 * than 31 bytes. */
static int split(const char *s, char col[][32], int ncol)
{
	for (int k = 0;; k++) {
		size_t n = strcspn(s, ",\n");
		bool last = s[n] != ',';
		n -= last && n && s[n - 1] == '\r';
		if (k < ncol && n >= 32)
			return -1;
		if (k < ncol) {
			memcpy(col[k], s, n);
			col[k][n] = 0;
		}
		if (last)
			return k + 1;
		s += n + 1;
	}
}

/* ops_col(c, v): a column of ops per second (a whole number; runtest.py
 * writes -1 for a run that printed no average) into *v; false when it
 * is neither. */
static bool ops_col(const char *c, double *v)
{
	uint64_t u;
	const char *p = parse_u64(c, &u);
	*v = !strcmp(c, "-1") ? -1 : (double)u;
	return (p && !*p) || *v < 0;
}

/* idle_col(c, v): an idle percentage (0..100, "14.30") into *v. */
static bool idle_col(const char *c, double *v)
{
	char *end;
	if (!*c || strspn(c, "0123456789.") != strlen(c))
		return false;
	*v = strtod(c, &end);
	return !*end && isfinite(*v) && *v >= 0 && *v <= 100;
}

/* row_metric(out, name, n, v, unit, better, s): the metric NAME-N. */
static void row_metric(struct parse_result *out, const char *name, uint64_t n, double v, const char *unit,
		       enum metric_better better, const char *s)
{
	char full[64];
	snprintf(full, sizeof(full), "%s-%llu", name, (unsigned long long)n);
	parse_metric(out, full, v, unit, better, s);
}

/* add_row(w, n, v, s, out): a row with a result (n tasks; v: processes,
 * processes_idle, threads, threads_idle): its metrics, and its share
 * of the means. */
static void add_row(struct wis_state *w, uint64_t n, const double v[4], const char *s, struct parse_result *out)
{
	double pp = v[0] / (double)n, pt = v[2] / (double)n;
	row_metric(out, "processes", n, v[0], "ops/s", BETTER_HIGHER, s);
	row_metric(out, "threads", n, v[2], "ops/s", BETTER_HIGHER, s);
	row_metric(out, "per_process_ops", n, trunc(pp), "ops/s", BETTER_HIGHER, s);
	row_metric(out, "per_thread_ops", n, trunc(pt), "ops/s", BETTER_HIGHER, s);
	row_metric(out, "processes_idle", n, v[1], "%", BETTER_UNKNOWN, s);
	row_metric(out, "threads_idle", n, v[3], "%", BETTER_UNKNOWN, s);
	w->per_process += pp;
	w->per_thread += pt;
	w->workload += v[0] + v[2];
	w->rows++;
}

/* take_row(col, n, v): a row's columns as runtest.py writes them into
 * *n (tasks) and v (processes, processes_idle, threads, threads_idle; -1
 * for a run that printed no average); false when they are not. */
static bool take_row(char col[][32], uint64_t *n, double v[4])
{
	const char *p = parse_u64(col[0], n);
	double linear;
	return p && !*p && *n <= MAX_TASKS && ops_col(col[1], &v[0]) && idle_col(col[2], &v[1]) &&
	       ops_col(col[3], &v[2]) && idle_col(col[4], &v[3]) && ops_col(col[5], &linear) && linear >= 0;
}

/* row(w, s, out): one CSV row. The row of 0 tasks, and a row where both
 * runs made 0 ops (0-day's bad sample), count for nothing; a run that
 * printed no average (-1) fails out. */
static void row(struct wis_state *w, const char *s, struct parse_result *out)
{
	char col[NCOLS][32], b[64];
	double v[4];
	uint64_t n;
	int k = split(s, col, NCOLS);
	if (k < 0)
		parse_fail(out, "will-it-scale: CSV row '%s': a column longer than 31 bytes", parse_shown(b, sizeof(b), s));
	else if (k != NCOLS)
		parse_fail(out, "will-it-scale: CSV row '%s' has %d columns, not %d", parse_shown(b, sizeof(b), s), k, NCOLS);
	if (k != NCOLS)
		return;
	if (!take_row(col, &n, v)) {
		parse_fail(out, "will-it-scale: CSV row '%s': not tasks (0..%d), ops, idle %%, ops, idle %%, ops",
			   parse_shown(b, sizeof(b), s), MAX_TASKS);
		return;
	}
	if (v[0] < 0 || v[2] < 0) {
		parse_fail(out, "will-it-scale: CSV row '%s': the %s run printed no average: line", parse_shown(b, sizeof(b), s),
			   v[0] < 0 ? "processes" : "threads");
		return;
	}
	if (n > 0 && (v[0] > 0 || v[2] > 0))
		add_row(w, n, v, s, out);
}

/* line: the binary's result lines, runtest.py's header and rows; every
 * line is the workload's own (it shows as it was). */
static int line(void *state, const char *s, struct parse_result *out)
{
	struct wis_state *w = state;
	if (!strncmp(s, "min:", 4))
		second(w, s, out);
	else if (!strncmp(s, "average:", 8))
		average(w, s, out);
	else if (!strncmp(s, "measurement", 11) && parse_at_end(s + 11))
		w->measuring = true;
	else if (!strncmp(s, "tasks,", 6))
		header(w, s, out);
	else if (w->csv && ((*s >= '0' && *s <= '9') || *s == '-'))
		row(w, s, out);
	return 0;
}

/* end: the CSV's means (0-day's per_process_ops, per_thread_ops and
 * workload); no average: line and no CSV row fails out. */
static void end(void *state, const struct parse_usage *u, struct parse_result *out)
{
	struct wis_state *w = state;
	(void)u;
	if (w->csv && w->rows) {
		parse_metric(out, "per_process_ops", trunc(w->per_process / (double)w->rows), "ops/s", BETTER_HIGHER,
			     "(the mean over the CSV's rows)");
		parse_metric(out, "per_thread_ops", trunc(w->per_thread / (double)w->rows), "ops/s", BETTER_HIGHER,
			     "(the mean over the CSV's rows)");
		parse_metric(out, "workload", w->workload, "ops/s", BETTER_HIGHER, "(the sum over the CSV's rows)");
	} else if (w->csv) {
		parse_fail(out, "will-it-scale: runtest.py's CSV has no row with a result (tasks > 0, ops > 0)");
	} else if (!w->average) {
		parse_fail(out, "will-it-scale: no average: line in the output (nor runtest.py's CSV)");
	}
}

const struct parse_format parse_fmt_will_it_scale = {
	.name = "will-it-scale",
	.summary = "a will-it-scale TEST_threads or TEST_processes (min: max: total: each second, average:), "
		   "or runtest.py's CSV",
	.metrics = "a binary: ops_per_sec (ops/s, higher: its average:), per_thread_ops or per_process_ops "
		   "(ops/s, higher: ops_per_sec / -t N, an integer as 0-day's), samples ops_per_sec_each_s "
		   "(ops/s, higher: each measured second); runtest.py's CSV, per row of N tasks: processes-N, "
		   "threads-N, per_process_ops-N, per_thread_ops-N (ops/s, higher), processes_idle-N, "
		   "threads_idle-N (%), and over the rows (0-day's) per_process_ops, per_thread_ops (the mean), "
		   "workload (the sum of both columns) (ops/s, higher)",
	.start = start,
	.line = line,
	.end = end,
	.free = free,
};
