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
#ifndef PERFDB_TABLE_H
#define PERFDB_TABLE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum out_format { FMT_TEXT, FMT_MD, FMT_CSV, FMT_JSON };

/* out_format_parse(s, f): sets *f from "text", "md", "csv" or "json"
 * (exact, lower case) and returns 0; returns -1 and leaves *f alone for
 * anything else, NULL included. */
int out_format_parse(const char *s, enum out_format *f);

/* out_format_name(f): "text", "md", "csv" or "json"; "?" for a value
 * outside the enum. */
const char *out_format_name(enum out_format f);

/* Column types. COL_INT holds integers, COL_REAL doubles; COL_PCT holds a
 * double that is already a percentage (12.5 means 12.5%): text and md print
 * it as "12.50%" (precision 2), csv and json as the plain number 12.5.
 * Numeric columns are right-aligned in text and md, COL_STR left-aligned. */
enum col_type { COL_STR, COL_INT, COL_REAL, COL_PCT };

struct table;

/* table_new(title): an empty table with no columns. title (copied; NULL
 * for none) is printed as "# title" above the text form and "### title"
 * above the md form, and is the table's key in table_print_all's JSON. */
struct table *table_new(const char *title);

/* table_free(t): frees t and everything it owns; NULL is allowed. */
void table_free(struct table *t);

/* table_col(t, name, type, precision): appends a column and returns its
 * index (0, 1, ...). name (copied) is the header in text/md/csv and the
 * key in JSON, so it must differ from every other column's name. precision
 * is the number of decimals of COL_REAL and COL_PCT in text and md; a
 * negative precision means the shortest exact form; it is ignored for
 * COL_STR and COL_INT. All columns must be declared before the first row. */
int table_col(struct table *t, const char *name, enum col_type type, int precision);

/* table_null_text(t, s): what text and md print for NULL cells, e.g. "-"
 * (copied; NULL restores the default ""). csv and json are unaffected. */
void table_null_text(struct table *t, const char *s);

/* table_add_row(t): appends a row whose cells are all NULL; the setters
 * below fill cells of this last row. */
void table_add_row(struct table *t);

/* table_set_str(t, col, s): the last row's cell col becomes a copy of s,
 * or NULL when s is NULL. A string may go into a column of any type (it is
 * still aligned by the column's type, and is a JSON string). */
void table_set_str(struct table *t, int col, const char *s);

/* table_set_int(t, col, v): the last row's cell col becomes the integer v;
 * in a COL_REAL or COL_PCT column it is stored as the double (double)v. */
void table_set_int(struct table *t, int col, long long v);

/* table_set_real(t, col, v): the last row's cell col becomes the double v
 * (NaN and infinities allowed: "nan"/"inf"/"-inf" in text, md and csv,
 * null in JSON). In a COL_INT or COL_STR column it is printed as a real
 * with precision 0 in text and md. */
void table_set_real(struct table *t, int col, double v);

/* table_title(t): the title given to table_new, or NULL. */
const char *table_title(const struct table *t);

/* table_nrows(t) / table_ncols(t): number of rows / columns so far. */
size_t table_nrows(const struct table *t);
int table_ncols(const struct table *t);

/* table_print(t, f, out): writes t to out in format f:
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
int table_print(const struct table *t, enum out_format f, FILE *out);

/* table_print_all(ts, n, f, out): prints n tables as one document. text,
 * md and csv: each table as table_print does, separated by one empty line.
 * json: one object whose keys are the tables' titles ("table1", "table2",
 * ... by position for a table without a title; titles should be distinct)
 * and whose values are the tables' arrays. Returns as table_print. */
int table_print_all(const struct table *const *ts, size_t n, enum out_format f, FILE *out);

/* A streaming JSON writer. Values are written as they come; the writer
 * keeps only the stack of open arrays/objects to place commas, and aborts
 * on misuse (a key outside an object, a value inside an object without a
 * key, an end that does not match its begin). Every complete top-level
 * value is followed by "\n". Pretty output is indented by two spaces per
 * level, with ", " / ": " inside one-line row objects and ": " after
 * keys, like Python's json.dumps(indent=2); compact output has no blanks. */
struct json;

/* json_new(out, pretty): a writer onto out (not owned, not closed). */
struct json *json_new(FILE *out, bool pretty);

/* json_free(j): frees the writer (NULL allowed); it does not close open
 * arrays or objects, nor flush out. */
void json_free(struct json *j);

/* json_begin_object / json_end_object / json_begin_array /
 * json_end_array: open and close a container (the begin is a value: in an
 * object it needs a key first). */
void json_begin_object(struct json *j);
void json_end_object(struct json *j);
void json_begin_array(struct json *j);
void json_end_array(struct json *j);

/* json_key(j, k): the key of the next member of the current object;
 * k must not be NULL. Escaped like json_str. */
void json_key(struct json *j, const char *k);

/* json_str(j, s): the string s, escaped per RFC 8259: '"' and '\' with a
 * backslash, \b \f \n \r \t, other control characters and DEL as \u00XX,
 * U+2028/U+2029 as \u2028/\u2029, invalid UTF-8 as \ufffd, other valid
 * UTF-8 unchanged. NULL writes null. */
void json_str(struct json *j, const char *s);

/* json_int(j, v) / json_real(j, v) / json_bool(j, v) / json_null(j):
 * scalar values. json_real writes the shortest form that reads back as v,
 * with ".0" added to integral values (5.0), and null for NaN and inf. */
void json_int(struct json *j, long long v);
void json_real(struct json *j, double v);
void json_bool(struct json *j, bool v);
void json_null(struct json *j);

/* json_table(j, t): writes t as a value: the array table_print writes for
 * FMT_JSON (one object per row keyed by column names). */
void json_table(struct json *j, const struct table *t);

#endif
