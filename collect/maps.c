/* Memory maps of one process during an import: see maps.h. */
#include <stdlib.h>
#include "lib/alloc.h"
#include "collect/maps.h"

/* maps_push: appends m to ms (unsorted; callers keep order). */
static void maps_push(struct maps *ms, struct map m)
{
	ALLOC_GROW(ms->v, ms->n + 1, ms->cap);
	ms->v[ms->n++] = m;
}

/* map_cmp: orders maps by start address. */
static int map_cmp(const void *a, const void *b)
{
	const struct map *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* maps_insert: adds m, trimming or splitting the maps it overlaps, as a
 * new mmap over old ones replaces them. */
void maps_insert(struct maps *ms, struct map m)
{
	struct maps out = { .gen = ms->gen + 1 };
	for (size_t i = 0; i < ms->n; i++) {
		struct map o = ms->v[i];
		if (o.end <= m.start || o.start >= m.end) {
			maps_push(&out, o);
			continue;
		}
		if (o.start < m.start) {
			struct map left = o;
			left.end = m.start;
			maps_push(&out, left);
		}
		if (o.end > m.end) {
			struct map right = o;
			right.pgoff += m.end - o.start;
			right.start = m.end;
			maps_push(&out, right);
		}
	}
	maps_push(&out, m);
	free(ms->v);
	*ms = out;
	qsort(ms->v, ms->n, sizeof(*ms->v), map_cmp);
}

/* maps_find: the map containing addr, or NULL. */
const struct map *maps_find(const struct maps *ms, uint64_t addr)
{
	size_t lo = 0, hi = ms->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (ms->v[mid].end <= addr)
			lo = mid + 1;
		else if (ms->v[mid].start > addr)
			hi = mid;
		else
			return &ms->v[mid];
	}
	return NULL;
}

void maps_copy(struct maps *to, const struct maps *from)
{
	to->gen++;
	for (size_t i = 0; i < from->n; i++)
		maps_push(to, from->v[i]);
}

void maps_free(struct maps *ms)
{
	free(ms->v);
	ms->v = NULL;
	ms->n = ms->cap = 0;
}
