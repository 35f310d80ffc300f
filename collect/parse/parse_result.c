/* What a run's output said: the helpers every format module adds its
 * metrics and samples with (see parse_int.h), and freeing it all. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "collect/parse/parse_int.h"
#include "lib/alloc.h"

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
		if (gap && n + 2 >= len)
			break;	/* no room for '_' and what follows: cut here */
		if (gap)
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

/* parse_at_end: see parse_int.h. */
bool parse_at_end(const char *p)
{
	return !*p || !strcmp(p, "\n") || !strcmp(p, "\r\n");
}

/* parse_u64: see parse_int.h. */
const char *parse_u64(const char *p, uint64_t *v)
{
	const char *s = p;
	*v = 0;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');
		if (*v > (UINT64_MAX - d) / 10)
			return NULL;
		*v = *v * 10 + d;
	}
	return p > s ? p : NULL;
}

/* parse_shown: see parse_int.h. */
const char *parse_shown(char *buf, size_t len, const char *s)
{
	size_t n = 0;
	for (; *s && *s != '\n' && n + 1 < len && n < 60; s++)
		buf[n++] = *s >= ' ' && *s <= '~' ? *s : '?';
	buf[n] = 0;
	return buf;
}
