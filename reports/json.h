/* A streaming JSON writer. Values are written as they come; the writer
 * keeps only the stack of open arrays/objects to place commas, and aborts
 * on misuse (a key outside an object, a value inside an object without a
 * key, an end that does not match its begin). Every complete top-level
 * value is followed by "\n". Pretty output is indented by two spaces per
 * level, with ", " / ": " inside one-line containers and ": " after keys,
 * like Python's json.dumps(indent=2); compact output has no blanks.
 * Strings are escaped as reports/escape.h's ESC_JSON says. */
#ifndef PERFDB_JSON_H
#define PERFDB_JSON_H
#include <stdbool.h>
#include <stdio.h>

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

/* json_flat_next(j): the next array or object (and what it holds) is
 * printed on one line, as table rows are. */
void json_flat_next(struct json *j);
#endif
