/* A bench in the database (schema/bench.sql): its row for this boot, its
 * matrix, the runs it already has, each finished run. */
#ifndef PERFDB_BENCH_STORE_H
#define PERFDB_BENCH_STORE_H
#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "collect/bench/bench_plan.h"
#include "collect/parse/parse.h"
#include "collect/pulse.h"
#include "collect/bench/sysinfo.h"
#include "collect/workload.h"

/* bench_store_open(db, label, p, f, perf_version, id, err, errlen): the
 * bench row of label on this boot (f->boot_id) into *id, made with its
 * parameters and cells when the label has none on this boot yet. The
 * label's plan, on any boot, must be p's (bench_plan_json), and its
 * kernel build id f's (two kernels under one label would be pooled).
 * Found: p->seed becomes the stored seed (a random order resumes the same
 * order). Returns 1 made, 0 found, -1 with one line in err. */
int bench_store_open(sqlite3 *db, const char *label, struct bench_plan *p,
		     const struct sysinfo_facts *f, const char *perf_version, int64_t *id,
		     char *err, size_t errlen);

/* bench_store_load_plan(db, label, p, err, errlen): the plan of label's
 * latest bench (its --set templates too) into *p (from empty), for
 * --resume without a command.
 * Returns 0, 1 when the label has no bench, -1 with err set. */
int bench_store_load_plan(sqlite3 *db, const char *label, struct bench_plan *p, char *err,
			  size_t errlen);

/* bench_store_done(db, id, slots, n): one flag per slot: whether the bench
 * already has a run of it that ended well ('ok'); malloc'ed. */
bool *bench_store_done(sqlite3 *db, int64_t id, const struct slot *slots, size_t n);

/* bench_store_sitting(db, id, err, errlen): a new sitting of bench id
 * (bench_sitting, numbered on from its last); its number, or -1 with err
 * set. */
int bench_store_sitting(sqlite3 *db, int64_t id, char *err, size_t errlen);

/* bench_store_last_run(db, id, kind): the highest run number of kind
 * (a slot_kind_names word) in bench id, any cell; 0 when none. */
int bench_store_last_run(sqlite3 *db, int64_t id, const char *kind);

/* bench_store_boots(db, label): how many boots the label has benches on. */
int bench_store_boots(sqlite3 *db, const char *label);

/* One finished run. */
struct run_row {
	const struct slot *slot;
	long seq;		/* the slot's place in the plan's order */
	char *const *argv;	/* the command run, NULL-terminated */
	const char *status;	/* "ok", "failed", "timeout" */
	const char *error;	/* why it failed, or NULL */
	int exit_status;
	int64_t started_ns;
	struct wl_usage usage;
	const struct parse_result *result;	/* what its output said; NULL: nothing */
	int64_t session;	/* its recording, 0 for none */
	const char *out_tail, *err_tail;
	int sitting;		/* bench_sitting's number */
	struct pulse pulse;	/* the machine's pulse before its round (NaN: none) */
	struct run_load load;	/* other processes' and the hypervisor's share during it */
	char *const *knob_paths;	/* the files --set wrote before it (resolved) */
	char *const *knob_values;	/* and what */
	size_t nknobs;
};

/* bench_store_run(db, id, r, err, errlen): the run, its metric lines and
 * its knobs' values, in one transaction. 0 or -1 with err set. */
int bench_store_run(sqlite3 *db, int64_t id, const struct run_row *r, char *err, size_t errlen);
#endif
