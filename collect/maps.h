/* Memory maps of one process (address space) during an import: sorted,
 * non-overlapping address ranges, each with its file offset and dso, as
 * MMAP/MMAP2 records build them up. */
#ifndef PERFDB_MAPS_H
#define PERFDB_MAPS_H
#include <stddef.h>
#include <stdint.h>

struct map {
	uint64_t start, end, pgoff;
	size_t dso;		/* the resolver's dso index */
};

struct maps {
	struct map *v;
	size_t n, cap;
	uint64_t gen;		/* changes whenever the maps do */
};

/* maps_insert: adds m, trimming or splitting the maps it overlaps, as a
 * new mmap over old ones replaces them. */
void maps_insert(struct maps *ms, struct map m);

/* maps_copy: appends every map of from to to (a fork's child). */
void maps_copy(struct maps *to, const struct maps *from);

/* maps_find: the map containing addr, or NULL. */
const struct map *maps_find(const struct maps *ms, uint64_t addr);

/* maps_free: frees the maps' memory. */
void maps_free(struct maps *ms);
#endif
