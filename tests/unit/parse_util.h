/* What the unit tests of the output formats (test_parse_*.c) share: a
 * text or file through a format's parser, a metric or distribution of
 * the result, and the checks that an output or a command is refused for
 * the right reason. Static inline, so that each test counts its checks
 * with its own tap.h counters. A test defines PU_FORMAT (the format it
 * tests) before including it. */
#ifndef PERFDB_TEST_PARSE_UTIL_H
#define PERFDB_TEST_PARSE_UTIL_H
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "collect/parse/parse.h"
#include "tests/unit/tap.h"

/* feed(p, text): text's lines (each with its newline) to p. */
static inline void feed(struct parser *p, const char *text)
{
	while (*text) {
		size_t n = strcspn(text, "\n");
		char *l = strndup(text, n + (text[n] == '\n'));
		parser_line(p, l);
		free(l);
		text += n + (text[n] == '\n');
	}
}

/* run(text, argv, r): text through a PU_FORMAT parser of argv (a
 * NULL-ended list); parser_end's status, -2 when parser_new failed (its
 * reason in r->error). */
static inline int run(const char *text, char *const argv[], struct parse_result *r)
{
	char err[256];
	struct parser *p = parser_new(PU_FORMAT, argv, err, sizeof(err));
	memset(r, 0, sizeof(*r));
	if (!p) {
		snprintf(r->error, sizeof(r->error), "%s", err);
		return -2;
	}
	feed(p, text);
	int rc = parser_end(p, NULL, r);
	parser_free(p);
	return rc;
}

/* metric(r, name): the metric's value; NAN when r has none of it. */
static inline double metric(const struct parse_result *r, const char *name)
{
	for (size_t i = 0; i < r->nmetrics; i++)
		if (!strcmp(r->metrics[i].name, name))
			return r->metrics[i].value;
	return NAN;
}

/* dist(r, name): the distribution, or NULL. */
static inline const struct dist *dist(const struct parse_result *r, const char *name)
{
	for (size_t i = 0; i < r->ndists; i++)
		if (!strcmp(r->dists[i].name, name))
			return &r->dists[i];
	return NULL;
}

/* fails(text, argv, why, what): the output does not parse, for a reason
 * that says why. */
static inline void fails(const char *text, char *const argv[], const char *why, const char *what)
{
	struct parse_result r;
	int rc = run(text, argv, &r);
	if (!ok(rc == -1 && strstr(r.error, why), "%s", what))
		printf("#   rc %d, error '%s', want one with '%s'\n", rc, r.error, why);
	parse_result_free(&r);
}

/* refused(text, argv, why, what): parser_new refuses the command (text
 * is what it would have read). */
static inline void refused(const char *text, char *const argv[], const char *why, const char *what)
{
	struct parse_result r;
	int rc = run(text, argv, &r);
	if (!ok(rc == -2 && strstr(r.error, why), "%s", what))
		printf("#   rc %d, error '%s'\n", rc, r.error);
	parse_result_free(&r);
}

/* read_file(path): the file's text (malloc'd, at most 64 KiB), or NULL. */
static inline char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = f ? calloc(1, 1 << 16) : NULL;
	if (text && !fread(text, 1, (1 << 16) - 1, f)) {
		free(text);
		text = NULL;
	}
	if (f)
		fclose(f);
	return text;
}
#endif
