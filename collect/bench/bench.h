/* perfdb bench's work: running a plan's missing runs on this boot and
 * storing each (see collect/bench/bench_plan.h for plans and orders, and
 * collect/bench/bench_store.h for the tables).
 *
 * A run is bare (the workload alone: its real rate) or recorded (under
 * perf record with the plan's recipes, a session linked to it); warm-ups
 * are bare runs kept apart. A run ends well ("ok") when the workload
 * exits 0 and prints each of its metrics once; otherwise it is stored as
 * "failed" (or "timeout") with why and the tails of its output, and the
 * bench goes on. Bare runs get a process group of their own: the first
 * Ctrl-C (SIGINT, SIGTERM, SIGHUP) lets the current run finish and stops
 * the bench, a second one stops the run too (it is not stored); either
 * way every finished run is kept and the way to resume is said. Knobs
 * (--set) are written before each run and back when the bench ends, also
 * when stopped (collect/bench/bench_knob.h); the ones a dead bench of the
 * database left changed are written back first. */
#ifndef PERFDB_BENCH_H
#define PERFDB_BENCH_H
#include <stdbool.h>
#include "collect/bench/bench_plan.h"

struct bench_args {
	const char *db_path;	/* created when missing */
	const char *label;
	struct bench_plan plan;	/* ignored with resume: taken from the database */
	bool resume;		/* --resume without a command */
	bool again;		/* --again: the whole plan once more, a new sitting */
	bool quiet;		/* nothing on stderr but errors; workload stderr hidden */
};

/* bench_main(a): runs what the plan still needs on this boot. Returns 0
 * when every run of this invocation ended well, 2 when one failed, a knob
 * could not be written back or the bench could not start (one line on
 * stderr), 1 for a plan that does not go together (a --set file that may
 * not be a knob too), 130 when stopped by a signal. Frees a's plan. */
int bench_main(struct bench_args *a);
#endif
