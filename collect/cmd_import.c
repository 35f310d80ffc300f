/* perfdb import: perf.data files into sessions of a database.
 *   perfdb import [-o DB] [-l LABEL] [--kallsyms FILE] [-q] FILE.data...
 * Each file becomes one session, in its own transaction. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "cmd.h"
#include "schema/db.h"
#include "collect/ingest.h"

static const char usage_text[] =
	"usage: perfdb import [-o DB] [-l LABEL] [--kallsyms FILE] [-q] FILE.data...\n"
	"  -o, --output DB     database to add sessions to (default ./perfdb.db)\n"
	"  -l, --label LABEL   label of the new sessions (e.g. base, patched)\n"
	"  --kallsyms FILE     kernel symbols (default: /proc/kallsyms when the\n"
	"                      file was recorded on the running kernel)\n"
	"  -q, --quiet         no progress and no summary on stderr\n"
	"FILE '-' reads a pipe-mode recording from standard input.\n";

/* remove_new_db: removes a database this command created for nothing (so
 * a failed import leaves no trace), with its journal. */
static void remove_new_db(const char *path)
{
	char j[4096];
	unlink(path);
	snprintf(j, sizeof(j), "%s-journal", path);
	unlink(j);
}

int cmd_import(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "label", required_argument, NULL, 'l' },
		{ "kallsyms", required_argument, NULL, 'k' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct ingest_opts o = { .progress = true };
	const char *dbpath = PERFDB_DEFAULT_DB;
	char err[1024];
	sqlite3 *db;
	int c, rc = EXIT_OK, imported = 0;
	bool quiet = false, existed;
	while ((c = getopt_long(argc, argv, "o:l:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'o': dbpath = optarg; break;
		case 'l': o.label = optarg; break;
		case 'k': o.kallsyms = optarg; break;
		case 'q': quiet = true; o.progress = false; break;
		case 'h': fputs(usage_text, stdout); return EXIT_OK;
		default: fputs(usage_text, stderr); return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	existed = access(dbpath, F_OK) == 0;
	if (!(db = db_open(dbpath, true, err, sizeof(err)))) {
		fprintf(stderr, "perfdb: %s\n", err);
		return EXIT_FAIL;
	}
	/* A database made by this command holds nothing a crash could cost
	 * but what it imports, which can be imported again: no fsyncs (the
	 * commit of 1M samples takes 10 ms instead of 40). An existing one
	 * keeps SQLite's full durability for the sessions it already has. */
	if (!existed)
		db_exec(db, "PRAGMA synchronous = OFF", NULL, 0);
	for (int i = optind; i < argc; i++) {
		int64_t id;
		if (ingest_file(db, argv[i], &o, &id, err, sizeof(err))) {
			fprintf(stderr, "perfdb: %s\n", err);
			rc = EXIT_FAIL;
			break;
		}
		imported++;
		if (!quiet)
			fprintf(stderr, "perfdb: %s: session %lld in %s\n", argv[i],
				(long long)id, dbpath);
	}
	sqlite3_close(db);
	if (!existed && !imported)
		remove_new_db(dbpath);
	return rc;
}
