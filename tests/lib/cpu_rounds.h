/* cpu_rounds: writes, through pdwriter, records shaped like a system-wide
 * perf record on many CPUs: each round drains every CPU's ring buffer in
 * turn (CPU 0 first), so a round holds one ascending run per CPU, the runs
 * overlapping in time, and a CPU drained later in a round holds records
 * newer than the previous CPUs' (each CPU's drain is skewed by up to half
 * a round). No record is older than the round before the previous one
 * ended, as perf guarantees. Used by the ordering unit tests and by the
 * import benchmark (tests/tools/cpu_rounds). */
#ifndef PERFDB_TESTS_CPU_ROUNDS_H
#define PERFDB_TESTS_CPU_ROUNDS_H
#include <stdbool.h>
#include <stdint.h>
#include "tests/lib/pdwriter.h"

struct cpu_rounds {
	uint32_t cpus;			/* ring buffers drained per round */
	uint32_t per_cpu;		/* records of each CPU in each round */
	uint32_t rounds;		/* FINISHED_ROUNDs written */
	bool ties;			/* times coarse enough that CPUs share some */
	uint64_t seed;			/* jitter of the times */
	bool few_ips;			/* ips from 16 values, not the sample's number */
};

/* cpu_rounds_attr: the evsel the records belong to (cpu-clock samples
 * with IP, TID, TIME, CPU and PERIOD); add it with pdw_add_attr. */
struct pdw_attr cpu_rounds_attr(void);

/* cpu_rounds_write(w, evsel, o, times): writes o->rounds rounds of
 * o->cpus x o->per_cpu samples of evsel, each followed by a
 * FINISHED_ROUND; sample i (in file order, from 0) has ip i (i % 16 plus
 * a kernel text address with few_ips: a profile of a few functions, not
 * millions of distinct addresses). times, when
 * not NULL, receives each sample's time in file order (room for
 * cpus x per_cpu x rounds). Returns 0, or -1 (pdw_error says why). */
int cpu_rounds_write(struct pdw *w, int evsel, const struct cpu_rounds *o, uint64_t *times);
#endif
