/* perfdb record's work: perf record around a workload with the recipes'
 * events, imported as a session (see the top of record.c for how a
 * recording runs, and collect/record/watch_spec.h for the watch recipe). */
#ifndef PERFDB_RECORD_H
#define PERFDB_RECORD_H
#include <stdbool.h>
#include "collect/layout/describe.h"
#include "collect/pulse.h"
#include "collect/parse/parse.h"
#include "collect/recipes.h"
#include "collect/record/record_wrapper.h"
#include "collect/record/watch_spec.h"

/* What to record; record_args_init sets the defaults. */
struct record_args {
	const char *db_path;	/* the database (created when missing) */
	const char *label;	/* the session's label, or NULL */
	const char *spec;	/* comma-separated recipes; NULL: profile */
	const char *perf_data;	/* keep perf's recording here, or NULL */
	struct perf_opts po;	/* -C, -F, call graphs, -m, quiet */
	bool snapshot;		/* save /proc/kallsyms before recording */
	bool quiet;		/* no progress or summary on stderr */
	bool hide_metrics;	/* the workload's metric lines are not shown */
	bool hide_stderr;	/* nor its stderr (and its metric lines) */
	double timeout_s;	/* stop the recording after this long (0: never) */
	char **workload;	/* the command, NULL-terminated */
	const char *parse;	/* its output's format (collect/parse/parse.h); NULL: metric */
	struct watch_set watch;	/* -r watch: the fields watched */
	const struct describe_opts *describe;	/* objects and layouts to store in the
						 * session (collect/layout/describe.h), or NULL */
	const struct pulse *pulse;	/* the machine's pulse, measured by the caller
					 * just before; NULL: record measures it */
	void (*stop_handler)(int);	/* NULL: a stop signal during the import removes the
					 * temporary files and kills perfdb; else it goes to
					 * this handler and the import finishes */
	/* set by record_run: */
	int64_t session;	/* the new session, 0 when none */
	bool interrupted;	/* a signal or the timeout stopped the recording */
	bool timed_out;
	struct wrapper_status status;	/* the workload's end and usage */
	struct parse_result result;	/* what its output said (free with
					 * parse_result_free); result.error says
					 * why it did not parse */
};

/* record_args_init(a): the defaults: ./perfdb.db, a kallsyms snapshot. */
void record_args_init(struct record_args *a, const char *db_path);

/* record_run(a): plans, runs perf and the workload, imports the
 * recording. Returns the exit status: the workload's (128+N when signal
 * N killed it), 2 when perf, the workload's start or the import failed
 * (one line on stderr; no session added), 1 when the arguments do not go
 * together (one line). Frees a's watch set; sets a->session and
 * a->status. */
int record_run(struct record_args *a);

/* record_exec_wrapper(argc, argv): the hidden mode perf runs as its
 * workload: argv is "__exec STATUSFILE -- CMD [ARG...]"; runs CMD,
 * writes its end to STATUSFILE and ends as CMD ended. */
int record_exec_wrapper(int argc, char **argv);
#endif
