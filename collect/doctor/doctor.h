/* perfdb doctor's checks: what perfdb record can use on the machine it
 * runs on (perf and its version, perf_event_paranoid, tracefs, each
 * recipe's events, whether TLB-flush IPIs can be seen, PMU cycles,
 * memory-sampling events, hardware breakpoints, BTF, kallsyms, the Debian
 * packages of .ci/packages), and why not. */
#ifndef PERFDB_DOCTOR_H
#define PERFDB_DOCTOR_H
#include "lib/doc.h"

/* doctor_findings(d): runs every check and adds the table "checks"
 * (check, status ok|partial|no, detail) to d's findings, and a note with
 * the apt-get line of the missing packages when some are. */
void doctor_findings(struct doc *d);

/* doctor_knobs(d, db_path): adds the table "knobs" (path, state, original,
 * label, pid, since): each knob benches of the database at db_path
 * changed (perfdb bench --set) and did not write back, whether the bench
 * that did still runs; and a note saying how many a dead bench left and
 * that the next perfdb bench of the database writes them back (or why the
 * database could not be read). */
void doctor_knobs(struct doc *d, const char *db_path);
#endif
