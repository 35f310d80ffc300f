/* Text and md tables (the human forms; rules in render.h): cells are
 * escaped into a grid first so that column widths are known. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lib/alloc.h"
#include "lib/strbuf.h"
#include "lib/escape.h"
#include "reports/render_int.h"

/* The escaped strings of the shown columns and rows, headers first, and
 * each shown column's width in code points. */
struct grid {
	int *col;		/* table column of each grid column */
	int ncol;
	size_t nrow;		/* rows, the header included */
	char **s;		/* nrow * ncol */
	size_t *w;
};

/* decimals(prec, digits, v): prec, or more when v needs them for digits
 * significant digits (at most 12). */
static int decimals(int prec, int digits, double v)
{
	int need;
	if (digits <= 0 || v == 0)
		return prec;
	need = digits - 1 - (int)floor(log10(fabs(v)));
	return need > prec ? (need > 12 ? 12 : need) : prec;
}

/* human_real(b, t, c, v): the text/md form of the real v in column c:
 * its precision (0 in COL_STR, COL_INT and COL_BOOL columns, shortest
 * exact form when negative; more decimals for small values when the
 * column asks for significant digits) and a '%' for a finite COL_PCT
 * value. */
static void human_real(struct strbuf *b, const struct table *t, int c, double v)
{
	enum col_type type = table_col_type(t, c);
	int prec = table_col_precision(t, c);
	if (prec >= 0)
		prec = decimals(prec, table_col_digits_of(t, c), v);
	if (num_nonfinite(b, v))
		return;
	if (type == COL_STR || type == COL_INT || type == COL_BOOL)
		sb_printf(b, "%.0f", v);
	else if (prec < 0)
		num_short(b, v, false);
	else
		sb_printf(b, "%.*f", prec, v);
	if (type == COL_PCT)
		sb_putc(b, '%');
}

/* indent_of(t, r, c): the indent level of cell (r, c): the depth cell's
 * integer part when in 1..999, else 0 (a real is range-checked before it
 * is converted: NaN or 1e300 fit no integer). */
static long long indent_of(const struct table *t, size_t r, int c)
{
	int d = table_col_depth(t, c);
	const struct cell *x = d >= 0 ? table_cell(t, r, d) : NULL;
	if (!x)
		return 0;
	double v = x->kind == CELL_INT ? (double)x->v.i : x->kind == CELL_REAL ? x->v.r : 0;
	return v >= 1 && v < 1000 ? (long long)v : 0;
}

/* cell_text: see render_int.h. */
char *cell_text(const struct table *t, size_t r, int c, int mode)
{
	const struct cell *x = table_cell(t, r, c);
	struct strbuf b = STRBUF_INIT;
	for (long long i = indent_of(t, r, c); i > 0; i--)
		sb_puts(&b, mode == ESC_TEXT ? "  " : "\u00a0\u00a0");
	if (x->kind == CELL_NULL || x->kind == CELL_STR)
		esc_append(&b, x->kind == CELL_STR ? x->v.s : table_null(t), (enum esc)mode);
	else if (x->kind == CELL_INT && table_col_type(t, c) == COL_BOOL)
		sb_puts(&b, x->v.i ? "yes" : "no");
	else if (x->kind == CELL_INT)
		sb_printf(&b, "%lld", x->v.i);
	else
		human_real(&b, t, c, x->v.r);
	return sb_take(&b);
}

/* grid_build(t, md): the grid of t's SHOW_HUMAN columns and rows; md
 * columns are at least three wide (GitHub wants "---"). */
static struct grid grid_build(const struct table *t, bool md)
{
	struct grid g = { xmalloc(((size_t)table_ncols(t) + 1) * sizeof(int)), 0, 1, NULL, NULL };
	size_t nr = table_nrows(t), k = 0;
	for (int c = 0; c < table_ncols(t); c++)
		if (table_col_shown(t, c) & SHOW_HUMAN)
			g.col[g.ncol++] = c;
	for (size_t r = 0; r < nr; r++)
		g.nrow += (table_row_shown(t, r) & SHOW_HUMAN) != 0;
	g.s = xcalloc(g.nrow * (size_t)g.ncol + 1, sizeof(char *));
	g.w = xcalloc((size_t)g.ncol + 1, sizeof(size_t));
	for (int c = 0; c < g.ncol; c++)
		g.s[k++] = esc_dup(table_col_header(t, g.col[c]), md ? ESC_MD : ESC_TEXT);
	for (size_t r = 0; r < nr; r++)
		if (table_row_shown(t, r) & SHOW_HUMAN)
			for (int c = 0; c < g.ncol; c++)
				g.s[k++] = cell_text(t, r, g.col[c], md ? ESC_MD : ESC_TEXT);
	for (size_t i = 0; i < k; i++) {
		size_t w = utf8_width(g.s[i]), c = i % (size_t)g.ncol;
		if (w > g.w[c])
			g.w[c] = w;
	}
	for (int c = 0; md && c < g.ncol; c++)
		if (g.w[c] < 3)
			g.w[c] = 3;
	return g;
}

/* grid_free(g): frees what grid_build allocated. */
static void grid_free(struct grid *g)
{
	for (size_t i = 0; i < g->nrow * (size_t)g->ncol; i++)
		free(g->s[i]);
	free(g->s);
	free(g->w);
	free(g->col);
}

/* col_numeric: see render_int.h. */
bool col_numeric(const struct table *t, int c)
{
	return table_col_type(t, c) != COL_STR && table_col_type(t, c) != COL_BOOL;
}

/* pad(b, s, w, right): appends s padded with spaces to w code points, on
 * the left when right is true. */
static void pad(struct strbuf *b, const char *s, size_t w, bool right)
{
	size_t n = utf8_width(s);
	if (!right)
		sb_puts(b, s);
	for (; n < w; n++)
		sb_putc(b, ' ');
	if (right)
		sb_puts(b, s);
}

/* line(t, g, cells, md, out): one text line (two spaces apart, no
 * trailing blanks) or md line ("| a | b |") of g's columns. */
static void line(const struct table *t, const struct grid *g, char *const *cells, bool md, FILE *out)
{
	struct strbuf b = STRBUF_INIT;
	if (md)
		sb_putc(&b, '|');
	for (int c = 0; c < g->ncol; c++) {
		sb_puts(&b, md ? " " : c ? "  " : "");
		pad(&b, cells[c], g->w[c], col_numeric(t, g->col[c]));
		if (md)
			sb_puts(&b, " |");
	}
	while (!md && b.len && b.p[b.len - 1] == ' ')
		b.p[--b.len] = '\0';
	sb_putc(&b, '\n');
	fputs(b.p, out);
	sb_free(&b);
}

/* rule(t, g, md, out): the separator line: dashes of each column's width,
 * the last one a ':' for a numeric md column. */
static void rule(const struct table *t, const struct grid *g, bool md, FILE *out)
{
	char **r = xcalloc((size_t)g->ncol + 1, sizeof(char *));
	for (int c = 0; c < g->ncol; c++) {
		r[c] = xmalloc(g->w[c] + 1);
		memset(r[c], '-', g->w[c]);
		r[c][g->w[c]] = '\0';
		if (md && g->w[c] && col_numeric(t, g->col[c]))
			r[c][g->w[c] - 1] = ':';
	}
	line(t, g, r, md, out);
	for (int c = 0; c < g->ncol; c++)
		free(r[c]);
	free(r);
}

/* heading(t, md, out): the title (unless it only repeats the section's
 * heading) and captions. */
static void heading(const struct table *t, bool md, FILE *out)
{
	enum esc mode = md ? ESC_MD : ESC_TEXT;
	const char *sec = table_get_section(t);
	if (table_title(t) && !(sec && !strcmp(sec, table_title(t)))) {
		char *s = esc_dup(table_title(t), mode);
		fprintf(out, "%s%s\n%s", md ? "### " : "# ", s, md ? "\n" : "");
		free(s);
	}
	for (size_t i = 0; i < table_ncaptions(t); i++) {
		char *s = esc_dup(table_caption_at(t, i), mode);
		fprintf(out, "%s%s\n", md ? "- " : "# ", s);
		free(s);
	}
	if (md && table_ncaptions(t))
		fputc('\n', out);
}

/* plain_print(t, out): a TABLE_PLAIN table's shown cells, one space apart. */
static void plain_print(const struct table *t, FILE *out)
{
	struct grid g = grid_build(t, false);
	for (size_t r = 1; r < g.nrow; r++)
		for (int c = 0; c < g.ncol; c++)
			fprintf(out, "%s%s", g.s[r * (size_t)g.ncol + (size_t)c], c + 1 < g.ncol ? " " : "\n");
	grid_free(&g);
}

/* list_print: see render_int.h. */
void list_print(const struct table *t, bool md, FILE *out)
{
	int col = -1;
	heading(t, md, out);
	for (int c = 0; c < table_ncols(t) && col < 0; c++)
		if (table_col_shown(t, c) & SHOW_HUMAN)
			col = c;
	for (size_t r = 0; col >= 0 && r < table_nrows(t); r++) {
		if (!(table_row_shown(t, r) & SHOW_HUMAN))
			continue;
		char *s = cell_text(t, r, col, md ? ESC_MD : ESC_TEXT);
		fprintf(out, "%s%s\n", md ? "- " : "  - ", s);
		free(s);
	}
}

/* grid_print: see render_int.h. */
void grid_print(const struct table *t, bool md, FILE *out)
{
	if (!md && table_get_style(t) == TABLE_PLAIN) {
		plain_print(t, out);
		return;
	}
	heading(t, md, out);
	struct grid g = grid_build(t, md);
	if (g.ncol) {
		line(t, &g, g.s, md, out);
		rule(t, &g, md, out);
		for (size_t r = 1; r < g.nrow; r++)
			line(t, &g, g.s + r * (size_t)g.ncol, md, out);
	}
	grid_free(&g);
}
