/* Pushing sessions and benches to PostgreSQL: see fleet_push.h. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "lib/alloc.h"
#include "lib/errf.h"
#include "lib/strbuf.h"
#include "collect/fleet/fleet_push.h"
#include "collect/fleet/fleet_xfer.h"
#include "schema/db.h"
#include "schema/pg_conn.h"
#include "schema/pg_schema.h"

/* The advisory lock that makes id block reservations atomic. */
#define RESERVE_LOCK "7405160002"
/* Bytes of COPY text sent at once. */
#define COPY_CHUNK (256 * 1024)

/* One push: the connections, options and counts. */
struct push {
	sqlite3 *db;
	PGconn *c;
	const struct push_opts *o;
	long long rows;
	char *err;
	size_t errlen;
};

/* now_s(): a monotonic clock in seconds. */
static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* local_ranges(p, tables, nt, id, x): the unit's id range of each key
 * table in the local database. */
static void local_ranges(struct push *p, const struct fleet_table *tables, size_t nt, int64_t id,
			 struct xfer *x)
{
	for (size_t i = 0; i < nt; i++) {
		enum fleet_key k = tables[i].own;
		if (k == FK_NONE)
			continue;
		char *sql = xasprintf("SELECT min(id), max(id) FROM %s WHERE %s", tables[i].name,
				      tables[i].filter);
		sqlite3_stmt *st = db_prepare(p->db, sql);
		free(sql);
		if (!st)
			continue;
		sqlite3_bind_int64(st, 1, id);
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
			x->has[k] = true;
			x->lo[k] = sqlite3_column_int64(st, 0);
			x->hi[k] = sqlite3_column_int64(st, 1);
		}
		sqlite3_finalize(st);
	}
}

/* pg_int(p, sql, v): the integer the one-row query sql gives; -1 on error. */
static int pg_int(struct push *p, const char *sql, int64_t *v)
{
	PGresult *r = pg_query(p->c, sql, 0, NULL, 1, p->err, p->errlen);
	bool ok = r && pq.ntuples(r) == 1 && pg_get_int(r, 0, 0, v);
	if (r && !ok)
		errf(p->err, p->errlen, "the server sent no integer for: %s", sql);
	pq.clear(r);
	return ok ? 0 : -1;
}

/* reserve(p, x): a block of server ids for each key range of x (under an
 * advisory lock, so concurrent pushes get disjoint blocks; sequences are
 * not transactional, a rolled back push leaves a gap), setting x->off. */
static int reserve(struct push *p, struct xfer *x)
{
	char sql[160];
	int rc = pg_cmd(p->c, "SELECT pg_advisory_lock(" RESERVE_LOCK ")", p->err, p->errlen);
	for (int k = 0; !rc && k < FK_N; k++) {
		int64_t v, last;
		if (!x->has[k])
			continue;
		snprintf(sql, sizeof(sql), "SELECT nextval('%s_id_seq')", fleet_key_table[k]);
		rc = pg_int(p, sql, &v);
		snprintf(sql, sizeof(sql), "SELECT setval('%s_id_seq', %" PRId64 ")", fleet_key_table[k],
			 v + (x->hi[k] - x->lo[k]));
		rc = rc || pg_int(p, sql, &last);
		x->off[k] = v - x->lo[k];
	}
	if (pg_cmd(p->c, "SELECT pg_advisory_unlock(" RESERVE_LOCK ")", rc ? NULL : p->err,
		   rc ? 0 : p->errlen))
		rc = -1;
	return rc;
}

/* put_text(b, s, n): s in COPY text form (backslash escapes). */
static void put_text(struct strbuf *b, const unsigned char *s, int n)
{
	for (int i = 0; i < n; i++)
		switch (s[i]) {
		case '\\': sb_puts(b, "\\\\"); break;
		case '\t': sb_puts(b, "\\t"); break;
		case '\n': sb_puts(b, "\\n"); break;
		case '\r': sb_puts(b, "\\r"); break;
		default: sb_putc(b, (char)s[i]);
		}
}

/* put_server_text(b, s, n): text in its server form (schema/fleet.h:
 * bytes that are not UTF-8 escaped), in COPY text form. */
static void put_server_text(struct strbuf *b, const char *s, int n)
{
	struct strbuf t = STRBUF_INIT;
	if (fleet_text_plain(s, (size_t)n)) {
		put_text(b, (const unsigned char *)s, n);
		return;
	}
	fleet_text_to_server(&t, s, (size_t)n);
	put_text(b, (const unsigned char *)sb_str(&t), (int)t.len);
	sb_free(&t);
}

/* put_int(b, v): v in decimal (a sample row is mostly integers: this is
 * the hot path of a push, and printf's is several times slower). */
static void put_int(struct strbuf *b, int64_t v)
{
	char buf[24], *e = buf + sizeof(buf), *p = e;
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--p = '-';
	sb_putn(b, p, (size_t)(e - p));
}

/* put_value(b, st, i, k, x): column i of the current row in COPY text
 * form, remapped when it is an id of key table k. */
static void put_value(struct strbuf *b, sqlite3_stmt *st, int i, enum fleet_key k, const struct xfer *x)
{
	static const char hex[] = "0123456789abcdef";
	int64_t v;
	double d;
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_NULL:
		sb_puts(b, "\\N");
		break;
	case SQLITE_INTEGER:
		v = sqlite3_column_int64(st, i);
		if (k != FK_NONE && !xfer_remap(x, k, v, &v))
			sb_puts(b, "\\N");
		else
			put_int(b, v);
		break;
	case SQLITE_FLOAT:
		d = sqlite3_column_double(st, i);
		if (isnan(d))
			sb_puts(b, "NaN");
		else if (isinf(d))
			sb_puts(b, d > 0 ? "Infinity" : "-Infinity");
		else
			sb_printf(b, "%.17g", d);
		break;
	case SQLITE_BLOB: {
		const unsigned char *q = sqlite3_column_blob(st, i);
		int n = sqlite3_column_bytes(st, i);
		sb_puts(b, "\\\\x");
		for (int j = 0; j < n; j++) {
			sb_putc(b, hex[q[j] >> 4]);
			sb_putc(b, hex[q[j] & 15]);
		}
		break;
	}
	default:
		put_server_text(b, (const char *)sqlite3_column_text(st, i), sqlite3_column_bytes(st, i));
	}
}

/* send(p, b, force): sends b's COPY text when it is large (or force). */
static int send(struct push *p, struct strbuf *b, bool force)
{
	if (!b->len || (!force && b->len < COPY_CHUNK))
		return 0;
	if (pq.putCopyData(p->c, b->p, (int)b->len) != 1) {
		char line[512];
		pg_error_line(p->c, line, sizeof(line));
		return errf(p->err, p->errlen, "sending rows: %s", line);
	}
	sb_reset(b);
	return 0;
}

/* copy_end(p, table): ends a COPY; 0, or -1 with the server's reason. */
static int copy_end(struct push *p, const char *table, bool ok)
{
	PGresult *r;
	int rc = 0;
	if (pq.putCopyEnd(p->c, ok ? NULL : "perfdb push stopped") != 1)
		rc = -1;
	while ((r = pq.getResult(p->c))) {
		if (pq.resultStatus(r) != PGRES_COMMAND_OK && ok && !rc) {
			char line[512];
			snprintf(line, sizeof(line), "%s", pq.resultErrorMessage(r));
			line[strcspn(line, "\n")] = 0;
			errf(p->err, p->errlen, "copying %s: %s", table, line);
			rc = -1;
		}
		pq.clear(r);
	}
	return ok ? rc : -1;
}

/* copy_table(p, t, target, id, x): the unit's rows of t into the server
 * table target with COPY. */
static int copy_table(struct push *p, const struct fleet_table *t, const char *target, int64_t id,
		      const struct xfer *x)
{
	char **cols, *sql;
	int n = xfer_columns(p->db, t->name, &cols), rc = 0;
	enum fleet_key keys[64];
	struct strbuf b = STRBUF_INIT, q = STRBUF_INIT;
	sqlite3_stmt *st;
	if (n <= 0 || n > 64)
		return xfer_columns_free(cols, n), n ? errf(p->err, p->errlen, "table %s: too many columns", t->name) : 0;
	sb_printf(&q, "COPY %s (", target);
	for (int i = 0; i < n; i++) {
		keys[i] = fleet_column_key(t->name, cols[i]);
		sb_printf(&q, "%s%s", i ? ", " : "", pg_quote_ident(cols[i]));
	}
	/* a partition made in this transaction takes frozen rows (no later
	 * vacuum pass over them) */
	sb_puts(&q, strcmp(target, t->name) ? ") FROM STDIN WITH (FREEZE)" : ") FROM STDIN");
	PGresult *r = pq.exec(p->c, sb_str(&q));
	if (pq.resultStatus(r) != PGRES_COPY_IN) {
		char line[512];
		snprintf(line, sizeof(line), "%s", pq.resultErrorMessage(r));
		line[strcspn(line, "\n")] = 0;
		pq.clear(r);
		sb_free(&q);
		xfer_columns_free(cols, n);
		return errf(p->err, p->errlen, "copying %s: %s", t->name, line);
	}
	pq.clear(r);
	sb_reset(&q);
	for (int i = 0; i < n; i++)
		sb_printf(&q, "%s\"%s\"", i ? ", " : "", cols[i]);
	sql = xasprintf("SELECT %s FROM %s WHERE %s%s", sb_str(&q), t->name, t->filter,
			xfer_has_key(p->db, t->name) ? "" : " ORDER BY rowid");
	st = db_prepare(p->db, sql);
	if (st)
		sqlite3_bind_int64(st, 1, id);
	while (st && !rc && sqlite3_step(st) == SQLITE_ROW) {
		for (int i = 0; i < n; i++) {
			if (i)
				sb_putc(&b, '\t');
			put_value(&b, st, i, keys[i], x);
		}
		sb_putc(&b, '\n');
		p->rows++;
		rc = send(p, &b, false);
	}
	rc = rc || !st || send(p, &b, true);
	rc = copy_end(p, t->name, !rc) || rc;
	sqlite3_finalize(st);
	free(sql);
	sb_free(&b);
	sb_free(&q);
	xfer_columns_free(cols, n);
	return rc ? -1 : 0;
}

/* Where a partitioned table's rows of the unit go: its partition's name,
 * its bounds (lo..hi inclusive) and the session its CHECK also names
 * (when the table has a session column). */
struct part {
	char name[96];
	const char *parent, *col, *session;
	int64_t lo, hi, sid;
};

/* partition_of(t, x, sid, pt): whether t is partitioned on the server
 * and the unit has rows for it; fills pt. */
static bool partition_of(const char *t, const struct xfer *x, int64_t sid, struct part *pt)
{
	enum fleet_key k;
	if (pg_table_partition(t, &pt->col, &pt->session) == PG_PART_NONE)
		return false;
	k = !strcmp(pt->col, "id") ? fleet_column_key(t, "id") : FK_SAMPLE;
	if (!x->has[k])
		return false;
	pt->lo = x->lo[k] + x->off[k];
	pt->hi = x->hi[k] + x->off[k];
	pt->sid = sid;
	snprintf(pt->name, sizeof(pt->name), "%s_s%" PRId64, t, sid);
	pt->parent = t;
	return true;
}

/* make_partition(p, t, pt): the partition as a table of its own, with
 * the check its bounds imply (so that attaching it needs no scan) and,
 * for a table with a session column, its session (so that the planner
 * leaves out the other partitions of a query on one session). */
static int make_partition(struct push *p, const char *t, const struct part *pt)
{
	char session[96] = "";
	if (pt->session)
		snprintf(session, sizeof(session), " AND %s = %" PRId64, pt->session, pt->sid);
	char *sql = xasprintf("CREATE TABLE %s (LIKE %s INCLUDING DEFAULTS, CHECK (%s IS NOT NULL "
			      "AND %s >= %" PRId64 " AND %s < %" PRId64 "%s))", pt->name, t, pt->col,
			      pt->col, pt->lo, pt->col, pt->hi + 1, session);
	int rc = pg_cmd(p->c, sql, p->err, p->errlen);
	free(sql);
	return rc;
}

/* attach_partition(p, pt): attaches the filled partition to its table. */
static int attach_partition(struct push *p, const struct part *pt)
{
	char *sql = xasprintf("ALTER TABLE %s ATTACH PARTITION %s FOR VALUES FROM (%" PRId64
			      ") TO (%" PRId64 ")", pt->parent, pt->name, pt->lo, pt->hi + 1);
	int rc = pg_cmd(p->c, sql, p->err, p->errlen);
	free(sql);
	return rc;
}

/* analyze(p, table): statistics of a new partition now (autovacuum gets
 * to it only later, and fleet queries right after a push would be
 * planned without them). */
static int analyze(struct push *p, const char *table)
{
	char *sql = xasprintf("ANALYZE %s", table);
	int rc = pg_cmd(p->c, sql, p->err, p->errlen);
	free(sql);
	return rc;
}

/* copy_unit(p, tables, nt, id, sid, x): every table of the unit (in the
 * open transaction), partitions made and attached. */
static int copy_unit(struct push *p, const struct fleet_table *tables, size_t nt, int64_t id,
		     int64_t sid, const struct xfer *x)
{
	struct part parts[8];
	int np = 0;
	for (size_t i = 0; i < nt; i++) {
		const char *t = tables[i].name;
		struct part pt;
		bool part;
		if (!strcmp(t, "kallsyms") && !p->o->with_kallsyms)
			continue;
		if (!db_has_table(p->db, t))
			continue;
		part = partition_of(t, x, sid, &pt) && np < 8;
		if (part && make_partition(p, t, &pt))
			return -1;
		if (copy_table(p, &tables[i], part ? pt.name : t, id, x))
			return -1;
		if (part)
			parts[np++] = pt;
	}
	for (int i = 0; i < np; i++)
		if (attach_partition(p, &parts[i]) || analyze(p, parts[i].name))
			return -1;
	return 0;
}

/* uid_of(p, key, sid): the server's session id of identity key (in its
 * server form: the server keeps md5 of that) into *sid (0: not there);
 * -1 on error. */
static int uid_of(struct push *p, const char *key, int64_t *sid)
{
	const char *params[] = { key };
	PGresult *r = pg_query(p->c, "SELECT session_id FROM perfdb_pushed WHERE uid = md5($1)", 1,
			       params, 1, p->err, p->errlen);
	int rc = r ? 0 : -1;
	*sid = 0;
	if (r && pq.ntuples(r) && (!pg_get_int(r, 0, 0, sid) || *sid < 1))
		rc = errf(p->err, p->errlen, "the server's perfdb_pushed has a session id that is not one");
	pq.clear(r);
	return rc;
}

/* pushed_before(p, v1, label, sid): the server's session id, into *sid
 * (0: none), of a session an earlier perfdb pushed (perfdb_pushed keeps
 * md5 of its identity without the label, fleet_identity_v1) with this
 * label; -1 on error. That perfdb pushed only valid UTF-8: other text
 * was never there. */
static int pushed_before(struct push *p, const char *v1, const struct strbuf *label, bool has_label,
			 int64_t *sid)
{
	struct strbuf l = STRBUF_INIT;
	const char *params[2] = { v1, NULL };
	PGresult *r;
	int rc = 0;
	*sid = 0;
	if (!fleet_text_plain(v1, strlen(v1)))
		return 0;
	if (has_label) {
		fleet_text_to_server(&l, sb_str(label), label->len);
		params[1] = sb_str(&l);
	}
	r = pg_query(p->c, "SELECT p.session_id FROM perfdb_pushed p JOIN session s ON "
		     "s.id = p.session_id WHERE p.uid = md5($1) AND s.label IS NOT DISTINCT FROM $2",
		     2, params, 1, p->err, p->errlen);
	if (!r)
		rc = -1;
	else if (pq.ntuples(r) && (!pg_get_int(r, 0, 0, sid) || *sid < 1))
		rc = errf(p->err, p->errlen, "the server's perfdb_pushed has a session id that is not one");
	pq.clear(r);
	sb_free(&l);
	return rc;
}

/* session_line(p, id, b, label, has_label): "session N (label L, host H)"
 * of a local session into b, its label into label. */
static void session_line(struct push *p, int64_t id, struct strbuf *b, struct strbuf *label,
			 bool *has_label)
{
	sqlite3_stmt *st = db_prepare(p->db, "SELECT label, hostname FROM session WHERE id = ?");
	*has_label = false;
	sb_printf(b, "session %" PRId64, id);
	if (st) {
		sqlite3_bind_int64(st, 1, id);
		if (sqlite3_step(st) == SQLITE_ROW) {
			if ((*has_label = sqlite3_column_type(st, 0) != SQLITE_NULL)) {
				sb_putn(label, (const char *)sqlite3_column_text(st, 0),
					(size_t)sqlite3_column_bytes(st, 0));
				sb_printf(b, " (label %s", sb_str(label));
			} else {
				sb_puts(b, " (no label");
			}
			sb_printf(b, ", host %s)", sqlite3_column_text(st, 1) ?
				  (const char *)sqlite3_column_text(st, 1) : "unknown");
		}
	}
	sqlite3_finalize(st);
}

/* rollback(p): ends the failed transaction; -1. */
static int rollback(struct push *p)
{
	pg_cmd(p->c, "ROLLBACK", NULL, 0);
	return -1;
}

/* The identity of a local session being pushed: its text in server form
 * (md5 of it is perfdb_pushed.uid), the text an earlier perfdb used, its
 * label, and the line naming it. */
struct ident {
	struct strbuf key, v1, label, what;
	bool has_label;
};

/* ident_of(p, id, s): the identity of local session id; -1 when there is
 * no such session. */
static int ident_of(struct push *p, int64_t id, struct ident *s)
{
	struct strbuf key = STRBUF_INIT;
	session_line(p, id, &s->what, &s->label, &s->has_label);
	if (xfer_local_identity(p->db, id, &key, &s->v1)) {
		sb_free(&key);
		return errf(p->err, p->errlen, "no session %" PRId64, id);
	}
	fleet_text_to_server(&s->key, sb_str(&key), key.len);
	sb_free(&key);
	return 0;
}

/* ident_free(s): what ident_of made. */
static void ident_free(struct ident *s)
{
	sb_free(&s->key);
	sb_free(&s->v1);
	sb_free(&s->label);
	sb_free(&s->what);
}

/* already_there(p, s, remote, out): whether the server has the session
 * (pushed by this perfdb or, with its label, by an earlier one): 1 after
 * saying so on out, with its server id in *remote; 0 if not; -1. */
static int already_there(struct push *p, const struct ident *s, int64_t *remote, FILE *out)
{
	bool before = false;
	if (uid_of(p, sb_str(&s->key), remote))
		return -1;
	if (!*remote) {
		if (pushed_before(p, sb_str(&s->v1), &s->label, s->has_label, remote))
			return -1;
		before = *remote != 0;
	}
	if (*remote)
		xfer_say(out, "%s: already on the server as session %" PRId64 "%s, not pushed again",
			 sb_str(&s->what), *remote, before ? " (pushed by an earlier perfdb, whose "
			 "identity of a session left out its label)" : "");
	return *remote ? 1 : 0;
}

/* send_session(p, id, s, x, remote, out): in one server transaction, the
 * session's identity row and every table it owns. 0 pushed, 1 when
 * another push of it committed meanwhile (said on out), -1. */
static int send_session(struct push *p, int64_t id, const struct ident *s, const struct xfer *x,
			int64_t *remote, FILE *out)
{
	char sid[32];
	const char *params[] = { sb_str(&s->key), sid };
	PGresult *r;
	bool raced;
	snprintf(sid, sizeof(sid), "%" PRId64, *remote);
	if (pg_cmd(p->c, "BEGIN", p->err, p->errlen))
		return -1;
	if (!(r = pg_exec(p->c, "INSERT INTO perfdb_pushed (uid, session_id) VALUES (md5($1), $2) "
			  "ON CONFLICT (uid) DO NOTHING", 2, params, p->err, p->errlen)))
		return rollback(p);
	raced = !strcmp(pq.cmdTuples(r), "0");
	pq.clear(r);
	if (raced) {	/* another push of the same session committed meanwhile */
		rollback(p);
		return already_there(p, s, remote, out) < 0 ? -1 : 1;
	}
	if (copy_unit(p, fleet_session_tables, fleet_nsession_tables, id, *remote, x) ||
	    pg_cmd(p->c, "COMMIT", p->err, p->errlen))
		return rollback(p);
	return 0;
}

/* push_session(p, id, remote, out): one local session, unless the server
 * has it; its server id into *remote. A failure names the session. */
static int push_session(struct push *p, int64_t id, int64_t *remote, FILE *out)
{
	struct ident s = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, false };
	struct xfer x = { 0 };
	double t0 = now_s(), dt;
	long long rows0 = p->rows;
	int rc = ident_of(p, id, &s);
	if (!rc)
		rc = already_there(p, &s, remote, out);	/* 1: there */
	if (rc)
		goto out;
	local_ranges(p, fleet_session_tables, fleet_nsession_tables, id, &x);
	rc = reserve(p, &x) ? -1 : 0;
	*remote = id + x.off[FK_SESSION];
	if (rc || (rc = send_session(p, id, &s, &x, remote, out)))
		goto out;	/* 1: another push of it committed meanwhile */
	dt = now_s() - t0;
	xfer_say(out, "%s: pushed as session %" PRId64 ", %lld rows in %.2f s (%.0f rows/s)",
		 sb_str(&s.what), *remote, p->rows - rows0, dt,
		 dt > 0 ? (double)(p->rows - rows0) / dt : 0);
out:
	if (rc < 0) {
		char why[1024];
		snprintf(why, sizeof(why), "%s", p->err);
		errf(p->err, p->errlen, "%s: %s (nothing of it is on the server)", s.what.len ? sb_str(&s.what) :
		     "a session", why);
	}
	ident_free(&s);
	return rc < 0 ? -1 : 0;
}

/* bench_sessions(p, bid, x): pushes the sessions bench bid's runs refer
 * to and fills x's session map with their server ids. */
static int bench_sessions(struct push *p, int64_t bid, struct xfer *x, int64_t **from, int64_t **to,
			  FILE *out)
{
	sqlite3_stmt *st = db_prepare(p->db, "SELECT DISTINCT session_id FROM bench_run WHERE "
				      "bench_id = ? AND session_id IS NOT NULL ORDER BY 1");
	size_t cap = 0, cap2 = 0;
	int rc = 0;
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, bid);
	while (!rc && sqlite3_step(st) == SQLITE_ROW) {
		int64_t local = sqlite3_column_int64(st, 0), remote = 0;
		struct strbuf key = STRBUF_INIT;
		if (xfer_local_identity(p->db, local, &key, NULL) == 0) {
			rc = push_session(p, local, &remote, out);
			ALLOC_GROW(*from, (size_t)x->nmap + 1, cap);
			ALLOC_GROW(*to, (size_t)x->nmap + 1, cap2);
			(*from)[x->nmap] = local;
			(*to)[x->nmap++] = remote;
		}
		sb_free(&key);
	}
	sqlite3_finalize(st);
	x->from = *from;
	x->to = *to;
	return rc;
}

/* A local bench: its label and boot id as stored here and in their server
 * form, its number of runs. */
struct bench_key {
	struct strbuf label, boot, slabel, sboot;
	long long runs;
};

/* bench_key_of(p, bid, k): the key of local bench bid; -1 when none. */
static int bench_key_of(struct push *p, int64_t bid, struct bench_key *k)
{
	sqlite3_stmt *st = db_prepare(p->db, "SELECT label, boot_id, (SELECT count(*) FROM bench_run "
				      "WHERE bench_id = b.id) FROM bench b WHERE id = ?");
	int rc = -1;
	if (!st)
		return errf(p->err, p->errlen, "cannot read bench %" PRId64 ": %s", bid, sqlite3_errmsg(p->db));
	sqlite3_bind_int64(st, 1, bid);
	if (sqlite3_step(st) == SQLITE_ROW) {
		sb_putn(&k->label, (const char *)sqlite3_column_text(st, 0),
			(size_t)sqlite3_column_bytes(st, 0));
		sb_putn(&k->boot, (const char *)sqlite3_column_text(st, 1),
			(size_t)sqlite3_column_bytes(st, 1));
		fleet_text_to_server(&k->slabel, sb_str(&k->label), k->label.len);
		fleet_text_to_server(&k->sboot, sb_str(&k->boot), k->boot.len);
		k->runs = sqlite3_column_int64(st, 2);
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc ? errf(p->err, p->errlen, "no bench %" PRId64, bid) : 0;
}

/* bench_key_free(k): what bench_key_of made. */
static void bench_key_free(struct bench_key *k)
{
	sb_free(&k->label);
	sb_free(&k->boot);
	sb_free(&k->slabel);
	sb_free(&k->sboot);
}

/* bench_there(p, k, out): whether the server has the bench (label, boot)
 * already: 1 after saying so on out, 0 if not, -1 on an error. */
static int bench_there(struct push *p, const struct bench_key *k, FILE *out)
{
	const char *params[] = { sb_str(&k->slabel), sb_str(&k->sboot) };
	PGresult *r = pg_query(p->c, "SELECT (SELECT count(*) FROM bench_run WHERE bench_id = b.id) "
			       "FROM bench b WHERE label = $1 AND boot_id = $2", 2, params, 1, p->err,
			       p->errlen);
	int64_t there;
	bool got;
	if (!r)
		return -1;
	got = pq.ntuples(r) > 0 && pg_get_int(r, 0, 0, &there);
	if (pq.ntuples(r) && !got) {
		pq.clear(r);
		return errf(p->err, p->errlen, "the server sent no count of the bench's runs");
	}
	pq.clear(r);
	if (!got)
		return 0;
	if (there == k->runs)
		xfer_say(out, "bench %s (boot %s): already on the server, not pushed again",
			 sb_str(&k->label), sb_str(&k->boot));
	else
		xfer_say(out, "bench %s (boot %s): on the server with %" PRId64 " runs, %lld here: left "
			 "as it is on the server (a bench that grew after its push is not merged)",
			 sb_str(&k->label), sb_str(&k->boot), there, k->runs);
	return 1;
}

/* lock_bench(p, k): in the open transaction, the lock that serializes
 * pushes of the same bench (the second then finds it there). */
static int lock_bench(struct push *p, const struct bench_key *k)
{
	const char *params[] = { sb_str(&k->slabel), sb_str(&k->sboot) };
	PGresult *r = pg_exec(p->c, "SELECT pg_advisory_xact_lock(hashtext('perfdb bench ' || $1 || "
			      "' ' || $2))", 2, params, p->err, p->errlen);
	pq.clear(r);
	return r ? 0 : -1;
}

/* send_bench(p, bid, k, x, out): ids reserved for x, then in one server
 * transaction the bench's tables: 0 pushed, 1 when another push of it committed meanwhile (said
 * on out), -1. */
static int send_bench(struct push *p, int64_t bid, const struct bench_key *k, struct xfer *x,
		      FILE *out)
{
	int rc = 0;
	if (reserve(p, x) || pg_cmd(p->c, "BEGIN", p->err, p->errlen))
		return -1;
	if (lock_bench(p, k) || (rc = bench_there(p, k, out))) {
		rollback(p);	/* another push of it committed meanwhile (rc 1), or an error */
		return rc > 0 ? 1 : -1;
	}
	if (copy_unit(p, fleet_bench_tables, fleet_nbench_tables, bid, 0, x) ||
	    pg_cmd(p->c, "COMMIT", p->err, p->errlen))
		return rollback(p);
	return 0;
}

/* push_bench(p, bid, out): one bench (with the sessions of its recorded
 * runs), unless the server has its label on that boot. */
static int push_bench(struct push *p, int64_t bid, FILE *out)
{
	struct bench_key k = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, 0 };
	struct xfer x = { 0 };
	int64_t *from = NULL, *to = NULL;
	long long rows0 = p->rows;
	int rc = bench_key_of(p, bid, &k);
	if (rc || (rc = bench_there(p, &k, out)))
		goto out;
	if ((rc = bench_sessions(p, bid, &x, &from, &to, out)))
		goto out;	/* the failing session's line names it */
	p->rows = rows0;
	local_ranges(p, fleet_bench_tables, fleet_nbench_tables, bid, &x);
	if ((rc = send_bench(p, bid, &k, &x, out)) < 0) {
		char why[1024];
		snprintf(why, sizeof(why), "%s", p->err);
		errf(p->err, p->errlen, "bench %s (boot %s): %s (nothing of it is on the server)", sb_str(&k.label),
		     sb_str(&k.boot), why);
	} else if (!rc) {
		xfer_say(out, "bench %s (boot %s): pushed as bench %" PRId64 ", %lld runs, %lld rows",
			 sb_str(&k.label), sb_str(&k.boot), bid + x.off[FK_BENCH], k.runs,
			 p->rows - rows0);
	}
out:
	bench_key_free(&k);
	free(from);
	free(to);
	return rc < 0 ? -1 : 0;
}

/* fleet_push: see fleet_push.h. */
int fleet_push(sqlite3 *db, PGconn *c, const int64_t *sids, int ns, const int64_t *bids, int nb,
	       const struct push_opts *o, FILE *out, char *err, size_t errlen)
{
	struct push p = { db, c, o, 0, err, errlen };
	int64_t remote;
	bool created;
	char why[512];
	if (pg_ensure_schema(c, true, &created, err, errlen))
		return -1;
	if (created && pg_jit_off(c, why, sizeof(why)))
		xfer_say(stderr, "perfdb push: warning: PostgreSQL's JIT stays on for this database "
			 "(%s): a query over many sessions may spend seconds compiling its plan, "
			 "one part per session; the database's owner can turn it off (ALTER "
			 "DATABASE ... SET jit = off)", why);
	for (int i = 0; i < ns; i++)
		if (push_session(&p, sids[i], &remote, out))
			return -1;
	for (int i = 0; i < nb; i++)
		if (push_bench(&p, bids[i], out))
			return -1;
	return 0;
}
