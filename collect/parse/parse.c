/* The parse room's core: the table of formats and a parser's life (see
 * parse.h). What the modules add their findings with is parse_result.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "collect/parse/parse_int.h"
#include "lib/alloc.h"

static const struct parse_format *const formats[] = {
	&parse_fmt_metric, &parse_fmt_will_it_scale, &parse_fmt_perf_bench, &parse_fmt_hackbench,
	&parse_fmt_stress_ng, &parse_fmt_fio, &parse_fmt_thpscale, &parse_fmt_time, &parse_fmt_regex,
};

struct parser {
	const struct parse_format *f;
	void *state;
	char **argv;			/* the format's command, or NULL */
	struct parse_result r;		/* what the lines gave so far */
};

/* parse_formats: see parse.h. */
const struct parse_format *const *parse_formats(size_t *n)
{
	*n = sizeof(formats) / sizeof(formats[0]);
	return formats;
}

/* parse_format_name, _summary, _metrics: see parse.h. */
const char *parse_format_name(const struct parse_format *f) { return f->name; }
const char *parse_format_summary(const struct parse_format *f) { return f->summary; }
const char *parse_format_metrics(const struct parse_format *f) { return f->metrics; }

/* find(spec, arg, err, errlen): the format spec names, *arg what follows
 * its ':' (NULL without); NULL with why in err. */
static const struct parse_format *find(const char *spec, const char **arg, char *err, size_t errlen)
{
	size_t len = strcspn(spec, ":"), n, at;
	*arg = spec[len] ? spec + len + 1 : NULL;
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		const struct parse_format *f = formats[i];
		if (strlen(f->name) != len || strncmp(f->name, spec, len))
			continue;
		if (f->takes_arg && !*arg) {
			snprintf(err, errlen, "--parse %s needs its argument: %s:...", f->name, f->name);
			return NULL;
		}
		if (!f->takes_arg && *arg) {
			snprintf(err, errlen, "--parse %s takes no argument (no ':')", f->name);
			return NULL;
		}
		return f;
	}
	at = (size_t)snprintf(err, errlen, "--parse: no format '%.*s'; the formats are", (int)len, spec);
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]) && at < errlen; i++) {
		n = (size_t)snprintf(err + at, errlen - at, "%s %s", i ? "," : "", formats[i]->name);
		at += n;
	}
	return NULL;
}

/* parse_check: see parse.h. */
int parse_check(const char *spec, char *err, size_t errlen)
{
	const char *arg;
	const struct parse_format *f = find(spec, &arg, err, errlen);
	void *st;
	if (!f)
		return -1;
	if (!f->start)
		return 0;
	*err = 0;
	st = f->start(arg, NULL, err, errlen);
	if (!st && *err)
		return -1;
	if (st && f->free)
		f->free(st);
	return 0;
}

/* parser_new: see parse.h. */
struct parser *parser_new(const char *spec, char *const argv[], char *err, size_t errlen)
{
	const char *arg;
	const struct parse_format *f = find(spec ? spec : "metric", &arg, err, errlen);
	struct parser *p;
	if (!f)
		return NULL;
	p = xcalloc(1, sizeof(*p));
	p->f = f;
	*err = 0;
	if (f->start && !(p->state = f->start(arg, argv, err, errlen)) && *err) {
		free(p);
		return NULL;
	}
	return p;
}

/* parser_argv: see parse.h. */
char *const *parser_argv(struct parser *p, char *const argv[])
{
	if (p->f->argv && !p->argv)
		p->argv = p->f->argv(p->state, argv);
	return p->argv ? p->argv : argv;
}

/* parser_line: see parse.h. */
int parser_line(struct parser *p, const char *line)
{
	return p->f->line ? p->f->line(p->state, line, &p->r) : 0;
}

/* parser_end: see parse.h. */
int parser_end(struct parser *p, const struct parse_usage *u, struct parse_result *out)
{
	if (p->f->end && !p->r.error[0])
		p->f->end(p->state, u, &p->r);
	if (!p->r.error[0] && !p->r.nmetrics && !p->r.ndists)
		parse_fail(&p->r, "%s: no metric in the output", p->f->name);
	*out = p->r;
	memset(&p->r, 0, sizeof(p->r));
	if (out->error[0]) {
		char why[sizeof(out->error)];
		snprintf(why, sizeof(why), "%s", out->error);
		parse_result_free(out);
		snprintf(out->error, sizeof(out->error), "%s", why);
		return -1;
	}
	return 0;
}

/* parser_free: see parse.h. */
void parser_free(struct parser *p)
{
	if (!p)
		return;
	if (p->f->free && p->state)
		p->f->free(p->state);
	parse_result_free(&p->r);
	free(p);
}
