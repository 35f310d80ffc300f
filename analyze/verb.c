/* The common shape of an analyzer verb: see verb.h. Left for perfdb ipis
 * until it moves to builtin/; then nothing uses it. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include "analyze/tl_load.h"
#include "analyze/verb.h"
#include "schema/db.h"

/* The exit statuses of builtin/builtin.h (analyze cannot include it). */
enum { EXIT_OK = 0, EXIT_USAGE = 1, EXIT_FAIL = 2 };

int verb_run(const char *dbpath, const char *spec, verb_fn fn, void *arg)
{
	char err[512];
	int64_t *ids = NULL;
	int n, rc;
	sqlite3 *db = db_open(dbpath, false, err, sizeof(err));
	if (!db) {
		fprintf(stderr, "perfdb: %s\n", err);
		return EXIT_FAIL;
	}
	n = tl_pick_sessions(db, spec, dbpath, &ids);
	rc = n < 0 ? EXIT_FAIL : fn(db, ids, n, arg);
	free(ids);
	sqlite3_close(db);
	return rc;
}

/* verb_operands: see verb.h. */
int verb_operands(int argc, char **argv, bool bad, const char **db, const char *usage)
{
	if (!bad && optind < argc)
		*db = argv[optind++];
	if (bad || optind < argc) {
		fputs(usage, stderr);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}
