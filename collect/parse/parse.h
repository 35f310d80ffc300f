/* Reading a workload's output: the formats perfdb bench and perfdb record
 * understand (--parse FORMAT). A parser sees the run's stdout line by
 * line as it comes and, at the run's end, its resource usage; it yields
 * the run's metrics (one value each) and distributions (many samples of
 * one metric in one run: one per fault, per wakeup), or the reason the
 * output did not parse. Each format is a module of this room
 * (collect/parse/fmt_*.c) with an entry in its table (parse_int.h). */
#ifndef PERFDB_PARSE_H
#define PERFDB_PARSE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "collect/metric_line.h"

/* One distribution: the samples of one metric in one run. */
struct dist {
	char name[64];
	char unit[32];			/* "" when not given */
	enum metric_better better;
	char line[512];			/* the first output line a sample came from */
	double *v;			/* in the order they came */
	size_t n, cap;
};

/* What a run's output said. */
struct parse_result {
	struct metric *metrics;		/* one value each, in the order they came */
	size_t nmetrics, mcap;
	struct dist *dists;
	size_t ndists, dcap;
	char error[256];		/* the first reason it does not parse; "" none */
};

/* The run as a whole, for the formats that read it (time). */
struct parse_usage {
	int64_t wall_ns, user_ns, sys_ns;
};

/* One format's table entry (the fields a user reads; the hooks are in
 * parse_int.h). */
struct parse_format;

/* parse_formats(n): the table of formats, *n entries, in the order
 * --parse help lists them. */
const struct parse_format *const *parse_formats(size_t *n);

/* parse_format_name(f), parse_format_summary(f), parse_format_metrics(f):
 * its name (as --parse takes it), its one-line summary, and the metrics
 * it yields with unit and better= (one line, for help and the man page). */
const char *parse_format_name(const struct parse_format *f);
const char *parse_format_summary(const struct parse_format *f);
const char *parse_format_metrics(const struct parse_format *f);

/* parse_check(spec, err, errlen): whether spec ("metric", "thpscale",
 * "regex:NAME=/RE/...") names a format whose argument is well-formed;
 * 0, or -1 with why in err (an unknown name lists the known ones). */
int parse_check(const char *spec, char *err, size_t errlen);

struct parser;

/* parser_new(spec, argv, err, errlen): a parser of one run of argv (the
 * command as it will run; formats read thread counts from it) in the
 * format spec names (NULL: "metric"). NULL with why in err. */
struct parser *parser_new(const char *spec, char *const argv[], char *err, size_t errlen);

/* parser_argv(p, argv): the command to run: argv itself, or a malloc'd
 * copy with what the format asks of it (stress-ng's --yaml FILE) that
 * parser_free frees. */
char *const *parser_argv(struct parser *p, char *const argv[]);

/* parser_line(p, line): one stdout line (NUL-terminated, with or without
 * its newline). 1 when it is a result line (a metric= line: shown only
 * where metric lines are), 0 when it is the workload's own. */
int parser_line(struct parser *p, const char *line);

/* parser_end(p, u, out): the run ended (u: its usage; NULL when unknown):
 * fills *out (from empty) with every metric and distribution, or sets
 * out->error to the first reason the output does not parse (naming the
 * format and what was missing). 0, or -1 when out->error is set. */
int parser_end(struct parser *p, const struct parse_usage *u, struct parse_result *out);

/* parser_free(p): p and what it made (its files too); NULL is fine. */
void parser_free(struct parser *p);

/* parse_result_free(r): r's metrics and distributions (r itself stays). */
void parse_result_free(struct parse_result *r);
#endif
