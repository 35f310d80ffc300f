/* The common shape of an analyzer verb once its options are parsed: open
 * the database, pick the sessions a SESSION spec names, run, close. */
#ifndef PERFDB_VERB_H
#define PERFDB_VERB_H
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

/* What a verb does with the sessions picked: an exit status. */
typedef int (*verb_fn)(sqlite3 *db, const int64_t *ids, int n, void *arg);

/* verb_run: opens dbpath (which must exist), picks the sessions spec names
 * (an id or a label; NULL: the latest session; tl_pick_sessions prints
 * what is wrong), calls fn(db, ids, n, arg) and closes the database.
 * Returns fn's exit status, or EXIT_FAIL with one line on stderr. */
int verb_run(const char *dbpath, const char *spec, verb_fn fn, void *arg);

/* verb_operands: after getopt: takes the optional DB operand at
 * argv[optind] into *db; with bad (an option was wrong) or an operand
 * left over, prints usage on stderr and returns EXIT_USAGE; else
 * EXIT_OK. */
int verb_operands(int argc, char **argv, bool bad, const char **db, const char *usage);
#endif
