/* perfdb import's work: perf.data files into sessions of a database. */
#ifndef PERFDB_IMPORT_H
#define PERFDB_IMPORT_H
#include <stdbool.h>
#include "collect/layout/describe.h"
#include "collect/import/ingest.h"

/* import_files(dbpath, files, n, o, dsc, quiet): imports each file ("-"
 * is standard input) as one session of dbpath (created when missing),
 * each in its own transaction, stopping at the first that fails; then
 * describes it (collect/layout/describe.h: dsc's objects and layouts, and the
 * layouts its samples need) in a second transaction: a failure there
 * keeps the session and says how to describe it again (perfdb layout). A
 * database this call creates is written without fsync (it holds only
 * what it imports) and removed again when nothing was imported. Says on
 * stderr which session each file became, and what was stored, unless
 * quiet. Returns 0, or 2 after one line on stderr ("FILE: offset N: what
 * is wrong"). */
int import_files(const char *dbpath, char *const *files, int n, struct ingest_opts *o,
		 const struct describe_opts *dsc, bool quiet);
#endif
