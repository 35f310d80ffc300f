/* Pulling sessions and benches from PostgreSQL: see fleet_pull.h. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "lib/alloc.h"
#include "lib/errf.h"
#include "lib/strbuf.h"
#include "schema/batch.h"
#include "collect/fleet/fleet_pull.h"
#include "collect/fleet/fleet_rows.h"
#include "collect/fleet/fleet_xfer.h"
#include "schema/db.h"
#include "schema/pg_conn.h"
#include "schema/pg_schema.h"

/* An id list. */
struct ids {
	int64_t *v;
	size_t n, cap;
};

/* One pull. */
struct pull {
	PGconn *c;
	sqlite3 *db;
	char *err;
	size_t errlen;
	struct ids rs, ls;	/* server session -> local session, pulled or found */
	struct evtype *ev;
	size_t nev, evcap;
	struct table_batch *tb;	/* a batch per local table, made once */
	size_t ntb, tbcap;
	long long rows;
};

/* The batch of inserts of a table, kept across units: its 256-row
 * statement is prepared once per pull, not once per session. */
struct table_batch {
	const char *table;
	struct batch *b;
};

/* ids_add(l, v): appends v unless l has it. */
static void ids_add(struct ids *l, int64_t v)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i] == v)
			return;
	ALLOC_GROW(l->v, l->n + 1, l->cap);
	l->v[l->n++] = v;
}

/* cmp_id: ascending int64_t for qsort. */
static int cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* server_text(b, s): s in its server form (schema/fleet.h), in b. */
static const char *server_text(struct strbuf *b, const char *s)
{
	sb_reset(b);
	fleet_text_to_server(b, s, strlen(s));
	return sb_str(b);
}

/* query_ids(p, sql, arg, l): the ids (positive) the one-column server
 * query gives, with arg ($1, local text) in its server form, into l;
 * their number, or -1. */
static int query_ids(struct pull *p, const char *sql, const char *arg, struct ids *l)
{
	struct strbuf a = STRBUF_INIT;
	const char *params[] = { arg ? server_text(&a, arg) : NULL };
	PGresult *r = pg_query(p->c, sql, arg ? 1 : 0, params, 1, p->err, p->errlen);
	int n = r ? pq.ntuples(r) : -1;
	sb_free(&a);
	for (int i = 0; i < n; i++) {
		int64_t id;
		if (!pg_get_int(r, i, 0, &id) || id < 1) {
			n = errf(p->err, p->errlen, "the server sent an id that is not one (row %d of: %s)", i, sql);
			break;
		}
		ids_add(l, id);
	}
	pq.clear(r);
	return n;
}

/* select_units(p, sel, sessions, benches): the server's sessions and
 * benches sel names, and the sessions of those benches' runs. */
static int select_units(struct pull *p, const struct pull_sel *sel, struct ids *s, struct ids *b)
{
	int rc = 0;
	if (!sel->nspecs && !sel->nlabels && !sel->nhosts) {
		rc = query_ids(p, "SELECT id FROM session ORDER BY id", NULL, s) < 0 ||
		     query_ids(p, "SELECT id FROM bench ORDER BY id", NULL, b) < 0 ? -1 : 0;
	}
	for (size_t i = 0; !rc && i < sel->nspecs; i++) {
		int n = query_ids(p, "SELECT id FROM session WHERE id::text = $1 OR label = $1", sel->specs[i], s);
		int m = n < 0 ? -1 : query_ids(p, "SELECT id FROM bench WHERE label = $1", sel->specs[i], b);
		if (n < 0 || m < 0)
			rc = -1;
		else if (n + m == 0)
			rc = errf(p->err, p->errlen, "no session or bench '%s' on the server", sel->specs[i]);
	}
	for (size_t i = 0; !rc && i < sel->nlabels; i++) {
		int n = query_ids(p, "SELECT id FROM session WHERE label = $1", sel->labels[i], s);
		int m = n < 0 ? -1 : query_ids(p, "SELECT id FROM bench WHERE label = $1", sel->labels[i], b);
		if (n < 0 || m < 0)
			rc = -1;
		else if (n + m == 0)
			rc = errf(p->err, p->errlen, "no session or bench labelled '%s' on the server", sel->labels[i]);
	}
	for (size_t i = 0; !rc && i < sel->nhosts; i++) {
		int n = query_ids(p, "SELECT id FROM session WHERE hostname = $1", sel->hosts[i], s);
		int m = n < 0 ? -1 : query_ids(p, "SELECT id FROM bench WHERE hostname = $1", sel->hosts[i], b);
		if (n < 0 || m < 0)
			rc = -1;
		else if (n + m == 0)
			rc = errf(p->err, p->errlen, "no session or bench of host '%s' on the server", sel->hosts[i]);
	}
	for (size_t i = 0; !rc && i < b->n; i++) {
		char id[32];
		snprintf(id, sizeof(id), "%" PRId64, b->v[i]);
		if (query_ids(p, "SELECT DISTINCT session_id FROM bench_run WHERE bench_id = $1 AND "
			      "session_id IS NOT NULL", id, s) < 0)
			rc = -1;
	}
	if (s->n)
		qsort(s->v, s->n, sizeof(*s->v), cmp_id);
	if (b->n)
		qsort(b->v, b->n, sizeof(*b->v), cmp_id);
	return rc;
}

/* remote_identity(p, rid, key, what): a server session's identity text
 * (of its values back from their server form) and a description of it
 * ("server session 7 (label base, host h)"). */
static int remote_identity(struct pull *p, int64_t rid, struct strbuf *key, struct strbuf *what)
{
	char id[32], *sql = xasprintf("SELECT %s FROM session WHERE id = $1", fleet_identity_cols);
	const char *params[] = { id }, *vals[FLEET_IDENTITY_NCOLS];
	struct strbuf v[FLEET_IDENTITY_NCOLS];
	PGresult *r;
	snprintf(id, sizeof(id), "%" PRId64, rid);
	r = pg_query(p->c, sql, 1, params, FLEET_IDENTITY_NCOLS, p->err, p->errlen);
	free(sql);
	if (!r)
		return -1;
	if (pq.ntuples(r) != 1) {
		pq.clear(r);
		return errf(p->err, p->errlen, "no session %" PRId64 " on the server", rid);
	}
	for (int i = 0; i < FLEET_IDENTITY_NCOLS; i++) {
		const char *t = pg_get_text(r, 0, i);
		v[i] = (struct strbuf)STRBUF_INIT;
		if (t)
			fleet_text_from_server(&v[i], t, strlen(t));
		vals[i] = t ? sb_str(&v[i]) : NULL;
	}
	pq.clear(r);
	fleet_identity(key, vals);
	sb_printf(what, "server session %" PRId64 " (%s%s, host %s)", rid,
		  vals[FLEET_IDENTITY_LABEL] ? "label " : "no label",
		  vals[FLEET_IDENTITY_LABEL] ? vals[FLEET_IDENTITY_LABEL] : "",
		  vals[FLEET_IDENTITY_HOST] ? vals[FLEET_IDENTITY_HOST] : "unknown");
	for (int i = 0; i < FLEET_IDENTITY_NCOLS; i++)
		sb_free(&v[i]);
	return 0;
}

/* local_session(p, key): the local session of this identity, or 0. */
static int64_t local_session(struct pull *p, const char *key)
{
	sqlite3_stmt *st = db_prepare(p->db, "SELECT id FROM session ORDER BY id");
	int64_t found = 0;
	while (st && !found && sqlite3_step(st) == SQLITE_ROW) {
		struct strbuf b = STRBUF_INIT;
		int64_t id = sqlite3_column_int64(st, 0);
		if (!xfer_local_identity(p->db, id, &b, NULL) && !strcmp(sb_str(&b), key))
			found = id;
		sb_free(&b);
	}
	sqlite3_finalize(st);
	return found;
}

/* remote_range(p, t, k, params, x): the unit's id range of server table
 * t (key table k), moved after the local database's largest id. */
static int remote_range(struct pull *p, const struct fleet_table *t, enum fleet_key k,
			const char *const *params, struct xfer *x)
{
	char *sql = xasprintf("SELECT min(id), max(id) FROM %s WHERE %s", t->name, t->filter);
	PGresult *r = pg_query(p->c, sql, 1, params, 2, p->err, p->errlen);
	const char *lo_s, *hi_s;
	int64_t lo, hi;
	int rc = 0;
	free(sql);
	if (!r)
		return -1;
	lo_s = pg_get_text(r, 0, 0);
	hi_s = pg_get_text(r, 0, 1);
	if (pq.ntuples(r) != 1)
		rc = errf(p->err, p->errlen, "%s: the server sent %d rows for the range of ids", t->name, pq.ntuples(r));
	else if (!lo_s && !hi_s)
		;	/* the unit has none */
	else if (!pg_get_int(r, 0, 0, &lo) || !pg_get_int(r, 0, 1, &hi) ||
		 xfer_set_range(x, k, lo, hi, db_next_id(p->db, t->name)))
		rc = errf(p->err, p->errlen, "%s: the server's range of ids (%s..%s) is not one perfdb can store "
			  "after the ids here", t->name, lo_s ? lo_s : "NULL", hi_s ? hi_s : "NULL");
	pq.clear(r);
	return rc;
}

/* remote_ranges(p, tables, nt, rid, x): the unit's id range of each key
 * table on the server, and the offsets that move them after the local
 * database's largest ids. */
static int remote_ranges(struct pull *p, const struct fleet_table *tables, size_t nt, int64_t rid,
			 struct xfer *x)
{
	char id[32];
	const char *params[] = { id };
	snprintf(id, sizeof(id), "%" PRId64, rid);
	for (size_t i = 0; i < nt; i++)
		if (tables[i].own != FK_NONE && remote_range(p, &tables[i], tables[i].own, params, x))
			return -1;
	return 0;
}

/* event_types(p, rid): which f columns of each server event of session
 * rid hold text, from its typed view's column names (event.tp_table). */
static int event_types(struct pull *p, int64_t rid)
{
	char id[32];
	const char *params[] = { id };
	struct strbuf view = STRBUF_INIT;
	PGresult *r;
	int rc = 0;
	snprintf(id, sizeof(id), "%" PRId64, rid);
	p->nev = 0;
	if (!(r = pg_query(p->c, "SELECT id, tp_table FROM event WHERE session_id = $1", 1, params,
			   2, p->err, p->errlen)))
		return -1;
	for (int i = 0; !rc && i < pq.ntuples(r); i++) {
		struct evtype e = { 0 };
		const char *tp = pg_get_text(r, i, 1);
		if (!pg_get_int(r, i, 0, &e.id)) {
			rc = errf(p->err, p->errlen, "event: the server sent an id that is not one");
			break;
		}
		if (tp) {
			char **cols;
			int n;
			sb_reset(&view);
			fleet_text_from_server(&view, tp, strlen(tp));
			n = xfer_columns(p->db, sb_str(&view), &cols);
			for (int j = 1; j < n && j <= 7; j++)
				e.text[j - 1] = pg_view_column_is_text(cols[j]);
			xfer_columns_free(cols, n);
		}
		ALLOC_GROW(p->ev, p->nev + 1, p->evcap);
		p->ev[p->nev++] = e;
	}
	pq.clear(r);
	sb_free(&view);
	return rc;
}

/* Rows per FETCH from the server's cursor: a result of rows at a time,
 * not one per row, and small enough (about 200 KB of sample rows) for the
 * server to write the next into the socket while the client stores this
 * one: 2048 was slower, 512 no faster. */
#define FETCH_ROWS 1024

/* result_column, result_value: struct rows_in over a libpq result. */
static void result_column(const void *src, int col, unsigned *oid, int *format)
{
	*oid = (unsigned)pq.ftype(src, col);
	*format = pq.fformat(src, col);
}

static const char *result_value(const void *src, int row, int col, int *len)
{
	if (pq.getisnull(src, row, col))
		return NULL;
	*len = pq.getlength(src, row, col);
	return pq.getvalue(src, row, col);
}

/* store_rows(p, s, b, r, x): every row of the binary server result r
 * checked and added to b (inserted as it fills). 0 or -1. */
static int store_rows(struct pull *p, const struct rows_spec *s, struct batch *b, PGresult *r,
		      const struct xfer *x)
{
	struct rows_in in = { .src = r, .nrows = pq.ntuples(r), .ncols = pq.nfields(r),
			      .column = result_column, .value = result_value };
	char why[512];
	long n = rows_store(s, &in, x, b, why, sizeof(why));
	if (n < 0)
		return errf(p->err, p->errlen, "reading %s: %s", s->table, why);
	p->rows += n;
	return 0;
}

/* send_fetch(p, fetch): sends the next FETCH (binary results) without
 * waiting; false when it cannot be sent. */
static bool send_fetch(struct pull *p, const char *fetch)
{
	return pq.sendQueryParams(p->c, fetch, 0, NULL, NULL, NULL, NULL, 1) == 1;
}

/* fetched(p): the result of the FETCH sent last (NULL when it failed),
 * the connection then ready for the next command. */
static PGresult *fetched(struct pull *p)
{
	PGresult *r = pq.getResult(p->c), *more;
	while ((more = pq.getResult(p->c)))
		pq.clear(more);
	if (r && pq.resultStatus(r) != PGRES_TUPLES_OK) {
		pq.clear(r);
		r = NULL;
	}
	return r;
}

/* fetch_failed(p, t): the connection's error for table t; -1. */
static int fetch_failed(struct pull *p, const struct fleet_table *t)
{
	char why[512];
	pg_error_line(p->c, why, sizeof(why));
	return errf(p->err, p->errlen, "reading %s: %s", t->name, why);
}

/* fetch_all(p, t, sel, id, b, s, x): sel (with $1 = id)
 * read through a server cursor, FETCH_ROWS rows a result in binary, each
 * added to b (and b flushed) while the server makes the next (the next FETCH is
 * sent before a result is stored); the cursor's read-only transaction
 * ended. 0 or -1. */
static int fetch_all(struct pull *p, const struct fleet_table *t, const char *sel, const char *id,
		     struct batch *b, const struct rows_spec *s, const struct xfer *x)
{
	char why[512], fetch[64], *decl = xasprintf("DECLARE perfdb_pull NO SCROLL CURSOR FOR %s", sel);
	const char *params[] = { id };
	PGresult *r, *next;
	int rc = 0;
	if (pg_cmd(p->c, "BEGIN READ ONLY", why, sizeof(why)) ||
	    !(r = pg_exec(p->c, decl, 1, params, why, sizeof(why)))) {
		free(decl);
		pg_cmd(p->c, "ROLLBACK", NULL, 0);
		return errf(p->err, p->errlen, "reading %s: %s", t->name, why);
	}
	free(decl);
	pq.clear(r);
	snprintf(fetch, sizeof(fetch), "FETCH %d FROM perfdb_pull", FETCH_ROWS);
	if (!(r = send_fetch(p, fetch) ? fetched(p) : NULL))
		rc = fetch_failed(p, t);
	while (!rc) {
		bool full = pq.ntuples(r) == FETCH_ROWS, sent = full && send_fetch(p, fetch);
		rc = full && !sent ? fetch_failed(p, t) : store_rows(p, s, b, r, x);
		pq.clear(r);
		if (!sent)
			break;
		next = fetched(p);	/* read even after a failure: ROLLBACK needs an idle connection */
		if (!rc && !(r = next))
			rc = fetch_failed(p, t);
		else if (rc)
			pq.clear(next);
	}
	if (!rc && batch_flush(b))
		rc = errf(p->err, p->errlen, "storing %s: %s", t->name, batch_error(b));
	if (pg_cmd(p->c, rc ? "ROLLBACK" : "COMMIT", rc ? NULL : why, rc ? 0 : sizeof(why)) && !rc)
		rc = errf(p->err, p->errlen, "reading %s: %s", t->name, why);
	return rc;
}

/* table_batch(p, table, cols, n): the batch inserting cols (n) into
 * table, made the first time; NULL when its statements cannot be made. */
static struct batch *table_batch(struct pull *p, const char *table, char **cols, int n)
{
	for (size_t i = 0; i < p->ntb; i++)
		if (!strcmp(p->tb[i].table, table))
			return p->tb[i].b;
	struct batch *b = batch_new(p->db, NULL, table, (const char *const *)cols, n);
	if (b) {
		ALLOC_GROW(p->tb, p->ntb + 1, p->tbcap);
		p->tb[p->ntb++] = (struct table_batch){ .table = table, .b = b };
	}
	return b;
}

/* drop_batches(p): frees every table's batch (rows not flushed are lost). */
static void drop_batches(struct pull *p)
{
	for (size_t i = 0; i < p->ntb; i++)
		batch_free(p->tb[i].b);
	free(p->tb);
	p->tb = NULL;
	p->ntb = p->tbcap = 0;
}

/* pull_table(p, t, rid, x): the unit's rows of server table t into the
 * local table, through a server cursor and multi-row inserts. */
static int pull_table(struct pull *p, const struct fleet_table *t, int64_t rid, const struct xfer *x)
{
	char id[32];
	struct strbuf sel = STRBUF_INIT;
	struct rows_spec s;
	struct batch *b;
	int rc;
	rows_spec_make(p->db, t->name, &s);
	if (!s.ncols)
		return rows_spec_free(&s), 0;
	s.ev = p->ev;
	s.nev = p->nev;
	snprintf(id, sizeof(id), "%" PRId64, rid);
	sb_puts(&sel, "SELECT ");
	for (int i = 0; i < s.ncols; i++)
		sb_printf(&sel, "%s\"%s\"", i ? ", " : "", s.cols[i]);
	sb_printf(&sel, " FROM %s WHERE %s%s", t->name, t->filter,
		  xfer_has_key(p->db, t->name) ? "" : " ORDER BY ctid");
	b = table_batch(p, t->name, s.cols, s.ncols);
	rc = b ? fetch_all(p, t, sb_str(&sel), id, b, &s, x)
	       : errf(p->err, p->errlen, "storing %s: %s", t->name, sqlite3_errmsg(p->db));
	if (rc)
		drop_batches(p);	/* none may keep rows of a failed unit */
	sb_free(&sel);
	rows_spec_free(&s);
	return rc;
}

/* pull_unit(p, tables, nt, rid, x, what, out): one unit in one local
 * transaction. */
static int pull_unit(struct pull *p, const struct fleet_table *tables, size_t nt, int64_t rid,
		     struct xfer *x)
{
	char why[512];
	if (db_exec(p->db, "BEGIN IMMEDIATE", why, sizeof(why)))
		return errf(p->err, p->errlen, "cannot write to the database: %s", why);
	int rc = remote_ranges(p, tables, nt, rid, x);
	enum fleet_key own = tables[0].own;	/* the session or bench row itself */
	if (!rc && (!x->has[own] || x->lo[own] != rid || x->hi[own] != rid))
		rc = errf(p->err, p->errlen, "%s: the server's rows of it are not the one asked for", tables[0].name);
	for (size_t i = 0; !rc && i < nt; i++)
		rc = pull_table(p, &tables[i], rid, x);
	if (!rc && db_exec(p->db, "COMMIT", why, sizeof(why)))
		rc = errf(p->err, p->errlen, "cannot commit: %s", why);
	if (rc)
		db_exec(p->db, "ROLLBACK", NULL, 0);
	return rc;
}

/* pull_session(p, rid, out): one server session, unless the database has
 * it; notes its local id in the session map. */
static int pull_session(struct pull *p, int64_t rid, FILE *out)
{
	struct strbuf key = STRBUF_INIT, what = STRBUF_INIT;
	struct xfer x = { 0 };
	long long rows0 = p->rows;
	int rc = remote_identity(p, rid, &key, &what);
	int64_t local = rc ? 0 : local_session(p, sb_str(&key));
	if (!rc && local) {
		xfer_say(out, "%s: already here as session %" PRId64 ", not pulled again", sb_str(&what),
			 local);
	} else if (!rc && !(rc = event_types(p, rid)) &&
		   !(rc = pull_unit(p, fleet_session_tables, fleet_nsession_tables, rid, &x))) {
		local = rid + x.off[FK_SESSION];
		xfer_say(out, "%s: pulled as session %" PRId64 ", %lld rows", sb_str(&what), local,
			 p->rows - rows0);
	} else if (rc) {
		char e[1024];
		snprintf(e, sizeof(e), "%s", p->err);
		errf(p->err, p->errlen, "%s: %s (nothing of it was stored)", sb_str(&what), e);
	}
	if (!rc) {
		ALLOC_GROW(p->rs.v, p->rs.n + 1, p->rs.cap);
		ALLOC_GROW(p->ls.v, p->ls.n + 1, p->ls.cap);
		p->rs.v[p->rs.n++] = rid;
		p->ls.v[p->ls.n++] = local;
	}
	sb_free(&key);
	sb_free(&what);
	return rc;
}

/* bench_key(p, rid, label, boot): the label and boot id of server bench
 * rid, back from their server form. */
static int bench_key(struct pull *p, int64_t rid, struct strbuf *label, struct strbuf *boot)
{
	char id[32];
	const char *params[] = { id }, *l, *b;
	PGresult *r;
	snprintf(id, sizeof(id), "%" PRId64, rid);
	if (!(r = pg_query(p->c, "SELECT label, boot_id FROM bench WHERE id = $1", 1, params, 2,
			   p->err, p->errlen)))
		return -1;
	l = pg_get_text(r, 0, 0);
	b = pg_get_text(r, 0, 1);
	if (pq.ntuples(r) != 1 || !l || !b) {
		pq.clear(r);
		return errf(p->err, p->errlen, "no bench %" PRId64 " on the server with a label and boot", rid);
	}
	fleet_text_from_server(label, l, strlen(l));
	fleet_text_from_server(boot, b, strlen(b));
	pq.clear(r);
	return 0;
}

/* bench_here(p, label, boot): whether the local database has the bench
 * (label, boot); -1 when it cannot say. */
static int bench_here(struct pull *p, const struct strbuf *label, const struct strbuf *boot)
{
	sqlite3_stmt *st = db_prepare(p->db, "SELECT 1 FROM bench WHERE label = ? AND boot_id = ?");
	int here;
	if (!st)
		return errf(p->err, p->errlen, "cannot read the database: %s", sqlite3_errmsg(p->db));
	sqlite3_bind_text(st, 1, sb_str(label), (int)label->len, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, sb_str(boot), (int)boot->len, SQLITE_STATIC);
	here = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return here;
}

/* pull_bench(p, rid, out): one server bench (its sessions pulled
 * before), unless the database has its label on that boot. */
static int pull_bench(struct pull *p, int64_t rid, FILE *out)
{
	struct strbuf label = STRBUF_INIT, boot = STRBUF_INIT;
	struct xfer x = { 0 };
	long long rows0 = p->rows;
	int rc = bench_key(p, rid, &label, &boot), here = rc ? -1 : bench_here(p, &label, &boot);
	if (here > 0)
		xfer_say(out, "bench %s (boot %s): already here, not pulled again", sb_str(&label),
			 sb_str(&boot));
	if (here) {
		rc = here < 0 ? -1 : 0;
		goto out;
	}
	x.from = p->rs.v;
	x.to = p->ls.v;
	x.nmap = (int)p->rs.n;
	if ((rc = pull_unit(p, fleet_bench_tables, fleet_nbench_tables, rid, &x))) {
		char e[1024];
		snprintf(e, sizeof(e), "%s", p->err);
		errf(p->err, p->errlen, "bench %s (boot %s): %s (nothing of it was stored)", sb_str(&label),
		     sb_str(&boot), e);
		goto out;
	}
	xfer_say(out, "bench %s (boot %s): pulled as bench %" PRId64 ", %lld rows", sb_str(&label),
		 sb_str(&boot), rid + x.off[FK_BENCH], p->rows - rows0);
out:
	sb_free(&label);
	sb_free(&boot);
	return rc;
}

/* fleet_pull: see fleet_pull.h. */
int fleet_pull(PGconn *c, sqlite3 *db, const struct pull_sel *sel, FILE *out, char *err,
	       size_t errlen)
{
	struct pull p = { .c = c, .db = db, .err = err, .errlen = errlen };
	struct ids s = { 0 }, b = { 0 };
	int rc = pg_ensure_schema(c, false, NULL, err, errlen) || select_units(&p, sel, &s, &b) ? -1 : 0;
	if (!rc && !s.n && !b.n)
		rc = errf(p.err, p.errlen, "the server has no sessions or benches");
	for (size_t i = 0; !rc && i < s.n; i++)
		rc = pull_session(&p, s.v[i], out);
	for (size_t i = 0; !rc && i < b.n; i++)
		rc = pull_bench(&p, b.v[i], out);
	free(s.v);
	free(b.v);
	free(p.rs.v);
	free(p.ls.v);
	free(p.ev);
	drop_batches(&p);
	return rc;
}
