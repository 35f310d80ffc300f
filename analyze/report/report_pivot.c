/* --columns PARAM: a metric's results with that parameter's values as
 * column groups (each its base, then each new side's mean, %change and
 * mark) and the other
 * parameters as rows, as the mglru posting lays out shared and private
 * mm (see report_int.h). Made from the long table's rows, so both show
 * the same numbers. */
#include <stdlib.h>
#include <string.h>
#include "analyze/report/report_int.h"
#include "lib/alloc.h"

/* str_at(t, row, col): the cell's text, "" for NULL. */
static const char *str_at(const struct table *t, size_t row, int col)
{
	const struct cell *c = table_cell(t, row, col);
	return c->kind == CELL_STR ? c->v.s : "";
}

/* same_rest(t, a, b, np, skip): rows a and b of t have the same values
 * of every parameter but skip. */
static bool same_rest(const struct table *t, size_t a, size_t b, size_t np, size_t skip)
{
	for (size_t p = 0; p < np; p++)
		if (p != skip && strcmp(str_at(t, a, (int)p), str_at(t, b, (int)p)))
			return false;
	return true;
}

/* values_of(t, np, param, n): param's distinct values in row order. */
static const char **values_of(const struct table *t, size_t param, size_t *n)
{
	const char **v = xcalloc(table_nrows(t) + 1, sizeof(*v));
	*n = 0;
	for (size_t r = 0; r < table_nrows(t); r++) {
		const char *s = str_at(t, r, (int)param);
		size_t k = 0;
		while (k < *n && strcmp(v[k], s))
			k++;
		if (k == *n)
			v[(*n)++] = s;
	}
	return v;
}

/* copy_real(dst, col, src, row, scol): src's cell into dst's last row. */
static void copy_real(struct table *dst, int col, const struct table *src, size_t row, int scol)
{
	const struct cell *c = table_cell(src, row, scol);
	if (c->kind == CELL_REAL)
		table_set_real(dst, col, c->v.r);
}

/* group_cols(p, r, param, value, g): the columns of value's group g:
 * the base's mean, then each new side's mean, %change and mark. */
static void group_cols(struct table *p, const struct rep *r, const char *param, const char *value, size_t g)
{
	static const char *const what[] = { "new", "%change", "sig" };
	static const char *const suffix[] = { "", "_change_pct", "_mark" };
	static const enum col_type types[] = { COL_REAL, COL_PCT, COL_STR };
	char *cname = xasprintf("g%zu_base", g + 1), *label = xasprintf("%s=%s %s", param, value,
		r->nsides > 2 ? r->sides[0].label : "base");
	int c = table_col(p, cname, COL_REAL, 1);
	table_col_digits(p, c, 4);
	table_col_label(p, c, label);
	free(cname);
	free(label);
	for (int k = 1; k < r->nsides; k++)
		for (int w = 0; w < 3; w++) {
			const char *side = r->sides[k].name;
			cname = w == 0 ? xasprintf("g%zu_%s", g + 1, side) : k == 1 ?
				xasprintf("g%zu%s", g + 1, suffix[w]) : xasprintf("g%zu_%s%s", g + 1, side, suffix[w]);
			label = xasprintf("%s=%s %s", param, value, w == 0 && r->nsides > 2 ? r->sides[k].label : what[w]);
			c = table_col(p, cname, types[w], w == 1 ? 2 : 1);
			if (types[w] == COL_REAL)
				table_col_digits(p, c, 4);
			table_col_label(p, c, label);
			free(cname);
			free(label);
		}
}
/* rep_pivot: see report_int.h. */
struct table *rep_pivot(const struct table *t, const struct rep *r, size_t param, const int *mc,
			const char *name)
{
	const struct bench_data *b = &r->sides[0].b;
	size_t nv, np = b->nparams, width = (size_t)(1 + 3 * (r->nsides - 1));
	const char **vals = values_of(t, param, &nv);
	struct table *p = table_new(name, table_title(t));
	bool *done = xcalloc(table_nrows(t) + 1, sizeof(bool));
	for (size_t i = 0; i < np; i++)
		if (i != param)
			table_col(p, b->params[i], COL_STR, 0);
	for (size_t k = 0; k < nv; k++)
		group_cols(p, r, b->params[param], vals[k], k);
	table_null_text(p, "-");
	table_section(p, "Results");
	table_caption(p, "%s as column groups (each its base, %s, %%change, * where perfdb's test marks "
		      "it), the other parameters as rows: the same numbers as the table of one cell a row",
		      b->params[param], r->nsides > 2 ? "each new side" : "new");
	for (size_t row = 0; row < table_nrows(t); row++) {
		if (done[row])
			continue;
		table_add_row(p);
		for (size_t i = 0, c = 0; i < np; i++)
			if (i != param)
				table_set_str(p, (int)c++, str_at(t, row, (int)i));
		for (size_t q = row; q < table_nrows(t); q++) {
			if (done[q] || !same_rest(t, row, q, np, param))
				continue;
			done[q] = true;
			size_t k = 0;
			while (strcmp(vals[k], str_at(t, q, (int)param)))
				k++;
			int base = (int)(np - 1 + width * k);
			for (size_t w = 0; w < width; w++)
				if (w && w % 3 == 0)
					table_set_str(p, base + (int)w, str_at(t, q, mc[w]));
				else
					copy_real(p, base + (int)w, t, q, mc[w]);
		}
	}
	free(done);
	free(vals);
	return p;
}
