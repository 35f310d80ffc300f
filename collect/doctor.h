/* perfdb doctor's checks: what perfdb record can use on the machine it
 * runs on (perf and its version, perf_event_paranoid, tracefs, each
 * recipe's events, PMU cycles, memory-sampling events, hardware
 * breakpoints, BTF, kallsyms), and why not. */
#ifndef PERFDB_DOCTOR_H
#define PERFDB_DOCTOR_H
#include "lib/doc.h"

/* doctor_findings(d): runs every check and adds the table "checks"
 * (check, status ok|partial|no, detail) to d's findings. */
void doctor_findings(struct doc *d);
#endif
