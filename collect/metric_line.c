/* The workloads' result lines: see metric_line.h. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "collect/metric_line.h"

/* name_char(c): whether c may be part of a metric name. */
static bool name_char(int c)
{
	return isalnum(c) || c == '_' || c == '.' || c == ':' || c == '-';
}

/* word(p, key, out, len): when the blank-separated word at p is key=...,
 * copies its value into out (at most len - 1 bytes; longer gives -1) and
 * returns 1; 0 when p is another word. */
static int word(const char *p, const char *key, char *out, size_t len)
{
	size_t k = strlen(key), n;
	if (strncmp(p, key, k) || p[k] != '=')
		return 0;
	n = strcspn(p + k + 1, " \t\r\n");
	if (n >= len)
		return -1;
	memcpy(out, p + k + 1, n);
	out[n] = 0;
	return 1;
}

/* parse_value(s, m, err, errlen): value=s into m. 0 or -1. */
static int parse_value(const char *s, struct metric *m, char *err, size_t errlen)
{
	char *end;
	m->value = strtod(s, &end);
	if (!*s || *end || !isfinite(m->value)) {
		snprintf(err, errlen, "metric %s: value '%s' is not a number", m->name, s);
		return -1;
	}
	return 0;
}

/* parse_words(p, m, err, errlen): the words after the name. 0 or -1. */
static int parse_words(const char *p, struct metric *m, char *err, size_t errlen)
{
	char buf[64];
	int have_value = 0;
	for (; *p; p += strcspn(p, " \t\r\n")) {
		p += strspn(p, " \t\r\n");
		if (!*p)
			break;
		int v = word(p, "value", buf, sizeof(buf)), u, b;
		if (!v && (v = word(p, "sample", buf, sizeof(buf))) != 0)
			m->sample = true;
		if (v < 0 || (v > 0 && parse_value(buf, m, err, errlen))) {
			if (v < 0)
				snprintf(err, errlen, "metric %s: value too long", m->name);
			return -1;
		}
		have_value += v > 0;
		if ((u = word(p, "unit", m->unit, sizeof(m->unit))) < 0) {
			snprintf(err, errlen, "metric %s: unit longer than %zu bytes", m->name,
				 sizeof(m->unit) - 1);
			return -1;
		}
		if ((b = word(p, "better", buf, sizeof(buf))) != 0 &&
		    (b < 0 || (m->better = metric_better_parse(buf)) == BETTER_UNKNOWN)) {
			snprintf(err, errlen, "metric %s: better= must be higher or lower", m->name);
			return -1;
		}
	}
	if (have_value != 1)
		snprintf(err, errlen, have_value ? "metric %s: more than one value= or sample="
				      : "metric %s: no value= (or sample=)", m->name);
	return have_value == 1 ? 0 : -1;
}

/* metric_parse: see metric_line.h. */
int metric_parse(const char *line, struct metric *m, char *err, size_t errlen)
{
	size_t n;
	if (strncmp(line, "metric=", 7))
		return 0;
	memset(m, 0, sizeof(*m));
	snprintf(m->line, sizeof(m->line), "%.*s", (int)strcspn(line, "\r\n"), line);
	for (n = 0; name_char((unsigned char)line[7 + n]); n++)
		;
	if (!n || n >= sizeof(m->name) || !strchr(" \t\r\n", line[7 + n]) || !line[7 + n]) {
		snprintf(err, errlen, "malformed metric line '%.80s' (metric=NAME value=V ...)", m->line);
		return -1;
	}
	memcpy(m->name, line + 7, n);
	return parse_words(line + 7 + n, m, err, errlen) ? -1 : 1;
}

/* metric_better_name: see metric_line.h. */
const char *metric_better_name(enum metric_better b)
{
	return b == BETTER_HIGHER ? "higher" : b == BETTER_LOWER ? "lower" : NULL;
}

/* metric_better_parse: see metric_line.h. */
enum metric_better metric_better_parse(const char *s)
{
	return !s ? BETTER_UNKNOWN : !strcmp(s, "higher") ? BETTER_HIGHER :
	       !strcmp(s, "lower") ? BETTER_LOWER : BETTER_UNKNOWN;
}
