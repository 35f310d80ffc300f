/* The perfdb database: opening it, creating, checking or upgrading the
 * schema (migrate.c), holding the file, picking sessions. The statement
 * helpers every module uses, migrate.c too, are db_stmt.c's. */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/alloc.h"
#include "lib/prog.h"
#include "lib/strbuf.h"
#include "schema/db.h"
#include "schema/db_check.h"
#include "schema/migrate.h"

/* probe_int(db, sql): the integer sql gives, or -1 when it cannot run (a
 * file that is not a database: bad input, not an internal error). */
static int probe_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int v = -1;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* user_version: the database's PRAGMA user_version, or -1. */
static int user_version(sqlite3 *db)
{
	return probe_int(db, "PRAGMA user_version");
}

/* read_state(db, v, n): the user_version and the number of tables and
 * views, read in one statement (one read transaction: never one from
 * before another process's schema commit and one from after). */
static void read_state(sqlite3 *db, int *v, int *n)
{
	sqlite3_stmt *st = NULL;
	*v = *n = -1;
	if (sqlite3_prepare_v2(db, "SELECT (SELECT user_version FROM pragma_user_version), "
			       "(SELECT count(*) FROM sqlite_master)", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW) {
		*v = sqlite3_column_int(st, 0);
		*n = sqlite3_column_int(st, 1);
	}
	sqlite3_finalize(st);
}

/* table_count: how many tables and views the database has, or -1. */
static int table_count(sqlite3 *db)
{
	return probe_int(db, "SELECT count(*) FROM sqlite_master");
}

/* create_schema: creates every table and view of a database that is still
 * empty, with 16 KiB pages (a bulk import writes ~10% faster than with 4
 * KiB ones), in an immediate transaction: of several processes creating
 * one database at once, the first creates the schema and the others,
 * waiting for its lock, find it made. */
static int create_schema(sqlite3 *db, char *err, size_t errlen)
{
	char sql[64];
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", PERFDB_SCHEMA_VERSION);
	/* Before the transaction: the page size is fixed once one begins. */
	if (db_exec(db, "PRAGMA page_size = 16384", err, errlen) ||
	    db_exec(db, "BEGIN IMMEDIATE", err, errlen))
		return -1;
	if (user_version(db) != 0 || table_count(db) != 0)	/* made meanwhile */
		return db_exec(db, "COMMIT", err, errlen);
	if (db_exec(db, perfdb_schema_sql, err, errlen) ||
	    db_exec(db, perfdb_index_sql, err, errlen) ||
	    db_exec(db, sql, err, errlen)) {
		db_exec(db, "ROLLBACK", NULL, 0);
		return -1;
	}
	return db_exec(db, "COMMIT", err, errlen);
}

/* check_schema: creates the schema of an empty database, or checks that an
 * existing one is a perfdb database of this version. */
static int check_schema(sqlite3 *db, const char *path, char *err, size_t errlen)
{
	int v, n;
	char why[256];
	read_state(db, &v, &n);
	if (v < 0 || n < 0) {
		snprintf(err, errlen, "%s: not an SQLite database", path);
		return -1;
	}
	if (v == 0 && n == 0) {
		if (create_schema(db, why, sizeof(why))) {
			snprintf(err, errlen, "%s: cannot create schema: %s", path, why);
			return -1;
		}
		read_state(db, &v, &n);	/* ours, or the one another process made */
	}
	if (v == 0) {
		snprintf(err, errlen, "%s: not a perfdb database (it has tables but no perfdb schema version)", path);
		return -1;
	}
	if (v >= PERFDB_MIGRATE_FROM && v < PERFDB_SCHEMA_VERSION) {
		if (db_migrate(db, v, why, sizeof(why))) {
			snprintf(err, errlen, "%s: %s", path, why);
			return -1;
		}
		return db_check_complete(db, path, err, errlen);
	}
	if (v != PERFDB_SCHEMA_VERSION) {
		snprintf(err, errlen, "%s: database has perfdb schema version %d, this perfdb uses %d%s",
			 path, v, PERFDB_SCHEMA_VERSION, v > PERFDB_SCHEMA_VERSION ?
			 " (a newer perfdb made it)" : " and cannot upgrade it");
		return -1;
	}
	return db_check_complete(db, path, err, errlen);
}

/* file_kind(path, must_exist, err, errlen): 0 for a file that may be an
 * SQLite database (or, unless must_exist, a missing or empty one that
 * becomes one); -1 with the reason in err for a directory, a perf.data
 * recording, anything but a regular file, or a missing or empty file
 * when must_exist. */
static int file_kind(const char *path, bool must_exist, char *err, size_t errlen)
{
	struct stat st;
	char head[16] = { 0 };
	size_t n = 0;
	FILE *f;
	if (stat(path, &st)) {
		if (!must_exist && errno == ENOENT)
			return 0;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: is a directory, not a perfdb database", path);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {	/* a FIFO would block the open below */
		snprintf(err, errlen, "%s: not a regular file, not a perfdb database", path);
		return -1;
	}
	if ((f = fopen(path, "rb"))) {
		n = fread(head, 1, sizeof(head), f);
		fclose(f);
	}
	if (n == 0 && must_exist) {
		snprintf(err, errlen, "%s: empty file, not a perfdb database", path);
		return -1;
	}
	if (n >= 8 && (!memcmp(head, "PERFILE2", 8) || !memcmp(head, "2ELIFREP", 8) ||
		       !memcmp(head, "PERFFILE", 8))) {
		snprintf(err, errlen, "%s: a perf.data recording, not a perfdb database; import it "
			 "with: perfdb import -o perfdb.db %s", path, path);
		return -1;
	}
	return 0;
}

/* How long a writer waits for another one (an import of millions of
 * samples takes seconds; several queue up), and a reader for a commit. */
#define WRITER_BUSY_MS (10 * 60 * 1000)
#define READER_BUSY_MS (2 * 60 * 1000)

/* The writers' holds: each connection db_open made keeps a shared flock
 * on its file, so that db_remove_if_unused never removes a database
 * another process is writing to. */
static struct hold {
	sqlite3 *db;
	int fd;
	bool created;
} holds[8];

/* create_private(path): creates path empty with mode 0600 whatever the
 * umask (it will hold kernel addresses). 1 created, 0 it existed, -1. */
static int create_private(const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return errno == EEXIST ? 0 : -1;
	if (fchmod(fd, 0600)) {
		int e = errno;
		close(fd);
		unlink(path);
		errno = e;
		return -1;
	}
	close(fd);
	return 1;
}

/* hold_file(path, create, created): a descriptor of path holding a shared
 * flock, checked to still be the file at path (a db_remove_if_unused may
 * have removed it meanwhile: then it is made again). -1 with errno. */
static int hold_file(const char *path, bool create, bool *created)
{
	for (int tries = 0; tries < 100; tries++) {
		struct stat a, b;
		int made = create ? create_private(path) : 0, fd;
		if (made < 0 || (fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
			return -1;
		*created |= made > 0;
		if (flock(fd, LOCK_SH) == 0 && fstat(fd, &a) == 0 && stat(path, &b) == 0 &&
		    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			return fd;
		close(fd);
		if (!create) {
			errno = ENOENT;
			return -1;
		}
	}
	errno = EAGAIN;
	return -1;
}

/* remember(db, fd, created): db's hold (released by db_close). */
static void remember(sqlite3 *db, int fd, bool created)
{
	struct hold *free_slot = NULL;
	for (size_t i = 0; i < sizeof(holds) / sizeof(*holds); i++) {
		if (holds[i].db == db) {	/* a stale entry (closed without db_close) */
			close(holds[i].fd);
			holds[i].db = NULL;
		}
		if (!holds[i].db && !free_slot)
			free_slot = &holds[i];
	}
	if (free_slot)
		*free_slot = (struct hold){ db, fd, created };
	else
		close(fd);	/* no room: no hold (never more than a few connections) */
}

/* find_hold(db): db's hold, or NULL. */
static struct hold *find_hold(sqlite3 *db)
{
	for (size_t i = 0; db && i < sizeof(holds) / sizeof(*holds); i++)
		if (holds[i].db == db)
			return &holds[i];
	return NULL;
}

/* warn_readable(path): one warning when others than the owner may read
 * the database (it was not made by perfdb, or was chmod'ed since). */
static void warn_readable(const char *path)
{
	struct stat st;
	if (stat(path, &st) || !(st.st_mode & (S_IRGRP | S_IROTH)))
		return;
	eprintf("warning: %s is readable by %s (mode %04o); it holds kernel "
		"addresses (each session's kallsyms snapshot, i.e. the recording boot's KASLR "
		"base, and kernel pointers in samples): chmod 600 %s\n", path,
		st.st_mode & S_IROTH ? "other users" : "its group", (unsigned)(st.st_mode & 07777), path);
}

/* schema_of_new_file: check_schema; in a file this call made (nothing in
 * it a crash could lose: at worst an empty database is left to remove),
 * without waiting for the disk: its three fsyncs can take tens of ms
 * while the disk writes back a recording just made. */
static int schema_of_new_file(sqlite3 *db, const char *path, bool created,
			      char *err, size_t errlen)
{
	int sync = created ? probe_int(db, "PRAGMA synchronous") : -1, rc;
	char sql[48];
	if (sync >= 0)
		db_exec(db, "PRAGMA synchronous = OFF", NULL, 0);
	rc = check_schema(db, path, err, errlen);
	if (sync >= 0) {
		snprintf(sql, sizeof(sql), "PRAGMA synchronous = %d", sync);
		db_exec(db, sql, NULL, 0);
	}
	return rc;
}

/* db_open: see db.h. */
sqlite3 *db_open(const char *path, bool create, char *err, size_t errlen)
{
	sqlite3 *db = NULL;
	bool created = false;
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, fd;
	if (!create && access(path, F_OK)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (file_kind(path, !create, err, errlen))	/* refused before anything is created */
		return NULL;
	if ((fd = hold_file(path, create, &created)) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", path, db ? sqlite3_errmsg(db) : "cannot open");
		goto fail;
	}
	/* SQLite opens a file it may not write read-only without a word: say
	 * so now, before a verb that writes does anything (or, with nothing
	 * to store, succeeds on a database it could not have changed). */
	if (sqlite3_db_readonly(db, "main") == 1) {
		snprintf(err, errlen, "%s: cannot write to it: the file or its file system is read-only",
			 path);
		goto fail;
	}
	sqlite3_busy_timeout(db, WRITER_BUSY_MS);
	if (schema_of_new_file(db, path, created, err, errlen))
		goto fail;
	db_exec(db, "PRAGMA foreign_keys = OFF; PRAGMA cache_size = -32768;"
		    "PRAGMA temp_store = MEMORY", NULL, 0);
	if (!created)
		warn_readable(path);
	remember(db, fd, created);
	return db;
fail:
	sqlite3_close(db);
	close(fd);
	if (created)
		db_remove_if_unused(path);
	return NULL;
}

/* db_created: see db.h. */
bool db_created(sqlite3 *db)
{
	struct hold *h = find_hold(db);
	return h && h->created;
}

/* db_close: see db.h. */
void db_close(sqlite3 *db)
{
	struct hold *h = find_hold(db);
	sqlite3_close(db);
	if (h) {
		close(h->fd);
		h->db = NULL;
	}
}

/* holds_nothing(path): whether the database at path has no session and
 * no bench (only the schema, or not even that). */
static bool holds_nothing(const char *path)
{
	sqlite3 *db = NULL;
	bool empty = false;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
		sqlite3_busy_timeout(db, READER_BUSY_MS);
		empty = table_count(db) == 0 ||
			(probe_int(db, "SELECT count(*) FROM session") == 0 &&
			 probe_int(db, "SELECT count(*) FROM bench") == 0);
	}
	sqlite3_close(db);
	return empty;
}

/* db_remove_if_unused: see db.h. */
bool db_remove_if_unused(const char *path)
{
	char j[PATH_MAX + 16];
	bool removed = false;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	if (flock(fd, LOCK_EX | LOCK_NB) == 0 && holds_nothing(path)) {
		snprintf(j, sizeof(j), "%s-journal", path);
		if (access(j, F_OK))	/* a journal: a writer died mid-way, leave it */
			removed = unlink(path) == 0;
	}
	close(fd);
	return removed;
}

/* db_resolve_sessions: see db.h. */
int db_resolve_sessions(sqlite3 *db, const char *spec, int64_t **ids)
{
	sqlite3_stmt *st = db_prepare(db, spec ?
		"SELECT id FROM session WHERE label = ?1 OR CAST(id AS TEXT) = ?1 ORDER BY id" :
		"SELECT id FROM session ORDER BY id");
	int n = 0;
	size_t cap = 0;
	*ids = NULL;
	if (!st)
		return -1;
	if (spec)
		sqlite3_bind_text(st, 1, spec, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		ALLOC_GROW(*ids, (size_t)n + 1, cap);
		(*ids)[n++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	return n;
}

/* db_open_read: see db.h. */
sqlite3 *db_open_read(const char *path, char *err, size_t errlen)
{
	sqlite3 *db = NULL;
	int v, n;
	if (file_kind(path, true, err, errlen))
		return NULL;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", path, db ? sqlite3_errmsg(db) : "cannot open");
		sqlite3_close(db);
		return NULL;
	}
	sqlite3_busy_timeout(db, READER_BUSY_MS);
	read_state(db, &v, &n);
	if (v < 0 || n < 0)
		snprintf(err, errlen, "%s: not an SQLite database", path);
	else if (v == 0)
		snprintf(err, errlen, "%s: not a perfdb database (no perfdb schema version)", path);
	else if (v >= PERFDB_MIGRATE_FROM && v < PERFDB_SCHEMA_VERSION)
		snprintf(err, errlen, "%s: database has perfdb schema version %d, this perfdb reads %d: "
			 "a verb that writes to it (perfdb import -o %s ..., record, bench, layout) "
			 "upgrades it", path, v, PERFDB_SCHEMA_VERSION, path);
	else if (v != PERFDB_SCHEMA_VERSION)
		snprintf(err, errlen, "%s: database has perfdb schema version %d, this perfdb reads %d",
			 path, v, PERFDB_SCHEMA_VERSION);
	if (v <= 0 || n < 0 || v != PERFDB_SCHEMA_VERSION || db_check_complete(db, path, err, errlen)) {
		sqlite3_close(db);
		return NULL;
	}
	db_exec(db, "PRAGMA cache_size = -32768; PRAGMA temp_store = MEMORY", NULL, 0);
	return db;
}

/* labels_text(db, b): the distinct labels of db, ", "-separated. */
static void labels_text(sqlite3 *db, struct strbuf *b)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT DISTINCT label FROM session WHERE label IS NOT NULL "
				      "ORDER BY label LIMIT 21");
	int n = 0;
	while (st && sqlite3_step(st) == SQLITE_ROW) {
		sb_printf(b, "%s%s", n ? ", " : "", n < 20 ? (const char *)sqlite3_column_text(st, 0) : "...");
		n++;
	}
	sqlite3_finalize(st);
}

/* db_pick_sessions: see db.h. */
int db_pick_sessions(sqlite3 *db, const char *spec, int64_t **ids, char *err, size_t errlen)
{
	int n = spec ? db_resolve_sessions(db, spec, ids) : 0;
	if (spec && n <= 0) {
		struct strbuf b = STRBUF_INIT;
		labels_text(db, &b);
		snprintf(err, errlen, "no session '%s'%s%s%s", spec, b.len ? " (labels: " : "",
			 sb_str(&b), b.len ? ")" : "");
		sb_free(&b);
		free(*ids);
		*ids = NULL;
		return -1;
	}
	if (spec)
		return n;
	sqlite3_stmt *st = db_prepare(db, "SELECT max(id) FROM session");
	int64_t id = -1;
	if (st && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (id < 0) {
		snprintf(err, errlen, "no sessions");
		*ids = NULL;
		return -1;
	}
	*ids = xmalloc(sizeof(**ids));
	**ids = id;
	return 1;
}
