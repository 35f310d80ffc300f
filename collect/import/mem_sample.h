/* Memory-access samples (perf mem / perf c2c): the data_src word decoded
 * into its perf_mem_data_src fields, and the mem_sample row insert. */
#ifndef PERFDB_MEM_SAMPLE_H
#define PERFDB_MEM_SAMPLE_H
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include "collect/perfdata/perf_data.h"

struct mem_src {
	unsigned op, lvl, snoop, lock, dtlb, lvl_num, remote, snoopx, blk, hops;
};

/* mem_src_decode: splits data_src into its bit fields (the kernel's
 * little-endian bitfield layout of union perf_mem_data_src). */
void mem_src_decode(uint64_t data_src, struct mem_src *m);

/* The values of an all-"not available" data_src: OP/LVL/SNOOP/LOCK/TLB NA,
 * with LVLNUM NA (kernels since 4.14) or without. */
#define MEM_SRC_NA 0x1e05080021ULL
#define MEM_SRC_NA_OLD 0x5080021ULL

/* mem_sample_wanted: whether samples of evsel e carry memory-access data
 * (DATA_SRC, or ADDR with WEIGHT/PHYS_ADDR), as opposed to the ADDR and
 * DATA_SRC bits that --call-graph dwarf sets too. */
bool mem_sample_wanted(const struct pd_evsel *e, const struct pd_sample *s);

struct batch;
struct sqlq;

/* mem_sample_batch: a row batch for the mem_sample table, written through
 * q (NULL on error). */
struct batch *mem_sample_batch(sqlite3 *db, struct sqlq *q);

/* mem_sample_add: adds the mem_sample row of sample_id to b. 0 or -1. */
int mem_sample_add(struct batch *b, int64_t sample_id, const struct pd_sample *s);
#endif
