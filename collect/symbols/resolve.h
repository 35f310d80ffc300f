/* Address -> symbol resolution during an import: per-process memory maps
 * from MMAP/MMAP2 records, ELF symbols of mapped files that are on disk
 * (build-id checked when the recording has one), kernel symbols from a
 * kallsyms snapshot. Each distinct (dso, symbol) becomes one symbol row;
 * each mapped file one dso row. */
#ifndef PERFDB_RESOLVE_H
#define PERFDB_RESOLVE_H
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include "collect/perfdata/perf_data.h"

struct resolver;
struct sqlq;

/* resolver_new: a resolver for session; kallsyms: a kallsyms file to use
 * for kernel symbols, or NULL to use /proc/kallsyms when the recording was
 * made on this machine's running kernel. Symbol and mmap rows are written
 * through q. NULL when their inserts cannot be prepared.
 * resolver_free(res): frees it (NULL: no-op). */
struct resolver *resolver_new(sqlite3 *db, int64_t session, const char *kallsyms,
			      struct sqlq *q);
void resolver_free(struct resolver *res);

/* resolver_prefetch_kallsyms: once the recording's events are known (r's
 * header read), starts loading on a thread the kallsyms file the first
 * kernel address will look in first (--kallsyms, perf's build-id cache
 * or /proc/kallsyms), unless no event samples the kernel. */
void resolver_prefetch_kallsyms(struct resolver *res, const struct pd_reader *r);

/* resolver_mmap: an MMAP/MMAP2 record ev for process row proc (kernel
 * maps: pid -1, proc ignored). Returns 0, or -1 when writing its mmap row
 * failed. */
int resolver_mmap(struct resolver *res, const struct pd_reader *r, int64_t proc,
		  const struct pd_event *ev);

/* resolver_fork: process row child starts with a copy of parent's maps. */
void resolver_fork(struct resolver *res, int64_t child, int64_t parent);

/* resolver_symbol: the symbol row of ip, executed in process row proc in
 * cpumode (PD_CPUMODE_*); -1 when writing a new symbol row failed.
 * Unresolvable addresses map to the '[unknown]' symbol of their dso (or of
 * no dso). */
int64_t resolver_symbol(struct resolver *res, const struct pd_reader *r,
			int64_t proc, int cpumode, uint64_t ip);

struct umap;

/* resolver_maps_gen: a number that changes whenever process row proc's
 * maps do (0 for a process without maps). */
uint64_t resolver_maps_gen(struct resolver *res, int64_t proc);

/* resolver_user_maps: process row proc's maps of files whose symbols are
 * loaded (loading them), each with the ELF file read, in *out
 * (malloc'ed, or NULL when proc has no maps; the file names belong to the
 * resolver). The count (never negative). */
long resolver_user_maps(struct resolver *res, const struct pd_reader *r, int64_t proc,
			struct umap **out);

/* resolver_ksym: the kernel symbol of addr as perf prints it into buf:
 * "name+0xoff" (%pS) with with_offset, else "name" (%ps); NULL when
 * unknown. */
const char *resolver_ksym(struct resolver *res, const struct pd_reader *r,
			  uint64_t addr, bool with_offset, char *buf, size_t len);

/* resolver_is_kernel: whether addr lies in the kernel's address range. */
int resolver_is_kernel(const struct pd_reader *r, uint64_t addr);

/* resolver_flush: hands on the symbol and mmap rows still batched. */
int resolver_flush(struct resolver *res);

/* resolver_finish: writes the dso rows, stores where kernel symbols came
 * from in the session (and the kallsyms snapshot used), and counts
 * unresolved addresses into data_quality. Call it once the writer queue
 * is drained. 0 or -1 (message in err). */
int resolver_finish(struct resolver *res, char *err, size_t errlen);
#endif
