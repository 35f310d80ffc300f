/* libFuzzer harness: perfdb pull's row decoder (collect/fleet/fleet_rows.h)
 * on a server result made of the input, as a FETCH of one table would
 * bring it, into that table of an in-memory database of perfdb's schema
 * (made once per process; each input's rows rolled back). The input:
 *   u8 table (an index into the session's tables, then the bench's);
 *   u8 n, then n times: u8 key table, i64 lo, i64 hi (the unit's server
 *     ids of that key table, given to xfer_set_range as pull does);
 *   u8 n, then n times: i64 event id, u8 which of f1..f7 are text;
 *   u16 columns, then each: u32 type oid, u8 format;
 *   u16 rows, then each value: i32 length (negative: NULL), its bytes;
 * all big-endian, as PostgreSQL's binary format is. A bench table's runs
 * map server sessions 10 and 11 to local 1 and 2. What must hold: no
 * crash, leak or undefined behaviour; on success as many rows stored as
 * decoded, every stored id a local id the unit's range gives (next free
 * id .. + hi - lo) or a session the bench's map gives, and the stored ids
 * of each column the input's, moved; every text value comes back from its
 * server form unchanged. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>
#include "collect/fleet/fleet_rows.h"
#include "lib/strbuf.h"
#include "schema/db.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_COLS 64
#define MAX_ROWS 64
#define MAX_EVENTS 8

static sqlite3 *db;

/* A result read from the input. */
struct input {
	const uint8_t *p;
	size_t left;
	int nrows, ncols;
	unsigned oid[MAX_COLS];
	int format[MAX_COLS];
	const char *val[MAX_ROWS][MAX_COLS];
	int len[MAX_ROWS][MAX_COLS];
};

/* must: aborts (a harness failure) unless rc is SQLITE_OK. */
static void must(int rc)
{
	if (rc != SQLITE_OK)
		abort();
}

/* take(in, n): the next n bytes of the input, or NULL when it has fewer. */
static const uint8_t *take(struct input *in, size_t n)
{
	const uint8_t *p = in->p;
	if (in->left < n)
		return NULL;
	in->p += n;
	in->left -= n;
	return p;
}

/* be(in, n, v): the next n-byte big-endian integer into *v. */
static int be(struct input *in, size_t n, uint64_t *v)
{
	const uint8_t *p = take(in, n);
	if (!p)
		return -1;
	*v = 0;
	for (size_t i = 0; i < n; i++)
		*v = *v << 8 | p[i];
	return 0;
}

/* ranges(in, x): the key ranges of the input into x. */
static void ranges(struct input *in, struct xfer *x)
{
	uint64_t n, k, lo, hi;
	if (be(in, 1, &n))
		return;
	for (uint64_t i = 0; i < n && !be(in, 1, &k) && !be(in, 8, &lo) && !be(in, 8, &hi); i++) {
		enum fleet_key key = (enum fleet_key)(k % FK_N);
		if (!x->has[key])
			xfer_set_range(x, key, (int64_t)lo, (int64_t)hi,
				       db_next_id(db, fleet_key_table[key]));
	}
}

/* events(in, ev): the events of the input; their number. */
static size_t events(struct input *in, struct evtype *ev)
{
	uint64_t n, id, flags;
	size_t m = 0;
	if (be(in, 1, &n))
		return 0;
	for (; m < n && m < MAX_EVENTS && !be(in, 8, &id) && !be(in, 1, &flags); m++) {
		ev[m].id = (int64_t)id;
		for (int j = 0; j < 7; j++)
			ev[m].text[j] = flags >> j & 1;
	}
	return m;
}

/* result(in): the columns and rows of the input (rows end where it does). */
static void result(struct input *in)
{
	uint64_t v, oid, fmt;
	in->ncols = in->nrows = 0;
	if (be(in, 2, &v))
		return;
	for (uint64_t i = 0; i < v && in->ncols < MAX_COLS && !be(in, 4, &oid) && !be(in, 1, &fmt); i++) {
		in->oid[in->ncols] = (unsigned)oid;
		in->format[in->ncols++] = (int)fmt;
	}
	if (be(in, 2, &v))
		return;
	for (uint64_t r = 0; r < v && r < MAX_ROWS; r++) {
		for (int c = 0; c < in->ncols; c++) {
			uint64_t len;
			const uint8_t *bytes = NULL;
			if (be(in, 4, &len) || ((int32_t)len >= 0 && !(bytes = take(in, (uint32_t)len))))
				return;
			in->val[r][c] = (const char *)bytes;
			in->len[r][c] = (int32_t)len < 0 ? 0 : (int)len;
		}
		in->nrows++;
	}
}

/* in_column, in_value: struct rows_in over struct input. */
static void in_column(const void *src, int col, unsigned *oid, int *format)
{
	const struct input *in = src;
	*oid = in->oid[col];
	*format = in->format[col];
}

static const char *in_value(const void *src, int row, int col, int *len)
{
	const struct input *in = src;
	*len = in->len[row][col];
	return in->val[row][col];
}

/* text_round_trip(in): every value of the input, as local text, comes
 * back from its server form unchanged. */
static void text_round_trip(const struct input *in)
{
	for (int r = 0; r < in->nrows; r++)
		for (int c = 0; c < in->ncols; c++) {
			struct strbuf to = STRBUF_INIT, back = STRBUF_INIT;
			size_t n = (size_t)in->len[r][c];
			if (!in->val[r][c])
				continue;
			fleet_text_to_server(&to, in->val[r][c], n);
			fleet_text_from_server(&back, sb_str(&to), to.len);
			if (back.len != n || memcmp(sb_str(&back), in->val[r][c], n) ||
			    fleet_text_plain(in->val[r][c], n) != (to.len == n))
				abort();
			sb_free(&to);
			sb_free(&back);
		}
}

/* count(sql): the integer sql gives. */
static int64_t count(const char *sql)
{
	sqlite3_stmt *st;
	int64_t n = -1;
	must(sqlite3_prepare_v2(db, sql, -1, &st, NULL));
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

/* in_range(s, x, c, sql, n): the query counting the rows whose id in
 * column c is not one the unit's range (or a bench's map) gives. */
static void in_range(const struct rows_spec *s, const struct xfer *x, int c, char *sql, size_t n)
{
	enum fleet_key k = s->keys[c];
	if (k == FK_SESSION && !x->has[FK_SESSION])
		snprintf(sql, n, "SELECT count(*) FROM %s WHERE \"%s\" NOT IN (1, 2)", s->table,
			 s->cols[c]);
	else if (x->has[k])
		snprintf(sql, n, "SELECT count(*) FROM %s WHERE \"%s\" NOT BETWEEN %lld AND %lld",
			 s->table, s->cols[c], (long long)(x->lo[k] + x->off[k]),
			 (long long)(x->hi[k] + x->off[k]));
	else
		snprintf(sql, n, "SELECT count(*) FROM %s WHERE \"%s\" IS NOT NULL", s->table,
			 s->cols[c]);
}

/* cmp_i64: ascending int64_t for qsort. */
static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* moved(in, x, k, r, c, v): the local id the input's value at r, c
 * becomes (its server id moved by the unit's offset, or through a bench's
 * map); false for NULL (or a session the map lacks). */
static bool moved(const struct input *in, const struct xfer *x, enum fleet_key k, int r, int c,
		  int64_t *v)
{
	const uint8_t *p = (const uint8_t *)in->val[r][c];
	uint64_t u = 0;
	int n = in->len[r][c];
	if (!p)
		return false;
	for (int i = 0; i < n; i++)
		u = u << 8 | p[i];
	*v = n == 2 ? (int16_t)u : n == 4 ? (int32_t)u : (int64_t)u;
	if (k != FK_SESSION || x->has[FK_SESSION]) {
		*v = (int64_t)((uint64_t)*v + (uint64_t)x->off[k]);
		return true;
	}
	for (int i = 0; i < x->nmap; i++)
		if (x->from[i] == *v)
			return *v = x->to[i], true;
	return false;
}

/* same_ids(s, x, in, c): the ids stored in column c are the input's,
 * moved (as a multiset: a NULL key made into a rowid is caught). */
static void same_ids(const struct rows_spec *s, const struct xfer *x, const struct input *in, int c)
{
	int64_t want[MAX_ROWS], v;
	int nwant = 0, i = 0;
	char sql[256];
	sqlite3_stmt *st;
	for (int r = 0; r < in->nrows; r++)
		if (moved(in, x, s->keys[c], r, c, &v))
			want[nwant++] = v;
	qsort(want, (size_t)nwant, sizeof(*want), cmp_i64);
	snprintf(sql, sizeof(sql), "SELECT \"%s\" FROM %s WHERE \"%s\" IS NOT NULL ORDER BY 1",
		 s->cols[c], s->table, s->cols[c]);
	must(sqlite3_prepare_v2(db, sql, -1, &st, NULL));
	for (; sqlite3_step(st) == SQLITE_ROW; i++)
		if (i >= nwant || sqlite3_column_int64(st, 0) != want[i])
			abort();
	sqlite3_finalize(st);
	if (i != nwant)
		abort();
}

/* check_ids(s, x, in): every id stored in the table is one the unit's
 * ranges (or a bench's map) give, and they are the input's. */
static void check_ids(const struct rows_spec *s, const struct xfer *x, const struct input *in)
{
	for (int c = 0; c < s->ncols; c++) {
		char sql[256];
		if (s->keys[c] == FK_NONE)
			continue;
		in_range(s, x, c, sql, sizeof(sql));
		if (count(sql) != 0)
			abort();
		same_ids(s, x, in, c);
	}
}

/* table_of(i): the table the input's first byte names. */
static const char *table_of(unsigned i)
{
	size_t n = fleet_nsession_tables + fleet_nbench_tables;
	i %= (unsigned)n;
	return i < fleet_nsession_tables ? fleet_session_tables[i].name
					 : fleet_bench_tables[i - fleet_nsession_tables].name;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	must(sqlite3_open(":memory:", &db));
	must(sqlite3_exec(db, perfdb_schema_sql, NULL, NULL, NULL));
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int64_t from[] = { 10, 11 }, to[] = { 1, 2 };
	struct input *in = calloc(1, sizeof(*in));
	struct xfer x = { .from = from, .to = to, .nmap = 2 };
	struct evtype ev[MAX_EVENTS];
	struct rows_spec s;
	struct batch *b;
	char err[512] = "", sql[128];
	long n;
	if (!in || !size)
		return free(in), 0;
	*in = (struct input){ .p = data + 1, .left = size - 1 };
	rows_spec_make(db, table_of(data[0]), &s);
	ranges(in, &x);
	s.ev = ev;
	s.nev = events(in, ev);
	result(in);
	text_round_trip(in);
	must(sqlite3_exec(db, "BEGIN", NULL, NULL, NULL));
	if (!(b = batch_new(db, NULL, s.table, (const char *const *)s.cols, s.ncols)))
		abort();
	n = rows_store(&s, &(struct rows_in){ .src = in, .nrows = in->nrows, .ncols = in->ncols,
					      .column = in_column, .value = in_value },
		       &x, b, err, sizeof(err));
	if (n >= 0 && batch_flush(b) == 0) {
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", s.table);
		if (n != in->nrows || count(sql) != n)
			abort();
		check_ids(&s, &x, in);
	} else if (n < 0 && !err[0]) {
		abort();	/* a refusal says why */
	}
	batch_free(b);
	must(sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL));
	rows_spec_free(&s);
	free(in);
	return 0;
}
