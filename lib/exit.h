/* The exit statuses of every perfdb verb: 0 success, 1 a usage error (one
 * line saying what was wrong), 2 bad input, missing events or a failed run
 * (one line saying what and where). A recording passes its workload's
 * status through instead (see collect/record/record.h). */
#ifndef PERFDB_EXIT_H
#define PERFDB_EXIT_H
enum { EXIT_OK = 0, EXIT_USAGE = 1, EXIT_FAIL = 2 };
#endif
