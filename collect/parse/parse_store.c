/* What a run's output yielded, into the database (see parse_store.h).
 * SQL with bound parameters only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "collect/parse/parse_store.h"
#include "lib/alloc.h"
#include "lib/dist.h"
#include "schema/db.h"

/* The statements of one owner's tables. */
static const char *const sql_dist[] = {
	"INSERT INTO run_dist (run_id, name, unit, better, line, count, mean, stddev, min, p50, p90, "
	"p99, max, bamean95, bamean99) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	"INSERT INTO workload_dist (session_id, name, unit, better, line, count, mean, stddev, min, p50, "
	"p90, p99, max, bamean95, bamean99) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
};
static const char *const sql_sample[] = {
	"INSERT INTO run_sample (run_id, name, seq, value) VALUES (?, ?, ?, ?)",
	"INSERT INTO workload_sample (session_id, name, seq, value) VALUES (?, ?, ?, ?)",
};
static const char *const sql_metric[] = {
	"INSERT INTO run_metric (run_id, name, value, unit, better, line) VALUES (?, ?, ?, ?, ?, ?)",
	"INSERT INTO workload_metric (session_id, name, value, unit, better, line, watched) "
	"VALUES (?, ?, ?, ?, ?, ?, 1)",
};

/* fail(db, err, errlen): sqlite's last error into err; -1. */
static int fail(sqlite3 *db, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s", sqlite3_errmsg(db));
	return -1;
}

/* bind_head(st, id, d): the owner, name, unit and better= (1 .. 4). */
static void bind_head(sqlite3_stmt *st, int64_t id, const struct dist *d)
{
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_text(st, 2, d->name, -1, SQLITE_STATIC);
	db_bind_text_or_null(st, 3, d->unit[0] ? d->unit : NULL);
	db_bind_text_or_null(st, 4, metric_better_name(d->better));
}

/* store_summary(db, owner, id, d, s, err, errlen): d's run_dist (or
 * workload_dist) row and its metric row. 0 or -1. */
static int store_summary(sqlite3 *db, enum parse_owner owner, int64_t id, const struct dist *d,
			 const struct dist_summary *s, char *err, size_t errlen)
{
	const double v[] = { s->mean, s->stddev, s->min, s->p50, s->p90, s->p99, s->max, s->bamean95, s->bamean99 };
	sqlite3_stmt *st = db_prepare(db, sql_dist[owner]), *m;
	int rc = -1;
	if (st) {
		bind_head(st, id, d);
		sqlite3_bind_text(st, 5, d->line, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 6, (int64_t)s->count);
		for (int i = 0; i < 9; i++)
			sqlite3_bind_double(st, 7 + i, v[i]);
		rc = db_step_done(st, err, errlen);
		sqlite3_finalize(st);
	}
	if (rc || !(m = db_prepare(db, sql_metric[owner])))
		return rc ? rc : fail(db, err, errlen);
	sqlite3_bind_int64(m, 1, id);
	sqlite3_bind_text(m, 2, d->name, -1, SQLITE_STATIC);
	sqlite3_bind_double(m, 3, s->mean);
	db_bind_text_or_null(m, 4, d->unit[0] ? d->unit : NULL);
	db_bind_text_or_null(m, 5, metric_better_name(d->better));
	sqlite3_bind_text(m, 6, d->line, -1, SQLITE_STATIC);
	rc = db_step_done(m, err, errlen);
	sqlite3_finalize(m);
	return rc;
}

/* store_samples(db, owner, id, d, err, errlen): d's samples, seq 1.. */
static int store_samples(sqlite3 *db, enum parse_owner owner, int64_t id, const struct dist *d,
			 char *err, size_t errlen)
{
	sqlite3_stmt *st = db_prepare(db, sql_sample[owner]);
	int rc = 0;
	if (!st)
		return fail(db, err, errlen);
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_text(st, 2, d->name, -1, SQLITE_STATIC);
	for (size_t i = 0; !rc && i < d->n; i++) {
		sqlite3_bind_int64(st, 3, (int64_t)i + 1);
		sqlite3_bind_double(st, 4, d->v[i]);
		rc = db_step_done(st, err, errlen);
	}
	sqlite3_finalize(st);
	return rc;
}

/* parse_store_dists: see parse_store.h. */
int parse_store_dists(sqlite3 *db, enum parse_owner owner, int64_t id, const struct parse_result *r,
		      char *err, size_t errlen)
{
	for (size_t i = 0; i < r->ndists; i++) {
		const struct dist *d = &r->dists[i];
		struct dist_summary s;
		double *copy = xmalloc(d->n * sizeof(*copy));
		memcpy(copy, d->v, d->n * sizeof(*copy));
		dist_summarize(copy, d->n, d->better != BETTER_HIGHER, &s);
		free(copy);
		if (store_summary(db, owner, id, d, &s, err, errlen) ||
		    store_samples(db, owner, id, d, err, errlen))
			return -1;
	}
	return 0;
}
