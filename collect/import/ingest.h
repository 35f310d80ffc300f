/* Import of one perf.data file as one session (one transaction). */
#ifndef PERFDB_INGEST_H
#define PERFDB_INGEST_H
#include <signal.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

struct pd_reader;

struct ingest_opts {
	const char *label;	/* session label, or NULL */
	const char *kallsyms;	/* kallsyms file for kernel symbols, or NULL */
	bool progress;		/* progress on stderr when it is a terminal */
	/* before_commit(db, session, arg, err, errlen): run inside the
	 * import's transaction once the session is complete (may be NULL):
	 * what the caller adds to the session commits with it or not at all;
	 * 0, or -1 with one line in err (the import is rolled back) */
	int (*before_commit)(sqlite3 *db, int64_t session, void *arg, char *err, size_t errlen);
	void *arg;
	/* stop: when not NULL, a flag a signal handler sets (to the signal):
	 * once it is nonzero the import stops at the next record and fails
	 * with "interrupted by signal N", the database as before */
	volatile sig_atomic_t *stop;
	struct pd_reader *reader;	/* set during the import */
};

/* ingest_file: imports path ("-" = stdin) into db as a new session.
 * Returns 0 with *session set (when not NULL), or -1 with a one-line
 * message in err ("FILE: offset N: what" for bad input); on error the
 * database is exactly as before. */
int ingest_file(sqlite3 *db, const char *path, struct ingest_opts *o,
		int64_t *session, char *err, size_t errlen);
#endif
