/* What a run's output yielded, into the database: the distributions of a
 * bench run (run_dist, run_sample and the mean in run_metric) or of a
 * recording (workload_dist, workload_sample and the mean in
 * workload_metric). See schema/dist.sql. */
#ifndef PERFDB_PARSE_STORE_H
#define PERFDB_PARSE_STORE_H
#include <sqlite3.h>
#include <stdint.h>
#include "collect/parse/parse.h"

enum parse_owner { PARSE_RUN, PARSE_SESSION };

/* parse_store_dists(db, owner, id, r, err, errlen): every distribution
 * of r under bench run id (PARSE_RUN) or session id (PARSE_SESSION): its
 * summary (lib/dist.h), its samples in the order they came, and a metric
 * row of its name holding the mean (its line the first sample's). Sorts
 * nothing of r (the summary works on a copy). In the caller's
 * transaction; 0, or -1 with why in err. */
int parse_store_dists(sqlite3 *db, enum parse_owner owner, int64_t id, const struct parse_result *r,
		      char *err, size_t errlen);
#endif
