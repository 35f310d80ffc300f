/* Result tables printed as text, GitHub markdown, CSV or JSON, and the small
 * streaming JSON writer behind the JSON form (contracts in table.h). Cells
 * are kept in memory, one row-major array; text and md are rendered from a
 * grid of escaped cell strings so that column widths are known first. */
#include "reports/legacy_table.h"
#include "reports/json.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- allocation and fatal errors ---- */

/* die(fmt, ...): prints "perfdb: <message>" to stderr and aborts; used for
 * programming errors and for running out of memory. */
static void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void die(const char *fmt, ...)
{
	va_list ap;
	fputs("perfdb: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/* xrealloc(p, n): realloc that never returns NULL (n == 0 counts as 1). */
static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

/* xmalloc(n): malloc that never returns NULL. */
static void *xmalloc(size_t n)
{
	return xrealloc(NULL, n);
}

/* xstrdup(s): a malloc'd copy of s; NULL for NULL. */
static char *xstrdup(const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}

/* ---- growable string buffer ---- */

/* A NUL-terminated string being built; {0} is an empty buffer. */
struct sbuf {
	char *p;
	size_t len, cap;
};

/* sb_putn(b, s, n): appends n bytes of s. */
static void sb_putn(struct sbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

/* sb_puts(b, s): appends the string s. */
static void sb_puts(struct sbuf *b, const char *s)
{
	sb_putn(b, s, strlen(s));
}

/* sb_putc(b, c): appends one byte. */
static void sb_putc(struct sbuf *b, char c)
{
	sb_putn(b, &c, 1);
}

/* sb_printf(b, fmt, ...): appends printf output of any length. */
static void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("sb_printf: bad format '%s'", fmt);
	char *tmp = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(tmp, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb_putn(b, tmp, (size_t)n);
	free(tmp);
}

/* sb_take(b): the built string (never NULL), owned by the caller; b is
 * left empty. */
static char *sb_take(struct sbuf *b)
{
	char *s = b->p ? b->p : xstrdup("");
	*b = (struct sbuf){ 0 };
	return s;
}

/* ---- UTF-8 and escaping ---- */

/* utf8_next(s, n, cp): decodes the sequence at s (n > 0 bytes left) and
 * returns its length; *cp is the code point, or -1 for an ill-formed
 * sequence, whose returned length is its maximal ill-formed subpart
 * (Unicode 3.9 "U+FFFD substitution of maximal subparts"). Overlongs,
 * surrogates and values above U+10FFFF are ill-formed. */
static size_t utf8_next(const unsigned char *s, size_t n, long *cp)
{
	unsigned c = s[0], lo = 0x80, hi = 0xBF;
	size_t len;
	long v;
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xC2 && c <= 0xDF) {
		len = 2;
		v = c & 0x1F;
	} else if (c >= 0xE0 && c <= 0xEF) {
		len = 3;
		v = c & 0x0F;
		lo = c == 0xE0 ? 0xA0 : lo;
		hi = c == 0xED ? 0x9F : hi;
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4;
		v = c & 0x07;
		lo = c == 0xF0 ? 0x90 : lo;
		hi = c == 0xF4 ? 0x8F : hi;
	} else {
		*cp = -1;
		return 1;
	}
	for (size_t i = 1; i < len; i++, lo = 0x80, hi = 0xBF) {
		if (i >= n || s[i] < lo || s[i] > hi) {
			*cp = -1;
			return i;
		}
		v = v << 6 | (s[i] & 0x3F);
	}
	*cp = v;
	return len;
}

/* How a string is escaped: ESC_NONE only repairs UTF-8 (csv); the others
 * follow text, md and JSON rules as described in table.h. */
enum esc { ESC_NONE, ESC_TEXT, ESC_MD, ESC_JSON };

/* esc_ctrl(b, cp): for text and md, writes a control character (C0 or
 * DEL) as \n, \r, \t or \xNN and returns true; false for anything else. */
static bool esc_ctrl(struct sbuf *b, long cp)
{
	if (cp == '\n')
		sb_puts(b, "\\n");
	else if (cp == '\r')
		sb_puts(b, "\\r");
	else if (cp == '\t')
		sb_puts(b, "\\t");
	else if (cp < 0x20 || cp == 0x7F)
		sb_printf(b, "\\x%02lx", cp);
	else
		return false;
	return true;
}

/* esc_md(b, cp, next): writes the md escape of cp (next is the following
 * byte, 0 at the end) and returns true, or false when cp needs none. A CR
 * directly before LF is dropped so CRLF gives a single <br>. */
static bool esc_md(struct sbuf *b, long cp, unsigned char next)
{
	if (cp == '|' || cp == '\\' || cp == '<') {
		sb_putc(b, '\\');
		sb_putc(b, (char)cp);
	} else if (cp == '\r' && next == '\n') {
		/* nothing: the LF writes the <br> */
	} else if (cp == '\r' || cp == '\n') {
		sb_puts(b, "<br>");
	} else {
		return esc_ctrl(b, cp);
	}
	return true;
}

/* esc_json(b, cp): writes the RFC 8259 escape of cp and returns true, or
 * false when cp is written as it is. */
static bool esc_json(struct sbuf *b, long cp)
{
	static const char from[] = "\"\\\b\f\n\r\t", to[] = "\"\\bfnrt";
	const char *p = cp > 0 && cp < 0x80 ? strchr(from, (int)cp) : NULL;
	if (p) {
		sb_putc(b, '\\');
		sb_putc(b, to[p - from]);
	} else if (cp < 0x20 || cp == 0x7F || cp == 0x2028 || cp == 0x2029) {
		sb_printf(b, "\\u%04lx", cp);
	} else {
		return false;
	}
	return true;
}

/* sb_esc(b, s, mode): appends s escaped for mode, ill-formed UTF-8
 * replaced by U+FFFD (as "\ufffd" in JSON). */
static void sb_esc(struct sbuf *b, const char *s, enum esc mode)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);
	while (n) {
		long cp;
		size_t len = utf8_next(p, n, &cp);
		bool done = false;
		if (cp < 0)
			sb_puts(b, mode == ESC_JSON ? "\\ufffd" : "\xEF\xBF\xBD");
		else if (mode == ESC_TEXT)
			done = esc_ctrl(b, cp);
		else if (mode == ESC_MD)
			done = esc_md(b, cp, n > 1 ? p[1] : 0);
		else if (mode == ESC_JSON)
			done = esc_json(b, cp);
		if (cp >= 0 && !done)
			sb_putn(b, (const char *)p, len);
		p += len;
		n -= len;
	}
}

/* esc_dup(s, mode): a malloc'd copy of s escaped for mode. */
static char *esc_dup(const char *s, enum esc mode)
{
	struct sbuf b = { 0 };
	sb_esc(&b, s, mode);
	return sb_take(&b);
}

/* utf8_width(s): number of code points in the valid UTF-8 string s (the
 * display width, ignoring double-width and combining characters). */
static size_t utf8_width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xC0) != 0x80;
	return w;
}

/* ---- numbers ---- */

/* fmt_short(b, v, point): appends the finite v in the shortest form that
 * strtod reads back as v, fixed-point for exponents -4..15 and %e style
 * otherwise (Python's repr); point adds ".0" to a form without '.' or 'e'. */
static void fmt_short(struct sbuf *b, double v, bool point)
{
	char buf[40];
	int p = 1;
	for (; p < 17; p++) {
		snprintf(buf, sizeof(buf), "%.*e", p - 1, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	snprintf(buf, sizeof(buf), "%.*e", p - 1, v);
	int e = atoi(strchr(buf, 'e') + 1);
	if (e >= -4 && e < 16)
		snprintf(buf, sizeof(buf), "%.*f", p - 1 - e > 0 ? p - 1 - e : 0, v);
	sb_puts(b, buf);
	if (point && !strpbrk(buf, ".e"))
		sb_puts(b, ".0");
}

/* fmt_nonfinite(b, v): appends "nan", "inf" or "-inf" and returns true
 * when v is not finite; returns false otherwise. */
static bool fmt_nonfinite(struct sbuf *b, double v)
{
	if (isnan(v))
		sb_puts(b, "nan");
	else if (isinf(v))
		sb_puts(b, v < 0 ? "-inf" : "inf");
	else
		return false;
	return true;
}

/* ---- the table ---- */

struct column {
	char *name;
	enum col_type type;
	int precision;
};

struct ltable {
	char *title, *null_text;
	struct column *cols;
	int ncols;
	struct cell *cells; /* nrows * ncols, row-major */
	size_t nrows, cap_rows;
};

/* table_new: see table.h. */
struct ltable *lt_new(const char *title)
{
	struct ltable *t = xmalloc(sizeof(*t));
	*t = (struct ltable){ .title = xstrdup(title), .null_text = xstrdup("") };
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
void lt_free(struct ltable *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nrows * (size_t)t->ncols; i++)
		cell_clear(&t->cells[i]);
	for (int c = 0; c < t->ncols; c++)
		free(t->cols[c].name);
	free(t->cells);
	free(t->cols);
	free(t->title);
	free(t->null_text);
	free(t);
}

/* table_col: see table.h. */
int lt_col(struct ltable *t, const char *name, enum col_type type, int precision)
{
	if (!name)
		die("table_col: NULL column name");
	if (t->nrows)
		die("table_col: column '%s' declared after the first row", name);
	if (type < COL_STR || type > COL_PCT)
		die("table_col: column '%s' has bad type %d", name, (int)type);
	for (int c = 0; c < t->ncols; c++)
		if (!strcmp(t->cols[c].name, name))
			die("table_col: duplicate column name '%s'", name);
	t->cols = xrealloc(t->cols, ((size_t)t->ncols + 1) * sizeof(*t->cols));
	t->cols[t->ncols] = (struct column){ xstrdup(name), type, precision };
	return t->ncols++;
}

/* table_null_text: see table.h. */
void lt_null_text(struct ltable *t, const char *s)
{
	free(t->null_text);
	t->null_text = xstrdup(s ? s : "");
}

/* table_add_row: see table.h. */
void lt_add_row(struct ltable *t)
{
	size_t nc = (size_t)t->ncols;
	if (t->nrows == t->cap_rows) {
		t->cap_rows = t->cap_rows ? t->cap_rows * 2 : 16;
		t->cells = xrealloc(t->cells, t->cap_rows * nc * sizeof(*t->cells));
	}
	for (size_t c = 0; c < nc; c++)
		t->cells[t->nrows * nc + c].kind = CELL_NULL;
	t->nrows++;
}

/* last_cell(t, col, who): the cell col of the last row, cleared; aborts,
 * naming the caller who, when there is no row or no such column. */
static struct cell *last_cell(struct ltable *t, int col, const char *who)
{
	if (!t->nrows)
		die("%s: no row yet (call table_add_row first)", who);
	if (col < 0 || col >= t->ncols)
		die("%s: column %d out of range (table has %d)", who, col, t->ncols);
	struct cell *c = &t->cells[(t->nrows - 1) * (size_t)t->ncols + (size_t)col];
	cell_clear(c);
	return c;
}

/* table_set_str: see table.h. */
void lt_set_str(struct ltable *t, int col, const char *s)
{
	struct cell *c = last_cell(t, col, "table_set_str");
	if (s) {
		c->kind = CELL_STR;
		c->v.s = xstrdup(s);
	}
}

/* table_set_int: see table.h. */
void lt_set_int(struct ltable *t, int col, long long v)
{
	struct cell *c = last_cell(t, col, "table_set_int");
	enum col_type type = t->cols[col].type;
	if (type == COL_REAL || type == COL_PCT) {
		c->kind = CELL_REAL;
		c->v.r = (double)v;
	} else {
		c->kind = CELL_INT;
		c->v.i = v;
	}
}

/* table_set_real: see table.h. */
void lt_set_real(struct ltable *t, int col, double v)
{
	struct cell *c = last_cell(t, col, "table_set_real");
	c->kind = CELL_REAL;
	c->v.r = v;
}

/* table_title: see table.h. */
const char *lt_title(const struct ltable *t)
{
	return t->title;
}

/* table_nrows: see table.h. */
size_t lt_nrows(const struct ltable *t)
{
	return t->nrows;
}

/* table_ncols: see table.h. */
int lt_ncols(const struct ltable *t)
{
	return t->ncols;
}

/* cell_at(t, r, c): the cell of row r, column c. */
static const struct cell *cell_at(const struct ltable *t, size_t r, int c)
{
	return &t->cells[r * (size_t)t->ncols + (size_t)c];
}

/* is_numeric(type): whether columns of this type are right-aligned. */
static bool is_numeric(enum col_type type)
{
	return type != COL_STR;
}

/* ---- text and md ---- */

/* human_real(b, col, v): appends the text/md form of the real v in
 * column col: its precision (0 in COL_STR and COL_INT columns, shortest
 * exact form when negative) and a '%' for a finite COL_PCT value. */
static void human_real(struct sbuf *b, const struct column *col, double v)
{
	if (fmt_nonfinite(b, v))
		return;
	if (col->type == COL_STR || col->type == COL_INT)
		sb_printf(b, "%.0f", v);
	else if (col->precision < 0)
		fmt_short(b, v, false);
	else
		sb_printf(b, "%.*f", col->precision, v);
	if (col->type == COL_PCT)
		sb_putc(b, '%');
}

/* cell_human(t, r, c, mode): the malloc'd text/md form of a cell: strings
 * and the null text escaped for mode, numbers as human_real says. */
static char *cell_human(const struct ltable *t, size_t r, int c, enum esc mode)
{
	const struct cell *x = cell_at(t, r, c);
	struct sbuf b = { 0 };
	if (x->kind == CELL_NULL || x->kind == CELL_STR)
		sb_esc(&b, x->kind == CELL_STR ? x->v.s : t->null_text, mode);
	else if (x->kind == CELL_INT)
		sb_printf(&b, "%lld", x->v.i);
	else
		human_real(&b, &t->cols[c], x->v.r);
	return sb_take(&b);
}

/* The escaped strings of a table for text or md: (nrows + 1) * ncols
 * strings, the headers first, and each column's width in code points. */
struct grid {
	char **s;
	size_t *w;
	size_t n;
};

/* grid_build(t, mode, minw): the grid of t escaped for mode, every
 * width at least minw. */
static struct grid grid_build(const struct ltable *t, enum esc mode, size_t minw)
{
	size_t nc = (size_t)t->ncols;
	struct grid g = { xmalloc((t->nrows + 1) * nc * sizeof(char *)),
			  xmalloc(nc * sizeof(size_t)), (t->nrows + 1) * nc };
	for (int c = 0; c < t->ncols; c++) {
		g.s[c] = esc_dup(t->cols[c].name, mode);
		g.w[c] = minw;
	}
	for (size_t r = 0; r < t->nrows; r++)
		for (int c = 0; c < t->ncols; c++)
			g.s[(r + 1) * nc + (size_t)c] = cell_human(t, r, c, mode);
	for (size_t i = 0; i < g.n; i++) {
		size_t w = utf8_width(g.s[i]);
		if (w > g.w[i % nc])
			g.w[i % nc] = w;
	}
	return g;
}

/* grid_free(g): frees what grid_build allocated. */
static void grid_free(struct grid *g)
{
	for (size_t i = 0; i < g->n; i++)
		free(g->s[i]);
	free(g->s);
	free(g->w);
}

/* sb_pad(b, s, w, right): appends s padded with spaces to w code points,
 * on the left when right is true. */
static void sb_pad(struct sbuf *b, const char *s, size_t w, bool right)
{
	size_t n = utf8_width(s);
	if (!right)
		sb_puts(b, s);
	for (; n < w; n++)
		sb_putc(b, ' ');
	if (right)
		sb_puts(b, s);
}

/* text_line(t, cells, w, out): prints one text line of ncols cells, two
 * spaces apart, without trailing blanks. */
static void text_line(const struct ltable *t, char *const *cells, const size_t *w, FILE *out)
{
	struct sbuf b = { 0 };
	for (int c = 0; c < t->ncols; c++) {
		if (c)
			sb_puts(&b, "  ");
		sb_pad(&b, cells[c], w[c], is_numeric(t->cols[c].type));
	}
	while (b.len && b.p[b.len - 1] == ' ')
		b.p[--b.len] = '\0';
	sb_putc(&b, '\n');
	fputs(b.p, out);
	free(b.p);
}

/* md_line(t, cells, w, out): prints one md table line "| a | b |". */
static void md_line(const struct ltable *t, char *const *cells, const size_t *w, FILE *out)
{
	struct sbuf b = { 0 };
	sb_putc(&b, '|');
	for (int c = 0; c < t->ncols; c++) {
		sb_putc(&b, ' ');
		sb_pad(&b, cells[c], w[c], is_numeric(t->cols[c].type));
		sb_puts(&b, " |");
	}
	sb_putc(&b, '\n');
	fputs(b.p, out);
	free(b.p);
}

/* rule_cells(t, w, md): malloc'd separator cells: dashes of each column's
 * width, the last one a ':' for a numeric column when md is true. */
static char **rule_cells(const struct ltable *t, const size_t *w, bool md)
{
	char **r = xmalloc((size_t)t->ncols * sizeof(char *));
	for (int c = 0; c < t->ncols; c++) {
		r[c] = xmalloc(w[c] + 1);
		memset(r[c], '-', w[c]);
		r[c][w[c]] = '\0';
		if (md && w[c] && is_numeric(t->cols[c].type))
			r[c][w[c] - 1] = ':';
	}
	return r;
}

/* print_lines(t, g, md, out): prints header, separator and rows of the
 * grid g as text (md false) or md lines. */
static void print_lines(const struct ltable *t, const struct grid *g, bool md, FILE *out)
{
	void (*line)(const struct ltable *, char *const *, const size_t *, FILE *) =
		md ? md_line : text_line;
	char **rule = rule_cells(t, g->w, md);
	line(t, g->s, g->w, out);
	line(t, rule, g->w, out);
	for (size_t r = 0; r < t->nrows; r++)
		line(t, g->s + (r + 1) * (size_t)t->ncols, g->w, out);
	for (int c = 0; c < t->ncols; c++)
		free(rule[c]);
	free(rule);
}

/* print_title(t, prefix, mode, suffix, out): prints prefix, the escaped
 * title and suffix when t has a title. */
static void print_title(const struct ltable *t, const char *prefix, enum esc mode,
			const char *suffix, FILE *out)
{
	if (!t->title)
		return;
	char *s = esc_dup(t->title, mode);
	fprintf(out, "%s%s%s", prefix, s, suffix);
	free(s);
}

/* print_text(t, out): the text form (see table_print). */
static void print_text(const struct ltable *t, FILE *out)
{
	print_title(t, "# ", ESC_TEXT, "\n", out);
	if (!t->ncols)
		return;
	struct grid g = grid_build(t, ESC_TEXT, 0);
	print_lines(t, &g, false, out);
	grid_free(&g);
}

/* print_md(t, out): the md form (see table_print); columns are at least
 * three wide, as GitHub wants "---" in the separator. */
static void print_md(const struct ltable *t, FILE *out)
{
	print_title(t, "### ", ESC_MD, "\n\n", out);
	if (!t->ncols)
		return;
	struct grid g = grid_build(t, ESC_MD, 3);
	print_lines(t, &g, true, out);
	grid_free(&g);
}

/* ---- csv ---- */

/* csv_field(out, s): prints the string s as one RFC 4180 field: quoted
 * when it holds ',', '"', CR or LF or is empty, inner '"' doubled. */
static void csv_field(FILE *out, const char *s)
{
	char *v = esc_dup(s, ESC_NONE);
	if (*v && !strpbrk(v, ",\"\r\n")) {
		fputs(v, out);
	} else {
		fputc('"', out);
		for (const char *p = v; *p; p++) {
			if (*p == '"')
				fputc('"', out);
			fputc(*p, out);
		}
		fputc('"', out);
	}
	free(v);
}

/* csv_cell(out, x): prints a cell: nothing for NULL, numbers in their
 * shortest exact form ("nan", "inf", "-inf" for non-finite reals). */
static void csv_cell(FILE *out, const struct cell *x)
{
	struct sbuf b = { 0 };
	if (x->kind == CELL_STR)
		csv_field(out, x->v.s);
	else if (x->kind == CELL_INT)
		fprintf(out, "%lld", x->v.i);
	else if (x->kind == CELL_REAL && !fmt_nonfinite(&b, x->v.r))
		fmt_short(&b, x->v.r, true);
	if (b.p)
		fputs(b.p, out);
	free(b.p);
}

/* print_csv(t, out): the csv form (see table_print); nothing for a table
 * without columns. */
static void print_csv(const struct ltable *t, FILE *out)
{
	if (!t->ncols)
		return;
	for (int c = 0; c < t->ncols; c++) {
		if (c)
			fputc(',', out);
		csv_field(out, t->cols[c].name);
	}
	fputc('\n', out);
	for (size_t r = 0; r < t->nrows; r++) {
		for (int c = 0; c < t->ncols; c++) {
			if (c)
				fputc(',', out);
			csv_cell(out, cell_at(t, r, c));
		}
		fputc('\n', out);
	}
}

/* json_cell(j, x): writes one table cell as a JSON value. */
static void json_cell(struct json *j, const struct cell *x)
{
	switch (x->kind) {
	case CELL_NULL: json_null(j); break;
	case CELL_STR: json_str(j, x->v.s); break;
	case CELL_INT: json_int(j, x->v.i); break;
	case CELL_REAL: json_real(j, x->v.r); break;
	}
}

/* json_table: see table.h. */
void lt_json_table(struct json *j, const struct ltable *t)
{
	json_begin_array(j);
	for (size_t r = 0; r < t->nrows; r++) {
		json_flat_next(j);
		json_begin_object(j);
		for (int c = 0; c < t->ncols; c++) {
			json_key(j, t->cols[c].name);
			json_cell(j, cell_at(t, r, c));
		}
		json_end_object(j);
	}
	json_end_array(j);
}

/* ---- printing ---- */

/* print_json(t, out): the json form (see table_print). */
static void print_json(const struct ltable *t, FILE *out)
{
	struct json *j = json_new(out, true);
	lt_json_table(j, t);
	json_free(j);
}

/* table_print: see table.h. */
int lt_print(const struct ltable *t, enum out_format f, FILE *out)
{
	switch (f) {
	case FMT_TEXT: print_text(t, out); break;
	case FMT_MD: print_md(t, out); break;
	case FMT_CSV: print_csv(t, out); break;
	case FMT_JSON: print_json(t, out); break;
	default: die("table_print: bad format %d", (int)f);
	}
	return ferror(out) ? -1 : 0;
}

/* print_all_json(ts, n, out): the json form of table_print_all. */
static void print_all_json(const struct ltable *const *ts, size_t n, FILE *out)
{
	struct json *j = json_new(out, true);
	json_begin_object(j);
	for (size_t i = 0; i < n; i++) {
		char key[32];
		snprintf(key, sizeof(key), "table%zu", i + 1);
		json_key(j, ts[i]->title ? ts[i]->title : key);
		lt_json_table(j, ts[i]);
	}
	json_end_object(j);
	json_free(j);
}

/* table_print_all: see table.h. */
int lt_print_all(const struct ltable *const *ts, size_t n, enum out_format f, FILE *out)
{
	if (f == FMT_JSON) {
		print_all_json(ts, n, out);
		return ferror(out) ? -1 : 0;
	}
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc('\n', out);
		lt_print(ts[i], f, out);
	}
	return ferror(out) ? -1 : 0;
}
