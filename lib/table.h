/* Result tables: named grids of typed cells that analyzers fill and the
 * renderers of reports/ print as text, md, csv or json. This file holds
 * the data only; nothing here prints.
 *
 * A table has a name (its key in a findings document and what `--table
 * NAME` picks: lower case letters, digits and '_'), an optional human
 * title and caption lines, typed columns and rows of cells. Columns and
 * rows can be meant for people only (text, md: a "mean" row, an interval
 * written as "[-0.40, +0.40]") or for programs only (csv, json: the two
 * ends of that interval as numbers); a column can be indented by the
 * depth held in another column (a call tree). Misuse (a setter before any
 * row, a column out of range, a bad name) is a programming error: one
 * line on stderr and abort(). Allocation follows lib/alloc.h. */
#ifndef PERFDB_TABLE_H
#define PERFDB_TABLE_H
#include <stdbool.h>
#include <stddef.h>

/* Column types. COL_INT holds integers, COL_REAL doubles; COL_PCT holds
 * a double that is already a percentage (12.5 means 12.5%): text and md
 * print it with a '%' suffix, csv and json as the plain number. COL_BOOL
 * holds a yes or no answer, set with table_set_int (0 no, anything else
 * yes; read back as the integer 0 or 1): text, md and html print "yes" or
 * "no", csv 1 or 0, json true or false. Numeric columns are right-aligned
 * in text and md, COL_STR and COL_BOOL left-aligned. */
enum col_type { COL_STR, COL_INT, COL_REAL, COL_PCT, COL_BOOL };

enum cell_kind { CELL_NULL, CELL_STR, CELL_INT, CELL_REAL };

struct cell {
	enum cell_kind kind;
	union {
		char *s;
		long long i;
		double r;
	} v;
};

/* Where a column or row appears: text and md (SHOW_HUMAN), csv and json
 * (SHOW_DATA), or both (SHOW_ALL, the default). */
enum { SHOW_HUMAN = 1, SHOW_DATA = 2, SHOW_ALL = 3 };

/* How the human forms show a table: TABLE_GRID (a title, a header, a
 * rule, aligned rows); TABLE_PLAIN (text: only the cells, one space apart,
 * one row a line: the folded-stacks form flame graph tools read; md as a
 * grid); TABLE_LIST (each row's first shown cell as a list item: a
 * summary); TABLE_CHART (data for a picture: points of columns "cell",
 * "side", "value"; md and html draw it as an SVG chart, text leaves it
 * out); TABLE_FLAME (the frames of a differential flame graph, as
 * reports/svg_flame.h reads them; md and html draw it, text leaves it
 * out). csv and json show every style as rows. */
enum table_style { TABLE_GRID, TABLE_PLAIN, TABLE_LIST, TABLE_CHART, TABLE_FLAME };

struct table;

/* table_new(name, title): an empty table. name must match [a-z0-9_]+;
 * title (may be NULL) is shown above the human forms. Both copied. */
struct table *table_new(const char *name, const char *title);

/* table_free(t): frees t and everything it owns; NULL is allowed. */
void table_free(struct table *t);

/* table_col(t, name, type, precision): appends a column and returns its
 * index. name is the csv header and json key (unique in t); precision is
 * the number of decimals of COL_REAL and COL_PCT in text and md, negative
 * for the shortest exact form. Columns are declared before the first row. */
int table_col(struct table *t, const char *name, enum col_type type, int precision);

/* table_col_label(t, col, label): the header text and md show instead of
 * the name ("base%", "95% interval"). */
void table_col_label(struct table *t, int col, const char *label);

/* table_col_digits(t, col, digits): text and md show col's reals with at
 * least digits significant digits: more decimals than its precision when
 * a value is small (0.00123, not 0.0). 0 (the default): the precision. */
void table_col_digits(struct table *t, int col, int digits);

/* table_col_show(t, col, show): where column col appears (SHOW_*). */
void table_col_show(struct table *t, int col, unsigned show);

/* table_col_indent(t, col, depth_col): text and md indent col's cells by
 * two spaces per level, the level being the integer in depth_col. */
void table_col_indent(struct table *t, int col, int depth_col);

/* table_null_text(t, s): what text and md print for NULL cells ("-");
 * NULL restores the default "". csv and json are unaffected. */
void table_null_text(struct table *t, const char *s);

/* table_caption(t, fmt, ...): adds a line shown under the title in text
 * and md (what the rows are, how intervals were computed). */
void table_caption(struct table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* table_style(t, style): how text prints t (enum table_style). */
void table_style(struct table *t, enum table_style style);

/* table_section(t, heading): the section t belongs to: the human forms
 * print heading before the first table of each section ("Setup",
 * "Evidence: context switches"). Copied; NULL for none. */
void table_section(struct table *t, const char *heading);

/* table_set_title(t, title): a new title (copied; NULL: none). */
void table_set_title(struct table *t, const char *title);

/* table_clone(t, name): a copy of t (columns, rows, captions, style,
 * section) named name. */
struct table *table_clone(const struct table *t, const char *name);

/* table_truncate(t, n): keeps the first n rows of t (every row when it
 * has no more); returns how many rows it had. */
size_t table_truncate(struct table *t, size_t n);

/* table_add_row(t): appends a row whose cells are all NULL; the setters
 * below fill cells of this last row. table_row_show(t, show): where the
 * last row appears (SHOW_*). */
void table_add_row(struct table *t);
void table_row_show(struct table *t, unsigned show);

/* table_set_str(t, col, s): the last row's cell col becomes a copy of s,
 * or NULL when s is NULL. table_set_strf: the printf output. */
void table_set_str(struct table *t, int col, const char *s);
void table_set_strf(struct table *t, int col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* table_set_int(t, col, v): the integer v (stored as the double (double)v
 * in a COL_REAL or COL_PCT column, as v != 0 in a COL_BOOL one).
 * table_set_real: the double v (NaN and infinities allowed: null in
 * json). table_set_null: NULL. */
void table_set_int(struct table *t, int col, long long v);
void table_set_real(struct table *t, int col, double v);
void table_set_null(struct table *t, int col);

/* Reading, for renderers and tests. */
const char *table_name(const struct table *t);
const char *table_title(const struct table *t);	/* NULL when none */
const char *table_null(const struct table *t);
enum table_style table_get_style(const struct table *t);
const char *table_get_section(const struct table *t);	/* NULL when none */
size_t table_nrows(const struct table *t);
int table_ncols(const struct table *t);
size_t table_ncaptions(const struct table *t);
const char *table_caption_at(const struct table *t, size_t i);
const char *table_col_name(const struct table *t, int col);
const char *table_col_header(const struct table *t, int col);	/* label, else name */
enum col_type table_col_type(const struct table *t, int col);
int table_col_precision(const struct table *t, int col);
int table_col_digits_of(const struct table *t, int col);	/* see table_col_digits */
unsigned table_col_shown(const struct table *t, int col);
int table_col_depth(const struct table *t, int col);	/* depth column, -1 none */
unsigned table_row_shown(const struct table *t, size_t row);

/* table_show(t, show): where the whole table appears in a document: a
 * table without SHOW_HUMAN is left out of text, md and html (json, and
 * a table asked for by name, --table or csv, show it all the same;
 * SHOW_ALL is the default). table_shown(t): those bits. */
void table_show(struct table *t, unsigned show);
unsigned table_shown(const struct table *t);

/* table_cell(t, row, col): the cell; aborts when out of range. */
const struct cell *table_cell(const struct table *t, size_t row, int col);

/* table_find_col(t, name): the index of the column called name, or -1. */
int table_find_col(const struct table *t, const char *name);
#endif
