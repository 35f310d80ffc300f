/* libFuzzer harness: one perf.data file through the whole import
 * (collect/import/ingest.h: reader, tracing data, threads, maps, symbols,
 * callchains, tracepoint tables) into an in-memory database whose schema
 * is made once per process: the sessions of successful imports pile up
 * (64 at most: then the empty database's image is restored, which costs
 * SQLite a new read of the schema), a failed import must leave the
 * database as it was (checked: no open transaction, the same number of
 * sessions). Tracing data is parsed in
 * process (PD_VET_INPROCESS: behind perfdb's own format checks, no fork),
 * kernel symbols come from a small fixed kallsyms text, and the layouts
 * step (describe) is not run. */
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>
#include "collect/import/ingest.h"
#include "collect/perfdata/perf_data.h"
#include "schema/db.h"
#include "tests/fuzz/memfile.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static sqlite3 *db;
static unsigned char *image;	/* the empty database, serialized */
static sqlite3_int64 image_len;
static const char *kallsyms;
static int nr_sessions;		/* in db now */

static const char kallsyms_text[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81001000 T do_syscall_64\n"
	"ffffffff81002000 t native_flush_tlb_one_user\n"
	"ffffffff81003000 T schedule\n"
	"ffffffff82000000 D init_mm\n"
	"ffffffff83000000 T _etext\n"
	"ffffffffc0000000 t mod_fn\t[mod]\n";

/* must: aborts (a harness failure) unless rc is SQLITE_OK. */
static void must(int rc)
{
	if (rc != SQLITE_OK)
		abort();
}

/* restore: makes db the empty database again. */
static void restore(void)
{
	unsigned char *copy = sqlite3_malloc64((sqlite3_uint64)image_len);
	if (!copy)
		abort();
	memcpy(copy, image, (size_t)image_len);
	must(sqlite3_deserialize(db, "main", copy, image_len, image_len,
				 SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE));
}

/* sessions: how many sessions db holds. */
static int sessions(void)
{
	sqlite3_stmt *st;
	int n = -1;
	must(sqlite3_prepare_v2(db, "SELECT count(*) FROM session", -1, &st, NULL));
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char sql[64];
	(void)argc;
	(void)argv;
	fuzz_quiet();
	pd_set_tracing_vet(PD_VET_INPROCESS);
	kallsyms = memfile_path(1, (const uint8_t *)kallsyms_text, sizeof(kallsyms_text) - 1);
	must(sqlite3_open(":memory:", &db));
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", PERFDB_SCHEMA_VERSION);
	must(sqlite3_exec(db, perfdb_schema_sql, NULL, NULL, NULL));
	must(sqlite3_exec(db, perfdb_index_sql, NULL, NULL, NULL));
	must(sqlite3_exec(db, sql, NULL, NULL, NULL));
	image = sqlite3_serialize(db, "main", &image_len, 0);
	if (!image)
		abort();
	restore();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ingest_opts o = { .label = "fuzz", .kallsyms = kallsyms };
	char err[1024];
	int64_t id;
	if (ingest_file(db, memfile_path(0, data, size), &o, &id, err, sizeof(err)) == 0) {
		if (++nr_sessions == 64) {
			restore();
			nr_sessions = 0;
		}
		return 0;
	}
	/* a failed import leaves the database as it was */
	if (!sqlite3_get_autocommit(db) || sessions() != nr_sessions)
		abort();
	return 0;
}
