/* The machine's own change between two sides of a comparison: how its
 * pulse (collect/pulse.h: an integer loop and a memory stream, measured
 * between the runs) and the CPU time left to the workload (what other
 * processes and the hypervisor's steal did not take) differ from the base
 * side's runs to the new side's, and which of a comparison's changes that
 * could explain (docs/statistics.md, "The machine in the verdict").
 *
 * Each indicator is compared as the %change of the new side's mean from
 * the base side's, with Welch's 95% interval over the probes (the pulse)
 * or the runs (the capacity). The machine changed when an indicator's
 * interval excludes 0 and its change is at least MACHINE_MIN_PCT (with a
 * single probe a side, where no interval can be had: at least
 * MACHINE_SINGLE_PCT). A workload can follow the machine more than 1:1
 * (a run that shares its CPUs with another busy task can lose more than
 * the CPU time that task took), so a change in the direction the machine
 * pushes is taken as the machine's when its interval comes within the
 * machine's change (the far end of its interval) times an elasticity of
 * 0: MACHINE_ELASTICITY_PULSE for the loops, MACHINE_ELASTICITY_LOAD for
 * the CPU time left. A machine that did not change beyond its noise may
 * still have drifted as far as its noise allows, which a test on the runs
 * of one sitting a side does not hold: the far end of the integer pulse's
 * interval is the drift a change of such a test must clear, either way
 * (the memory pulse, noisier from probe to probe, and the CPU time left,
 * whose tick-counted share of a short run is noise, count only when they
 * changed).
 *
 * A side is busy when other processes and steal took MACHINE_BUSY_PCT or
 * more of the CPUs' time during its runs, on average, and more than twice
 * what /proc/stat's whole ticks can put there by themselves (a tick a CPU
 * a run: runs of a few ms would otherwise look busy by counting alone): how their work fell
 * on each run then moves the runs, and on two sittings differently, by an
 * amount no indicator measures. A comparison whose runs are its units
 * (one sitting a side) cannot tell that from the kernel's change within
 * twice the share they took (MACHINE_ELASTICITY_LOAD), and a busy machine
 * withholds such verdicts; with 2 or more sittings a side the sittings'
 * means carry it. The core (machine_compare,
 * machine_explains) is pure. */
#ifndef PERFDB_MACHINE_H
#define PERFDB_MACHINE_H
#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "analyze/bench/bench_data.h"
#include "lib/doc.h"
#include "lib/stats.h"

#define MACHINE_MIN_PCT 2.0
#define MACHINE_SINGLE_PCT 10.0
#define MACHINE_ELASTICITY_PULSE 1.0
#define MACHINE_ELASTICITY_LOAD 2.0
#define MACHINE_BUSY_PCT 10.0
#define MACHINE_TICK_S 0.01	/* /proc/stat's tick (USER_HZ 100) */

/* The indicators: the pulse's two loops, and the capacity left. */
enum { MI_INT, MI_MEM, MI_CAP, MI_N };

/* What one side's runs saw of the machine. */
struct machine_side {
	double *v[MI_N];	/* int, mem: one per probe; cap: 1 - load, one per run */
	size_t n[MI_N];
	size_t runs;		/* runs looked at (with or without what they saw) */
	double taken, capacity;	/* CPU seconds others and steal took; the machine's, over the runs */
	double tick_var;	/* the variance /proc/stat's ticks leave in taken (s^2) */
};

/* One indicator compared. */
struct machine_ind {
	double base, new;	/* the sides' means (NaN: none) */
	double pct;		/* %change of the means, NaN when not both */
	struct interval ci;	/* of the %change, 95%; NaN ends without 2 values a side */
	bool changed;
};

/* The two sides compared. */
struct machine_cmp {
	struct machine_ind ind[MI_N];
	bool known;		/* both sides have the pulse or the load */
	bool changed;		/* some indicator changed */
	int dir;		/* +1 faster, -1 slower, 0 both ways (or no change) */
	double band;		/* % within which a change the machine pushes is its own */
	double drift;		/* % a workload may have moved with what the machine may have
				 * drifted unseen: the far end of the integer pulse's interval */
	double busy[2];		/* % of the CPUs other processes and steal took, per side (NaN: unknown) */
	bool busy_any;		/* a side at MACHINE_BUSY_PCT or more */
};

/* machine_side_of_bench(b, cells, ncells, s): what the bare runs of
 * bench b in the given cells (all when cells is NULL) saw, into *s (from
 * empty; a probe shared by a round's runs counts once). */
void machine_side_of_bench(const struct bench_data *b, const int *cells, size_t ncells,
			   struct machine_side *s);

/* machine_side_of_sessions(db, ids, n, s): what the recordings ids saw
 * (perfdb record's pulse and load, session columns), into *s. */
void machine_side_of_sessions(sqlite3 *db, const int64_t *ids, int n, struct machine_side *s);

/* machine_side_free(s): frees what s holds. */
void machine_side_free(struct machine_side *s);

/* machine_compare(a, b, m): base a against new b. */
void machine_compare(const struct machine_side *a, const struct machine_side *b, struct machine_cmp *m);

/* machine_explains(m, push, ci, pct, runs): whether the machine could
 * explain a change whose 95% interval is ci (excluding 0): 1 its own
 * change (the machine changed; the change goes the way it pushes and
 * comes within the band of 0), 2 the drift it may have had unseen (with
 * runs: a test on the runs of one sitting a side, whose interval holds no
 * drift between sittings; either way, within drift of 0), 3 a busy side
 * (with runs; either way, within MACHINE_ELASTICITY_LOAD times the larger
 * share other processes and steal took; any change without pct), 0 none. push
 * is how the value moves on a faster machine (+1 up: a rate; -1 down: a
 * time; 0 unknown); ci is in % of the base value when pct, else in the
 * value's unit (no magnitude can then be compared: any change the
 * changed machine pushes is its own, and drift explains none). */
int machine_explains(const struct machine_cmp *m, int push, struct interval ci, bool pct, bool runs);

/* machine_warn_busy(m, d, what, base, new, so): when a side was busy, a
 * warning saying how busy, and so: what that does to the comparison. */
void machine_warn_busy(const struct machine_cmp *m, struct doc *d, const char *what, const char *base,
		       const char *new, const char *so);

/* machine_push(better): push of a metric whose better direction is
 * better (+1 higher, -1 lower, 0 unknown): rates rise on a faster
 * machine, times fall. */
int machine_push(int better);

/* machine_warn(m, d, what, base, new): when the machine changed, a
 * warning into d saying how, with the numbers ("the machine was 19%
 * slower during the new side's runs (patched) than during the base
 * side's (base): ..."); what names the compared things ("runs",
 * "recordings"). */
void machine_warn(const struct machine_cmp *m, struct doc *d, const char *what, const char *base,
		  const char *new);

/* machine_table(m, a, b, base, new, section): the table "machine" of both
 * sides' indicators and their change, for a findings document. */
struct table *machine_table(const struct machine_cmp *m, const struct machine_side *a,
			    const struct machine_side *b, const char *base, const char *new,
			    const char *section);

/* machine_json(m, g): the comparison as findings values under g. */
void machine_json(const struct machine_cmp *m, struct dval *g);
#endif
