/* The PostgreSQL connection: see pg_conn.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "schema/db.h"
#include "schema/pg_conn.h"
#include "schema/pg_schema.h"

/* A key for the advisory lock that serializes schema creation. */
#define SCHEMA_LOCK "7405160001"

/* first_line(msg, err, errlen): msg up to its first newline, without
 * libpq's "ERROR:  " style prefix spacing changed. */
static void first_line(const char *msg, char *err, size_t errlen)
{
	size_t n = strcspn(msg ? msg : "", "\n");
	snprintf(err, errlen, "%.*s", (int)n, msg ? msg : "");
}

/* pg_error_line: see pg_conn.h. */
void pg_error_line(PGconn *c, char *err, size_t errlen)
{
	first_line(pq.errorMessage(c), err, errlen);
}

/* pg_check_conninfo: see pg_conn.h. */
int pg_check_conninfo(const char *conninfo, char *err, size_t errlen)
{
	char *why = NULL;
	PQconninfoOption *opts;
	int rc = 0;
	if (pg_lib_load(err, errlen))
		return -1;
	if (!(opts = pq.conninfoParse(conninfo, &why))) {
		char line[256];
		first_line(why ? why : "cannot parse it", line, sizeof(line));
		snprintf(err, errlen, "bad connection string: %s", line);
		pq.freemem(why);
		return -1;
	}
	for (PQconninfoOption *o = opts; o->keyword; o++)
		if (!strcmp(o->keyword, "password") && o->val && *o->val) {
			snprintf(err, errlen, "the connection string has a password: give it the libpq "
				 "ways instead (a ~/.pgpass or PGPASSFILE line, a service file), not on "
				 "the command line");
			rc = -1;
		}
	pq.conninfoFree(opts);
	return rc;
}

/* pg_connect: see pg_conn.h. */
PGconn *pg_connect(const char *conninfo, char *err, size_t errlen)
{
	char line[512];
	PGconn *c;
	if (pg_check_conninfo(conninfo, err, errlen))
		return NULL;
	c = pq.connectdb(conninfo);
	if (!c || pq.status(c) != CONNECTION_OK) {
		if (c)
			pg_error_line(c, line, sizeof(line));
		snprintf(err, errlen, "cannot connect to the server: %s", c ? line : "out of memory");
		pq.finish(c);
		return NULL;
	}
	pq.setClientEncoding(c, "UTF8");
	return c;
}

/* pg_close: see pg_conn.h. */
void pg_close(PGconn *c)
{
	if (c)
		pq.finish(c);
}

/* pg_exec: see pg_conn.h. */
PGresult *pg_exec(PGconn *c, const char *sql, int n, const char *const *params, char *err,
		  size_t errlen)
{
	PGresult *r = pq.execParams(c, sql, n, NULL, params, NULL, NULL, 0);
	ExecStatusType s = pq.resultStatus(r);
	if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK)
		return r;
	first_line(r ? pq.resultErrorMessage(r) : pq.errorMessage(c), err, errlen);
	pq.clear(r);
	return NULL;
}

/* pg_query: see pg_conn.h. */
PGresult *pg_query(PGconn *c, const char *sql, int n, const char *const *params, int ncols,
		   char *err, size_t errlen)
{
	PGresult *r = pg_exec(c, sql, n, params, err, errlen);
	if (r && pq.nfields(r) != ncols) {
		snprintf(err, errlen, "the server answered with %d columns where %d were asked",
			 pq.nfields(r), ncols);
		pq.clear(r);
		return NULL;
	}
	return r;
}

/* in_result(r, row, col): whether r has that cell. */
static bool in_result(const PGresult *r, int row, int col)
{
	return row >= 0 && col >= 0 && row < pq.ntuples(r) && col < pq.nfields(r);
}

/* pg_get_int: see pg_conn.h. */
bool pg_get_int(const PGresult *r, int row, int col, int64_t *v)
{
	const char *s = pg_get_text(r, row, col);
	char *end;
	long long n;
	if (!s || !((*s >= '0' && *s <= '9') || (*s == '-' && s[1] >= '0' && s[1] <= '9')))
		return false;
	errno = 0;
	n = strtoll(s, &end, 10);
	if (errno || *end)
		return false;
	*v = n;
	return true;
}

/* pg_get_text: see pg_conn.h. */
const char *pg_get_text(const PGresult *r, int row, int col)
{
	if (!r || !in_result(r, row, col) || pq.getisnull(r, row, col))
		return NULL;
	return pq.getvalue(r, row, col);
}

/* pg_cmd: see pg_conn.h. */
int pg_cmd(PGconn *c, const char *sql, char *err, size_t errlen)
{
	PGresult *r = pq.exec(c, sql);
	ExecStatusType s = pq.resultStatus(r);
	if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK) {
		pq.clear(r);
		return 0;
	}
	first_line(r ? pq.resultErrorMessage(r) : pq.errorMessage(c), err, errlen);
	pq.clear(r);
	return -1;
}

/* server_version(c, err, errlen): the schema version of the server
 * database, 0 when it has no perfdb schema, -1 on error. */
static int server_version(PGconn *c, char *err, size_t errlen)
{
	PGresult *r = pg_query(c, "SELECT to_regclass('perfdb_meta') IS NOT NULL", 0, NULL, 1, err,
			       errlen);
	int64_t v = -1;
	const char *has;
	if (!r)
		return -1;
	has = pg_get_text(r, 0, 0);
	v = has && !strcmp(has, "t") ? 1 : has && !strcmp(has, "f") ? 0 : -1;
	pq.clear(r);
	if (v <= 0) {
		if (v < 0)
			snprintf(err, errlen, "the server said neither yes nor no");
		return (int)v;
	}
	v = -1;
	if ((r = pg_query(c, "SELECT max(schema_version) FROM perfdb_meta", 0, NULL, 1, err,
			  errlen))) {
		if (!pg_get_int(r, 0, 0, &v) || v < 1 || v > 1000000) {
			snprintf(err, errlen, "perfdb_meta holds no schema version");
			v = -1;
		}
		pq.clear(r);
	}
	return (int)v;
}

/* range_layout(c, err, errlen): 0 when the server's sample table is
 * partitioned by range (this layout), -1 with the reason otherwise (a
 * database made by an earlier perfdb of the same schema version, whose
 * sample was partitioned by list of session ids). */
static int range_layout(PGconn *c, char *err, size_t errlen)
{
	PGresult *r = pg_query(c, "SELECT partstrat FROM pg_partitioned_table WHERE partrelid = "
			       "to_regclass('sample')", 0, NULL, 1, err, errlen);
	const char *strat;
	int rc = -1;
	if (!r)
		return -1;
	if (pq.ntuples(r) == 1 && (strat = pg_get_text(r, 0, 0)) && !strcmp(strat, "r"))
		rc = 0;
	else
		snprintf(err, errlen, "the server database's sample table is not partitioned by "
			 "range of ids (an earlier perfdb's layout): use a new database");
	pq.clear(r);
	return rc;
}

/* pg_jit_off: see pg_conn.h. */
int pg_jit_off(PGconn *c, char *err, size_t errlen)
{
	return pg_cmd(c, "DO $$BEGIN EXECUTE format('ALTER DATABASE %I SET jit = off', "
		      "current_database()); END$$", err, errlen);
}

/* pg_ensure_schema: see pg_conn.h. */
int pg_ensure_schema(PGconn *c, bool create, bool *created, char *err, size_t errlen)
{
	char why[512];
	if (created)
		*created = false;
	int v = server_version(c, why, sizeof(why));
	if (v == 0 && create) {
		char *ddl = pg_schema_ddl();
		int bad = pg_cmd(c, "BEGIN", why, sizeof(why)) ||
			  pg_cmd(c, "SELECT pg_advisory_xact_lock(" SCHEMA_LOCK ")", why, sizeof(why));
		if (!bad && (v = server_version(c, why, sizeof(why))) == 0) {	/* not made meanwhile */
			bad = pg_cmd(c, ddl, why, sizeof(why));
			if (created)
				*created = !bad;
		}
		bad = bad || pg_cmd(c, "COMMIT", why, sizeof(why));
		free(ddl);
		if (bad) {
			pg_cmd(c, "ROLLBACK", NULL, 0);
			snprintf(err, errlen, "cannot create perfdb's schema on the server: %s", why);
			return -1;
		}
		v = server_version(c, why, sizeof(why));
	}
	if (v < 0)
		snprintf(err, errlen, "cannot read the server's perfdb schema version: %s", why);
	else if (v == 0)
		snprintf(err, errlen, "the server database has no perfdb schema (perfdb push makes it)");
	else if (v != PERFDB_SCHEMA_VERSION)
		snprintf(err, errlen, "the server database has perfdb schema version %d, this perfdb "
			 "uses %d", v, PERFDB_SCHEMA_VERSION);
	else if (range_layout(c, err, errlen))
		return -1;
	return v == PERFDB_SCHEMA_VERSION ? 0 : -1;
}
