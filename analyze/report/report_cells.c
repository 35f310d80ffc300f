/* The cells and words the report's sections share: a summary line, a
 * bench cell's text and its match on the other side, a parameter's values,
 * shell quoting, the pair being written and its tables' names (see
 * report_int.h). Sections call these; none calls back
 * into report.c, which orders the sections. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/report/report_int.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"

/* rep_summary: see report_int.h. */
void rep_summary(struct rep *r, double score, const char *fmt, ...)
{
	struct strbuf b = STRBUF_INIT;
	va_list ap;
	if (r->nsides > 2)
		sb_printf(&b, "%s: ", r->side[1].label);
	va_start(ap, fmt);
	sb_vprintf(&b, fmt, ap);
	va_end(ap);
	table_add_row(r->summary);
	table_set_str(r->summary, 0, sb_str(&b));
	table_set_real(r->summary, 1, fabs(score));
	r->nsignificant++;
	sb_free(&b);
}

/* rep_cell_text: see report_int.h. */
char *rep_cell_text(const struct bench_data *b, size_t cell)
{
	struct strbuf s = STRBUF_INIT;
	for (size_t i = 0; i < b->nparams; i++)
		sb_printf(&s, "%s%s=%s", i ? " " : "", b->params[i], bd_cell_value(b, cell, i));
	return sb_take(&s);
}

/* rep_same_cell: see report_int.h. */
bool rep_same_cell(const struct bench_data *a, size_t ca, const struct bench_data *b, size_t cb)
{
	if (a->nparams != b->nparams)
		return false;
	for (size_t i = 0; i < a->nparams; i++) {
		size_t k = 0;
		while (k < b->nparams && strcmp(a->params[i], b->params[k]))
			k++;
		if (k == b->nparams || strcmp(bd_cell_value(a, ca, i), bd_cell_value(b, cb, k)))
			return false;
	}
	return true;
}

/* rep_quote: see report_int.h. */
void rep_quote(const char *w, struct strbuf *b)
{
	if (*w && !w[strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=,:+@%{}")]) {
		sb_puts(b, w);
		return;
	}
	sb_putc(b, '\'');
	for (; *w; w++)
		if (*w == '\'')
			sb_puts(b, "'\\''");
		else
			sb_putc(b, *w);
	sb_putc(b, '\'');
}

/* rep_param_values: see report_int.h. */
void rep_param_values(const struct bench_data *b, size_t i, struct strbuf *out)
{
	for (size_t c = 0, k = 0; c < b->ncells; c++) {
		const char *v = bd_cell_value(b, c, i);
		bool seen = false;
		for (size_t e = 0; e < c && !seen; e++)
			seen = !strcmp(bd_cell_value(b, e, i), v);
		if (!seen)
			sb_printf(out, "%s%s", k++ ? "," : "", v);
	}
}

/* rep_use_pair: see report_int.h. */
void rep_use_pair(struct rep *r, int k)
{
	struct rpair *p = &r->pairs[r->pair];
	if (r->pair) {
		p->machine = r->machine;
		memcpy(p->msides, r->msides, sizeof(r->msides));
		memcpy(p->ipis, r->ipis, sizeof(r->ipis));
		memcpy(p->unverified, r->unverified, sizeof(r->unverified));
		memcpy(p->unseen_flushes, r->unseen_flushes, sizeof(r->unseen_flushes));
	}
	p = &r->pairs[k];
	r->pair = k;
	r->side[0] = r->sides[0];
	r->side[1] = r->sides[k];
	r->machine = p->machine;
	memcpy(r->msides, p->msides, sizeof(r->msides));
	memcpy(r->ipis, p->ipis, sizeof(r->ipis));
	memcpy(r->unverified, p->unverified, sizeof(r->unverified));
	memcpy(r->unseen_flushes, p->unseen_flushes, sizeof(r->unseen_flushes));
}

/* rep_key: see report_int.h. */
char *rep_key(const struct rep *r, const char *key)
{
	return r->nsides > 2 && r->pair > 1 ? xasprintf("%s_%s", key, r->side[1].name) : xstrdup(key);
}

/* rep_table: see report_int.h. */
struct table *rep_table(struct rep *r, struct table *t)
{
	if (r->nsides > 2 && r->pair) {
		const char *sec = table_get_section(t);
		if (sec) {
			char *h = xasprintf("%s (%s against %s)", sec, r->side[1].label, r->side[0].label);
			table_section(t, h);
			free(h);
		}
		if (r->pair > 1) {
			char *name = rep_key(r, table_name(t));
			struct table *c = table_clone(t, name);
			table_free(t);
			t = c;
			free(name);
		}
	}
	return dv_table(doc_findings(r->d), t);
}
