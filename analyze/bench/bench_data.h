/* A label's benches read back for analysis: its boots, the cells of its
 * plan with their parameter values, every finished run, and each run's
 * metric values. Shared by `perfdb results` and `perfdb report`. */
#ifndef PERFDB_BENCH_DATA_H
#define PERFDB_BENCH_DATA_H
#include <sqlite3.h>
#include "lib/doc.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum run_kind { RUN_BARE, RUN_RECORDED, RUN_WARMUP };

/* One boot of the label (one bench row). */
struct bd_boot {
	int64_t bench_id;
	char *boot_id, *os_release, *os_version, *build_id, *hostname, *cpu_model, *perf_version;
	char *started_at;
	int cpus_online;
	long long mem_total_kb;
};

/* One sitting: one `perfdb bench` invocation on one boot. */
struct bd_sitting {
	int boot;		/* index into boots */
	int number;		/* bench_sitting.sitting; 0: the runs stored before sittings were */
	char *started_at;	/* UTC, ISO 8601 (the bench's start for number 0) */
};

/* One finished run. */
struct bd_run {
	int64_t id, session;	/* session 0: none */
	int cell, boot, run;	/* boot: index into boots */
	int sitting;		/* index into sittings */
	enum run_kind kind;
	bool ok;
	char *status, *error;
	double wall_s, user_s, sys_s;
	size_t first_value, nvalues;	/* its metric values: values[first_value ..] */
	double pulse_int, pulse_mem;	/* the machine's pulse before its round; NaN: unknown */
	bool new_probe;		/* its pulse is another probe's than the run before it */
	bool rest_probe;	/* its pulse is its sitting's first probe, taken before any run
				 * (of a sitting with 3 or more: left out of the pulse's
				 * statistics, see bd_mark_rest_probes) */
	double others_s, steal_s;	/* CPU time of other processes, steal time; NaN: unknown */
};

/* One metric value of a run. */
struct bd_value {
	int metric;		/* index into metrics */
	double value;
};

struct bd_metric {
	char *name, *unit;	/* unit "" when none */
	int better;		/* +1 higher, -1 lower, 0 unknown (metric_line.h's words) */
	bool dist;		/* a distribution in some run: its values are each run's stat */
};

/* The per-run statistics a distribution's runs can be compared on
 * (run_dist's columns), NULL-terminated; "mean" first, the default. */
extern const char *const bd_stats[];

struct bench_data {
	char *label;
	char *argv_json, *recipes, *run_order;	/* the plan, from the latest bench */
	char *parse;		/* its output format (--parse); NULL: metric lines */
	int runs, warmup, record_every;
	double timeout_s;
	struct bd_boot *boots;
	size_t nboots;
	struct bd_sitting *sittings;	/* by boot, then number */
	size_t nsittings;
	char **params;		/* parameter names, in plan order */
	size_t nparams;
	char **cell_values;	/* ncells x nparams values */
	size_t ncells;
	struct bd_metric *metrics;	/* in the order first printed */
	size_t nmetrics;
	struct bd_run *runs_v;
	size_t nruns;
	struct bd_value *values;
	size_t nvalues;
	const char *stat;	/* the distributions' per-run statistic (a bd_stats word) */
	/* A side narrowed to cells (bench_data_narrow), else NULL and 0: */
	char *narrow;		/* "NAME=V[,NAME=V...]", as given */
	size_t *cell_orig;	/* cell i's number in the stored bench (bench_run.cell) */
	char **plan_params;	/* every parameter of the plan as -p gave it, "NAME=V1,V2" */
	size_t nplan_params;
};

/* bench_data_load(db, label, stat, b, err, errlen): label's benches into
 * *b (from empty); a distribution's value in a run is that run's stat
 * (a bd_stats word; NULL: the mean). Returns 0, 1 when the label has no
 * bench (err says so), or -1 with err set (an unknown stat). */
int bench_data_load(sqlite3 *db, const char *label, const char *stat, struct bench_data *b, char *err,
		    size_t errlen);

/* bench_data_narrow(b, spec, err, errlen): b reduced to the cells whose
 * parameters have the values spec names ("NAME=V[,NAME=V...]", the part
 * of a side LABEL:NAME=V after the ':'): the runs of other cells are
 * gone, the named parameters are no longer b's (a kept cell is its other
 * parameters' values), b->label becomes "LABEL:spec" (as shown),
 * b->narrow holds spec, b->cell_orig maps the kept
 * cells to the stored ones and b->plan_params keeps the whole plan's -p
 * (for commands). 0, or -1 with err (no such parameter, a parameter
 * twice, no cell with those values, not NAME=V). */
int bench_data_narrow(struct bench_data *b, const char *spec, char *err, size_t errlen);

/* bench_cell_sessions(db, spec, ids, err, errlen): the sessions of the
 * recorded runs of the cells spec names ("LABEL:NAME=V[,NAME=V...]"), in
 * the bench's run order. Returns their number (> 0) with *ids malloc'ed,
 * or -1 with err (not that form, no such bench, parameter or cell, or no
 * run of those cells recorded). */
int bench_cell_sessions(sqlite3 *db, const char *spec, int64_t **ids, char *err, size_t errlen);

/* bd_cell_stored(b, cell): cell's number in the stored bench. */
size_t bd_cell_stored(const struct bench_data *b, size_t cell);

/* bd_stat_note(b, n, d): when a metric of b[0..n) is a distribution, a
 * note in d naming those metrics and the per-run statistic they are
 * compared on (b[0].stat). */
void bd_stat_note(const struct bench_data *b, size_t n, struct doc *d);

/* bench_data_free(b): frees what b holds. */
void bench_data_free(struct bench_data *b);

/* bd_cell_value(b, cell, i): cell's value of parameter i. */
const char *bd_cell_value(const struct bench_data *b, size_t cell, size_t i);

/* bd_metric_index(b, name): the index of metric name, or -1. */
int bd_metric_index(const struct bench_data *b, const char *name);

/* bd_values(b, cell, metric, kind, boot, out): the values of metric in the
 * runs of cell and kind that ended well (all boots when boot < 0), in run
 * order, into *out (malloc'ed); returns how many. */
size_t bd_values(const struct bench_data *b, int cell, int metric, enum run_kind kind, int boot,
		 double **out);

/* bd_sitting_values(b, cell, metric, kind, sitting, out): as bd_values,
 * of the runs of one sitting (an index into sittings). */
size_t bd_sitting_values(const struct bench_data *b, int cell, int metric, enum run_kind kind,
			 int sitting, double **out);

/* bd_load(b, r, taken, capacity): the CPU time other processes and the
 * hypervisor's steal took during run r, and the machine's CPU time over
 * it (wall x online CPUs), in seconds; false (both 0) when unknown. Their
 * sums over runs give the share taken (one short run's is off by up to
 * a tick of /proc/stat a CPU). */
bool bd_load(const struct bench_data *b, const struct bd_run *r, double *taken, double *capacity);

/* A cell's metric summarized over runs that ended well. */
struct bd_stats {
	size_t runs;		/* values counted */
	int boots;		/* boots with at least one value */
	int sittings;		/* sittings with at least one value */
	double median;		/* each boot's median, averaged over those boots */
	double mean, stddev, rsd, min, max;	/* over every value; NaN when undefined */
};

/* bd_stats_of(b, cell, metric, kind, s): the summary of metric in cell's
 * runs of kind. */
void bd_stats_of(const struct bench_data *b, int cell, int metric, enum run_kind kind, struct bd_stats *s);

/* bd_times(b, cell, kind, user, sys, wall): the mean user, system and
 * elapsed seconds per run of cell's runs of kind that ended well (NaN when
 * none); returns their number. */
size_t bd_times(const struct bench_data *b, int cell, enum run_kind kind, double *user, double *sys,
		double *wall);

/* bench_labels(db, labels): every label with a bench, in the order of
 * its first bench, into *labels (malloc'ed strings); returns how many. */
size_t bench_labels(sqlite3 *db, char ***labels);
#endif
