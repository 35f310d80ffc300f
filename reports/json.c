/* A streaming JSON writer: see json.h. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "lib/bug.h"
#include "lib/alloc.h"
#include "lib/escape.h"
#include "reports/json.h"


/* One open container: object or array, printed on one line (flat) or
 * not, whether a key waits for its value, and how many members so far. */
struct jlevel {
	bool obj, flat, keyed;
	size_t n;
};

struct json {
	FILE *out;
	bool pretty;
	bool flat_next; /* the next container is printed on one line */
	struct jlevel *st;
	size_t depth, cap;
};

/* json_new: see json.h. */
struct json *json_new(FILE *out, bool pretty)
{
	struct json *j = xmalloc(sizeof(*j));
	*j = (struct json){ .out = out, .pretty = pretty };
	return j;
}

/* json_free: see json.h. */
void json_free(struct json *j)
{
	if (!j)
		return;
	free(j->st);
	free(j);
}

/* j_top(j): the innermost open container, or NULL at top level. */
static struct jlevel *j_top(struct json *j)
{
	return j->depth ? &j->st[j->depth - 1] : NULL;
}

/* j_sep(j): before an array element or an object key: the comma, and in
 * pretty output a newline and indent (a space in one-line containers). */
static void j_sep(struct json *j)
{
	struct jlevel *l = j_top(j);
	if (l->n++)
		fputc(',', j->out);
	if (!j->pretty)
		return;
	if (l->flat) {
		if (l->n > 1)
			fputc(' ', j->out);
		return;
	}
	fputc('\n', j->out);
	for (size_t i = 0; i < j->depth; i++)
		fputs("  ", j->out);
}

/* j_value(j, who): before any value: checks that an object member has its
 * key (aborting, naming who, if not) and places separators. */
static void j_value(struct json *j, const char *who)
{
	struct jlevel *l = j_top(j);
	if (!l)
		return;
	if (!l->obj) {
		j_sep(j);
		return;
	}
	if (!l->keyed)
		bug("%s: value inside a JSON object without a key", who);
	l->keyed = false;
}

/* j_done(j): after any value: ends a complete top-level value with "\n". */
static void j_done(struct json *j)
{
	if (!j->depth)
		fputc('\n', j->out);
}

/* j_string(j, s): prints the quoted, escaped string s. */
static void j_string(struct json *j, const char *s)
{
	struct strbuf b = STRBUF_INIT;
	sb_putc(&b, '"');
	esc_append(&b, s, ESC_JSON);
	sb_putc(&b, '"');
	fputs(b.p, j->out);
	free(b.p);
}

/* j_begin(j, obj, who): opens an object (obj true) or array. */
static void j_begin(struct json *j, bool obj, const char *who)
{
	j_value(j, who);
	struct jlevel *top = j_top(j);
	bool flat = j->flat_next || (top && top->flat);
	j->flat_next = false;
	if (j->depth == j->cap) {
		j->cap = j->cap ? j->cap * 2 : 8;
		j->st = xrealloc(j->st, j->cap * sizeof(*j->st));
	}
	j->st[j->depth++] = (struct jlevel){ .obj = obj, .flat = flat };
	fputc(obj ? '{' : '[', j->out);
}

/* j_end(j, obj, who): closes the innermost container, which must be an
 * object (obj true) or array with no key waiting. */
static void j_end(struct json *j, bool obj, const char *who)
{
	struct jlevel *top = j_top(j);
	if (!top || top->obj != obj)
		bug("%s: no open JSON %s to close", who, obj ? "object" : "array");
	if (top->keyed)
		bug("%s: JSON key without a value", who);
	struct jlevel l = j->st[--j->depth];
	if (j->pretty && l.n && !l.flat) {
		fputc('\n', j->out);
		for (size_t i = 0; i < j->depth; i++)
			fputs("  ", j->out);
	}
	fputc(obj ? '}' : ']', j->out);
	j_done(j);
}

/* json_begin_object: see json.h. */
void json_begin_object(struct json *j)
{
	j_begin(j, true, "json_begin_object");
}

/* json_end_object: see json.h. */
void json_end_object(struct json *j)
{
	j_end(j, true, "json_end_object");
}

/* json_begin_array: see json.h. */
void json_begin_array(struct json *j)
{
	j_begin(j, false, "json_begin_array");
}

/* json_end_array: see json.h. */
void json_end_array(struct json *j)
{
	j_end(j, false, "json_end_array");
}

/* json_key: see json.h. */
void json_key(struct json *j, const char *k)
{
	struct jlevel *top = j_top(j);
	if (!k)
		bug("json_key: NULL key");
	if (!top || !top->obj)
		bug("json_key: key '%s' outside a JSON object", k);
	if (top->keyed)
		bug("json_key: key '%s' right after another key", k);
	j_sep(j);
	j_string(j, k);
	fputs(j->pretty ? ": " : ":", j->out);
	top->keyed = true;
}

/* json_str: see json.h. */
void json_str(struct json *j, const char *s)
{
	j_value(j, "json_str");
	if (s)
		j_string(j, s);
	else
		fputs("null", j->out);
	j_done(j);
}

/* json_int: see json.h. */
void json_int(struct json *j, long long v)
{
	j_value(j, "json_int");
	fprintf(j->out, "%lld", v);
	j_done(j);
}

/* json_real: see json.h. */
void json_real(struct json *j, double v)
{
	j_value(j, "json_real");
	if (isfinite(v)) {
		struct strbuf b = STRBUF_INIT;
		num_short(&b, v, true);
		fputs(b.p, j->out);
		free(b.p);
	} else {
		fputs("null", j->out);
	}
	j_done(j);
}

/* json_bool: see json.h. */
void json_bool(struct json *j, bool v)
{
	j_value(j, "json_bool");
	fputs(v ? "true" : "false", j->out);
	j_done(j);
}

/* json_null: see json.h. */
void json_null(struct json *j)
{
	j_value(j, "json_null");
	fputs("null", j->out);
	j_done(j);
}


/* json_flat_next: see json.h. */
void json_flat_next(struct json *j)
{
	j->flat_next = true;
}
