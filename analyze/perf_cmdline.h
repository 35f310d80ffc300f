/* A recording's perf command line as a user would type it. perfdb record
 * runs the workload through its own hidden wrapper and writes perf.data
 * into a temporary directory, so the command line it stores reads
 *   perf record -o DB_DIR/.perfdb-record-PID-XXXXXX/perf.data -a ... --
 *     /usr/bin/perfdb record __exec STATUSFILE [quiet-metrics|quiet-output] -- CMD ARG...
 * (collect/record/record_wrapper.h, collect/record/record_sweep.h); what
 * the user asked for is "perf record -a ... -- CMD ARG...". */
#ifndef PERFDB_PERF_CMDLINE_H
#define PERFDB_PERF_CMDLINE_H

/* perf_cmdline_shown(line): a malloc'd copy of the stored command line
 * (words one blank apart, quoted with '...' where needed, as perfdb
 * record and the import store it) without the wrapper's words "PATH
 * record __exec STATUSFILE [quiet-metrics|quiet-output] --" and, before
 * them, without "-o PATH" when PATH is perf.data in a temporary
 * directory of perfdb record (".perfdb-record-*"/perf.data: gone once
 * imported). Any other line is copied as it is; NULL gives NULL. */
char *perf_cmdline_shown(const char *line);
#endif
