/* Unit tests of the schema and the import's write path: the typed views of
 * schema/tracepoints.sql against collect/import/tracepoints.c's specs (names,
 * order, and which sample.fN each column reads), and batched writes
 * (schema/batch.c + sqlq.c) that skip re-binding unchanged values, with
 * and without the writer thread. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sqlite3.h>
#include "schema/batch.h"
#include "schema/db.h"
#include "schema/sqlq.h"
#include "collect/import/tracepoints.h"
#include "tap.h"
#include <traceevent/event-parse.h>

/* view_columns: the column names of a table or view, in order. */
static int view_columns(sqlite3 *db, const char *name, char cols[][64], int max)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT name FROM pragma_table_info(?)");
	int n = 0;
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW && n < max)
		snprintf(cols[n++], 64, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return n;
}

/* is_view: whether name is a view of the database. */
static bool is_view(sqlite3 *db, const char *name)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT 1 FROM sqlite_master WHERE type = 'view' AND name = ?");
	bool yes = false;
	if (st) {
		sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
		yes = sqlite3_step(st) == SQLITE_ROW;
	}
	sqlite3_finalize(st);
	return yes;
}

/* same_columns: whether the spec's columns are the view's, in order. */
static bool same_columns(char a[][64], int na, char b[][64], int nb)
{
	if (na != nb)
		return false;
	for (int i = 0; i < na; i++)
		if (strcmp(a[i], b[i]))
			return false;
	return true;
}

/* field_order: a sample whose fN holds "fN", read through the view:
 * column k (after sample_id) must read fk. */
static bool field_order(sqlite3 *db, const char *view, int ncols, int64_t *event)
{
	char sql[256];
	sqlite3_stmt *st;
	bool good;
	snprintf(sql, sizeof(sql), "INSERT INTO event(id, session_id, idx, name, tp_table) "
		 "VALUES (%lld, 1, 0, 'x', '%s')", (long long)++*event, view);
	if (db_exec(db, sql, NULL, 0))
		return false;
	snprintf(sql, sizeof(sql), "INSERT INTO sample(id, session_id, event_id, f1, f2, f3, f4, "
		 "f5, f6, f7) VALUES (%lld, 1, %lld, 'f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7')",
		 (long long)*event, (long long)*event);
	if (db_exec(db, sql, NULL, 0))
		return false;
	snprintf(sql, sizeof(sql), "SELECT * FROM %s WHERE sample_id = %lld", view, (long long)*event);
	if (!(st = db_prepare(db, sql)))
		return false;
	good = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int64(st, 0) == *event;
	for (int k = 1; good && k < ncols; k++) {
		char want[16];
		snprintf(want, sizeof(want), "f%d", k);
		good = sqlite3_column_text(st, k) && !strcmp((const char *)sqlite3_column_text(st, k), want);
	}
	good = good && sqlite3_step(st) == SQLITE_DONE;
	sqlite3_finalize(st);
	return good;
}

static void test_typed_views(sqlite3 *db)
{
	char want[2 * TP_FIELD_COLS + 2][64], got[2 * TP_FIELD_COLS + 2][64];
	const char *table;
	int64_t event = 100;
	int nspecs = 0;
	for (size_t i = 0;; i++) {
		int n = tp_spec_columns(i, &table, want, 2 * TP_FIELD_COLS + 2), m;
		if (n < 0)
			break;
		nspecs++;
		m = view_columns(db, table, got, 2 * TP_FIELD_COLS + 2);
		ok(same_columns(want, n, got, m), "%s: the schema's columns are the spec's (%d, %d)",
		   table, n, m);
		if (!strcmp(table, "ipi_send_cpumask")) {
			ok(!is_view(db, table), "ipi_send_cpumask is a table (a row per target CPU)");
			continue;
		}
		ok(is_view(db, table) && n - 1 <= TP_FIELD_COLS, "%s is a view of at most %d fields",
		   table, TP_FIELD_COLS);
		ok(field_order(db, table, n, &event), "%s: column k reads sample.fk", table);
	}
	ok(nspecs >= 22, "every typed tracepoint has a spec (%d)", nspecs);
	ok(field_order(db, "tracepoint", 2, &event), "the generic view reads its JSON from f1");
	ok(db_exec(db, "SELECT count(*) FROM sched_switch s JOIN sample x ON x.id = s.sample_id "
		   "WHERE s.sample_id < 0", NULL, 0) == 0, "a typed view joins its sample");
}

/* row_values: row r's values: a = NULL, 5, text "x0"/"x1", 2.5 or a blob
 * of r % 3 bytes (0 1 2; none is an empty blob) in turn (so a slot changes
 * kind between batches), b = 7 always, c = r. */
static void row_values(struct batch *b, int r)
{
	static const unsigned char bytes[] = { 0, 1, 2 };
	char s[8];
	if (r % 5 == 1) {
		batch_int(b, 0, 5);
	} else if (r % 5 == 2) {
		snprintf(s, sizeof(s), "x%d", r % 2);
		batch_text(b, 0, s);
	} else if (r % 5 == 3) {
		batch_real(b, 0, 2.5);
	} else if (r % 5 == 4) {
		batch_blob(b, 0, bytes, (size_t)(r % 3));
	}
	batch_int(b, 1, 7);
	batch_int(b, 2, r);
}

/* a_right: whether column 0 of st (a, typeof(a), ...) is what
 * row_values wrote as row r's a. */
static bool a_right(sqlite3_stmt *st, int r)
{
	static const unsigned char bytes[] = { 0, 1, 2 };
	const char *type = (const char *)sqlite3_column_text(st, 1);
	char s[8];
	snprintf(s, sizeof(s), "x%d", r % 2);
	switch (r % 5) {
	case 0: return !strcmp(type, "null");
	case 1: return !strcmp(type, "integer") && sqlite3_column_int(st, 0) == 5;
	case 2: return !strcmp(type, "text") && !strcmp((const char *)sqlite3_column_text(st, 0), s);
	case 3: return !strcmp(type, "real") && sqlite3_column_double(st, 0) == 2.5;
	default:
		return !strcmp(type, "blob") && sqlite3_column_bytes(st, 0) == r % 3 &&
		       (r % 3 == 0 || !memcmp(sqlite3_column_blob(st, 0), bytes, (size_t)(r % 3)));
	}
}

/* rows_right: whether t holds exactly the n rows row_values wrote. */
static bool rows_right(sqlite3 *db, int n)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT a, typeof(a), b, c FROM t ORDER BY rowid");
	int r = 0;
	bool good = st != NULL;
	while (good && sqlite3_step(st) == SQLITE_ROW) {
		good = a_right(st, r) && sqlite3_column_int(st, 2) == 7 &&
		       sqlite3_column_int(st, 3) == r;
		if (!good)
			printf("# row %d wrong (a is %s)\n", r, (const char *)sqlite3_column_text(st, 1));
		r++;
	}
	sqlite3_finalize(st);
	return good && r == n;
}

/* write_rows: n rows through a batch (with a writer thread or not),
 * flushed once in the middle too (after a partial batch, before a row
 * whose a is NULL: it must not keep what the slot held). */
static bool write_rows(sqlite3 *db, bool threaded, int n)
{
	static const char *const cols[] = { "a", "b", "c" };
	struct sqlq *q = threaded ? sqlq_new() : NULL;
	struct batch *b = batch_new(db, q, "t", cols, 3);
	char err[256] = "";
	bool good = b && (q || !threaded);
	for (int r = 0; good && r < n; r++) {
		row_values(b, r);
		good = !batch_row(b) && (r != 299 || !batch_flush(b));
	}
	good = good && !batch_flush(b) && !sqlq_drain(q, err, sizeof(err));
	sqlq_free(q);
	batch_free(b);
	return good;
}

static void test_batches(sqlite3 *db)
{
	const int n = 3 * 256 + 7;	/* full batches, with slots changing kind, and a tail */
	for (int threaded = 0; threaded < 2; threaded++) {
		db_exec(db, "DROP TABLE IF EXISTS t; CREATE TABLE t(a, b, c)", NULL, 0);
		ok(write_rows(db, threaded, n), "%d rows written %s", n,
		   threaded ? "by the writer thread" : "synchronously");
		ok(rows_right(db, n), "every value as written, unchanged values not bound again (%s)",
		   threaded ? "threaded" : "synchronous");
	}
}

/* no_ksym: a tp_ctx symbol callback that knows no symbol. */
static const char *no_ksym(void *ctx, uint64_t addr, bool with_offset, char *buf, size_t len)
{
	(void)ctx, (void)addr, (void)with_offset, (void)buf, (void)len;
	return NULL;
}

/* generic_json(name_len, out, cap): the generic view's JSON for one
 * sample of a tracepoint (no typed view) whose int field has a name of
 * name_len characters, whose char[16] field holds a quote, a backslash
 * and a newline, and whose unsigned long args[2] holds {3, 0x7f00}. false
 * when a step fails. */
static bool generic_json(sqlite3 *db, size_t name_len, char *out, size_t cap)
{
	static const char *const cols[] = { "j" };
	char *fmt = malloc(name_len + 1024), err[256];
	struct tep_handle *tep = tep_alloc();
	struct tp_ctx ctx = { NULL, no_ksym };
	uint8_t raw[48] = { 0x84, 0x03 };	/* common_type 900 */
	struct batch *b = NULL;
	struct tp_sink *k = NULL;
	struct tep_event *ev = NULL;
	sqlite3_stmt *st;
	bool good = false;
	int n;
	if (!fmt || !tep)
		goto out;
	n = sprintf(fmt, "name: weird\nID: 900\nformat:\n"
		    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n\tfield:int ");
	memset(fmt + n, 'a', name_len);
	sprintf(fmt + n + name_len, ";\toffset:8;\tsize:4;\tsigned:1;\n"
		"\tfield:char s[16];\toffset:12;\tsize:16;\tsigned:0;\n"
		"\tfield:unsigned long args[2];\toffset:32;\tsize:16;\tsigned:0;\n\n"
		"print fmt: \"%%d\", REC->common_pid\n");
	raw[8] = 7;
	memcpy(raw + 12, "q\"\\\n", 4);
	raw[32] = 3;
	raw[41] = 0x7f;		/* args = { 3, 0x7f00 } */
	db_exec(db, "DROP TABLE IF EXISTS tj; CREATE TABLE tj(j)", NULL, 0);
	if (tep_parse_format(tep, &ev, fmt, strlen(fmt), "testsys") ||
	    !(b = batch_new(db, NULL, "tj", cols, 1)) ||
	    !(k = tp_sink_new(db, NULL, tep, 900, b, 0)) ||
	    tp_sink_insert(k, &ctx, 1, raw, sizeof(raw), err, sizeof(err)) || batch_row(b) ||
	    batch_flush(b) || !(st = db_prepare(db, "SELECT json_valid(j), j FROM tj")))
		goto out;
	if (sqlite3_step(st) == SQLITE_ROW) {
		good = sqlite3_column_int(st, 0) == 1;
		snprintf(out, cap, "%s", (const char *)sqlite3_column_text(st, 1));
	}
	sqlite3_finalize(st);
out:
	tp_sink_free(k);
	batch_free(b);
	tep_free(tep);
	free(fmt);
	return good;
}

static void test_generic_json(sqlite3 *db)
{
	char json[8192] = "";
	ok(generic_json(db, 5, json, sizeof(json)), "generic view: valid JSON (%s)", json);
	ok(strstr(json, "\"aaaaa\":7") && strstr(json, "\"s\":\"q\\\"\\\\\\u000a\""),
	   "generic view: the int, and the string escaped");
	ok(strstr(json, "\"args\":[3,32512]") != NULL, "generic view: an array field as a JSON array");
	bool valid = generic_json(db, 5000, json, sizeof(json));
	ok(valid, "generic view: a 5000-character field name stays inside the buffer, the JSON "
	   "valid (%zu bytes)", strlen(json));
	ok(strlen(json) < 4096 && strstr(json, "\"aaaa") && strstr(json, "\"s\":"),
	   "generic view: the long name cut, the other field still there");
}

/* synchronous(db): the connection's PRAGMA synchronous, or -1. */
static int synchronous(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	int v = -1;
	if (sqlite3_prepare_v2(db, "PRAGMA synchronous", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* test_durability(dir): db_open makes a new file's schema without fsyncs
 * but hands the connection back with SQLite's durability, as it does for
 * a file that exists. */
static void test_durability(const char *dir)
{
	char path[PATH_MAX], err[512] = "";
	sqlite3 *plain = NULL, *db;
	int want;
	sqlite3_open(":memory:", &plain);
	want = synchronous(plain);
	sqlite3_close(plain);
	snprintf(path, sizeof(path), "%s/d.db", dir);
	if (ok((db = db_open(path, true, err, sizeof(err))) != NULL, "durability: a new file: %s", err)) {
		is_int(synchronous(db), want, "durability: a new file's connection has SQLite's synchronous");
		db_close(db);
	}
	if (ok((db = db_open(path, true, err, sizeof(err))) != NULL, "durability: the file again: %s", err)) {
		is_int(synchronous(db), want, "durability: an existing file's connection too");
		db_close(db);
	}
	remove(path);
}

int main(void)
{
	char dir[] = "/tmp/perfdb-schema-XXXXXX", path[PATH_MAX], err[512] = "";
	sqlite3 *db;
	if (!mkdtemp(dir)) {
		ok(0, "a temporary directory");
		return tap_done();
	}
	snprintf(path, sizeof(path), "%s/s.db", dir);
	if (ok((db = db_open(path, true, err, sizeof(err))) != NULL, "a fresh database: %s", err)) {
		db_exec(db, "INSERT INTO session(id) VALUES (1)", NULL, 0);
		test_typed_views(db);
		test_batches(db);
		test_generic_json(db);
		sqlite3_close(db);
	}
	remove(path);
	test_durability(dir);
	rmdir(dir);
	return tap_done();
}
