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
#include "analyze/hitm_doc.h"
#include "analyze/hitm_select.h"
#include "lib/doc.h"

struct hitm_c2c_opts {
	int display;		/* enum hitm_display; -1: tot, peer for arm64 sessions */
	bool show_all;		/* every line, not only >= 0.1% of the metric */
	const char *type;	/* only lines and fields of struct type, or NULL */
	long long rows;		/* lines shown at most (0: all) */
	const char *dbpath;	/* the database, for the commands notes give */
};

/* The evidence's own tables. */
struct c2c_tables {
	struct table *summary, *types, *offsets;
};

/* hitm_c2c(db, ids, n, o, hd, d, out, err, errlen): the memory samples of
 * sessions ids[0..n) as above: lines and fields into hd, the summary,
 * types and offsets tables into *out (owned by the caller), notes and
 * warnings into d, and under d's findings the scalars display ("tot",
 * "lcl", "rmt", "peer"), show_all, type (or null), shared_lines and
 * events (the memory events' names). Returns 0, or -1 with one line in
 * err (a database error). */
int hitm_c2c(sqlite3 *db, const int64_t *ids, int n, const struct hitm_c2c_opts *o,
	     struct hitm_doc *hd, struct doc *d, struct c2c_tables *out, char *err, size_t errlen);
#endif
