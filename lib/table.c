/* Result tables in memory: see table.h. Cells are one row-major array. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/bug.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"
#include "lib/table.h"

struct column {
	char *name, *label;
	enum col_type type;
	int precision, depth_col, digits;
	unsigned show;
};

struct table {
	char *name, *title, *null_text, *section;
	char **captions;
	size_t ncaptions, cap_captions;
	enum table_style style;
	unsigned hidden;	/* SHOW_* bits where the whole table is not shown */
	struct column *cols;
	int ncols;
	size_t cap_cols;
	struct cell *cells;	/* nrows * ncols, row-major */
	unsigned char *row_show;
	size_t nrows, cap_rows, cap_show;
};

/* valid_name(s): whether s matches [a-z0-9_]+. */
static bool valid_name(const char *s)
{
	if (!s || !*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

/* table_new: see table.h. */
struct table *table_new(const char *name, const char *title)
{
	struct table *t = xcalloc(1, sizeof(*t));
	if (!valid_name(name))
		bug("table_new: bad table name '%s'", name ? name : "(null)");
	t->name = xstrdup(name);
	t->title = xstrdup(title);
	t->null_text = xstrdup("");
	return t;
}

/* cell_clear(c): frees c's string, if any, and makes c NULL. */
static void cell_clear(struct cell *c)
{
	if (c->kind == CELL_STR)
		free(c->v.s);
	c->kind = CELL_NULL;
}

/* table_free: see table.h. */
void table_free(struct table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nrows * (size_t)t->ncols; i++)
		cell_clear(&t->cells[i]);
	for (int c = 0; c < t->ncols; c++) {
		free(t->cols[c].name);
		free(t->cols[c].label);
	}
	for (size_t i = 0; i < t->ncaptions; i++)
		free(t->captions[i]);
	free(t->captions);
	free(t->cells);
	free(t->row_show);
	free(t->cols);
	free(t->name);
	free(t->title);
	free(t->null_text);
	free(t->section);
	free(t);
}

/* table_col: see table.h. */
int table_col(struct table *t, const char *name, enum col_type type, int precision)
{
	if (!name || !*name)
		bug("table_col: empty column name in table %s", t->name);
	if (t->nrows)
		bug("table_col: column '%s' of table %s declared after the first row", name, t->name);
	if (type < COL_STR || type > COL_BOOL)
		bug("table_col: column '%s' has bad type %d", name, (int)type);
	if (table_find_col(t, name) >= 0)
		bug("table_col: duplicate column '%s' in table %s", name, t->name);
	ALLOC_GROW(t->cols, (size_t)t->ncols + 1, t->cap_cols);
	t->cols[t->ncols] = (struct column){ .name = xstrdup(name), .type = type, .precision = precision,
		.depth_col = -1, .show = SHOW_ALL };
	return t->ncols++;
}

/* col_of(t, col, who): column col, or abort naming who. */
static struct column *col_of(const struct table *t, int col, const char *who)
{
	if (col < 0 || col >= t->ncols)
		bug("%s: column %d out of range (table %s has %d)", who, col, t->name, t->ncols);
	return &t->cols[col];
}

/* table_col_label: see table.h. */
void table_col_label(struct table *t, int col, const char *label)
{
	struct column *c = col_of(t, col, "table_col_label");
	free(c->label);
	c->label = xstrdup(label);
}

/* table_col_digits: see table.h. */
void table_col_digits(struct table *t, int col, int digits)
{
	col_of(t, col, "table_col_digits")->digits = digits > 0 ? digits : 0;
}

/* table_col_show: see table.h. */
void table_col_show(struct table *t, int col, unsigned show)
{
	col_of(t, col, "table_col_show")->show = show & SHOW_ALL;
}

/* table_col_indent: see table.h. */
void table_col_indent(struct table *t, int col, int depth_col)
{
	col_of(t, depth_col, "table_col_indent");
	col_of(t, col, "table_col_indent")->depth_col = depth_col;
}

/* table_null_text: see table.h. */
void table_null_text(struct table *t, const char *s)
{
	free(t->null_text);
	t->null_text = xstrdup(s ? s : "");
}

/* table_caption: see table.h. */
void table_caption(struct table *t, const char *fmt, ...)
{
	struct strbuf b = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vprintf(&b, fmt, ap);
	va_end(ap);
	ALLOC_GROW(t->captions, t->ncaptions + 1, t->cap_captions);
	t->captions[t->ncaptions++] = sb_take(&b);
}

/* table_style: see table.h. */
void table_style(struct table *t, enum table_style style)
{
	t->style = style;
}

/* table_show: see table.h. */
void table_show(struct table *t, unsigned show)
{
	t->hidden = SHOW_ALL & ~show;
}

/* table_shown: see table.h. */
unsigned table_shown(const struct table *t)
{
	return SHOW_ALL & ~t->hidden;
}

/* table_section: see table.h. */
void table_section(struct table *t, const char *heading)
{
	free(t->section);
	t->section = xstrdup(heading);
}

/* table_set_title: see table.h. */
void table_set_title(struct table *t, const char *title)
{
	free(t->title);
	t->title = xstrdup(title);
}

/* table_clone: see table.h. */
struct table *table_clone(const struct table *t, const char *name)
{
	struct table *c = table_new(name, t->title);
	table_null_text(c, t->null_text);
	table_section(c, t->section);
	c->style = t->style;
	c->hidden = t->hidden;
	for (size_t i = 0; i < t->ncaptions; i++)
		table_caption(c, "%s", t->captions[i]);
	for (int k = 0; k < t->ncols; k++) {
		const struct column *o = &t->cols[k];
		table_col(c, o->name, o->type, o->precision);
		c->cols[k].label = xstrdup(o->label);
		c->cols[k].depth_col = o->depth_col;
		c->cols[k].show = o->show;
		c->cols[k].digits = o->digits;
	}
	for (size_t r = 0; r < t->nrows; r++) {
		table_add_row(c);
		c->row_show[r] = t->row_show[r];
		for (int k = 0; k < t->ncols; k++) {
			const struct cell *x = table_cell(t, r, k);
			if (x->kind == CELL_STR)
				table_set_str(c, k, x->v.s);
			else if (x->kind == CELL_INT)
				table_set_int(c, k, x->v.i);
			else if (x->kind == CELL_REAL)
				table_set_real(c, k, x->v.r);
		}
	}
	return c;
}

/* table_truncate: see table.h. */
size_t table_truncate(struct table *t, size_t n)
{
	size_t had = t->nrows;
	if (n >= had)
		return had;
	for (size_t i = n * (size_t)t->ncols; i < had * (size_t)t->ncols; i++)
		cell_clear(&t->cells[i]);
	t->nrows = n;
	return had;
}

/* table_add_row: see table.h. */
void table_add_row(struct table *t)
{
	size_t nc = (size_t)t->ncols;
	if (t->nrows + 1 > t->cap_rows) {
		t->cap_rows = alloc_nr(t->cap_rows);
		t->cells = xreallocarray(t->cells, t->cap_rows, (nc ? nc : 1) * sizeof(*t->cells));
	}
	ALLOC_GROW(t->row_show, t->nrows + 1, t->cap_show);
	for (size_t c = 0; c < nc; c++)
		t->cells[t->nrows * nc + c].kind = CELL_NULL;
	t->row_show[t->nrows++] = SHOW_ALL;
}

/* table_row_show: see table.h. */
void table_row_show(struct table *t, unsigned show)
{
	if (!t->nrows)
		bug("table_row_show: no row yet in table %s", t->name);
	t->row_show[t->nrows - 1] = (unsigned char)(show & SHOW_ALL);
}

/* last_cell(t, col, who): the cell col of the last row, cleared; aborts,
 * naming who, when there is no row or no such column. */
static struct cell *last_cell(struct table *t, int col, const char *who)
{
	if (!t->nrows)
		bug("%s: no row yet in table %s (call table_add_row first)", who, t->name);
	col_of(t, col, who);
	struct cell *c = &t->cells[(t->nrows - 1) * (size_t)t->ncols + (size_t)col];
	cell_clear(c);
	return c;
}

/* table_set_str: see table.h. */
void table_set_str(struct table *t, int col, const char *s)
{
	struct cell *c = last_cell(t, col, "table_set_str");
	if (s) {
		c->kind = CELL_STR;
		c->v.s = xstrdup(s);
	}
}

/* table_set_strf: see table.h. */
void table_set_strf(struct table *t, int col, const char *fmt, ...)
{
	struct strbuf b = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vprintf(&b, fmt, ap);
	va_end(ap);
	struct cell *c = last_cell(t, col, "table_set_strf");
	c->kind = CELL_STR;
	c->v.s = sb_take(&b);
}

/* table_set_int: see table.h. */
void table_set_int(struct table *t, int col, long long v)
{
	struct cell *c = last_cell(t, col, "table_set_int");
	enum col_type type = t->cols[col].type;
	if (type == COL_REAL || type == COL_PCT) {
		c->kind = CELL_REAL;
		c->v.r = (double)v;
	} else {
		c->kind = CELL_INT;
		c->v.i = type == COL_BOOL ? v != 0 : v;
	}
}

/* table_set_real: see table.h. */
void table_set_real(struct table *t, int col, double v)
{
	struct cell *c = last_cell(t, col, "table_set_real");
	c->kind = CELL_REAL;
	c->v.r = v;
}

/* table_set_null: see table.h. */
void table_set_null(struct table *t, int col)
{
	last_cell(t, col, "table_set_null");
}

/* Readers: see table.h. */
const char *table_name(const struct table *t) { return t->name; }
const char *table_title(const struct table *t) { return t->title; }
const char *table_null(const struct table *t) { return t->null_text; }
enum table_style table_get_style(const struct table *t) { return t->style; }
const char *table_get_section(const struct table *t) { return t->section; }
size_t table_nrows(const struct table *t) { return t->nrows; }
int table_ncols(const struct table *t) { return t->ncols; }
size_t table_ncaptions(const struct table *t) { return t->ncaptions; }

/* table_caption_at: see table.h. */
const char *table_caption_at(const struct table *t, size_t i)
{
	if (i >= t->ncaptions)
		bug("table_caption_at: caption %zu out of range in table %s", i, t->name);
	return t->captions[i];
}

/* table_col_name: see table.h. */
const char *table_col_name(const struct table *t, int col)
{
	return col_of(t, col, "table_col_name")->name;
}

/* table_col_header: see table.h. */
const char *table_col_header(const struct table *t, int col)
{
	const struct column *c = col_of(t, col, "table_col_header");
	return c->label ? c->label : c->name;
}

/* table_col_type: see table.h. */
enum col_type table_col_type(const struct table *t, int col)
{
	return col_of(t, col, "table_col_type")->type;
}

/* table_col_precision: see table.h. */
int table_col_precision(const struct table *t, int col)
{
	return col_of(t, col, "table_col_precision")->precision;
}

/* table_col_digits_of: see table.h. */
int table_col_digits_of(const struct table *t, int col)
{
	return col_of(t, col, "table_col_digits_of")->digits;
}

/* table_col_shown: see table.h. */
unsigned table_col_shown(const struct table *t, int col)
{
	return col_of(t, col, "table_col_shown")->show;
}

/* table_col_depth: see table.h. */
int table_col_depth(const struct table *t, int col)
{
	return col_of(t, col, "table_col_depth")->depth_col;
}

/* table_row_shown: see table.h. */
unsigned table_row_shown(const struct table *t, size_t row)
{
	if (row >= t->nrows)
		bug("table_row_shown: row %zu out of range in table %s", row, t->name);
	return t->row_show[row];
}

/* table_cell: see table.h. */
const struct cell *table_cell(const struct table *t, size_t row, int col)
{
	if (row >= t->nrows)
		bug("table_cell: row %zu out of range in table %s", row, t->name);
	col_of(t, col, "table_cell");
	return &t->cells[row * (size_t)t->ncols + (size_t)col];
}

/* table_find_col: see table.h. */
int table_find_col(const struct table *t, const char *name)
{
	for (int c = 0; c < t->ncols; c++)
		if (!strcmp(t->cols[c].name, name))
			return c;
	return -1;
}
