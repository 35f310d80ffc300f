/* Findings documents: what an analyzer returns and a renderer of
 * reports/ prints. A document names its verb, lists the sessions it
 * describes, holds the findings (a tree of objects, arrays, scalars and
 * tables, in insertion order) and two lists of sentences: warnings (data
 * quality: what makes a number doubtful, shown before the tables) and
 * notes (how to read the numbers, shown after them).
 *
 * Rendered as JSON, every document has one envelope:
 *   {"perfdb": VERSION, "verb": VERB, "sessions": [...],
 *    "findings": {...}, "warnings": [...], "notes": [...]}
 * where a table is an array of row objects keyed by column name. Text and
 * md show the warnings, every table in document order and the notes; csv
 * shows exactly one table (the main one unless another is asked for).
 *
 * Building: dv_* add a member under a parent (an object, with a key that
 * must be new there, or an array, with key NULL). Table names are unique
 * in a document. Misuse aborts with one line on stderr; allocation follows
 * lib/alloc.h. */
#ifndef PERFDB_DOC_H
#define PERFDB_DOC_H
#include <stdbool.h>
#include <stddef.h>
#include "lib/table.h"

enum dv_kind { DV_NULL, DV_BOOL, DV_INT, DV_REAL, DV_STR, DV_OBJ, DV_ARR, DV_TABLE };

struct dval;
struct doc;

/* doc_new(verb): an empty document of verb ("sched"). doc_free: frees it
 * and everything in it (NULL allowed). */
struct doc *doc_new(const char *verb);
void doc_free(struct doc *d);

/* doc_verb(d): the verb given to doc_new. */
const char *doc_verb(const struct doc *d);

/* doc_set_title(d, title): a heading for the whole document (a report's
 * "NEW against BASE"); doc_title(d): it, or NULL. Shown first by the
 * human forms, as "title" in json. */
void doc_set_title(struct doc *d, const char *title);
const char *doc_title(const struct doc *d);

/* doc_sessions(d): the array of session objects (id, label, host, kernel
 * ...) the findings are about; doc_findings(d): the findings object. */
struct dval *doc_sessions(struct doc *d);
struct dval *doc_findings(struct doc *d);
const struct dval *doc_sessions_c(const struct doc *d);
const struct dval *doc_findings_c(const struct doc *d);

/* doc_warn(d, fmt, ...): adds a data-quality warning; doc_note: a note.
 * A sentence already in the list is not added again. */
void doc_warn(struct doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void doc_note(struct doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
size_t doc_nwarnings(const struct doc *d);
const char *doc_warning_at(const struct doc *d, size_t i);
size_t doc_nnotes(const struct doc *d);
const char *doc_note_at(const struct doc *d, size_t i);

/* doc_set_main(d, name): the table csv prints when no --table is given
 * (default: the first table). doc_main(d): that table, or NULL when the
 * document has no table. */
void doc_set_main(struct doc *d, const char *name);
const struct table *doc_main(const struct doc *d);

/* doc_ntables(d) / doc_table_at(d, i): every table of the findings, in
 * document order (depth first). doc_table(d, name): the table called
 * name, or NULL. */
size_t doc_ntables(const struct doc *d);
const struct table *doc_table_at(const struct doc *d, size_t i);
const struct table *doc_table(const struct doc *d, const char *name);

/* doc_limit_rows(d, name, n): keeps the first n rows of the table called
 * name (n <= 0: all of them), with a caption "the first N of M rows (-n
 * 0: all)" when some were left out; false when d has no such table. */
bool doc_limit_rows(struct doc *d, const char *name, long long n);

/* Building under parent (an object: key required and new; an array: key
 * NULL). dv_obj and dv_arr return the new container. dv_str with s NULL
 * adds null. dv_table adds t (owned by the document from then on) under
 * the key table_name(t) and returns t. */
struct dval *dv_obj(struct dval *parent, const char *key);
struct dval *dv_arr(struct dval *parent, const char *key);
void dv_null(struct dval *parent, const char *key);
void dv_bool(struct dval *parent, const char *key, bool v);
void dv_int(struct dval *parent, const char *key, long long v);
void dv_real(struct dval *parent, const char *key, double v);
void dv_str(struct dval *parent, const char *key, const char *s);
struct table *dv_table(struct dval *parent, struct table *t);

/* Reading. dv_len: members of an object or elements of an array (0 for
 * scalars); dv_key/dv_item: the i-th member's key (NULL in an array) and
 * value; dv_get: an object's member called key, or NULL. The dv_*_of
 * readers abort when v is of another kind (dv_real_of also takes an int;
 * dv_str_of returns NULL for DV_NULL). */
enum dv_kind dv_kind(const struct dval *v);
size_t dv_len(const struct dval *v);
const char *dv_key(const struct dval *v, size_t i);
const struct dval *dv_item(const struct dval *v, size_t i);
const struct dval *dv_get(const struct dval *v, const char *key);
/* dv_find(v, key): dv_get for a value still being built (the member can
 * take more members), or NULL. */
struct dval *dv_find(struct dval *v, const char *key);
bool dv_bool_of(const struct dval *v);
long long dv_int_of(const struct dval *v);
double dv_real_of(const struct dval *v);
const char *dv_str_of(const struct dval *v);
const struct table *dv_table_of(const struct dval *v);
#endif
