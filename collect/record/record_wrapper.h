/* The hidden wrapper perf runs as its workload during perfdb record,
 *   perfdb record __exec STATUSFILE [quiet-metrics|quiet-output] -- CMD [ARG...]
 * and the status file it writes for perfdb record: perf passes its
 * workload's exit code through but fails with 255 too and ends by the
 * signal when interrupted, so its own status cannot tell a workload's 255
 * or death from a failed or interrupted perf; the file can. The wrapper
 * runs CMD (collect/workload.h: stdout and stderr pass through, and
 * every stdout line is copied to STATUSFILE.out for perfdb record to
 * parse (collect/parse/parse.h); quiet-metrics keeps the metric= lines
 * off stdout, quiet-output also its stderr), then ends the way CMD
 * ended. The file's lines:
 *   started PID                 the wrapper's pid (perfdb passes stop signals to it)
 *   usage USER SYS WALL MAXRSS NVCSW NIVCSW   (ns, ns, ns, KiB, counts)
 *   exit N | signal N | exec ERRNO */
#ifndef PERFDB_RECORD_WRAPPER_H
#define PERFDB_RECORD_WRAPPER_H
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "collect/workload.h"

/* How the workload ended, as the status file says. */
enum wl_kind { WL_NONE, WL_STARTED, WL_EXIT, WL_SIGNAL, WL_EXEC };

struct wrapper_status {
	enum wl_kind kind;
	int value;		/* exit code, signal or errno */
	bool have_usage;
	struct wl_usage usage;
	int64_t start_ns;	/* CLOCK_REALTIME when the workload started; 0 unknown */
	char out_tail[WL_TAIL + 1], err_tail[WL_TAIL + 1];	/* the ends of its output */
};

/* record_exec_wrapper(argc, argv): the wrapper (argv: "__exec" STATUSFILE
 * "--" CMD ARG...). Returns CMD's exit code, or ends by CMD's signal;
 * 127 when CMD could not be run. */
int record_exec_wrapper(int argc, char **argv);

/* wrapper_status_read(path, s): the status file into *s (from empty; a
 * missing file leaves kind WL_NONE). */
void wrapper_status_read(const char *path, struct wrapper_status *s);

/* wrapper_status_live_pid(path): the wrapper's pid from the status file's
 * first line ("started PID") while the file records no end yet (no line
 * "exit N", "signal N" or "exec ERRNO": the wrapper writes it just before
 * it exits, after which its pid may be another process's), else 0.
 * Async-signal-safe (a signal handler's, to pass a stop on). */
pid_t wrapper_status_live_pid(const char *path);

/* wrapper_out_path(status, buf, len): where the wrapper of that status
 * file copies CMD's stdout (STATUSFILE.out), into buf. 0, or -1 when it
 * does not fit. */
int wrapper_out_path(const char *status, char *buf, size_t len);
#endif
