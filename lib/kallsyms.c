/* The kallsyms text parser (see kallsyms.h): one pass over the buffer,
 * a hand-written line parser (no sscanf: 200k lines must load in a few
 * tens of milliseconds), and a whole-file reader that works for /proc files
 * whose st_size is 0. */
#include "lib/kallsyms.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/alloc.h"
#include "lib/errf.h"

#define MAX_FILE (1u << 30)
#define READ_CHUNK (1u << 20)	/* at least this much room for each read */
#define MODULE_MAX 128
#define RESERVE_MAX (1u << 19)	/* symbols reserved at most before parsing */

/* One parsed line. */
struct ksym_line {
	uint64_t addr;
	char type;
	const char *name;
	size_t namelen;
	char module[MODULE_MAX]; /* "" = main image */
};

/* hexval(c): the value of hex digit c, or -1. */
static int hexval(char c)
{
	unsigned d = (unsigned)(unsigned char)c - '0', l = ((unsigned)(unsigned char)c | 0x20) - 'a';

	if (d < 10)
		return (int)d;
	return l < 6 ? (int)l + 10 : -1;
}

/* is_blank(c): space or tab (the field separators kallsyms uses). */
static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* parse_hex(p, end, v): parses 1..16 hex digits at *p up to a blank,
 * advancing *p past them; false on anything else. */
static bool parse_hex(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;
	int d, n = 0;

	while (s < end && !is_blank(*s)) {
		if ((d = hexval(*s++)) < 0 || ++n > 16)
			return false;
		x = x << 4 | (uint64_t)d;
	}
	*p = s;
	*v = x;
	return n > 0;
}

/* skip_blanks(p, end): *p advanced past spaces and tabs; the count skipped. */
static size_t skip_blanks(const char **p, const char *end)
{
	const char *s = *p;

	while (*p < end && is_blank(**p))
		(*p)++;
	return (size_t)(*p - s);
}

/* parse_module(p, end, out): parses "[name]" filling all of [p, end) (after
 * trailing blanks were trimmed); "" when p == end. False when malformed. */
static bool parse_module(const char *p, const char *end, char *out)
{
	size_t n;

	out[0] = '\0';
	if (p == end)
		return true;
	n = (size_t)(end - p);
	if (n < 3 || p[0] != '[' || end[-1] != ']' || n - 2 >= MODULE_MAX)
		return false;
	if (memchr(p + 1, '\0', n - 2) || memchr(p + 1, ']', n - 2))
		return false;
	memcpy(out, p + 1, n - 2);
	out[n - 2] = '\0';
	return true;
}

/* parse_line(p, end, l): parses "ADDR TYPE NAME[\t[MODULE]]" in [p, end)
 * (no newline). False when the line is malformed. */
static bool parse_line(const char *p, const char *end, struct ksym_line *l)
{
	while (end > p && (is_blank(end[-1]) || end[-1] == '\r'))
		end--;
	if (!parse_hex(&p, end, &l->addr) || skip_blanks(&p, end) != 1)
		return false;
	if (p == end || is_blank(*p))
		return false;
	l->type = *p++;
	if (!skip_blanks(&p, end) || p == end)
		return false;
	l->name = p;
	while (p < end && !is_blank(*p))
		p++;
	l->namelen = (size_t)(p - l->name);	/* a NUL in it: symtab_add_typed refuses it */
	skip_blanks(&p, end);
	return parse_module(p, end, l->module);
}

/* wanted_type(c): kallsyms letters kept: text t T w W, data d D b B r R. */
static bool wanted_type(char c)
{
	switch (c | 0x20) {
	case 't': case 'w': case 'd': case 'b': case 'r':
		return true;
	default:
		return false;
	}
}

/* load_state: counters of one kallsyms_load_buf call. */
struct load_state {
	int added;
	size_t zero;
};

/* take_line(t, p, end, st): parses one line and adds its symbol if wanted. */
static void take_line(struct symtab *t, const char *p, const char *end,
		      struct load_state *st)
{
	struct ksym_line l;

	if (!parse_line(p, end, &l) || !wanted_type(l.type))
		return;
	if (!l.addr) {
		st->zero++;
		return;
	}
	if (!symtab_add_typed(t, l.addr, 0, l.type, l.name, l.namelen,
			      l.module[0] ? l.module : NULL))
		st->added++;
}

/* kallsyms_load_buf(...): parses every line, then finishes t; count or -1. */
int kallsyms_load_buf(struct symtab *t, const char *text, size_t len,
		      char *err, size_t errlen)
{
	const char *p = text, *end = text + len, *nl;
	struct load_state st = { 0, 0 };

	/* a kallsyms line is 30-40 bytes; no more than a kernel has (the
	 * file may be any text: what is reserved must follow what parses) */
	symtab_reserve(t, len / 32 < RESERVE_MAX ? len / 32 : RESERVE_MAX);
	while (p < end && st.added < 0x7fffffff) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		take_line(t, p, nl, &st);
		p = nl + 1;
	}
	symtab_prefer_last_alias(t);	/* as perf resolves kallsyms aliases */
	symtab_finish(t);
	if (!st.added && st.zero)
		return errf(err, errlen, "kallsyms: addresses hidden (kptr_restrict)");
	if (!st.added)
		return errf(err, errlen, "kallsyms: no symbols");
	return st.added;
}

/* read_all(fd, out, len): reads fd to its end into a malloc'ed buffer;
 * 0, or an errno value (EFBIG past MAX_FILE). */
static int read_all(int fd, char **out, size_t *len)
{
	size_t cap = 0, n = 0;
	char *buf = NULL;
	ssize_t r;

	for (;;) {
		if (n >= MAX_FILE) {
			free(buf);
			return EFBIG;
		}
		ALLOC_GROW(buf, n + READ_CHUNK, cap);
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			int e = r < 0 ? errno : 0;
			if (e)
				free(buf);
			else
				*out = buf, *len = n;
			return e;
		}
		n += (size_t)r;
	}
}

/* kallsyms_load_file(...): reads path whole, then kallsyms_load_buf. */
int kallsyms_load_file(struct symtab *t, const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), e, rc;
	char *buf = NULL, msg[256];
	size_t len = 0;

	if (fd < 0)
		return errf(err, errlen, "kallsyms: %s: %s", path, strerror(errno));
	e = read_all(fd, &buf, &len);
	close(fd);
	if (e)
		return errf(err, errlen, "kallsyms: %s: %s", path, strerror(e));
	rc = kallsyms_load_buf(t, buf, len, msg, sizeof(msg));
	free(buf);
	if (rc < 0) /* "kallsyms: WHAT" -> "kallsyms: PATH: WHAT" */
		errf(err, errlen, "kallsyms: %s: %s", path,
		     msg + (strncmp(msg, "kallsyms: ", 10) ? 0 : 10));
	return rc;
}

/* kallsyms_text_base(t): address of core "_text", else "_stext", else 0. */
uint64_t kallsyms_text_base(const struct symtab *t)
{
	const struct sym *s = symtab_find_name(t, "_text", NULL);

	if (!s)
		s = symtab_find_name(t, "_stext", NULL);
	return s ? s->start : 0;
}

/* One /proc/modules line: a loaded module's core image. */
struct loaded_module {
	char name[MODULE_MAX];
	uint64_t lo, hi;
	bool seen;
};

/* parse_modules(text, len, out): the modules of a /proc/modules text, in
 * a malloc'ed array; the count, or -1 when malformed. */
static long parse_modules(const char *text, size_t len, struct loaded_module **out)
{
	const char *p = text, *end = text + len, *nl;
	struct loaded_module *v = NULL;
	size_t cap = 0;
	long n = 0;
	while (p < end) {
		char line[512], name[MODULE_MAX];
		unsigned long long size, addr;
		size_t l;
		nl = memchr(p, '\n', (size_t)(end - p));
		l = (size_t)((nl ? nl : end) - p);
		snprintf(line, sizeof(line), "%.*s", (int)(l < sizeof(line) ? l : sizeof(line) - 1), p);
		p += l + 1;
		if (!line[0])
			continue;
		if (sscanf(line, "%127s %llu %*s %*s %*s %llx", name, &size, &addr) != 3) {
			free(v);
			return -1;
		}
		ALLOC_GROW(v, (size_t)n + 1, cap);
		snprintf(v[n].name, sizeof(v[n].name), "%s", name);
		v[n].lo = addr;
		v[n].hi = addr + size;
		v[n].seen = false;
		n++;
	}
	*out = v;
	return n;
}

/* kallsyms_has_modules: see kallsyms.h. */
bool kallsyms_has_modules(const struct symtab *t, const char *modules, size_t len)
{
	struct loaded_module *m = NULL;
	long n = parse_modules(modules, len, &m), left = n;
	const char *last = NULL;
	for (size_t i = 0; i < symtab_count(t) && left > 0; i++) {
		const struct sym *s = symtab_at(t, i);
		if (!s->module || (last && !strcmp(last, s->module)))
			continue;
		for (long k = 0; k < n; k++)
			if (!m[k].seen && !strcmp(m[k].name, s->module) &&
			    s->start >= m[k].lo && s->start < m[k].hi) {
				m[k].seen = true;
				left--;
				last = s->module;
			}
	}
	free(m);
	return n >= 0 && left == 0;
}

/* ksym_names_add: see kallsyms.h. */
void ksym_names_add(struct ksym_names *l, const char *name, size_t n)
{
	size_t at = 0;
	for (; at < l->n; at++) {
		int c = strncmp(l->v[at], name, n);
		if (!c && !l->v[at][n])
			return;
		if (c >= 0)	/* (c == 0: l->v[at] is longer, name goes first) */
			break;
	}
	ALLOC_GROW(l->v, l->n + 1, l->cap);
	memmove(l->v + at + 1, l->v + at, (l->n - at) * sizeof(*l->v));
	l->v[at] = xstrndup(name, n);
	l->n++;
}

/* ksym_names_free: see kallsyms.h. */
void ksym_names_free(struct ksym_names *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* flush_no_ipi(s, n): whether symbol s[0..n) is one kallsyms_flush_no_ipi
 * takes. */
static bool flush_no_ipi(const char *s, size_t n)
{
	static const char tail[] = "_flush_tlb_multi", bcast[] = "broadcast_tlb_flush";
	size_t t = sizeof(tail) - 1;
	if (n == sizeof(bcast) - 1 && !memcmp(s, bcast, n))
		return true;
	if (n <= t || memcmp(s + n - t, tail, t) || (n - t == 6 && !memcmp(s, "native", 6)))
		return false;
	for (size_t i = 0; i < n - t; i++)	/* one word: no tracepoint helper */
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9')))
			return false;
	return true;
}

/* kallsyms_flush_no_ipi: see kallsyms.h. */
size_t kallsyms_flush_no_ipi(const char *text, size_t len, struct ksym_names *out)
{
	const char *p = text, *end = text + len, *nl;
	struct ksym_line l;
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if (parse_line(p, nl, &l) && (l.type | 0x20) == 't' && flush_no_ipi(l.name, l.namelen))
			ksym_names_add(out, l.name, l.namelen);
		p = nl + 1;
	}
	return out->n;
}

/* kallsyms_flush_no_ipi_words: see kallsyms.h. */
void kallsyms_flush_no_ipi_words(const struct ksym_names *n, struct strbuf *b)
{
	bool bcast = false;
	for (size_t i = 0; i < n->n; i++)
		bcast |= !strcmp(n->v[i], "broadcast_tlb_flush");
	sb_printf(b, "%s flush function%s: ", !bcast ? "paravirtualized" : n->n > 1 ?
		  "paravirtualized and broadcast" : "broadcast", n->n > 1 ? "s" : "");
	for (size_t i = 0; i < n->n; i++)
		sb_printf(b, "%s%s", i ? ", " : "", n->v[i]);
	sb_puts(b, n->n > 1 ? "; one of them may flush without IPIs" : ", which may flush without IPIs");
}

/* kallsyms_read: see kallsyms.h. */
char *kallsyms_read(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), e;
	char *buf = NULL;
	if (fd < 0)
		return NULL;
	e = read_all(fd, &buf, len);
	close(fd);
	errno = e;
	return e ? NULL : buf;
}
