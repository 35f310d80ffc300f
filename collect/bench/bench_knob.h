/* The knobs of one perfdb bench invocation (--set PATH=TEMPLATE) and the
 * database's record of them (schema/knob.sql). Before each run the cell's
 * values are written and checked (collect/bench/knob.h); the original of
 * each file is saved in bench_knob before its first write and written
 * back at the end (after the run a stop signal let finish: never from a
 * signal handler). A bench that died (kill -9, a crash, a reboot) leaves
 * rows not restored: the next bench of the database writes them back, and
 * perfdb doctor -o DB lists them. */
#ifndef PERFDB_BENCH_KNOB_H
#define PERFDB_BENCH_KNOB_H
#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "collect/bench/bench_plan.h"

struct bench_knobs {
	size_t n;
	char **paths;		/* the --set files, resolved */
	char **values;		/* what the current run's cell writes; NULL before the first */
	char **originals;	/* saved before the first write; NULL until then */
	int64_t *rows;		/* their bench_knob rows; 0: not saved (or written back) */
	const char *boot_id;	/* this boot's */
};

/* A knob a bench of the database changed and did not write back. */
struct knob_left {
	int64_t row;		/* bench_knob's rowid */
	char *path, *original, *label, *saved_at, *boot_id;
	int64_t pid;
	bool here;		/* changed on this machine (a pulled row may not be) */
	bool alive;		/* its bench still runs (this boot, the process a perfdb) */
};

/* bench_knobs_check(p, err, errlen): every --set file of p may be a knob
 * (knob_check: a writable regular file under /sys, /proc/sys or debugfs),
 * no two the same file. 0 or -1 with one line in err. */
int bench_knobs_check(const struct bench_plan *p, char *err, size_t errlen);

/* bench_knobs_left(db, boot_id, n): the knobs of db not written back,
 * oldest first, their number in *n (0 also for a database without the
 * table); malloc'ed, free with bench_knobs_left_free. */
struct knob_left *bench_knobs_left(sqlite3 *db, const char *boot_id, size_t *n);
void bench_knobs_left_free(struct knob_left *v, size_t n);

/* bench_knobs_recover(db, boot_id): writes back every knob a bench of db
 * left changed on this machine and that is gone, marks it restored and says so on stderr,
 * one line each; one that cannot be written back stays listed (a line
 * says why). */
void bench_knobs_recover(sqlite3 *db, const char *boot_id);

/* bench_knobs_init(k, db, boot_id, p, err, errlen): k for p's --set files
 * (resolved; bench_knobs_check passed). -1 with err set when a bench that
 * still runs holds one of them (two benches would fight over it). */
int bench_knobs_init(struct bench_knobs *k, sqlite3 *db, const char *boot_id, const struct bench_plan *p,
		     char *err, size_t errlen);

/* bench_knobs_set(k, db, bench_id, p, cell, why, len): before a run of
 * cell: each file's original saved when not yet (one bench_knob row,
 * committed before the write), the cell's value written and read back.
 * k->values hold the cell's values after it, whatever happened. 0, or -1
 * with why (the run fails). */
int bench_knobs_set(struct bench_knobs *k, sqlite3 *db, int64_t bench_id, const struct bench_plan *p,
		    size_t cell, char *why, size_t len);

/* bench_knobs_restore(k, db): every saved original written back (last
 * --set first) and its row marked restored. 0, or -1 when one could not
 * be (a line on stderr says which; its row stays as it was). */
int bench_knobs_restore(struct bench_knobs *k, sqlite3 *db);

/* bench_knobs_free(k): frees what k holds. */
void bench_knobs_free(struct bench_knobs *k);
#endif
