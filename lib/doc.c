/* Findings documents: see doc.h. A value is a tagged node; containers
 * keep their members in insertion order. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/bug.h"
#include "lib/alloc.h"
#include "lib/doc.h"
#include "lib/strbuf.h"

struct dval {
	enum dv_kind kind;
	char *key;		/* NULL in arrays and for the roots */
	struct doc *owner;
	union {
		bool b;
		long long i;
		double r;
		char *s;
		struct table *t;
		struct {
			struct dval **v;
			size_t n, cap;
		} kids;
	} u;
};

/* A growable list of sentences. */
struct sentences {
	char **v;
	size_t n, cap;
};

struct doc {
	char *verb, *main, *title;
	struct dval *sessions, *findings;
	struct sentences warnings, notes;
	const struct table **tables;	/* document order: see list_tables */
	size_t ntables, cap_tables;
};

/* node(d, kind): a new value of kind owned by d. */
static struct dval *node(struct doc *d, enum dv_kind kind)
{
	struct dval *v = xcalloc(1, sizeof(*v));
	v->kind = kind;
	v->owner = d;
	return v;
}

/* node_free(v): frees v and what it holds. */
static void node_free(struct dval *v)
{
	if (!v)
		return;
	if (v->kind == DV_OBJ || v->kind == DV_ARR) {
		for (size_t i = 0; i < v->u.kids.n; i++)
			node_free(v->u.kids.v[i]);
		free(v->u.kids.v);
	} else if (v->kind == DV_STR) {
		free(v->u.s);
	} else if (v->kind == DV_TABLE) {
		table_free(v->u.t);
	}
	free(v->key);
	free(v);
}

/* doc_new: see doc.h. */
struct doc *doc_new(const char *verb)
{
	struct doc *d = xcalloc(1, sizeof(*d));
	d->verb = xstrdup(verb);
	d->sessions = node(d, DV_ARR);
	d->findings = node(d, DV_OBJ);
	return d;
}

/* sentences_free(s): frees a sentence list. */
static void sentences_free(struct sentences *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
}

/* doc_free: see doc.h. */
void doc_free(struct doc *d)
{
	if (!d)
		return;
	node_free(d->sessions);
	node_free(d->findings);
	sentences_free(&d->warnings);
	sentences_free(&d->notes);
	free(d->tables);
	free(d->verb);
	free(d->main);
	free(d->title);
	free(d);
}

const char *doc_verb(const struct doc *d) { return d->verb; }
const char *doc_title(const struct doc *d) { return d->title; }

/* doc_set_title: see doc.h. */
void doc_set_title(struct doc *d, const char *title)
{
	free(d->title);
	d->title = xstrdup(title);
}
struct dval *doc_sessions(struct doc *d) { return d->sessions; }
struct dval *doc_findings(struct doc *d) { return d->findings; }
const struct dval *doc_sessions_c(const struct doc *d) { return d->sessions; }
const struct dval *doc_findings_c(const struct doc *d) { return d->findings; }

/* add_sentence(s, fmt, ap): appends the formatted sentence unless s has it. */
static void add_sentence(struct sentences *s, const char *fmt, va_list ap)
{
	struct strbuf b = STRBUF_INIT;
	sb_vprintf(&b, fmt, ap);
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], sb_str(&b))) {
			sb_free(&b);
			return;
		}
	ALLOC_GROW(s->v, s->n + 1, s->cap);
	s->v[s->n++] = sb_take(&b);
}

/* doc_warn: see doc.h. */
void doc_warn(struct doc *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	add_sentence(&d->warnings, fmt, ap);
	va_end(ap);
}

/* doc_note: see doc.h. */
void doc_note(struct doc *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	add_sentence(&d->notes, fmt, ap);
	va_end(ap);
}

size_t doc_nwarnings(const struct doc *d) { return d->warnings.n; }
size_t doc_nnotes(const struct doc *d) { return d->notes.n; }

/* doc_warning_at: see doc.h. */
const char *doc_warning_at(const struct doc *d, size_t i)
{
	if (i >= d->warnings.n)
		bug("doc_warning_at: %zu out of range", i);
	return d->warnings.v[i];
}

/* doc_note_at: see doc.h. */
const char *doc_note_at(const struct doc *d, size_t i)
{
	if (i >= d->notes.n)
		bug("doc_note_at: %zu out of range", i);
	return d->notes.v[i];
}

/* doc_set_main: see doc.h. */
void doc_set_main(struct doc *d, const char *name)
{
	free(d->main);
	d->main = xstrdup(name);
}

/* doc_main: see doc.h. */
const struct table *doc_main(const struct doc *d)
{
	const struct table *t = d->main ? doc_table(d, d->main) : NULL;
	return t ? t : d->ntables ? d->tables[0] : NULL;
}

/* doc_ntables: see doc.h. */
size_t doc_ntables(const struct doc *d)
{
	return d->ntables;
}

/* doc_table_at: see doc.h. */
const struct table *doc_table_at(const struct doc *d, size_t i)
{
	if (i >= d->ntables)
		bug("doc_table_at: %zu out of range", i);
	return d->tables[i];
}

/* doc_table: see doc.h. */
const struct table *doc_table(const struct doc *d, const char *name)
{
	for (size_t i = 0; i < d->ntables; i++)
		if (!strcmp(table_name(d->tables[i]), name))
			return d->tables[i];
	return NULL;
}

/* find_table(v, name): the table called name under v, or NULL. */
static struct table *find_table(struct dval *v, const char *name)
{
	struct table *t = NULL;
	if (v->kind == DV_TABLE)
		return strcmp(table_name(v->u.t), name) ? NULL : v->u.t;
	if (v->kind == DV_OBJ || v->kind == DV_ARR)
		for (size_t i = 0; i < v->u.kids.n && !t; i++)
			t = find_table(v->u.kids.v[i], name);
	return t;
}

/* doc_limit_rows: see doc.h. */
bool doc_limit_rows(struct doc *d, const char *name, long long n)
{
	struct table *t = find_table(d->findings, name);
	size_t had;
	if (!t)
		t = find_table(d->sessions, name);
	if (!t)
		return false;
	if (n > 0 && (had = table_truncate(t, (size_t)n)) > (size_t)n)
		table_caption(t, "the first %lld of %zu rows (-n 0: all)", n, had);
	return true;
}

/* attach(parent, key, v): adds v under parent with key (see doc.h). */
static struct dval *attach(struct dval *parent, const char *key, struct dval *v)
{
	if (parent->kind == DV_OBJ) {
		if (!key)
			bug("doc: a member of an object needs a key");
		if (dv_get(parent, key))
			bug("doc: duplicate key '%s'", key);
		v->key = xstrdup(key);
	} else if (parent->kind != DV_ARR || key) {
		bug("doc: '%s' added to %s", key ? key : "(element)",
		    parent->kind == DV_ARR ? "an array with a key" : "a scalar");
	}
	ALLOC_GROW(parent->u.kids.v, parent->u.kids.n + 1, parent->u.kids.cap);
	parent->u.kids.v[parent->u.kids.n++] = v;
	return v;
}

/* dv_obj: see doc.h. */
struct dval *dv_obj(struct dval *parent, const char *key)
{
	return attach(parent, key, node(parent->owner, DV_OBJ));
}

/* dv_arr: see doc.h. */
struct dval *dv_arr(struct dval *parent, const char *key)
{
	return attach(parent, key, node(parent->owner, DV_ARR));
}

/* dv_null: see doc.h. */
void dv_null(struct dval *parent, const char *key)
{
	attach(parent, key, node(parent->owner, DV_NULL));
}

/* dv_bool: see doc.h. */
void dv_bool(struct dval *parent, const char *key, bool v)
{
	attach(parent, key, node(parent->owner, DV_BOOL))->u.b = v;
}

/* dv_int: see doc.h. */
void dv_int(struct dval *parent, const char *key, long long v)
{
	attach(parent, key, node(parent->owner, DV_INT))->u.i = v;
}

/* dv_real: see doc.h. */
void dv_real(struct dval *parent, const char *key, double v)
{
	attach(parent, key, node(parent->owner, DV_REAL))->u.r = v;
}

/* dv_str: see doc.h. */
void dv_str(struct dval *parent, const char *key, const char *s)
{
	struct dval *v = node(parent->owner, s ? DV_STR : DV_NULL);
	if (s)
		v->u.s = xstrdup(s);
	attach(parent, key, v);
}

/* collect(d, v): appends the tables at or under v to d's list, depth
 * first. */
static void collect(struct doc *d, const struct dval *v)
{
	if (v->kind == DV_TABLE) {
		ALLOC_GROW(d->tables, d->ntables + 1, d->cap_tables);
		d->tables[d->ntables++] = v->u.t;
	} else if (v->kind == DV_OBJ || v->kind == DV_ARR) {
		for (size_t i = 0; i < v->u.kids.n; i++)
			collect(d, v->u.kids.v[i]);
	}
}

/* list_tables(d): rebuilds d's list of tables in document order: the
 * findings depth first (the order json prints them in, whatever order
 * they were added in), then any under the sessions. */
static void list_tables(struct doc *d)
{
	d->ntables = 0;
	collect(d, d->findings);
	collect(d, d->sessions);
}

/* dv_table: see doc.h. In an array the table is an element (no key). */
struct table *dv_table(struct dval *parent, struct table *t)
{
	struct doc *d = parent->owner;
	if (doc_table(d, table_name(t)))
		bug("doc: duplicate table '%s'", table_name(t));
	struct dval *v = node(d, DV_TABLE);
	v->u.t = t;
	attach(parent, parent->kind == DV_ARR ? NULL : table_name(t), v);
	list_tables(d);
	return t;
}

/* dv_kind: see doc.h. */
enum dv_kind dv_kind(const struct dval *v)
{
	return v->kind;
}

/* dv_len: see doc.h. */
size_t dv_len(const struct dval *v)
{
	return v->kind == DV_OBJ || v->kind == DV_ARR ? v->u.kids.n : 0;
}

/* dv_key: see doc.h. */
const char *dv_key(const struct dval *v, size_t i)
{
	return dv_item(v, i)->key;
}

/* dv_item: see doc.h. */
const struct dval *dv_item(const struct dval *v, size_t i)
{
	if (i >= dv_len(v))
		bug("dv_item: %zu out of range", i);
	return v->u.kids.v[i];
}

/* dv_find: see doc.h. */
struct dval *dv_find(struct dval *v, const char *key)
{
	if (v->kind != DV_OBJ)
		return NULL;
	for (size_t i = 0; i < v->u.kids.n; i++)
		if (!strcmp(v->u.kids.v[i]->key, key))
			return v->u.kids.v[i];
	return NULL;
}

/* dv_get: see doc.h. */
const struct dval *dv_get(const struct dval *v, const char *key)
{
	return dv_find((struct dval *)v, key);	/* read only: the const is the caller's */
}

/* want(v, kind, who): aborts unless v is of kind. */
static void want(const struct dval *v, enum dv_kind kind, const char *who)
{
	if (!v || v->kind != kind)
		bug("%s: value is of another kind", who);
}

/* dv_bool_of: see doc.h. */
bool dv_bool_of(const struct dval *v)
{
	want(v, DV_BOOL, "dv_bool_of");
	return v->u.b;
}

/* dv_int_of: see doc.h. */
long long dv_int_of(const struct dval *v)
{
	want(v, DV_INT, "dv_int_of");
	return v->u.i;
}

/* dv_real_of: see doc.h. */
double dv_real_of(const struct dval *v)
{
	if (v && v->kind == DV_INT)
		return (double)v->u.i;
	want(v, DV_REAL, "dv_real_of");
	return v->u.r;
}

/* dv_str_of: see doc.h. */
const char *dv_str_of(const struct dval *v)
{
	if (v && v->kind == DV_NULL)
		return NULL;
	want(v, DV_STR, "dv_str_of");
	return v->u.s;
}

/* dv_table_of: see doc.h. */
const struct table *dv_table_of(const struct dval *v)
{
	want(v, DV_TABLE, "dv_table_of");
	return v->u.t;
}
