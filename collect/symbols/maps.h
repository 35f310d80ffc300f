/* Memory maps of one process (address space) during an import: sorted,
 * non-overlapping address ranges, each with its file offset and dso, as
 * MMAP/MMAP2 records build them up. Kept in a treap (a binary search tree
 * on the start address balanced by random priorities), so that an insert
 * costs O(log n) plus the maps it replaces and a lookup O(log n): a
 * recording's mmaps may number tens of thousands per process. A fork's
 * copy shares the parent's nodes: O(1), and O(log n) more memory per
 * later insert on either side. */
#ifndef PERFDB_MAPS_H
#define PERFDB_MAPS_H
#include <stddef.h>
#include <stdint.h>

struct map {
	uint64_t start, end, pgoff;
	size_t dso;		/* the resolver's dso index */
};

struct map_node;

struct maps {
	struct map_node *root;
	size_t n;		/* maps held */
	uint64_t gen;		/* changes whenever the maps do */
	uint64_t rng;		/* priority source (xorshift state; 0: seeded at random) */
};

/* maps_insert: adds m (start < end; an empty m is ignored), trimming or
 * splitting the maps it overlaps, as a new mmap over old ones replaces
 * them. */
void maps_insert(struct maps *ms, struct map m);

/* maps_copy: adds every map of from to to (a fork's child): shared in
 * O(1) when to is empty, else as inserts (so maps to already had are
 * replaced where from's overlap them). */
void maps_copy(struct maps *to, const struct maps *from);

/* maps_find: the map containing addr, or NULL. Valid until the next
 * change of ms (changes of maps sharing nodes with ms do not matter). */
const struct map *maps_find(const struct maps *ms, uint64_t addr);

/* maps_walk: calls fn(ctx, map) for every map in address order. */
void maps_walk(const struct maps *ms, void (*fn)(void *ctx, const struct map *m),
	       void *ctx);

/* maps_free: frees the maps' memory (ms is then empty, reusable). */
void maps_free(struct maps *ms);
#endif
