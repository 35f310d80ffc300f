/* perf's build-id cache: perf record keeps, under ~/.debug (or
 * $PERF_BUILDID_DIR), a copy of each binary that has samples, of the
 * kernel's kallsyms and of the vDSO, by build id:
 * DIR/.build-id/ab/cdef.../{elf,kallsyms,vdso}. perf report resolves from
 * it when a binary was rebuilt, or on another machine (perf archive); so
 * does perfdb import. */
#ifndef PERFDB_BUILDID_CACHE_H
#define PERFDB_BUILDID_CACHE_H
#include <stdbool.h>
#include <stddef.h>

/* buildid_cache_file: the path of leaf ("elf", "kallsyms", "vdso") for
 * build id build_id (lower-case hex) in the cache, in out; false when
 * the cache has no such readable file (or the id is not hex). */
bool buildid_cache_file(const char *build_id, const char *leaf, char *out, size_t len);

/* buildid_cache_dir: the cache's directory: $PERF_BUILDID_DIR, else
 * $HOME/.debug; NULL when neither is set. */
const char *buildid_cache_dir(char *buf, size_t len);
#endif
