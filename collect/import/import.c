/* perfdb import's work: see import.h. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include "collect/import/import.h"
#include "collect/spawn.h"
#include "lib/exit.h"
#include "lib/prog.h"
#include "schema/db.h"

/* describe(db, dbpath, id, dsc, quiet): the layouts and objects of a new
 * session; 0, or EXIT_FAIL after one line. */
static int describe(sqlite3 *db, const char *dbpath, int64_t id, const struct describe_opts *dsc, bool quiet)
{
	struct describe_result *r;
	char err[4400];
	if (describe_sessions(db, &id, 1, dsc, &r, err, sizeof(err))) {
		eprintf("session %lld imported, but its layouts and objects were not "
			"stored: %s (perfdb layout %s -s %lld stores them)\n", (long long)id, err, dbpath,
			(long long)id);
		return EXIT_FAIL;
	}
	if (r->warning)
		eprintf("warning: %s\n", r->warning);
	if (!quiet && (r->objects || *r->stored || *r->missing)) {
		char *line = describe_result_line(r);
		eprintf("%s\n", line);
		free(line);
	}
	describe_results_free(r, 1);
	return EXIT_OK;
}

static volatile sig_atomic_t stop_signal;

/* on_stop: SIGINT, SIGTERM, SIGHUP: the import in progress stops at its
 * next record and is rolled back; a second one kills at once (SQLite
 * rolls the transaction back at the next open). */
static void on_stop(int sig)
{
	if (stop_signal) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	stop_signal = sig;
}

/* import_files: see import.h. */
int import_files(const char *dbpath, char *const *files, int n, struct ingest_opts *o,
		 const struct describe_opts *dsc, bool quiet)
{
	char err[1024];
	sqlite3 *db;
	int rc = EXIT_OK, imported = 0;
	bool created;
	stop_signal = 0;	/* from before the database is made: it is removed again */
	o->stop = &stop_signal;
	proc_on_signals(on_stop);
	if (!(db = db_open(dbpath, true, err, sizeof(err)))) {
		eprintf("%s\n", err);
		proc_on_signals(SIG_DFL);
		return EXIT_FAIL;
	}
	/* A database made by this import holds nothing a crash could cost
	 * but what it imports, which can be imported again: no fsyncs (the
	 * commit of 1M samples takes 10 ms instead of 40). An existing one
	 * keeps SQLite's full durability for the sessions it already has. */
	if ((created = db_created(db)))
		db_exec(db, "PRAGMA synchronous = OFF", NULL, 0);
	for (int i = 0; i < n; i++) {
		int64_t id;
		if (ingest_file(db, files[i], o, &id, err, sizeof(err))) {
			if (stop_signal)
				eprintf("%s: %s: nothing of it imported\n", files[i], err);
			else
				eprintf("%s\n", err);
			rc = EXIT_FAIL;
			break;
		}
		imported++;
		if (!quiet)
			eprintf("%s: session %lld in %s\n", files[i], (long long)id, dbpath);
		if ((rc = describe(db, dbpath, id, dsc, quiet)))
			break;
	}
	db_close(db);
	if (created && !imported)	/* unless another process writes to it meanwhile */
		db_remove_if_unused(dbpath);
	proc_on_signals(SIG_DFL);
	o->stop = NULL;
	if (stop_signal)	/* what was imported before it is kept; then die of it */
		raise(stop_signal);
	return rc;
}
