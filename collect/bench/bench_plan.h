/* A bench's plan: the workload command template, the parameter matrix,
 * runs per cell and the order of the runs, and the list of runs (slots)
 * the plan asks for. Pure: no I/O.
 *
 * The cells are the cross product of the parameters' values, the first
 * parameter varying slowest; cell c's value of parameter i is
 * values[(c / stride_i) % nvalues_i]. {NAME} in an argument is replaced
 * by the cell's value of parameter NAME ({{ is a literal '{'). The slots:
 * each cell's warm-up runs first, then its counted runs: `runs` bare runs
 * and, with recipes, one recorded run per `record_every` bare runs
 * (rounded up). Orders: interleave (round by round: every cell's run 1,
 * then every cell's run 2 ..., so the machine's drift spreads over all
 * cells), sequential (cell by cell), random (warm-ups then counted runs,
 * each group shuffled with the seed). Knobs (--set PATH=TEMPLATE): a
 * file written before each run of a cell, the template's {NAME}s replaced
 * as the command's are (collect/bench/bench_knob.h writes them). */
#ifndef PERFDB_BENCH_PLAN_H
#define PERFDB_BENCH_PLAN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum bench_order { ORDER_INTERLEAVE, ORDER_RANDOM, ORDER_SEQUENTIAL };
enum slot_kind { SLOT_WARMUP, SLOT_BARE, SLOT_RECORDED };

/* The names of enum bench_order and enum slot_kind, NULL-terminated. */
extern const char *const bench_order_names[];
extern const char *const slot_kind_names[];

/* The names no parameter may take (the column names of perfdb results
 * and perfdb report), NULL-terminated. */
extern const char *const bench_reserved_names[];

struct bench_param {
	char *name;
	char **values;
	size_t nvalues;
};

/* One --set: PATH=TEMPLATE. */
struct bench_set {
	char *path;		/* as given */
	char *value;		/* the template */
};

struct bench_plan {
	char **argv;		/* the template */
	size_t argc;
	struct bench_param *params;
	size_t nparams, cap;
	int runs, warmup;
	enum bench_order order;
	uint64_t seed;
	char *recipes;		/* NULL: bare runs only */
	char *parse;		/* the runs' output format (--parse); NULL: metric lines */
	int record_every;	/* >= 1 */
	double timeout_s;	/* 0: none */
	struct bench_set *sets;	/* --set, in the order given */
	size_t nsets;
};

/* One run the plan asks for. */
struct slot {
	size_t cell;
	enum slot_kind kind;
	int run;		/* 1.. within the cell and kind */
};

/* bench_plan_add_param(p, arg, err, errlen): one -p NAME=V1,V2,... (NAME
 * [A-Za-z_][A-Za-z0-9_]*, new, not reserved; values non-empty and
 * distinct). 0 or -1
 * with what is wrong in err. */
int bench_plan_add_param(struct bench_plan *p, const char *arg, char *err, size_t errlen);

/* bench_plan_add_set(p, arg, err, errlen): one --set PATH=TEMPLATE (PATH
 * non-empty, given once; split at the first '='). 0 or -1 with what is
 * wrong in err. The file itself is checked by bench_knob_check_paths. */
int bench_plan_add_set(struct bench_plan *p, const char *arg, char *err, size_t errlen);

/* bench_plan_set_argv(p, argv, argc): the command template (copied). */
void bench_plan_set_argv(struct bench_plan *p, char *const *argv, size_t argc);

/* bench_plan_check(p, err, errlen): every {NAME} of the template and of
 * the --set templates names a parameter and every parameter appears in
 * one of them; the templates, paths and values
 * are UTF-8 (they are stored as text and must come back the same); the
 * recipes and the output format are known ones. 0 or -1 with err set. */
int bench_plan_check(const struct bench_plan *p, char *err, size_t errlen);

/* bench_ncells(p): the number of cells (1 without parameters). */
size_t bench_ncells(const struct bench_plan *p);

/* bench_cell_value(p, cell, i): cell's value of parameter i. */
const char *bench_cell_value(const struct bench_plan *p, size_t cell, size_t i);

/* bench_cell_text(p, cell): "cpus=2 mm=shared" ("" without parameters),
 * malloc'ed. */
char *bench_cell_text(const struct bench_plan *p, size_t cell);

/* bench_argv(p, cell): the command of a cell, NULL-terminated, every
 * string malloc'ed (free with bench_argv_free). */
char **bench_argv(const struct bench_plan *p, size_t cell);
void bench_argv_free(char **argv);

/* bench_set_value(p, cell, k): the value --set k writes before a run of
 * cell (its template with the cell's values), malloc'ed. */
char *bench_set_value(const struct bench_plan *p, size_t cell, size_t k);

/* bench_slots(p, n): every slot of the plan in its order (malloc'ed),
 * their number in *n. */
struct slot *bench_slots(const struct bench_plan *p, size_t *n);

/* bench_plan_json(p): the plan as canonical JSON (the template, the
 * parameters, runs, warm-ups, order, recipes, record_every, timeout, and
 * the output format and the --set templates when given; not the seed),
 * malloc'ed: two plans are the same plan when these are equal. */
char *bench_plan_json(const struct bench_plan *p);

/* bench_argv_json(argv, argc): argv as a JSON array of strings, malloc'ed. */
char *bench_argv_json(char *const *argv, size_t argc);

/* bench_plan_free(p): frees what p holds and empties it. */
void bench_plan_free(struct bench_plan *p);
#endif
