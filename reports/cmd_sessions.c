/* perfdb sessions: the sessions of a database, one row each, with their
 * sample counts per event.
 *   perfdb sessions [DB] [--format text|md|csv|json] */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "collect/db.h"
#include "reports/table.h"

static const char usage_text[] =
	"usage: perfdb sessions [DB] [--format text|md|csv|json]\n";

static const char list_sql[] =
	"SELECT id, label, source, os_release, perf_version, nr_samples, "
	"coalesce(nr_lost, 0) + coalesce(nr_lost_samples, 0), duration_ns, imported_at, "
	"hostname, arch, nr_cpus_online, perf_cmdline, interrupted FROM session ORDER BY id";

/* events_text: "name=count ..." of a session's events that have samples,
 * most first, malloc'ed (the JSON form lists every event). */
static char *events_text(sqlite3 *db, int64_t session)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT name, nr_samples FROM event WHERE session_id = ? "
				      "AND nr_samples > 0 ORDER BY nr_samples DESC, idx");
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m || !st) {
		sqlite3_finalize(st);
		if (m)
			fclose(m);
		free(buf);
		return NULL;
	}
	sqlite3_bind_int64(st, 1, session);
	for (int n = 0; sqlite3_step(st) == SQLITE_ROW; n++)
		fprintf(m, "%s%s=%lld", n ? " " : "", sqlite3_column_text(st, 0),
			(long long)sqlite3_column_int64(st, 1));
	sqlite3_finalize(st);
	fclose(m);
	return buf;
}

/* print_json: the sessions as a JSON array with an events object each. */
static int print_json(sqlite3 *db)
{
	sqlite3_stmt *st = db_prepare(db, list_sql);
	sqlite3_stmt *ev = db_prepare(db, "SELECT name, nr_samples FROM event WHERE session_id = ? ORDER BY idx");
	struct json *j = json_new(stdout, true);
	static const char *keys[] = { "id", "label", "source", "os_release", "perf_version",
		"samples", "lost", "duration_ns", "imported_at", "hostname", "arch",
		"nr_cpus_online", "perf_cmdline", "interrupted" };
	json_begin_array(j);
	while (st && ev && sqlite3_step(st) == SQLITE_ROW) {
		json_begin_object(j);
		for (int c = 0; c < 14; c++) {
			json_key(j, keys[c]);
			if (sqlite3_column_type(st, c) == SQLITE_NULL)
				json_null(j);
			else if (sqlite3_column_type(st, c) == SQLITE_INTEGER)
				json_int(j, sqlite3_column_int64(st, c));
			else
				json_str(j, (const char *)sqlite3_column_text(st, c));
		}
		json_key(j, "events");
		json_begin_object(j);
		sqlite3_bind_int64(ev, 1, sqlite3_column_int64(st, 0));
		while (sqlite3_step(ev) == SQLITE_ROW) {
			json_key(j, (const char *)sqlite3_column_text(ev, 0));
			json_int(j, sqlite3_column_int64(ev, 1));
		}
		sqlite3_reset(ev);
		json_end_object(j);
		json_end_object(j);
	}
	json_end_array(j);
	json_free(j);
	sqlite3_finalize(st);
	sqlite3_finalize(ev);
	return EXIT_OK;
}

/* print_table: the sessions as a table in a text-like format. */
static int print_table(sqlite3 *db, enum out_format f)
{
	sqlite3_stmt *st = db_prepare(db, list_sql);
	struct table *t = table_new(NULL);
	int cid = table_col(t, "id", COL_INT, 0), clabel = table_col(t, "label", COL_STR, 0);
	int ckern = table_col(t, "kernel", COL_STR, 0), csamp = table_col(t, "samples", COL_INT, 0);
	int clost = table_col(t, "lost", COL_INT, 0), cdur = table_col(t, "seconds", COL_REAL, 3);
	int cev = table_col(t, "events", COL_STR, 0), csrc = table_col(t, "source", COL_STR, 0);
	table_null_text(t, "-");
	while (st && sqlite3_step(st) == SQLITE_ROW) {
		char *evs = events_text(db, sqlite3_column_int64(st, 0));
		table_add_row(t);
		table_set_int(t, cid, sqlite3_column_int64(st, 0));
		table_set_str(t, clabel, (const char *)sqlite3_column_text(st, 1));
		table_set_str(t, ckern, (const char *)sqlite3_column_text(st, 3));
		table_set_int(t, csamp, sqlite3_column_int64(st, 5));
		table_set_int(t, clost, sqlite3_column_int64(st, 6));
		table_set_real(t, cdur, (double)sqlite3_column_int64(st, 7) / 1e9);
		table_set_str(t, cev, evs);
		table_set_str(t, csrc, (const char *)sqlite3_column_text(st, 2));
		free(evs);
	}
	sqlite3_finalize(st);
	table_print(t, f, stdout);
	table_free(t);
	return EXIT_OK;
}

int cmd_sessions(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum out_format fmt = FMT_TEXT;
	const char *dbpath = PERFDB_DEFAULT_DB;
	char err[512];
	sqlite3 *db;
	int c, rc;
	while ((c = getopt_long(argc, argv, "f:h", opts, NULL)) != -1) {
		if (c == 'f' && !out_format_parse(optarg, &fmt))
			continue;
		if (c == 'h') {
			fputs(usage_text, stdout);
			return EXIT_OK;
		}
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	if (optind < argc)
		dbpath = argv[optind++];
	if (optind < argc) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	if (!(db = db_open(dbpath, false, err, sizeof(err)))) {
		fprintf(stderr, "perfdb: %s\n", err);
		return EXIT_FAIL;
	}
	rc = fmt == FMT_JSON ? print_json(db) : print_table(db, fmt);
	sqlite3_close(db);
	return rc;
}
