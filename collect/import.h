/* perfdb import's work: perf.data files into sessions of a database. */
#ifndef PERFDB_IMPORT_H
#define PERFDB_IMPORT_H
#include <stdbool.h>
#include "collect/ingest.h"

/* import_files(dbpath, files, n, o, quiet): imports each file ("-" is
 * standard input) as one session of dbpath (created when missing), each
 * in its own transaction, stopping at the first that fails. A database
 * this call creates is written without fsync (it holds only what it
 * imports) and removed again when nothing was imported. Says on stderr
 * which session each file became unless quiet. Returns 0, or 2 after one
 * line on stderr ("FILE: offset N: what is wrong"). */
int import_files(const char *dbpath, char *const *files, int n, struct ingest_opts *o, bool quiet);
#endif
