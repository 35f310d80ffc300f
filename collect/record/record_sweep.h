/* The temporary directories of perfdb record (RECORD_TMP_PREFIX "PID-" and
 * mkdtemp's six characters, beside the database, flock'ed while in use)
 * that a killed recording left behind, found and removed. */
#ifndef PERFDB_RECORD_SWEEP_H
#define PERFDB_RECORD_SWEEP_H
#include <stdbool.h>

#define RECORD_TMP_PREFIX ".perfdb-record-"

/* record_sweep(dir, quiet): removes, each whole or not at all, the
 * temporary directories in dir that no perfdb uses: named as perfdb
 * names them, owned by this user, their lock free, and their perfdb gone
 * (its pid no longer alive, or older than a minute and held by a process
 * that is no perfdb: the pid was reused). One holding anything but plain
 * files (perfdb makes none) is left as it is. Each removal, and each
 * directory left for that reason, is said on stderr unless quiet. */
void record_sweep(const char *dir, bool quiet);

/* record_sweep_pid(name): the pid in a name of RECORD_TMP_PREFIX's
 * format, or 0 for any other name. Pure: for tests. */
long record_sweep_pid(const char *name);
#endif
