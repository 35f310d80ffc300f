/* Memory samples as field contention evidence ("c2c" in hitm_doc.h): the
 * objects and layouts stored in the sessions loaded first (objects.h,
 * layout.h; perfdb layout stores them), then the sessions' memory samples
 * read into perf c2c's cachelines (c2c_load.h), each attributed to a field
 * as it is read, never kept, and the lines judged (hitm.h); the lines
 * shown (hitm_select.h) go into the shared tables, and the summary,
 * types and offsets tables (hitm_c2c_tables.h) are made. Only reads the
 * database.
 *
 * Notes say what could not be attributed and how to fix it: a session
 * without mm tracepoints (no mm_struct objects), a layout the sessions
 * need and lack (with the perfdb layout command that stores it). A
 * warning says how many samples have a data source perf c2c cannot
 * classify. */
#ifndef PERFDB_HITM_C2C_H
#define PERFDB_HITM_C2C_H
#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "analyze/hitm/hitm_doc.h"
#include "analyze/hitm/hitm_select.h"
#include "lib/doc.h"

struct hitm_c2c_opts {
	int display;		/* enum hitm_display; -1: tot, peer for arm64 sessions */
	bool show_all;		/* every line, not only >= 0.1% of the metric */
	const char *type;	/* only lines and fields of struct type, or NULL */
	long long rows;		/* lines shown at most (0: all) */
	const char *dbpath;	/* the database, for the commands notes give */
};

/* What one session's memory samples held: loads and stores (as perf c2c
 * classifies them). */
struct c2c_seen {
	int64_t session;
	uint64_t loads, stores;
};

/* The evidence's own tables, and what each session sampled (seen[0..n),
 * malloc'ed: hitm_c2c_unseen says what a session did not see). */
struct c2c_tables {
	struct table *summary, *types, *offsets;
	struct c2c_seen *seen;
	size_t nseen;
};

/* hitm_c2c_unseen(db, t, d): for each session of t that sampled no store
 * or no load, a warning and findings.unseen entry (no_store_samples,
 * no_load_samples) naming its memory events: without stores no line's
 * writers are seen, so no verdict can be sharing; without loads HITMs and
 * peer snoops are 0 unmeasured; for one recorded on some CPUs alone (-C),
 * that the others' accesses are unseen (cpus_not_recorded). */
void hitm_c2c_unseen(sqlite3 *db, const struct c2c_tables *t, struct doc *d);

/* hitm_memory_events(db, session, n): the names of session's events that
 * sample data addresses and sources (PERF_SAMPLE_DATA_SRC: mem-loads,
 * mem-stores, ibs_op, arm_spe), NULL-terminated, malloc'ed (free with
 * hitm_names_free); *n their number. */
char **hitm_memory_events(sqlite3 *db, int64_t session, int *n);
void hitm_names_free(char **v);

/* hitm_c2c(db, ids, n, o, hd, d, out, err, errlen): the memory samples of
 * sessions ids[0..n) as above: lines and fields into hd, the summary,
 * types and offsets tables and each session's loads and stores into *out
 * (owned by the caller), notes and
 * warnings into d, and under d's findings the scalars display ("tot",
 * "lcl", "rmt", "peer"), show_all, type (or null), shared_lines and
 * events (the memory events' names). Returns 0, or -1 with one line in
 * err (a database error). */
int hitm_c2c(sqlite3 *db, const int64_t *ids, int n, const struct hitm_c2c_opts *o,
	     struct hitm_doc *hd, struct doc *d, struct c2c_tables *out, char *err, size_t errlen);
#endif
