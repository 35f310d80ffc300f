/* The watch recipe's specs: parsing, resolving fields to offsets and sizes
 * (BTF for kernel structs, ELF symbols and DWARF for the workload's
 * globals), choosing the watched bytes, and storing what was watched in
 * the session. The run itself is collect/record/watch_run.c. See watch.h. */
#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "collect/layout/btf_layout.h"
#include "collect/layout/dwarf_layout.h"
#include "collect/symbols/elfsyms.h"
#include "collect/record/watch_spec.h"
#include "lib/alloc.h"
#include "lib/prog.h"
#include "lib/layout.h"
#include "schema/db.h"

/* ---- parsing ---- */

/* parse_u64: all of s as an unsigned number (0x hex, 0 octal, decimal)
 * into *v. 0 or -1. */
static int parse_u64(const char *s, uint64_t *v)
{
	char *end;
	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

/* parse_len: ":LEN" text s into *len (1, 2, 4 or 8). 0 or -1. */
static int parse_len(const char *s, int *len)
{
	uint64_t v;
	if (parse_u64(s, &v) || (v != 1 && v != 2 && v != 4 && v != 8))
		return -1;
	*len = (int)v;
	return 0;
}

/* split_tail: cuts buf at the last c, returning what followed it (NULL
 * when buf has no c). */
static char *split_tail(char *buf, int c)
{
	char *p = strrchr(buf, c);
	if (!p)
		return NULL;
	*p = 0;
	return p + 1;
}

/* parse_suffixes: the "@ADDR[:LEN]", ":LEN" and "+OFF" parts of buf (cut
 * off it) into s. 0, or -1 with a message. */
static int parse_suffixes(char *buf, struct watch_spec *s, char *err, size_t errlen)
{
	char *at = split_tail(buf, '@'), *len, *plus;
	uint64_t off;
	if (at) {
		char *alen = split_tail(at, ':');
		if (alen && parse_len(alen, &s->want_len))
			return snprintf(err, errlen, "LEN must be 1, 2, 4 or 8: %s", alen), -1;
		if (parse_u64(at, &s->at) || !s->at)
			return snprintf(err, errlen, "bad address after '@': %s", at), -1;
		s->kind = WATCH_ADDR;
	}
	if ((len = split_tail(buf, ':')) && parse_len(len, &s->want_len))
		return snprintf(err, errlen, "LEN must be 1, 2, 4 or 8: %s", len), -1;
	if ((plus = split_tail(buf, '+'))) {
		if (parse_u64(plus, &off) || off > (1u << 30))
			return snprintf(err, errlen, "bad +OFFSET: %s", plus), -1;
		s->plus = (int64_t)off;
		s->has_plus = true;
	}
	return 0;
}

/* valid_name: whether s is a C identifier path (letters, digits, '_',
 * '.', '[', ']', '$'), not empty. */
static bool valid_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("_.[]$", *s)))
			return false;
	return true;
}

/* watch_parse_one: see watch.h. */
int watch_parse_one(const char *text, size_t len, struct watch_spec *out,
		    char *err, size_t errlen)
{
	char *buf, *dot;
	*out = (struct watch_spec){ .kind = WATCH_SYMBOL };
	while (len && *text == ' ')
		text++, len--;
	while (len && text[len - 1] == ' ')
		len--;
	out->text = xstrndup(text, len);
	buf = xstrndup(text, len);
	if (parse_suffixes(buf, out, err, errlen) || !valid_name(buf)) {
		if (!valid_name(buf))
			snprintf(err, errlen, "bad watch '%s' (want mm_struct.FIELD, TYPE.FIELD@ADDR "
				 "or SYMBOL[.FIELD][+OFFSET][:LEN])", out->text);
		free(buf);
		watch_spec_free(out);
		return -1;
	}
	dot = strchr(buf, '.');
	out->object = xstrndup(buf, dot ? (size_t)(dot - buf) : strlen(buf));
	out->field = xstrdup(dot ? dot + 1 : "");
	free(buf);
	if (out->kind != WATCH_ADDR && !strcmp(out->object, "mm_struct"))
		out->kind = WATCH_MM;
	return 0;
}

/* count_specs: the number of non-empty comma-separated words of s. */
static size_t count_specs(const char *s)
{
	size_t n = 0;
	while (*s) {
		size_t len = strcspn(s, ",");
		if (strspn(s, " ") < len)
			n++;
		s += len + (s[len] == ',');
	}
	return n;
}

/* watch_add_specs: see watch.h. */
int watch_add_specs(struct watch_set *ws, const char *arg, char *err, size_t errlen)
{
	size_t total = ws->n + count_specs(arg);
	if (total > WATCH_MAX)
		return snprintf(err, errlen, "at most %d watches: x86 has %d debug registers "
				"(%zu given)", WATCH_MAX, WATCH_MAX, total), -1;
	if (!count_specs(arg))
		return snprintf(err, errlen, "--watch wants SPEC[,SPEC...]"), -1;
	while (*arg) {
		size_t len = strcspn(arg, ",");
		if (strspn(arg, " ") < len) {
			if (watch_parse_one(arg, len, &ws->w[ws->n], err, errlen))
				return -1;
			ws->n++;
		}
		arg += len + (arg[len] == ',');
	}
	return 0;
}

/* watch_spec_free: see watch.h. */
void watch_spec_free(struct watch_spec *s)
{
	free(s->text);
	free(s->object);
	free(s->field);
	free(s->name);
	free(s->type_name);
	free(s->field_type);
	*s = (struct watch_spec){ 0 };
}

/* watch_set_free: see watch.h. */
void watch_set_free(struct watch_set *ws)
{
	for (size_t i = 0; i < ws->n; i++)
		watch_spec_free(&ws->w[i]);
	ws->n = 0;
}

/* ---- the watched bytes ---- */

/* watch_window: see watch.h. */
unsigned watch_window(uint64_t field_addr, int64_t size, int want_len, uint64_t *addr, int *len)
{
	uint64_t end = field_addr + (uint64_t)(size > 0 ? size : 1);
	unsigned flags = 0;
	int l = want_len;
	for (int try = 1; !l && try <= 8; try *= 2)
		if ((field_addr & ~(uint64_t)(try - 1)) + (uint64_t)try >= end)
			l = try;
	if (!l)
		l = 8;
	*len = l;
	*addr = field_addr & ~(uint64_t)(l - 1);
	if (*addr + (uint64_t)l < end)
		flags |= WATCH_PARTIAL;
	if (*addr < field_addr || *addr + (uint64_t)l > end)
		flags |= WATCH_WIDER;
	return flags;
}

/* watch_event_name: see watch.h. */
const char *watch_event_name(const struct watch_spec *s, char *buf, size_t len)
{
	snprintf(buf, len, "mem:0x%" PRIx64 "/%d:w", s->addr, s->len);
	return buf;
}

/* watch_place: see watch.h. */
void watch_place(struct watch_set *ws, uint64_t bias)
{
	for (size_t i = 0; i < ws->n; i++) {
		struct watch_spec *s = &ws->w[i];
		s->object_addr = s->kind == WATCH_MM ? ws->mm : s->kind == WATCH_ADDR ? s->at
			: s->sym_vaddr + bias;
		s->flags = watch_window(s->object_addr + (uint64_t)s->offset, s->size, s->want_len,
					&s->addr, &s->len);
	}
}

/* watch_describe: see watch.h. */
const char *watch_describe(const struct watch_spec *s, char *buf, size_t len)
{
	char ev[64];
	int n = snprintf(buf, len, "%s (%s%s%" PRId64 " bytes at 0x%" PRIx64 "+%" PRId64 "): %s",
			 s->name, s->field_type ? s->field_type : "", s->field_type ? ", " : "",
			 s->size, s->object_addr, s->offset, watch_event_name(s, ev, sizeof(ev)));
	if (n < 0 || (size_t)n >= len)
		return buf;
	if (s->flags & WATCH_PARTIAL)
		n += snprintf(buf + n, len - (size_t)n, "; only part of it is watched: %d of its %"
			      PRId64 " bytes (a debug register covers at most 8 aligned bytes)",
			      (int)(s->addr + (uint64_t)s->len - (s->object_addr + (uint64_t)s->offset)),
			      s->size);
	else if ((s->flags & WATCH_WIDER) && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "; the %d watched bytes also cover bytes around "
			 "it, whose writes count too", s->len);
	return buf;
}

/* ---- resolving ---- */

/* set_names: s's display name (OBJECT[.FIELD][+OFF]), struct and field
 * type (copied). */
static void set_names(struct watch_spec *s, const char *field, int64_t extra,
		      const char *type_name, const char *field_type)
{
	s->name = xasprintf("%s%s%s", s->object, *field ? "." : "", field);
	if (extra) {
		char *n = xasprintf("%s+%" PRId64, s->name, extra);
		free(s->name);
		s->name = n;
	}
	s->type_name = xstrdup(type_name);
	s->field_type = xstrdup(field_type);
}

/* place_member: s's offset and size from member m (plus s->plus);
 * 0, or -1 when +OFF runs past it. */
static int place_member(struct watch_spec *s, const struct layout_member *m,
			char *err, size_t errlen)
{
	if (s->plus >= m->size)
		return snprintf(err, errlen, "%s: +%" PRId64 " is past the %" PRId64 " bytes of %s",
				s->text, s->plus, m->size, *m->member ? m->member : s->object), -1;
	s->offset = m->offset + s->plus;
	s->size = m->size - s->plus;
	return 0;
}

/* layout_for: the layout of struct type from the kernel's BTF, else (for
 * TYPE@ADDR) from the workload binary's DWARF. 0 or -1 (BTF's message). */
static int layout_for(const struct watch_spec *s, const struct btf *btf, const char *binary,
		      const char *type, struct layout *l, char *err, size_t errlen)
{
	char e[512];
	if (!btf_layout_of(btf, type, l, err, errlen))
		return 0;
	if (s->kind != WATCH_ADDR || !binary)
		return -1;
	if (!dwarf_layout_of(binary, type, l, e, sizeof(e)))
		return 0;
	snprintf(err + strlen(err), errlen - strlen(err), "; nor has %s's DWARF", binary);
	return -1;
}

/* resolve_btf: a struct field of s from the kernel's BTF (or, for
 * TYPE@ADDR, the binary's DWARF). 0 or -1. */
static int resolve_btf(struct watch_spec *s, const struct btf *btf, const char *binary,
		       char *err, size_t errlen)
{
	const char *type = s->kind == WATCH_MM ? "mm_struct" : s->object;
	const struct layout_member *m;
	struct layout l = { 0 };
	char e[512];
	int rc = -1;
	if (layout_for(s, btf, binary, type, &l, e, sizeof(e)))
		return snprintf(err, errlen, "%s: %s", s->text, e), -1;
	if (!(m = layout_find_member(&l, s->field)))
		snprintf(err, errlen, "%s: struct %s has no member '%s' (nested members "
			 "are dotted, e.g. context.tlb_gen)", s->text, layout_type_key(type), s->field);
	else if (!place_member(s, m, err, errlen)) {
		set_names(s, s->field, s->plus, layout_type_key(type), m->type_name);
		rc = 0;
	}
	layout_free(&l);
	return rc;
}

/* find_var: the DWARF variable called name of binary; -1 when none, else
 * its index in *vars (which the caller frees with dwarf_vars_free). */
static long find_var(const char *binary, const char *name, struct dwarf_var **vars, size_t *n)
{
	char e[512];
	*vars = NULL;
	*n = 0;
	if (dwarf_vars(binary, vars, n, e, sizeof(e)))
		return -1;
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*vars)[i].name, name))
			return (long)i;
	return -1;
}

/* dwarf_field: FIELD of symbol s's struct from binary's DWARF. 0 or -1. */
static int dwarf_field(struct watch_spec *s, const char *binary, char *err, size_t errlen)
{
	struct dwarf_var *vars;
	struct layout l = { 0 };
	const struct layout_member *m;
	size_t n;
	long i = find_var(binary, s->object, &vars, &n);
	char e[512];
	int rc = -1;
	if (i < 0 || !vars[i].type[0])
		snprintf(err, errlen, "%s: %s has no DWARF description of %s as a struct (build it "
			 "with -g, or use SYMBOL+OFFSET:LEN)", s->text, binary, s->object);
	else if (dwarf_layout_of(binary, vars[i].type, &l, e, sizeof(e)))
		snprintf(err, errlen, "%s: %s", s->text, e);
	else if (!(m = layout_find_member(&l, s->field)))
		snprintf(err, errlen, "%s: %s has no member '%s' (DWARF of %s)", s->text,
			 vars[i].type_decl, s->field, binary);
	else if (!place_member(s, m, err, errlen)) {
		set_names(s, s->field, s->plus, vars[i].type_decl, m->type_name);
		rc = 0;
	}
	layout_free(&l);
	dwarf_vars_free(vars, n);
	return rc;
}

/* dwarf_name_at: for SYMBOL+OFF, names the bytes at s->plus of symbol s
 * by its DWARF layout when there is one (fs_shared+8 ->
 * fs_shared.packed.bitmap_b); else, and for a bare SYMBOL (the whole
 * object), by the symbol (size: the symbol's rest). */
static void dwarf_name_at(struct watch_spec *s, const char *binary, uint64_t symsize)
{
	struct dwarf_var *vars;
	struct layout l = { 0 };
	size_t n;
	long i = find_var(binary, s->object, &vars, &n);
	char e[256], name[256];
	int64_t foff, fsize;
	s->offset = s->plus;
	s->size = symsize > (uint64_t)s->plus ? (int64_t)symsize - s->plus : 1;
	if (s->has_plus && i >= 0 && vars[i].type[0] && !dwarf_layout_of(binary, vars[i].type, &l, e, sizeof(e)) &&
	    !layout_name_at(&l, s->plus, name, sizeof(name), &foff, &fsize)) {
		const struct layout_member *m = layout_find_member(&l, name);
		s->size = fsize - (s->plus - foff);
		set_names(s, name, s->plus - foff, vars[i].type_decl, m ? m->type_name : NULL);
	} else {
		set_names(s, "", s->plus, i >= 0 ? vars[i].type_decl : NULL, NULL);
	}
	layout_free(&l);
	dwarf_vars_free(vars, n);
}

/* resolve_symbol: SYMBOL[.FIELD][+OFF] of the workload's binary. A
 * dotted name that is itself a symbol (a C static "x.0") is taken as one. */
static int resolve_symbol(struct watch_spec *s, const struct elfsyms *e, const char *binary,
			  char *err, size_t errlen)
{
	const struct symtab *t = elfsyms_symtab(e);
	const struct sym *sym = NULL;
	if (s->field[0]) {
		char *whole = xasprintf("%s.%s", s->object, s->field);
		if ((sym = symtab_find_name(t, whole, NULL))) {
			free(s->object);
			s->object = whole;
			s->field[0] = 0;
		} else {
			free(whole);
		}
	}
	if (!sym && !(sym = symtab_find_name(t, s->object, NULL)))
		return snprintf(err, errlen, "%s: %s has no symbol '%s'", s->text, binary,
				s->object), -1;
	s->sym_vaddr = sym->start;
	if (s->field[0])
		return dwarf_field(s, binary, err, errlen);
	dwarf_name_at(s, binary, sym->size);
	return 0;
}

/* needs: whether ws has a spec of kind k. */
static bool needs(const struct watch_set *ws, enum watch_kind k)
{
	for (size_t i = 0; i < ws->n; i++)
		if (ws->w[i].kind == k)
			return true;
	return false;
}

/* watch_resolve_static: see watch.h. */
int watch_resolve_static(struct watch_set *ws, const char *binary, char *err, size_t errlen)
{
	struct btf *btf = NULL;
	struct elfsyms *elf = NULL;
	int rc = 0;
	err[0] = 0;
	if (needs(ws, WATCH_MM) || needs(ws, WATCH_ADDR))
		if (!(btf = btf_layout_open(NULL, err, errlen)))
			return -1;
	if (needs(ws, WATCH_SYMBOL) && !(elf = elfsyms_open(binary, err, errlen))) {
		btf_layout_close(btf);
		return -1;
	}
	for (size_t i = 0; !rc && i < ws->n; i++) {
		struct watch_spec *s = &ws->w[i];
		rc = s->kind == WATCH_SYMBOL ? resolve_symbol(s, elf, binary, err, errlen)
					     : resolve_btf(s, btf, binary, err, errlen);
	}
	btf_layout_close(btf);
	elfsyms_close(elf);
	return rc ? 1 : 0;
}

/* ---- metric lines ---- */

/* watch_parse_metric: see watch.h. */
bool watch_parse_metric(const char *line, struct watch_metric *m)
{
	const char *v;
	size_t n;
	char *end;
	if (strncmp(line, "metric=", 7))
		return false;
	n = strcspn(line + 7, " \t\n");
	if (!n || n >= sizeof(m->name) || !(v = strstr(line, " value=")))
		return false;
	m->value = strtod(v + 7, &end);
	if (end == v + 7)
		return false;
	memcpy(m->name, line + 7, n);
	m->name[n] = 0;
	snprintf(m->line, sizeof(m->line), "%.*s", (int)strcspn(line, "\n"), line);
	return true;
}

/* ---- storing ---- */

static const char *const kind_names[] = { "mm", "addr", "symbol" };

/* bind_spec: the columns of one watch row (from 2 on). */
static void bind_spec(sqlite3_stmt *st, const struct watch_set *ws, size_t i)
{
	const struct watch_spec *s = &ws->w[i];
	char ev[64];
	sqlite3_bind_int(st, 2, (int)i);
	sqlite3_bind_text(st, 3, s->text, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, kind_names[s->kind], -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, s->name, -1, SQLITE_TRANSIENT);
	db_bind_text_or_null(st, 6, s->type_name);
	db_bind_text_or_null(st, 7, s->field_type);
	sqlite3_bind_int64(st, 8, (int64_t)s->object_addr);
	sqlite3_bind_int64(st, 9, s->offset);
	sqlite3_bind_int64(st, 10, s->size);
	sqlite3_bind_int64(st, 11, (int64_t)s->addr);
	sqlite3_bind_int(st, 12, s->len);
	sqlite3_bind_int(st, 13, !!(s->flags & WATCH_PARTIAL));
	sqlite3_bind_int(st, 14, !!(s->flags & WATCH_WIDER));
	sqlite3_bind_text(st, 15, watch_event_name(s, ev, sizeof(ev)), -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 16, (int)ws->pid);
	sqlite3_bind_text(st, 17, ws->mm_mode == WATCH_MM_FORK ? "fork" : "exec", -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 18, ws->armed_ns);
	sqlite3_bind_int64(st, 19, ws->ended_ns);
}

/* store_watches: the watch rows. 0 or -1. */
static int store_watches(sqlite3 *db, int64_t session, const struct watch_set *ws,
			 char *err, size_t errlen)
{
	sqlite3_stmt *st = db_prepare(db, "INSERT INTO watch (session_id, idx, spec, kind, field, "
		"type_name, field_type, object_addr, offset, size, addr, len, partial, wider, event, "
		"pid, mm_mode, armed_ns, ended_ns) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
	int rc = st ? 0 : -1;
	for (size_t i = 0; !rc && i < ws->n; i++) {
		sqlite3_bind_int64(st, 1, session);
		bind_spec(st, ws, i);
		rc = db_step_done(st, err, errlen);
	}
	if (!st)
		snprintf(err, errlen, "%s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return rc;
}

/* store_metrics: the workload_metric rows. 0 or -1. */
static int store_metrics(sqlite3 *db, int64_t session, const struct watch_set *ws,
			 char *err, size_t errlen)
{
	sqlite3_stmt *st = db_prepare(db, "INSERT INTO workload_metric (session_id, name, value, "
				      "watched, line) VALUES (?,?,?,?,?)");
	int rc = st ? 0 : -1;
	for (size_t i = 0; !rc && i < ws->nmetrics; i++) {
		const struct watch_metric *m = &ws->metrics[i];
		sqlite3_bind_int64(st, 1, session);
		sqlite3_bind_text(st, 2, m->name, -1, SQLITE_STATIC);
		sqlite3_bind_double(st, 3, m->value);
		sqlite3_bind_int(st, 4, m->watched);
		sqlite3_bind_text(st, 5, m->line, -1, SQLITE_STATIC);
		rc = db_step_done(st, err, errlen);
	}
	if (!st)
		snprintf(err, errlen, "%s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return rc;
}

/* count_of: the integer sql gives for ?1 = session, ?2 = a and (when it
 * has it) ?3 = b; 0 when none. */
static long long count_of(sqlite3 *db, const char *sql, int64_t session, int64_t a, int64_t b)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	long long n = 0;
	if (!st)
		return 0;
	sqlite3_bind_int64(st, 1, session);
	sqlite3_bind_int64(st, 2, a);
	if (sqlite3_bind_parameter_count(st) >= 3)
		sqlite3_bind_int64(st, 3, b);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

/* count_canary: a recorded canary's seen (the samples of its event, the
 * last breakpoint event at its address and length, by perfdb's pid) and
 * lost (that event's LOST_SAMPLES). */
static void count_canary(sqlite3 *db, int64_t session, struct watch_canary *c)
{
	int64_t ev = -1;
	sqlite3_stmt *st = db_prepare(db, "SELECT id FROM event WHERE session_id = ? AND type = ? "
				      "AND config1 = ? AND config2 = ? ORDER BY idx DESC LIMIT 1");
	if (st) {
		sqlite3_bind_int64(st, 1, session);
		sqlite3_bind_int(st, 2, PERF_TYPE_BREAKPOINT);
		sqlite3_bind_int64(st, 3, (int64_t)c->addr);
		sqlite3_bind_int(st, 4, c->len);
		if (sqlite3_step(st) == SQLITE_ROW)
			ev = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	c->seen = ev < 0 ? 0 : count_of(db, "SELECT count(*) FROM sample s JOIN thread t ON "
		"t.id = s.thread_id WHERE s.id BETWEEN (SELECT first_sample_id FROM session WHERE "
		"id = ?1) AND (SELECT last_sample_id FROM session WHERE id = ?1) AND s.session_id = ?1 "
		"AND s.event_id = ?2 AND t.pid = ?3", session, ev, c->pid);
	c->lost = ev < 0 || !db_has_table(db, "lost") ? 0 : count_of(db, "SELECT coalesce(sum(n), "
		"0) FROM lost WHERE session_id = ?1 AND kind = 'lost_samples' AND event_id = ?2", session, ev, 0);
}

/* store_canary: the canary's row. 0 or -1. */
static int store_canary(sqlite3 *db, int64_t session, const struct watch_canary *c,
			char *err, size_t errlen)
{
	sqlite3_stmt *st = db_prepare(db, "INSERT INTO watch_canary (session_id, how, event, addr, "
				      "len, pid, writes, seen) VALUES (?,?,?,?,?,?,?,?)");
	char ev[64];
	int rc;
	if (!st)
		return snprintf(err, errlen, "%s", sqlite3_errmsg(db)), -1;
	sqlite3_bind_int64(st, 1, session);
	sqlite3_bind_text(st, 2, c->how == WATCH_CANARY_RECORDED ? "recorded" : "probe", -1,
			  SQLITE_STATIC);
	db_bind_text_or_null(st, 3, c->how == WATCH_CANARY_RECORDED ?
			     watch_canary_event(c, ev, sizeof(ev)) : NULL);
	sqlite3_bind_int64(st, 4, (int64_t)c->addr);
	sqlite3_bind_int(st, 5, c->len);
	sqlite3_bind_int(st, 6, (int)c->pid);
	sqlite3_bind_int64(st, 7, c->writes);
	sqlite3_bind_int64(st, 8, c->seen);
	rc = db_step_done(st, err, errlen);
	sqlite3_finalize(st);
	return rc;
}

/* watch_store: see watch.h. */
int watch_store(sqlite3 *db, int64_t session, struct watch_set *ws, char *err, size_t errlen)
{
	struct watch_canary *c = &ws->canary;
	if (c->how == WATCH_CANARY_RECORDED)
		count_canary(db, session, c);
	if (c->how != WATCH_CANARY_NONE && watch_canary_short(c))
		return watch_canary_said(c, err, errlen), 1;
	if (!db_has_table(db, "watch") || !db_has_table(db, "workload_metric")) {
		eprintf("warning: this database predates the watch tables; "
			"what was watched is not stored (use a new database)\n");
		return 0;
	}
	if (store_watches(db, session, ws, err, errlen) ||
	    store_metrics(db, session, ws, err, errlen))
		return -1;
	if (c->how == WATCH_CANARY_NONE || !db_has_table(db, "watch_canary"))
		return 0;
	return store_canary(db, session, c, err, errlen);
}
