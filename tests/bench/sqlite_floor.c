/* The SQLite floor of tests/bench/import.sh: how fast SQLite itself can
 * insert the rows a `perfdb import` stored. Not part of perfdb, and none
 * of its code: it reads every table of a database perfdb made (SELECT *,
 * timed apart and left out of the figure), chunk by chunk into memory, and
 * inserts the same rows (same tables, columns and values) into a fresh
 * file as fast as it was found to go: prepared multi-row INSERT statements
 * (256 rows each), one transaction, no indexes, a parameter bound again
 * only when its value changed (a reset keeps bindings), an INTEGER PRIMARY
 * KEY holding 1..n left to SQLite (max + 1: the same ids, without the
 * uniqueness probe), and the settings perfdb uses for a database it
 * creates (16 KiB pages, synchronous = OFF, a connection without mutexes,
 * a 32 MiB page cache, the rollback journal). It prints one line:
 *   rows=N insert_ms=W insert_cpu_ms=C read_ms=R
 * insert_ms: wall time of creating the tables, inserting every row and
 * committing; read_ms: reading the source (not in insert_ms).
 * Usage: sqlite_floor [--rows N] [--journal MODE] [--cache-kb K] SRC DST
 *   --rows N      rows per INSERT statement (default 256, among the fastest
 *                 tried on the sample table; 1 is one row a statement)
 *   --journal M   journal_mode (default: SQLite's, DELETE, which perfdb
 *                 needs to roll a failed import back; OFF cannot)
 *   --cache-kb K  page cache size in KiB (default 32768, perfdb's)
 * Exit status 0, 1 on any error (one line on stderr). */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Rows read from the source per chunk: inserted before the next is read,
 * so memory stays bounded whatever the table's size. */
#define CHUNK_ROWS 65536

/* One value of a chunk: its SQLite type and an integer, a double, or
 * len bytes of text or blob at off in the chunk's arena. */
struct val {
	int type;
	uint32_t len;
	union {
		int64_t i;
		double d;
		size_t off;
	} u;
};

struct chunk {
	struct val *v;		/* CHUNK_ROWS * ncols */
	int ncols;
	size_t nrows;
	int done;		/* the SELECT has returned its last row */
	char *arena;
	size_t used, cap;
};

/* Wall and CPU time spent inserting, and reading, in ns. */
struct clocks {
	uint64_t insert_wall, insert_cpu, read_wall;
};

struct opts {
	int rows;
	const char *journal;
	long cache_kb;
};

static void die(const char *what, sqlite3 *db)
{
	fprintf(stderr, "sqlite_floor: %s%s%s\n", what, db ? ": " : "", db ? sqlite3_errmsg(db) : "");
	exit(1);
}

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		die("out of memory", NULL);
	return q;
}

/* now_ns: the clock's time in ns. */
static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;
	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* exec: runs sql on db or dies. */
static void exec(sqlite3 *db, const char *sql)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		die(sql, db);
}

/* prepare: the statement of sql on db, or dies. */
static sqlite3_stmt *prepare(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		die(sql, db);
	return st;
}

/* keep_bytes: a copy of n bytes in the chunk's arena; their offset. */
static size_t keep_bytes(struct chunk *c, const void *p, size_t n)
{
	size_t off = c->used;
	if (c->used + n > c->cap) {
		c->cap = 2 * (c->used + n) + 4096;
		c->arena = xrealloc(c->arena, c->cap);
	}
	if (n)
		memcpy(c->arena + off, p, n);
	c->used += n;
	return off;
}

/* read_value: column col of sel's current row into v. */
static void read_value(sqlite3_stmt *sel, int col, struct chunk *c, struct val *v)
{
	const void *p;
	v->type = sqlite3_column_type(sel, col);
	switch (v->type) {
	case SQLITE_INTEGER:
		v->u.i = sqlite3_column_int64(sel, col);
		break;
	case SQLITE_FLOAT:
		v->u.d = sqlite3_column_double(sel, col);
		break;
	case SQLITE_TEXT:
	case SQLITE_BLOB:
		p = v->type == SQLITE_TEXT ? (const void *)sqlite3_column_text(sel, col) :
					     sqlite3_column_blob(sel, col);
		v->len = (uint32_t)sqlite3_column_bytes(sel, col);
		v->u.off = keep_bytes(c, p, v->len);
		break;
	default:
		break;
	}
}

/* read_chunk: up to CHUNK_ROWS rows of sel into c; false at the end (a
 * step after SQLITE_DONE would start the SELECT again). */
static int read_chunk(sqlite3 *src, sqlite3_stmt *sel, struct chunk *c)
{
	int rc = SQLITE_ROW;
	c->nrows = 0;
	c->used = 0;
	while (!c->done && c->nrows < CHUNK_ROWS && (rc = sqlite3_step(sel)) == SQLITE_ROW) {
		struct val *row = c->v + c->nrows * (size_t)c->ncols;
		for (int k = 0; k < c->ncols; k++)
			read_value(sel, k, c, &row[k]);
		c->nrows++;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		die("reading the source", src);
	c->done = rc == SQLITE_DONE;
	return c->nrows > 0;
}

/* bind_value: v to parameter p of st (text and blobs from the arena,
 * which outlives the step). */
static void bind_value(sqlite3_stmt *st, int p, const struct val *v, const struct chunk *c)
{
	switch (v->type) {
	case SQLITE_INTEGER:
		sqlite3_bind_int64(st, p, v->u.i);
		break;
	case SQLITE_FLOAT:
		sqlite3_bind_double(st, p, v->u.d);
		break;
	case SQLITE_TEXT:
		sqlite3_bind_text(st, p, c->arena + v->u.off, (int)v->len, SQLITE_STATIC);
		break;
	case SQLITE_BLOB:
		sqlite3_bind_blob(st, p, c->arena + v->u.off, (int)v->len, SQLITE_STATIC);
		break;
	default:
		sqlite3_bind_null(st, p);
	}
}

/* An insert statement with what its parameters have bound: a reset keeps
 * the bindings, so a value equal to the one bound before (the session,
 * the event, NULLs, most tracepoint fields) is not bound again. */
struct ins {
	sqlite3_stmt *st;
	int nparams;
	struct val *bound;	/* nparams; type -1: nothing known */
	const char **text;	/* nparams: the bytes a text/blob slot points to */
};

/* same_value: whether v is what slot p of s already has bound. */
static int same_value(const struct ins *s, int p, const struct val *v, const struct chunk *c)
{
	const struct val *b = &s->bound[p];
	if (b->type != v->type)
		return 0;
	if (v->type == SQLITE_INTEGER)
		return b->u.i == v->u.i;
	if (v->type == SQLITE_NULL)
		return 1;
	if (v->type == SQLITE_TEXT || v->type == SQLITE_BLOB)
		return b->len == v->len && !memcmp(s->text[p], c->arena + v->u.off, v->len);
	return 0;
}

/* run_rows: binds n rows of c from row first to s and runs it once. */
static void run_rows(sqlite3 *dst, struct ins *s, const struct chunk *c, size_t first, int n)
{
	const struct val *v = c->v + first * (size_t)c->ncols;
	for (int k = 0; k < n * c->ncols; k++) {
		if (same_value(s, k, &v[k], c))
			continue;
		bind_value(s->st, k + 1, &v[k], c);
		s->bound[k] = v[k];
		s->text[k] = c->arena + v[k].u.off;
	}
	if (sqlite3_step(s->st) != SQLITE_DONE)
		die("insert", dst);
	sqlite3_reset(s->st);
}

/* forget_text: what s has bound from an arena about to be overwritten. */
static void forget_text(struct ins *s)
{
	for (int p = 0; s && p < s->nparams; p++)
		if (s->bound[p].type == SQLITE_TEXT || s->bound[p].type == SQLITE_BLOB)
			s->bound[p].type = -1;
}

/* insert_chunk: every row of c, rows at a time through many and the
 * rest one at a time through one. */
static void insert_chunk(sqlite3 *dst, struct ins *many, struct ins *one,
			 int rows, const struct chunk *c)
{
	size_t r = 0;
	for (; many && r + (size_t)rows <= c->nrows; r += (size_t)rows)
		run_rows(dst, many, c, r, rows);
	for (; r < c->nrows; r++)
		run_rows(dst, one, c, r, 1);
}

/* insert_sql: INSERT INTO "t"(cols) VALUES (?,..) with rows rows of
 * ncols. */
static char *insert_sql(const char *table, const char *cols, int ncols, int rows)
{
	size_t cap = strlen(table) + strlen(cols) + 64 + (size_t)rows * ((size_t)ncols * 2 + 3);
	char *sql = xrealloc(NULL, cap), *p = sql;
	p += sprintf(p, "INSERT INTO \"%s\"(%s) VALUES ", table, cols);
	for (int r = 0; r < rows; r++) {
		*p++ = r ? ',' : ' ';
		*p++ = '(';
		for (int k = 0; k < ncols; k++)
			p += sprintf(p, k ? ",?" : "?");
		*p++ = ')';
	}
	*p = 0;
	return sql;
}

/* ins_new: the insert of rows rows into table on dst, or NULL when that
 * many rows would pass SQLite's limit on parameters. ins_free frees it. */
static struct ins *ins_new(sqlite3 *dst, const char *table, const char *cols, int ncols, int rows)
{
	struct ins *s;
	char *sql;
	if ((long)rows * ncols > sqlite3_limit(dst, SQLITE_LIMIT_VARIABLE_NUMBER, -1))
		return NULL;
	s = xrealloc(NULL, sizeof(*s));
	s->nparams = rows * ncols;
	s->bound = xrealloc(NULL, (size_t)s->nparams * sizeof(*s->bound));
	s->text = xrealloc(NULL, (size_t)s->nparams * sizeof(*s->text));
	for (int p = 0; p < s->nparams; p++)
		s->bound[p].type = -1;
	sql = insert_sql(table, cols, ncols, rows);
	s->st = prepare(dst, sql);
	free(sql);
	return s;
}

static void ins_free(struct ins *s)
{
	if (!s)
		return;
	sqlite3_finalize(s->st);
	free(s->bound);
	free(s->text);
	free(s);
}

/* rowid_is_max_plus_1: whether the INTEGER PRIMARY KEY of src's table
 * holds 1..n in rowid order, so that SQLite gives every row the same id
 * when the insert leaves it out (max + 1). */
static int rowid_is_max_plus_1(sqlite3 *src, const char *table)
{
	char sql[512];
	sqlite3_stmt *st;
	int yes;
	snprintf(sql, sizeof(sql), "SELECT min(rowid) = 1 AND max(rowid) = count(*) FROM \"%s\"", table);
	st = prepare(src, sql);
	yes = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 1;
	sqlite3_finalize(st);
	return yes;
}

/* column_list: the quoted columns of src's table, ","-separated, into
 * buf; their count. An INTEGER PRIMARY KEY (the rowid) is left out when
 * the insert gives every row the same id without it. */
static int column_list(sqlite3 *src, const char *table, char *buf, size_t len)
{
	char sql[512];
	sqlite3_stmt *st;
	int n = 0, pks = 0, ipk = -1;
	size_t used = 0;
	snprintf(sql, sizeof(sql), "SELECT count(*), max(CASE WHEN pk = 1 AND upper(type) = 'INTEGER' "
		 "THEN cid END) FROM pragma_table_info('%s') WHERE pk > 0", table);
	st = prepare(src, sql);
	if (sqlite3_step(st) == SQLITE_ROW && (pks = sqlite3_column_int(st, 0)) == 1 &&
	    sqlite3_column_type(st, 1) == SQLITE_INTEGER && rowid_is_max_plus_1(src, table))
		ipk = sqlite3_column_int(st, 1);
	sqlite3_finalize(st);
	snprintf(sql, sizeof(sql), "SELECT cid, name FROM pragma_table_info('%s') ORDER BY cid", table);
	st = prepare(src, sql);
	buf[0] = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (sqlite3_column_int(st, 0) == ipk)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s\"%s\"", n++ ? "," : "",
					 (const char *)sqlite3_column_text(st, 1));
		if (used >= len)
			die("too many columns", NULL);
	}
	sqlite3_finalize(st);
	return n;
}

/* add_insert_time: the wall and CPU time since w and u to t's insert clocks. */
static void add_insert_time(struct clocks *t, uint64_t w, uint64_t u)
{
	t->insert_wall += now_ns(CLOCK_MONOTONIC) - w;
	t->insert_cpu += now_ns(CLOCK_PROCESS_CPUTIME_ID) - u;
}

/* copy_table: every row of src's table into dst's; its row count. */
static size_t copy_table(sqlite3 *src, sqlite3 *dst, const char *table, const struct opts *o,
			 struct clocks *t)
{
	char cols[8192], sql[8192 + 512];
	struct chunk c = { 0 };
	struct ins *many, *one;
	sqlite3_stmt *sel;
	uint64_t w, u;
	size_t total = 0;
	c.ncols = column_list(src, table, cols, sizeof(cols));
	snprintf(sql, sizeof(sql), "SELECT %s FROM \"%s\"", cols, table);
	sel = prepare(src, sql);
	c.v = xrealloc(NULL, (size_t)CHUNK_ROWS * (size_t)c.ncols * sizeof(*c.v));
	w = now_ns(CLOCK_MONOTONIC), u = now_ns(CLOCK_PROCESS_CPUTIME_ID);
	many = o->rows > 1 ? ins_new(dst, table, cols, c.ncols, o->rows) : NULL;
	one = ins_new(dst, table, cols, c.ncols, 1);
	add_insert_time(t, w, u);
	for (;;) {
		w = now_ns(CLOCK_MONOTONIC);
		int more = read_chunk(src, sel, &c);
		t->read_wall += now_ns(CLOCK_MONOTONIC) - w;
		if (!more)
			break;
		w = now_ns(CLOCK_MONOTONIC), u = now_ns(CLOCK_PROCESS_CPUTIME_ID);
		forget_text(many);
		forget_text(one);
		insert_chunk(dst, many, one, o->rows, &c);
		add_insert_time(t, w, u);
		total += c.nrows;
	}
	sqlite3_finalize(sel);
	ins_free(many);
	ins_free(one);
	free(c.v);
	free(c.arena);
	return total;
}

/* create_tables: dst gets every table of src (their CREATE TABLE
 * statements as stored: the same columns, types and primary keys; no
 * indexes, views or triggers), in one transaction the caller ends. */
static void create_tables(sqlite3 *src, sqlite3 *dst)
{
	sqlite3_stmt *st = prepare(src, "SELECT sql FROM sqlite_master WHERE type = 'table' "
				   "AND name NOT LIKE 'sqlite_%' ORDER BY rowid");
	while (sqlite3_step(st) == SQLITE_ROW)
		exec(dst, (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
}

/* open_dst: the fresh destination database with the pragmas of o. */
static sqlite3 *open_dst(const char *path, const struct opts *o)
{
	sqlite3 *db;
	char sql[128];
	remove(path);
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK)
		die(path, db);
	exec(db, "PRAGMA page_size = 16384; PRAGMA synchronous = OFF; PRAGMA foreign_keys = OFF");
	snprintf(sql, sizeof(sql), "PRAGMA cache_size = -%ld", o->cache_kb);
	exec(db, sql);
	if (o->journal) {
		snprintf(sql, sizeof(sql), "PRAGMA journal_mode = %s", o->journal);
		exec(db, sql);
	}
	return db;
}

/* copy_all: every table with rows from src into the fresh dst, one
 * transaction; the rows copied. */
static size_t copy_all(sqlite3 *src, sqlite3 *dst, const struct opts *o, struct clocks *t)
{
	sqlite3_stmt *st = prepare(src, "SELECT name FROM sqlite_master WHERE type = 'table' "
				   "AND name NOT LIKE 'sqlite_%' ORDER BY rowid");
	uint64_t w = now_ns(CLOCK_MONOTONIC), u = now_ns(CLOCK_PROCESS_CPUTIME_ID);
	size_t rows = 0;
	exec(dst, "BEGIN");
	create_tables(src, dst);
	add_insert_time(t, w, u);
	while (sqlite3_step(st) == SQLITE_ROW)
		rows += copy_table(src, dst, (const char *)sqlite3_column_text(st, 0), o, t);
	sqlite3_finalize(st);
	w = now_ns(CLOCK_MONOTONIC), u = now_ns(CLOCK_PROCESS_CPUTIME_ID);
	exec(dst, "COMMIT");
	if (sqlite3_close(dst) != SQLITE_OK)
		die("close", dst);
	add_insert_time(t, w, u);
	return rows;
}

/* parse: the options; argv[*i] is the first operand after. */
static struct opts parse(int argc, char **argv, int *i)
{
	struct opts o = { 256, NULL, 32768 };
	for (*i = 1; *i + 1 < argc && !strncmp(argv[*i], "--", 2); *i += 2) {
		if (!strcmp(argv[*i], "--rows"))
			o.rows = atoi(argv[*i + 1]);
		else if (!strcmp(argv[*i], "--journal"))
			o.journal = argv[*i + 1];
		else if (!strcmp(argv[*i], "--cache-kb"))
			o.cache_kb = atol(argv[*i + 1]);
		else
			break;
	}
	if (*i + 2 != argc || o.rows < 1 || o.cache_kb < 1) {
		fprintf(stderr, "usage: sqlite_floor [--rows N] [--journal MODE] [--cache-kb K] SRC DST\n");
		exit(1);
	}
	return o;
}

int main(int argc, char **argv)
{
	struct clocks t = { 0 };
	sqlite3 *src, *dst;
	int i;
	struct opts o = parse(argc, argv, &i);
	size_t rows;
	if (sqlite3_open_v2(argv[i], &src, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		die(argv[i], src);
	exec(src, "PRAGMA cache_size = -65536");
	dst = open_dst(argv[i + 1], &o);
	rows = copy_all(src, dst, &o, &t);
	sqlite3_close(src);
	printf("rows=%zu insert_ms=%.0f insert_cpu_ms=%.0f read_ms=%.0f\n", rows,
	       (double)t.insert_wall / 1e6, (double)t.insert_cpu / 1e6, (double)t.read_wall / 1e6);
	return 0;
}
