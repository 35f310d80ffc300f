/* TRACING_DATA reader: walks perf's tracepoint-format blob with a bounds-
 * checked cursor and hands each text it carries (header page, ftrace and
 * event formats, kallsyms, printk formats, saved cmdlines) to libtraceevent.
 * Layout, in the file's byte order: "\x17\x08\x44tracing", version string,
 * endian byte, long-size byte, u32 page size, "header_page\0" u64+text,
 * "header_event\0" u64+text, u32 n ftrace formats (u64+text each), u32 n
 * systems (name\0, u32 n, u64+text each), u32+kallsyms, u32+printk formats,
 * and from version 0.6 on u64+saved cmdlines. */
#include "collect/perfdata/tracing_data.h"
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/alloc.h"
#include "lib/bytes.h"
#include "lib/errf.h"

/* Parser state: the cursor over the blob, the handle being filled, and
 * where error messages go. */
struct td {
	struct cursor c;
	struct tep_handle *tep;
	char *err;
	size_t errlen;
};

/* A handler for one NUL-terminated line of a text section. */
typedef void td_line_fn(struct tep_handle *tep, char *line);

/* td_fail: writes "tracing data: <what> at offset <off>" into the caller's
 * error buffer; returns -1 so callers can `return td_fail(...)`. */
static int td_fail(struct td *t, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int td_fail(struct td *t, size_t off, const char *fmt, ...)
{
	char what[192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return errf(t->err, t->errlen, "tracing data: %s at offset %zu", what, off);
}

/* td_left: how many bytes remain after the cursor. */
static size_t td_left(const struct td *t)
{
	return t->c.len - t->c.pos;
}

/* td_u8/td_u32/td_u64: read one integer (file byte order) or fail naming
 * `what` and the offset where it should have been. */
static int td_u8(struct td *t, uint8_t *v, const char *what)
{
	const uint8_t *p = cur_bytes(&t->c, 1);

	*v = 0;
	if (!p)
		return td_fail(t, t->c.pos, "truncated %s (need 1 byte, 0 left)", what);
	*v = *p;
	return 0;
}

static int td_u32(struct td *t, uint32_t *v, const char *what)
{
	*v = 0;
	if (!cur_u32(&t->c, v))
		return td_fail(t, t->c.pos, "truncated %s (need 4 bytes, %zu left)",
			       what, td_left(t));
	return 0;
}

static int td_u64(struct td *t, uint64_t *v, const char *what)
{
	*v = 0;
	if (!cur_u64(&t->c, v))
		return td_fail(t, t->c.pos, "truncated %s (need 8 bytes, %zu left)",
			       what, td_left(t));
	return 0;
}

/* td_sized: reads a size (u32 when width is 4, else u64) and then that many
 * bytes; *p points at them inside the blob. Fails when the size is larger
 * than what remains. */
static int td_sized(struct td *t, int width, const uint8_t **p, size_t *n,
		    const char *what)
{
	uint64_t size = 0;
	uint32_t size32 = 0;

	*p = NULL;
	*n = 0;
	if (width == 4) {
		if (td_u32(t, &size32, what))
			return -1;
		size = size32;
	} else if (td_u64(t, &size, what)) {
		return -1;
	}
	if (size > td_left(t))
		return td_fail(t, t->c.pos, "%s of %llu bytes overruns the %zu bytes left",
			       what, (unsigned long long)size, td_left(t));
	*n = (size_t)size;
	*p = cur_bytes(&t->c, *n);
	return 0;
}

/* td_cstr: the NUL-terminated string at the cursor (pointing into the blob)
 * or a failure when no NUL comes before the end. */
static int td_cstr(struct td *t, const char **s, const char *what)
{
	size_t at = t->c.pos, left = td_left(t);
	const uint8_t *nul = left ? memchr(t->c.base + at, 0, left) : NULL;

	*s = NULL;
	if (!nul)
		return td_fail(t, at, "unterminated %s", what);
	*s = (const char *)(t->c.base + at);
	t->c.pos += (size_t)(nul - (t->c.base + at)) + 1;
	return 0;
}

/* td_expect: consumes exactly the n bytes of tag, or fails. */
static int td_expect(struct td *t, const char *tag, size_t n, const char *what)
{
	size_t at = t->c.pos;
	const uint8_t *p = cur_bytes(&t->c, n);

	if (!p)
		return td_fail(t, at, "truncated %s (need %zu bytes, %zu left)",
			       what, n, td_left(t));
	if (memcmp(p, tag, n))
		return td_fail(t, at, "bad %s", what);
	return 0;
}

/* version_has_cmdlines: whether a version string such as "0.6" is >= 0.6,
 * the first version whose blob ends with saved cmdlines. */
static bool version_has_cmdlines(const char *v)
{
	unsigned long major = 0;

	while (*v >= '0' && *v <= '9')
		major = major * 10 + (unsigned long)(*v++ - '0');
	if (major > 0)
		return true;
	return v[0] == '.' && v[1] >= '6' && v[1] <= '9';
}

/* td_preamble: magic, version, byte order, long size and page size; sets
 * the cursor's byte swapping and the handle's sizes. */
static int td_preamble(struct td *t, bool *has_cmdlines)
{
	const char *version;
	uint8_t endian = 0, long_size = 0;
	uint32_t page_size = 0;
	size_t at;

	if (td_expect(t, "\x17\x08\x44tracing", 10, "magic"))
		return -1;
	if (td_cstr(t, &version, "version string"))
		return -1;
	*has_cmdlines = version_has_cmdlines(version);
	at = t->c.pos;
	if (td_u8(t, &endian, "endianness byte"))
		return -1;
	if (endian > 1)
		return td_fail(t, at, "bad endianness byte %u", endian);
	at = t->c.pos;
	if (td_u8(t, &long_size, "long size"))
		return -1;
	if (long_size != 4 && long_size != 8)
		return td_fail(t, at, "bad long size %u", long_size);
	t->c.swap = endian != (tep_is_bigendian() ? 1 : 0);
	at = t->c.pos;
	if (td_u32(t, &page_size, "page size"))
		return -1;
	if (page_size == 0 || page_size > INT_MAX)
		return td_fail(t, at, "bad page size %u", page_size);
	tep_set_file_bigendian(t->tep, endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(t->tep, tep_is_bigendian() ? TEP_BIG_ENDIAN
							   : TEP_LITTLE_ENDIAN);
	tep_set_long_size(t->tep, long_size);
	tep_set_page_size(t->tep, (int)page_size);
	return 0;
}

/* td_header_page: parses the ring-buffer page header format p[0..n) (n
 * already checked against the blob); when it names the size of the
 * kernel's "commit" field, that is the kernel's long size. */
static void td_header_page(struct td *t, const uint8_t *p, size_t n)
{
	char *copy = xmalloc(n + 1);
	int commit_size;

	memcpy(copy, p, n);
	copy[n] = '\0';
	if (tep_parse_header_page(t->tep, copy, n, tep_get_long_size(t->tep)) == 0) {
		commit_size = tep_get_header_page_size(t->tep);
		if (commit_size == 4 || commit_size == 8)
			tep_set_long_size(t->tep, commit_size);
	}
	free(copy);
}

/* td_header_files: "header_page\0" + u64 + text, then "header_event\0" +
 * u64 + text (the latter is fixed by the kernel and not needed). */
static int td_header_files(struct td *t)
{
	const uint8_t *p;
	size_t n;

	if (td_expect(t, "header_page", 12, "header_page tag") ||
	    td_sized(t, 8, &p, &n, "header_page"))
		return -1;
	td_header_page(t, p, n);
	if (td_expect(t, "header_event", 13, "header_event tag") ||
	    td_sized(t, 8, &p, &n, "header_event"))
		return -1;
	return 0;
}

/* format_text_sane: whether a format text is printable ASCII, tabs and
 * newlines, with no quote before "print fmt:", as the kernel writes them.
 * (libtraceevent reads bytes as signed chars, and a stray quote makes its
 * tokenizer swallow the following field lines.) */
static bool format_text_sane(const uint8_t *p, size_t n)
{
	bool in_fields = true;

	for (size_t i = 0; i < n; i++) {
		if ((p[i] < 0x20 && p[i] != '\t' && p[i] != '\n') || p[i] >= 0x7f)
			return false;
		if (in_fields && p[i] == 'p' && n - i >= 10 && !memcmp(p + i, "print fmt:", 10))
			in_fields = false;
		if (in_fields && (p[i] == '"' || p[i] == '\''))
			return false;
	}
	return true;
}

/* is_ident: whether c may appear in a C identifier. */
static bool is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* find: the first occurrence of needle[0..n) in [s, end), or NULL. */
static const char *find(const char *s, const char *end, const char *needle, size_t n)
{
	for (; (size_t)(end - s) >= n; s++) {
		s = memchr(s, needle[0], (size_t)(end - s) - n + 1);
		if (!s)
			return NULL;
		if (memcmp(s, needle, n) == 0)
			return s;
	}
	return NULL;
}

/* Most fields one format may declare (kernel events have a few dozen). */
#define TD_MAX_FIELDS 256

/* The field names of one format: spans of its text. */
struct field_names {
	const char *name[TD_MAX_FIELDS];
	size_t len[TD_MAX_FIELDS];
	size_t count;
};

/* field_name: the NAME span of the field line [s, eol) ("TYPE NAME;" or
 * "TYPE NAME[N];", after "field:"), or false when it has no ';'. */
static bool field_name(const char *s, const char *eol, const char **name, size_t *n)
{
	const char *e = memchr(s, ';', (size_t)(eol - s)), *b;

	if (!e)
		return false;
	if (e > s && e[-1] == ']')
		while (e > s && *e != '[')
			e--;
	while (e > s && e[-1] == ' ')
		e--;
	for (b = e; b > s && is_ident(b[-1]); b--)
		;
	*name = b;
	*n = (size_t)(e - b);
	return true;
}

/* collect_fields: the names of the "field:" lines of text[0..len); false
 * when there are more than TD_MAX_FIELDS. */
static bool collect_fields(const char *text, size_t len, struct field_names *f)
{
	const char *end = text + len, *s = text, *eol;

	f->count = 0;
	while ((s = find(s, end, "field:", 6))) {
		eol = memchr(s, '\n', (size_t)(end - s));
		if (!eol)
			eol = end;
		if (field_name(s + 6, eol, &f->name[f->count], &f->len[f->count]) &&
		    ++f->count == TD_MAX_FIELDS)
			return false;
		s = eol;
	}
	return true;
}

/* has_field: whether name[0..n) is one of f's names. */
static bool has_field(const struct field_names *f, const char *name, size_t n)
{
	for (size_t i = 0; i < f->count; i++)
		if (f->len[i] == n && memcmp(f->name[i], name, n) == 0)
			return true;
	return false;
}

/* format_refs_defined: whether every REC->name in the format's print args
 * names one of its fields. libtraceevent 1.7 dereferences NULL on some
 * references to undefined fields (a corrupted format), so such events are
 * skipped rather than handed over. */
static bool format_refs_defined(const uint8_t *p, size_t len)
{
	const char *text = (const char *)p, *end = text + len, *s = text;
	struct field_names f;
	size_t n;

	if (!collect_fields(text, len, &f))
		return false;
	while ((s = find(s, end, "REC->", 5))) {
		s += 5;
		for (n = 0; s + n < end && is_ident(s[n]); n++)
			;
		if (!has_field(&f, s, n))
			return false;
		s += n;
	}
	return true;
}

/* divisor_ok: whether the operand at p[0..n) after a '/' or '%' is one
 * libtraceevent will not fold to zero: a REC-> field, a sizeof or
 * __get_*() helper, or a literal whose value (read as C does: 0x hex, 0
 * octal, else decimal) is nonzero; a parenthesis is judged by what it
 * starts with ("(comm)" folds to comm). An unknown identifier counts as
 * 0. */
static bool divisor_ok(const uint8_t *p, size_t n)
{
	bool hex = n >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X');

	if (n >= 1 && p[0] == '(') {	/* "(comm)" folds to comm's value: look inside */
		size_t k = 1;
		while (k < n && p[k] == ' ')
			k++;
		return divisor_ok(p + k, n - k);
	}
	if ((n >= 5 && !memcmp(p, "REC->", 5)) || (n >= 6 && !memcmp(p, "sizeof", 6)) ||
	    (n >= 6 && !memcmp(p, "__get_", 6)))
		return true;
	if (n == 0 || p[0] < '0' || p[0] > '9')
		return false;
	if (p[0] != '0')
		return true;
	for (size_t k = hex ? 2 : 1; k < n; k++) {
		bool digit = hex ? isxdigit(p[k]) : (p[k] >= '0' && p[k] <= '7');

		if (!digit)
			return false;
		if (p[k] != '0')
			return true;
	}
	return false;
}

/* divides_by_zero: whether the print args (outside "...") divide by
 * something libtraceevent 1.7 folds to zero when it parses the format
 * (raising SIGFPE), as in "x / 0" or "x % UNKNOWN". */
static bool divides_by_zero(const uint8_t *p, size_t n)
{
	bool quoted = false;
	size_t j;

	for (size_t i = 0; i < n; i++) {
		if (p[i] == '"' && (i == 0 || p[i - 1] != '\\'))
			quoted = !quoted;
		if (quoted || (p[i] != '/' && p[i] != '%'))
			continue;
		for (j = i + 1; j < n && p[j] == ' '; j++)
			;
		if (!divisor_ok(p + j, n - j))
			return true;
	}
	return false;
}

/* field_line_closed: whether the rest of a field line [s, end) has its
 * ';' and every '[' before it closed (libtraceevent 1.7 passes NULL to
 * strcmp when the text ends inside "field:T m["). */
static bool field_line_closed(const char *s, const char *end)
{
	int open = 0;
	for (; s < end && *s != ';' && *s != '\n'; s++) {
		if (*s == '[')
			open++;
		else if (*s == ']' && --open < 0)
			return false;
	}
	return s < end && *s == ';' && open == 0;
}

/* field_decls_ok: whether each "field:" line of p[0..n) declares a type
 * of more than one word (its first word is followed by a name or '*')
 * and ends at a ';' with its brackets closed.
 * libtraceevent 1.7 leaks the first word of a line that has only one
 * ("field:int;" or "field:int(x;": no type found). */
static bool field_decls_ok(const uint8_t *p, size_t n)
{
	const char *text = (const char *)p, *end = text + n, *s = text;
	while ((s = find(s, end, "field:", 6))) {
		s += 6;
		while (s < end && (*s == ' ' || *s == '\t'))
			s++;
		if (s == end || !is_ident(*s))
			continue;	/* not a word: libtraceevent refuses it cleanly */
		while (s < end && is_ident(*s))
			s++;
		while (s < end && (*s == ' ' || *s == '\t'))
			s++;
		if (s == end || (!is_ident(*s) && *s != '*') || !field_line_closed(s, end))
			return false;
	}
	return true;
}

/* A token of a format's print args, classed as libtraceevent 1.7's
 * tokenizer classes them: names and numbers, delimiters ( ) , and
 * operators (every other printable character, some in pairs). */
enum arg_tok { TOK_END, TOK_ITEM, TOK_DELIM, TOK_OP, TOK_STRING, TOK_UNTERMINATED };

/* next_arg_token: the token at p[*i..n) (blanks skipped), its text at
 * *s (*len bytes); *i moves past it. */
static enum arg_tok next_arg_token(const uint8_t *p, size_t n, size_t *i,
				   const uint8_t **s, size_t *len)
{
	size_t j;
	*len = 0;
	while (*i < n && (p[*i] == ' ' || p[*i] == '\t' || p[*i] == '\n'))
		(*i)++;
	j = *i;
	*s = p + j;
	if (j >= n)
		return TOK_END;
	if (is_ident((char)p[j])) {
		while (j < n && is_ident((char)p[j]))
			j++;
	} else if (p[j] == '"' || p[j] == '\'') {
		for (j++; j < n && p[j] != p[*i]; j++)
			j += p[j] == '\\';
		if (j >= n) {
			*len = n - *i;
			*i = n;
			return TOK_UNTERMINATED;
		}
		j++;
	} else if (p[j] == '(' || p[j] == ')' || p[j] == ',') {
		j++;
	} else if (p[j] == '-' && j + 1 < n && p[j + 1] == '>') {
		j += 2;
	} else if (strchr("+|&<>-", p[j]) && j + 1 < n && p[j + 1] == p[j]) {
		j += 2;
		if ((p[j - 1] == '<' || p[j - 1] == '>') && j < n && p[j] == '=')
			j++;
	} else {
		j++;
		if (strchr("+|&<>-!=", p[j - 1]) && j < n && p[j] == '=')
			j++;
	}
	*len = j - *i;
	*i = j;
	if (is_ident((char)**s))
		return TOK_ITEM;
	if (**s == '"' || **s == '\'')
		return TOK_STRING;
	return **s == '(' || **s == ')' || **s == ',' ? TOK_DELIM : TOK_OP;
}

/* tok_is: whether the token s[0..len) is one of the space-separated words
 * of list. */
static bool tok_is(const uint8_t *s, size_t len, const char *list)
{
	for (const char *w = list; *w; w += strcspn(w, " "), w += *w == ' ') {
		size_t wl = strcspn(w, " ");
		if (wl == len && !memcmp(w, s, len))
			return true;
	}
	return false;
}

/* The operators libtraceevent 1.7 gives a priority. */
#define PRIO_OPS "~ ! * / % + - < > & ^ | ? ++ -- >> << >= <= == != && ||"
#define MAX_NEST 64

/* print_args_safe's walk over the print args: the nesting depth of ( [ {,
 * for each level whether a conditional is open there and whether its ':'
 * was seen, and the previous token. */
struct args_walk {
	bool cond[MAX_NEST + 1], cond_else[MAX_NEST + 1];
	size_t depth;
	enum arg_tok prev;
	const uint8_t *prev_s;
	size_t prev_len;
};

/* Verdicts of args_step. */
enum { ARGS_CRASH, ARGS_GO_ON, ARGS_STOP };

/* args_nest: the nesting part of args_step for token t (s[0..len)). */
static int args_nest(struct args_walk *w, enum arg_tok t, const uint8_t *s)
{
	bool open = (t == TOK_DELIM && *s == '(') || (t == TOK_OP && (*s == '[' || *s == '{'));
	bool close = (t == TOK_DELIM && *s == ')') || (t == TOK_OP && (*s == ']' || *s == '}'));
	if (open) {
		if (++w->depth > MAX_NEST)
			return ARGS_CRASH;
		w->cond[w->depth] = w->cond_else[w->depth] = false;
	} else if (close) {
		if (!w->depth || (*s != ')' && w->cond[w->depth]))
			return ARGS_CRASH;	/* a conditional ends at ']' or '}' */
		w->depth--;
	} else if (t == TOK_DELIM && *s == ',') {
		w->cond[w->depth] = w->cond_else[w->depth] = false;
	}
	return ARGS_GO_ON;
}

/* args_step: the verdict on token t (s[0..len)) of the walk w. */
static int args_step(struct args_walk *w, enum arg_tok t, const uint8_t *s, size_t len)
{
	bool op = t == TOK_OP, after_rec = w->prev == TOK_ITEM &&
					   tok_is(w->prev_s, w->prev_len, "REC");
	size_t d = w->depth;
	if (t == TOK_UNTERMINATED)
		return ARGS_CRASH;	/* it leaks the string's text */
	if (op && *s == '{' && w->prev == TOK_DELIM && *w->prev_s == '(')
		return ARGS_STOP;	/* "({": a statement expression it refuses */
	if (op && w->prev == TOK_OP && tok_is(w->prev_s, w->prev_len, "]") &&
	    !tok_is(s, len, PRIO_OPS " :"))
		return ARGS_CRASH;
	if (op && tok_is(s, len, "->") && !after_rec && !(w->prev == TOK_DELIM && *w->prev_s == ')'))
		return ARGS_CRASH;	/* neither REC->field nor (REC)->field */
	if (op && w->cond_else[d] && !tok_is(s, len, PRIO_OPS) && !(after_rec && tok_is(s, len, "->")))
		return ARGS_CRASH;
	if (t == TOK_ITEM && w->prev == TOK_ITEM && w->cond_else[d])
		return ARGS_CRASH;	/* ": a b": an operand where an operator goes */
	if (op && w->cond[d] && *s == '{')
		return ARGS_CRASH;
	if (w->prev == TOK_OP && tok_is(w->prev_s, w->prev_len, PRIO_OPS) && *w->prev_s != '*' &&
	    ((t == TOK_DELIM && *s != '(') || (t == TOK_STRING && *w->prev_s != '?')))
		return ARGS_CRASH;	/* an operator without its operand: it leaks the operator */
	if (op && tok_is(s, len, ":") && w->cond[d])
		w->cond_else[d] = true;
	if (op && tok_is(s, len, "?")) {
		w->cond[d] = true;
		w->cond_else[d] = false;
	}
	if (args_nest(w, t, s) == ARGS_CRASH)
		return ARGS_CRASH;
	w->prev = t;
	w->prev_s = s;
	w->prev_len = len;
	return ARGS_GO_ON;
}

/* print_args_safe: whether the print args after the format string of
 * p[0..n) (from "print fmt:") avoid libtraceevent 1.7's NULL dereference
 * in process_op (it follows an index "a[i]" or the last operand of a
 * conditional "a ? b : c" with an operator it gives no priority by
 * calling itself on a NULL argument) and its leaks on malformed args:
 *  - after ']' only a delimiter, a prioritised operator or ':';
 *  - after a conditional's ':' only prioritised operators (and REC->)
 *    until its level ends, and no operand right after another ("x ? y :
 *    __rel REC->z"); a conditional ends only at ',' or ')' of its
 *    own level (not ']' or '}') and meets no '{';
 *  - '->' only after REC or ')' (REC->field, (REC)->field);
 *  - an operator (but '*', as in "(void *)") is followed by its operand:
 *    not ')' or ',' or the end, nor a string (but after '?');
 *  - no string left unterminated; ( [ { balance, nested below MAX_NEST.
 * The walk ends, safe, at "({": libtraceevent gives up on the args there
 * (kernel formats with statement expressions). */
static bool print_args_safe(const uint8_t *p, size_t n)
{
	const uint8_t *f = (const uint8_t *)find((const char *)p, (const char *)p + n,
						 "print fmt:", 10), *s;
	struct args_walk w = { .prev = TOK_END };
	enum arg_tok t;
	size_t i, len;
	int v;
	if (!f)
		return true;
	i = (size_t)(f - p) + 10;
	t = next_arg_token(p, n, &i, &s, &len);	/* the format string */
	if (t != TOK_STRING)
		return t == TOK_END;
	while ((t = next_arg_token(p, n, &i, &s, &len)) != TOK_END) {
		v = args_step(&w, t, s, len);
		if (v != ARGS_GO_ON)
			return v == ARGS_STOP;
	}
	return w.depth == 0 && !(w.prev == TOK_OP && tok_is(w.prev_s, w.prev_len, PRIO_OPS) &&
				 *w.prev_s != '*');
}

/* format_ok: the sanity checks a format must pass before libtraceevent
 * sees it; each guards against a crash of libtraceevent 1.7 on a
 * corrupted format. */
static bool format_ok(const uint8_t *p, size_t n)
{
	return format_text_sane(p, n) && format_refs_defined(p, n) &&
	       !divides_by_zero(p, n) && print_args_safe(p, n) && field_decls_ok(p, n);
}

/* td_formats: `count` format texts (u64 size + text each) of system sys.
 * A format libtraceevent rejects, or that fails the sanity checks above,
 * is skipped, not an error. */
static int td_formats(struct td *t, uint32_t count, const char *sys,
		      const char *what)
{
	const uint8_t *p;
	size_t n;

	for (uint32_t i = 0; i < count; i++) {
		if (td_sized(t, 8, &p, &n, what))
			return -1;
		if (format_ok(p, n))
			tep_parse_event(t->tep, (const char *)p, n, sys);
	}
	return 0;
}

/* td_ftrace: u32 count, then the ftrace formats (system "ftrace"). */
static int td_ftrace(struct td *t)
{
	uint32_t count = 0;

	if (td_u32(t, &count, "ftrace format count"))
		return -1;
	return td_formats(t, count, "ftrace", "ftrace format");
}

/* td_events: u32 number of systems, each a NUL-terminated name, a u32
 * count and that many event formats. */
static int td_events(struct td *t)
{
	uint32_t nsys = 0, count = 0;
	const char *sys = NULL;

	if (td_u32(t, &nsys, "event system count"))
		return -1;
	for (uint32_t i = 0; i < nsys; i++) {
		if (td_cstr(t, &sys, "system name") ||
		    td_u32(t, &count, "event format count") ||
		    td_formats(t, count, sys, "event format"))
			return -1;
	}
	return 0;
}

/* for_each_line: calls fn on each non-empty '\n'-separated line of
 * text[0..n); text[n] must be writable (it is the terminating NUL). */
static void for_each_line(char *text, size_t n, td_line_fn *fn,
			  struct tep_handle *tep)
{
	char *p = text, *end = text + n, *nl;

	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		*nl = '\0';
		if (nl > p)
			fn(tep, p);
		p = nl + 1;
	}
}

/* td_text: a text section (u32 or u64 size, by width) whose lines go to
 * fn; an empty section is fine. */
static int td_text(struct td *t, int width, td_line_fn *fn, const char *what)
{
	const uint8_t *p;
	size_t n;
	char *text;

	if (td_sized(t, width, &p, &n, what))
		return -1;
	if (n == 0)
		return 0;
	text = xmalloc(n + 1);	/* n checked against the blob by td_sized */
	memcpy(text, p, n);
	text[n] = '\0';
	for_each_line(text, n, fn, t->tep);
	free(text);
	return 0;
}

/* kallsyms_line: "ffffffff81000000 T _text" with an optional "\t[module]";
 * registers the symbol. Malformed lines are ignored. */
static void kallsyms_line(struct tep_handle *tep, char *line)
{
	char *end, *name, *mod = NULL;
	unsigned long long addr = strtoull(line, &end, 16);

	if (end == line || end[0] != ' ' || !end[1] || end[2] != ' ')
		return;
	name = end + 3;
	end = name + strcspn(name, " \t");
	if (*end) {
		*end++ = '\0';
		mod = strchr(end, '[');
		if (mod) {
			mod++;
			mod[strcspn(mod, "]")] = '\0';
		}
	}
	if (*name)
		tep_register_function(tep, name, addr, mod);
}

/* printk_line: "0xffffffff81a2b3c4 : \"format\\n\"" registers the format
 * under its address. Malformed lines are ignored. */
static void printk_line(struct tep_handle *tep, char *line)
{
	char *end, *fmt;
	unsigned long long addr = strtoull(line, &end, 16);

	if (end == line)
		return;
	end += strspn(end, " ");
	if (*end != ':')
		return;
	fmt = end + 1 + strspn(end + 1, " ");
	/* libtraceevent inspects the 3 bytes before the end of the text with
	 * its leading quote removed: anything shorter would read before it. */
	if (strlen(fmt + (fmt[0] == '"')) < 3)
		return;
	tep_register_print_string(tep, fmt, addr);
}

/* cmdline_line: "1234 comm" registers comm for pid 1234 (a comm may hold
 * spaces: it is the rest of the line). Malformed lines are ignored. */
static void cmdline_line(struct tep_handle *tep, char *line)
{
	char *end;
	long pid = strtol(line, &end, 10);

	if (end == line || end[0] != ' ' || !end[1] || pid < 0 || pid > INT_MAX)
		return;
	tep_register_comm(tep, end + 1, (int)pid);
}

/* td_sections: everything after the preamble, in file order. */
static int td_sections(struct td *t, bool has_cmdlines)
{
	if (td_header_files(t) || td_ftrace(t) || td_events(t) ||
	    td_text(t, 4, kallsyms_line, "kallsyms") ||
	    td_text(t, 4, printk_line, "printk formats"))
		return -1;
	if (has_cmdlines && td_text(t, 8, cmdline_line, "saved cmdlines"))
		return -1;
	return 0;
}

/* tracing_data_parse: see tracing_data.h. */
int tracing_data_parse(const void *buf, size_t len, struct tep_handle **out,
		       char *err, size_t errlen)
{
	static const uint8_t empty[1];
	struct td t = { .err = err, .errlen = errlen };
	bool has_cmdlines = false;

	*out = NULL;
	if (err && errlen)
		err[0] = '\0';
	if (!buf) {
		buf = empty;
		len = 0;
	}
	cur_init(&t.c, buf, len, false);
	t.tep = tep_alloc();
	if (!t.tep)
		return td_fail(&t, 0, "out of memory");
	tep_set_flag(t.tep, TEP_NSEC_OUTPUT);
	if (td_preamble(&t, &has_cmdlines) || td_sections(&t, has_cmdlines)) {
		tep_free(t.tep);
		return -1;
	}
	*out = t.tep;
	return 0;
}

/* tracing_data_add_kallsyms: see tracing_data.h. */
int tracing_data_add_kallsyms(struct tep_handle *tep, const uint64_t *addrs,
			      const char *const *names, size_t n)
{
	int rc = 0;

	if (!tep || (n && (!addrs || !names)))
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!names[i])
			continue;
		/* libtraceevent copies the name; the cast only drops const. */
		if (tep_register_function(tep, (char *)names[i], addrs[i], NULL))
			rc = -1;
	}
	return rc;
}
