/* Result tables and JSON output shared by every perfdb verb: a verb fills a
 * table in memory (result tables hold at most thousands of rows) and prints
 * it as --format text|md|csv|json; verbs that need nested JSON use the small
 * streaming writer at the end of this file.
 *
 * Output rules common to all formats:
 *  - Strings are UTF-8. Invalid bytes are replaced by U+FFFD (one per
 *    maximal ill-formed subsequence, as Python's "replace" does), so every
 *    output is valid UTF-8 and JSON output is always valid JSON.
 *  - A NULL cell (never set, or set to a NULL string) is `null` in JSON,
 *    an empty field in CSV, and the table's null text (default "") in
 *    text and md.
 *  - text and md are for people: reals are printed with the column's
 *    precision and COL_PCT gets a '%' suffix. csv and json are for
 *    programs: reals are printed in the shortest form that reads back to
 *    the same double, without '%'.
 *  - Numbers use the C locale's decimal point (perfdb never calls
 *    setlocale(LC_NUMERIC)).
 * Misuse (a setter before any row, a column index out of range, a JSON key
 * outside an object ...) is a programming error: it prints one line to
 * stderr and calls abort(), as does running out of memory. */
#ifndef PERFDB_LEGACY_TABLE_H
#define PERFDB_LEGACY_TABLE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "reports/format.h"

/* Column types. COL_INT holds integers, COL_REAL doubles; COL_PCT holds a
 * double that is already a percentage (12.5 means 12.5%): text and md print
 * it as "12.50%" (precision 2), csv and json as the plain number 12.5.
 * Numeric columns are right-aligned in text and md, COL_STR left-aligned. */
#include "lib/table.h"

struct ltable;

/* lt_new(title): an empty table with no columns. title (copied; NULL
 * for none) is printed as "# title" above the text form and "### title"
 * above the md form, and is the table's key in table_print_all's JSON. */
struct ltable *lt_new(const char *title);

/* lt_free(t): frees t and everything it owns; NULL is allowed. */
void lt_free(struct ltable *t);

/* lt_col(t, name, type, precision): appends a column and returns its
 * index (0, 1, ...). name (copied) is the header in text/md/csv and the
 * key in JSON, so it must differ from every other column's name. precision
 * is the number of decimals of COL_REAL and COL_PCT in text and md; a
 * negative precision means the shortest exact form; it is ignored for
 * COL_STR and COL_INT. All columns must be declared before the first row. */
int lt_col(struct ltable *t, const char *name, enum col_type type, int precision);

/* lt_null_text(t, s): what text and md print for NULL cells, e.g. "-"
 * (copied; NULL restores the default ""). csv and json are unaffected. */
void lt_null_text(struct ltable *t, const char *s);

/* lt_add_row(t): appends a row whose cells are all NULL; the setters
 * below fill cells of this last row. */
void lt_add_row(struct ltable *t);

/* lt_set_str(t, col, s): the last row's cell col becomes a copy of s,
 * or NULL when s is NULL. A string may go into a column of any type (it is
 * still aligned by the column's type, and is a JSON string). */
void lt_set_str(struct ltable *t, int col, const char *s);

/* lt_set_int(t, col, v): the last row's cell col becomes the integer v;
 * in a COL_REAL or COL_PCT column it is stored as the double (double)v. */
void lt_set_int(struct ltable *t, int col, long long v);

/* lt_set_real(t, col, v): the last row's cell col becomes the double v
 * (NaN and infinities allowed: "nan"/"inf"/"-inf" in text, md and csv,
 * null in JSON). In a COL_INT or COL_STR column it is printed as a real
 * with precision 0 in text and md. */
void lt_set_real(struct ltable *t, int col, double v);

/* lt_title(t): the title given to table_new, or NULL. */
const char *lt_title(const struct ltable *t);

/* lt_nrows(t) / lt_ncols(t): number of rows / columns so far. */
size_t lt_nrows(const struct ltable *t);
int lt_ncols(const struct ltable *t);

/* lt_print(t, f, out): writes t to out in format f:
 *  text: optional "# title" line, header line, a line of dashes, then one
 *        line per row; columns padded to their widest cell (counted in
 *        code points), two spaces apart, no trailing blanks. Control
 *        characters are shown as \n, \r, \t or \xNN so rows stay one line.
 *  md:   optional "### title" line and a blank line, then a GitHub table
 *        ("| a | b |", separator "| --- | --: |" with ":" marking numeric
 *        columns), cells padded so the raw text lines up too. In cells '|',
 *        '\' and '<' are backslash-escaped, CR/LF become "<br>", other
 *        control characters \xNN.
 *  csv:  RFC 4180 fields: a header row, then one record per row; a field
 *        containing ',', '"', CR or LF is quoted with '"' doubled. Records
 *        end in "\n" (not CRLF). An empty string is written as "" so it
 *        differs from NULL (an empty field). No title.
 *  json: an array with one object per row whose keys are the column names
 *        in column order; rows one per line. Integers and reals are JSON
 *        numbers (reals always with a '.' or exponent), NaN/inf null.
 * A table without columns prints only its title in text and md, nothing
 * in csv, and one {} per row in json. Returns 0,
 * or -1 when out has its error flag set afterwards (a failed write). */
int lt_print(const struct ltable *t, enum out_format f, FILE *out);

/* lt_print_all(ts, n, f, out): prints n tables as one document. text,
 * md and csv: each table as table_print does, separated by one empty line.
 * json: one object whose keys are the tables' titles ("table1", "table2",
 * ... by position for a table without a title; titles should be distinct)
 * and whose values are the tables' arrays. Returns as table_print. */
int lt_print_all(const struct ltable *const *ts, size_t n, enum out_format f, FILE *out);

#include "reports/json.h"

/* lt_json_table(j, t): writes t as a value: the array table_print writes for
 * FMT_JSON (one object per row keyed by column names). */
void lt_json_table(struct json *j, const struct ltable *t);

#endif
