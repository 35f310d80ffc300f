/* `perfdb hitm` and `perfdb watch` as findings: the evidence the sessions
 * hold about field contention, memory samples (hitm_c2c.h) and watchpoint
 * traps (hitm_watch.h), in one document whose tables "cachelines" (the
 * main one) and "fields" both kinds fill (hitm_doc.h). Tables in order:
 * summary (c2c), windows (watch), cachelines, fields, types and offsets
 * (c2c), cpus, sites and rates (watch). Only reads the database. */
#ifndef PERFDB_HITM_FINDINGS_H
#define PERFDB_HITM_FINDINGS_H
#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>
#include "analyze/hitm/hitm_c2c.h"
#include "analyze/hitm/hitm_watch.h"
#include "lib/doc.h"

struct hitm_opts {
	struct hitm_c2c_opts c2c;
	struct hitm_watch_opts watch;
};

/* Evidence a session holds. */
enum { HITM_C2C = 1, HITM_WATCH = 2 };

/* hitm_evidence(db, session): HITM_C2C when the session has memory
 * samples, | HITM_WATCH when it watched something; 0 for neither. */
unsigned hitm_evidence(sqlite3 *db, int64_t session);

/* hitm_no_evidence(db, session, advice): NULL when the session holds
 * evidence (hitm_evidence); else why not, malloc'ed, to follow "session
 * N ": "has no memory samples and no watchpoint samples (ADVICE)" when it
 * recorded no memory event, else which memory events it recorded and
 * whether perf lost their samples or they never fired
 * (session_none_of). */
char *hitm_no_evidence(sqlite3 *db, int64_t session, const char *advice);

/* hitm_findings(db, ids, n, o, d, err, errlen): every evidence of the
 * sessions ids[0..n) (each holds some: the caller checks) into d. 0, or
 * -1 with one line in err. */
int hitm_findings(sqlite3 *db, const int64_t *ids, int n, const struct hitm_opts *o,
		  struct doc *d, char *err, size_t errlen);

/* watch_findings(db, ids, n, o, d, err, errlen): the watchpoint evidence
 * of sessions ids[0..n) (each watched something) into d: the document
 * hitm_findings makes for them. 0, or -1 with one line in err. */
int watch_findings(sqlite3 *db, const int64_t *ids, int n, const struct hitm_watch_opts *o,
		   struct doc *d, char *err, size_t errlen);
#endif
