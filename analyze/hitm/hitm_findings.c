/* Field contention findings of both verbs (see hitm_findings.h): the
 * sessions split by evidence, each evidence's rows, the tables in order. */
#include <stdbool.h>
#include <stdlib.h>
#include "analyze/hitm/hitm_findings.h"
#include "analyze/lost_note.h"
#include "analyze/session_info.h"
#include "lib/alloc.h"
#include "schema/db.h"

/* What lost events make of hitm's and watch's figures. */
#define HITM_DOUBTFUL "sample, HITM and trap counts are lower bounds, and per-line, per-field " \
	"and per-CPU shares unknown (a burst of lost samples may all be one line's)"

/* has_mem_samples(db, session): whether the session has memory samples. */
static bool has_mem_samples(sqlite3 *db, int64_t session)
{
	return db_any_row(db, "SELECT 1 FROM session s JOIN mem_sample m ON m.sample_id "
			  "BETWEEN s.first_sample_id AND s.last_sample_id WHERE s.id = ? "
			  "LIMIT 1", session, NULL);
}

/* hitm_evidence: see hitm_findings.h. */
unsigned hitm_evidence(sqlite3 *db, int64_t session)
{
	return (has_mem_samples(db, session) ? HITM_C2C : 0) |
	       (hitm_watched(db, session) ? HITM_WATCH : 0);
}

/* hitm_no_evidence: see hitm_findings.h. */
char *hitm_no_evidence(sqlite3 *db, int64_t session, const char *advice)
{
	int n;
	char **mem, *why = NULL;
	if (hitm_evidence(db, session))
		return NULL;
	mem = hitm_memory_events(db, session, &n);
	if (n)
		why = session_none_of(db, session, (const char *const *)mem, advice);
	if (!why)
		why = xasprintf("has no memory samples and no watchpoint samples (%s)", advice);
	hitm_names_free(mem);
	return why;
}

/* add(parent, t): t under parent when there is one. */
static void add(struct dval *parent, struct table *t)
{
	if (t)
		dv_table(parent, t);
}

/* assemble(d, hd, n, c, w): the tables into d, in the order of
 * hitm_findings.h. */
static void assemble(struct doc *d, struct hitm_doc *hd, int n, struct c2c_tables *c,
		     struct watch_tables *w)
{
	struct dval *f = doc_findings(d);
	add(f, c->summary);
	add(f, w->windows);
	hitm_doc_finish(hd, n, f);
	add(f, c->types);
	add(f, c->offsets);
	add(f, w->cpus);
	add(f, w->sites);
	add(f, w->rates);
	doc_set_main(d, "cachelines");
}

/* pick(db, ids, n, what, out): the sessions of ids holding evidence
 * what, into out; their number. */
static int pick(sqlite3 *db, const int64_t *ids, int n, unsigned what, int64_t *out)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		if (hitm_evidence(db, ids[i]) & what)
			out[k++] = ids[i];
	return k;
}

/* free_tables(c, w): the evidence tables assemble did not take. */
static void free_tables(struct c2c_tables *c, struct watch_tables *w)
{
	table_free(c->summary);
	table_free(c->types);
	table_free(c->offsets);
	table_free(w->windows);
	table_free(w->cpus);
	table_free(w->sites);
	table_free(w->rates);
	free(c->seen);
}

/* hitm_findings: see hitm_findings.h. */
int hitm_findings(sqlite3 *db, const int64_t *ids, int n, const struct hitm_opts *o,
		  struct doc *d, char *err, size_t errlen)
{
	int64_t *c2c = xcalloc((size_t)n + 1, sizeof(*c2c)), *watch = xcalloc((size_t)n + 1, sizeof(*watch));
	int nc = pick(db, ids, n, HITM_C2C, c2c), nw = pick(db, ids, n, HITM_WATCH, watch), rc = 0;
	struct c2c_tables ct = { 0 };
	struct watch_tables wt = { 0 };
	struct hitm_doc hd;
	hitm_doc_init(&hd);
	if (nc)
		rc = hitm_c2c(db, c2c, nc, &o->c2c, &hd, d, &ct, err, errlen);
	if (!rc && nw)
		rc = hitm_watch(db, watch, nw, &o->watch, &hd, d, &wt, err, errlen);
	if (!rc)
		assemble(d, &hd, n, &ct, &wt);
	else
		free_tables(&ct, &wt);
	if (!rc) {
		lost_note(db, ids, n, INT64_MIN, INT64_MAX, HITM_DOUBTFUL, d);
		hitm_c2c_unseen(db, &ct, d);
		free(ct.seen);
	}
	hitm_doc_free(&hd);
	free(c2c);
	free(watch);
	return rc;
}

/* watch_findings: see hitm_findings.h. */
int watch_findings(sqlite3 *db, const int64_t *ids, int n, const struct hitm_watch_opts *o,
		   struct doc *d, char *err, size_t errlen)
{
	struct c2c_tables ct = { 0 };
	struct watch_tables wt = { 0 };
	struct hitm_doc hd;
	int rc;
	hitm_doc_init(&hd);
	rc = hitm_watch(db, ids, n, o, &hd, d, &wt, err, errlen);
	if (!rc)
		assemble(d, &hd, n, &ct, &wt);
	else
		free_tables(&ct, &wt);
	if (!rc)
		lost_note(db, ids, n, INT64_MIN, INT64_MAX, HITM_DOUBTFUL, d);
	hitm_doc_free(&hd);
	return rc;
}
