/* --parse regex:NAME=/RE/[UNIT][,higher|lower][,NAME=/RE/...]: any
 * output, read by POSIX extended regular expressions (regcomp); the
 * first group of each is its metric's value, from the first line it
 * matches (a second matching line fails the run, as a metric printed
 * twice does). Inside RE, "\/" is a slash. */
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "collect/parse/parse_int.h"
#include "lib/alloc.h"

#define MAX_RES 16

struct one {
	char name[64], unit[32];
	enum metric_better better;
	regex_t re;
	bool seen;
};

struct regex_state {
	struct one re[MAX_RES];
	size_t n;
};

/* free_state(state): the compiled expressions and the state. */
static void free_state(void *state)
{
	struct regex_state *s = state;
	for (size_t i = 0; i < s->n; i++)
		regfree(&s->re[i].re);
	free(s);
}

/* take_re(p, buf, len): the expression from p (just past its opening
 * '/') to its closing '/' into buf, "\/" made '/'; the rest after the
 * '/', or NULL when none closes it or it is too long. */
static const char *take_re(const char *p, char *buf, size_t len)
{
	size_t n = 0;
	for (; *p && *p != '/'; p++) {
		if (p[0] == '\\' && p[1] == '/')
			p++;
		if (n + 1 >= len)
			return NULL;
		buf[n++] = *p;
	}
	buf[n] = 0;
	return *p == '/' ? p + 1 : NULL;
}

/* take_tail(p, o, err, errlen): [UNIT][,higher|lower] after the '/';
 * the rest (at the next NAME= or the end), or NULL with why in err. */
static const char *take_tail(const char *p, struct one *o, char *err, size_t errlen)
{
	size_t n = strcspn(p, ",");
	if (n >= sizeof(o->unit)) {
		snprintf(err, errlen, "--parse regex: %s: unit longer than %zu bytes", o->name, sizeof(o->unit) - 1);
		return NULL;
	}
	memcpy(o->unit, p, n);
	o->unit[n] = 0;
	p += n;
	while (*p == ',') {
		size_t w = strcspn(p + 1, ",");
		if ((w == 6 && !strncmp(p + 1, "higher", 6)) || (w == 5 && !strncmp(p + 1, "lower", 5))) {
			o->better = p[1] == 'h' ? BETTER_HIGHER : BETTER_LOWER;
			p += 1 + w;
			continue;
		}
		return p + 1;	/* the next NAME=/RE/ */
	}
	return p;
}

/* take_one(p, o, err, errlen): one NAME=/RE/[UNIT][,better] into o; the
 * rest of the spec, or NULL with why in err (and nothing of o's to
 * free). */
static const char *take_one(const char *p, struct one *o, char *err, size_t errlen)
{
	char re[1024];
	size_t n = strcspn(p, "=");
	int rc;
	if (!n || n >= sizeof(o->name) || p[n] != '=' || p[n + 1] != '/') {
		snprintf(err, errlen, "--parse regex: expected NAME=/RE/ at '%.40s'", p);
		return NULL;
	}
	memcpy(o->name, p, n);
	o->name[n] = 0;
	for (size_t i = 0; i < n; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:-", o->name[i])) {
			snprintf(err, errlen, "--parse regex: '%s' is not a metric name ([A-Za-z0-9_.:-])", o->name);
			return NULL;
		}
	if (!(p = take_re(p + n + 2, re, sizeof(re)))) {
		snprintf(err, errlen, "--parse regex: %s: the expression has no closing '/' (or is too long)", o->name);
		return NULL;
	}
	if ((rc = regcomp(&o->re, re, REG_EXTENDED))) {
		char why[128];
		regerror(rc, &o->re, why, sizeof(why));
		snprintf(err, errlen, "--parse regex: %s: /%s/: %s", o->name, re, why);
		return NULL;
	}
	if (o->re.re_nsub < 1) {
		regfree(&o->re);
		snprintf(err, errlen, "--parse regex: %s: /%s/ has no group ( ) around the value", o->name, re);
		return NULL;
	}
	if (!(p = take_tail(p, o, err, errlen)))
		regfree(&o->re);	/* not counted in the state yet: its free_state misses it */
	return p;
}

/* start: the expressions of arg, compiled. */
static void *start(const char *arg, char *const argv[], char *err, size_t errlen)
{
	struct regex_state *s = xcalloc(1, sizeof(*s));
	(void)argv;
	while (*arg) {
		if (s->n == MAX_RES) {
			snprintf(err, errlen, "--parse regex: more than %d expressions", MAX_RES);
			free_state(s);
			return NULL;
		}
		const char *next = take_one(arg, &s->re[s->n], err, errlen);
		if (!next) {
			free_state(s);
			return NULL;
		}
		s->n++;
		arg = next;
	}
	if (!s->n) {
		snprintf(err, errlen, "--parse regex: no NAME=/RE/ given");
		free_state(s);
		return NULL;
	}
	return s;
}

/* line: each expression matching the line gives its metric (the line
 * is the workload's own: it shows as it was). The expressions see it
 * without its newline (and a CR before it): '$' is the line's end, and
 * a group such as (.*) ends before it. */
static int line(void *state, const char *raw, struct parse_result *out)
{
	struct regex_state *s = state;
	regmatch_t m[2];
	size_t n = strlen(raw);
	n -= n && raw[n - 1] == '\n';
	n -= n && raw[n - 1] == '\r';
	char *text = xstrndup(raw, n);
	for (size_t i = 0; i < s->n; i++) {
		struct one *o = &s->re[i];
		if (regexec(&o->re, text, 2, m, 0) || m[1].rm_so < 0)
			continue;
		char num[64], *end;
		int len = (int)(m[1].rm_eo - m[1].rm_so);
		snprintf(num, sizeof(num), "%.*s", len, text + m[1].rm_so);
		double v = strtod(num, &end);
		if (!*num || *end || !isfinite(v) || len >= (int)sizeof(num)) {
			parse_fail(out, "regex: %s: '%.40s' (the group's text) is not a number", o->name, num);
			continue;
		}
		o->seen = true;
		parse_metric(out, o->name, v, o->unit, o->better, text);
	}
	free(text);
	return 0;
}

/* end: every expression must have matched a line. */
static void end(void *state, const struct parse_usage *u, struct parse_result *out)
{
	struct regex_state *s = state;
	(void)u;
	for (size_t i = 0; i < s->n; i++)
		if (!s->re[i].seen)
			parse_fail(out, "regex: %s: no line of the output matched", s->re[i].name);
}

const struct parse_format parse_fmt_regex = {
	.name = "regex",
	.summary = "any output: regex:NAME=/RE/[UNIT][,higher|lower][,NAME=/RE/...], the value in RE's first group",
	.metrics = "as named",
	.takes_arg = true,
	.start = start,
	.line = line,
	.end = end,
	.free = free_state,
};
