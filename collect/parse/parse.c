/* The parse room's core: the table of formats, a parser's life (see
 * parse.h), and the helpers modules add what they read with (see
 * parse_int.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "collect/parse/parse_int.h"
#include "lib/alloc.h"

static const struct parse_format *const formats[] = {
	&parse_fmt_metric, &parse_fmt_perf_bench, &parse_fmt_hackbench, &parse_fmt_stress_ng,
	&parse_fmt_fio, &parse_fmt_time, &parse_fmt_regex,
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

/* parse_result_free: see parse.h. */
void parse_result_free(struct parse_result *r)
{
	for (size_t i = 0; i < r->ndists; i++)
		free(r->dists[i].v);
	free(r->dists);
	free(r->metrics);
	memset(r, 0, sizeof(*r));
}

/* parse_fail: see parse_int.h. */
void parse_fail(struct parse_result *out, const char *fmt, ...)
{
	va_list ap;
	if (out->error[0])
		return;
	va_start(ap, fmt);
	vsnprintf(out->error, sizeof(out->error), fmt, ap);
	va_end(ap);
}

/* find_dist(out, name): the distribution of that name, or NULL. */
static struct dist *find_dist(struct parse_result *out, const char *name)
{
	for (size_t i = 0; i < out->ndists; i++)
		if (!strcmp(out->dists[i].name, name))
			return &out->dists[i];
	return NULL;
}

/* find_metric(out, name): the metric of that name, or NULL. */
static struct metric *find_metric(struct parse_result *out, const char *name)
{
	for (size_t i = 0; i < out->nmetrics; i++)
		if (!strcmp(out->metrics[i].name, name))
			return &out->metrics[i];
	return NULL;
}

/* parse_metric: see parse_int.h. */
void parse_metric(struct parse_result *out, const char *name, double v, const char *unit,
		  enum metric_better better, const char *line)
{
	struct metric *m = find_metric(out, name);
	if (m) {
		parse_fail(out, "metric %s printed twice (%g and %g)", name, m->value, v);
		return;
	}
	if (find_dist(out, name)) {
		parse_fail(out, "metric %s printed as a value and as samples", name);
		return;
	}
	ALLOC_GROW(out->metrics, out->nmetrics + 1, out->mcap);
	m = &out->metrics[out->nmetrics++];
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->unit, sizeof(m->unit), "%s", unit ? unit : "");
	snprintf(m->line, sizeof(m->line), "%.*s", (int)strcspn(line ? line : "", "\n"), line ? line : "");
	m->value = v;
	m->better = better;
}

/* parse_sample: see parse_int.h. */
void parse_sample(struct parse_result *out, const char *name, double v, const char *unit,
		  enum metric_better better, const char *line)
{
	struct dist *d = find_dist(out, name);
	if (!d) {
		if (find_metric(out, name)) {
			parse_fail(out, "metric %s printed as a value and as samples", name);
			return;
		}
		ALLOC_GROW(out->dists, out->ndists + 1, out->dcap);
		d = &out->dists[out->ndists++];
		memset(d, 0, sizeof(*d));
		snprintf(d->name, sizeof(d->name), "%s", name);
		snprintf(d->unit, sizeof(d->unit), "%s", unit ? unit : "");
		snprintf(d->line, sizeof(d->line), "%.*s", (int)strcspn(line ? line : "", "\n"),
			 line ? line : "");
		d->better = better;
	}
	ALLOC_GROW(d->v, d->n + 1, d->cap);
	d->v[d->n++] = v;
}

/* parse_name: see parse_int.h. */
char *parse_name(char *out, size_t len, const char *s)
{
	size_t n = 0;
	bool gap = false;
	for (; *s && n + 1 < len; s++) {
		char c = *s >= 'A' && *s <= 'Z' ? (char)(*s - 'A' + 'a') : *s;
		bool keep = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
			    c == ':' || c == '-';
		if (!keep) {
			gap = n > 0;
			continue;
		}
		if (gap && n + 2 < len)
			out[n++] = '_';
		gap = false;
		out[n++] = c;
	}
	out[n] = 0;
	return out;
}

/* digits(p): p past the decimal digits it starts with. */
static const char *digits(const char *p)
{
	while (*p >= '0' && *p <= '9')
		p++;
	return p;
}

/* parse_number: see parse_int.h. */
int parse_number(const char *s, const char **end, double *v)
{
	char buf[512];
	const char *p, *q;
	s += strspn(s, " \t");
	p = s + (*s == '-');
	q = digits(p);
	if (*q == '.')
		q = digits(q + 1);
	if (q == p || (q == p + 1 && *p == '.'))
		return -1;
	if (*q == 'e' || *q == 'E') {
		const char *e = q + 1 + (q[1] == '+' || q[1] == '-');
		if (digits(e) > e)
			q = digits(e);
	}
	if (q - s > 500)
		return -1;
	memcpy(buf, s, (size_t)(q - s));
	buf[q - s] = 0;
	*v = strtod(buf, NULL);
	*end = q;
	return isfinite(*v) ? 0 : -1;
}
