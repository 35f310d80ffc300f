/* Inside the parse room: what a format module implements, and the
 * helpers every module uses to add what it read. */
#ifndef PERFDB_PARSE_INT_H
#define PERFDB_PARSE_INT_H
#include <stdint.h>
#include "collect/parse/parse.h"

/* A format module. Every hook may be NULL but name, summary and metrics. */
struct parse_format {
	const char *name;		/* as --parse takes it ("will-it-scale") */
	const char *summary;		/* one line: what it reads */
	const char *metrics;		/* what it yields: "seconds (s, lower)" */
	bool takes_arg;			/* given as NAME:ARG (regex) */
	/* start(arg, argv, err, errlen): the module's state for one run of
	 * argv (arg: what follows "NAME:", NULL without); NULL with why in
	 * err. A module without start has a NULL state. Called by
	 * parse_check with argv NULL to check arg alone. */
	void *(*start)(const char *arg, char *const argv[], char *err, size_t errlen);
	/* argv(state, argv): the command to run, malloc'd, or NULL for argv
	 * itself (the module frees what it returned in its free). */
	char **(*argv)(void *state, char *const argv[]);
	/* line(state, line, out): one stdout line as it comes; may add
	 * metrics and samples to out, or parse_fail it. 1 for a result line,
	 * 0 for the workload's own. */
	int (*line)(void *state, const char *line, struct parse_result *out);
	/* end(state, u, out): the run ended: add what is known only now
	 * (u is NULL when unknown), or parse_fail out. */
	void (*end)(void *state, const struct parse_usage *u, struct parse_result *out);
	void (*free)(void *state);
};

/* parse_metric(out, name, v, unit, better, line): one metric of the run;
 * a second one of a name fails out ("NAME printed twice"). unit and line
 * may be NULL ("") */
void parse_metric(struct parse_result *out, const char *name, double v, const char *unit,
		  enum metric_better better, const char *line);

/* parse_sample(out, name, v, unit, better, line): one sample of the
 * distribution NAME (made at its first sample, which gives its unit,
 * better= and line). A name that is both a metric and a distribution
 * fails out. */
void parse_sample(struct parse_result *out, const char *name, double v, const char *unit,
		  enum metric_better better, const char *line);

/* parse_fail(out, fmt, ...): out does not parse, for the reason fmt says
 * (printf-like); only the first reason is kept. */
void parse_fail(struct parse_result *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* parse_name(out, len, s): s as a metric name: lowercase, every run of
 * characters other than [a-z0-9_.:-] one '_', no '_' at either end; cut
 * to len - 1 bytes. Returns out. */
char *parse_name(char *out, size_t len, const char *s);

/* parse_number(s, end, v): the decimal number s starts with, after
 * blanks: [-]DIGITS[.DIGITS][e[+-]DIGITS] (".5" and "5." too; no hex,
 * inf or nan, at most 500 characters); its value in *v and *end just
 * past it. 0, or -1 when s starts with no such number or its value is
 * not finite (a huge exponent). */
int parse_number(const char *s, const char **end, double *v);

/* parse_at_end(p): whether p is a line's end (NUL, "\n" or "\r\n"). */
bool parse_at_end(const char *p);

/* parse_u64(p, v): 1 to 20 decimal digits at p into *v; past them, or
 * NULL when there are none or the number exceeds 2^64 - 1. */
const char *parse_u64(const char *p, uint64_t *v);

/* parse_shown(buf, len, s): s for a message: at most 60 bytes of its
 * first line, every byte that is not printable ASCII a '?'. Returns buf. */
const char *parse_shown(char *buf, size_t len, const char *s);

/* The formats (one per fmt_*.c; parse.c's table lists them). */
extern const struct parse_format parse_fmt_metric, parse_fmt_will_it_scale, parse_fmt_perf_bench,
	parse_fmt_hackbench, parse_fmt_stress_ng, parse_fmt_fio, parse_fmt_thpscale, parse_fmt_time,
	parse_fmt_regex;
#endif
