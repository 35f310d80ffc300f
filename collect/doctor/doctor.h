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
#endif
