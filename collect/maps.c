/* Memory maps of one process during an import: see maps.h. */
#include <stdlib.h>
#include "collect/maps.h"

/* maps_push: appends m to ms (unsorted; callers keep order). */
static int maps_push(struct maps *ms, struct map m)
{
	if (ms->n == ms->cap) {
		size_t n = ms->cap ? ms->cap * 2 : 16;
		struct map *v = realloc(ms->v, n * sizeof(*v));
		if (!v)
			return -1;
		ms->v = v;
		ms->cap = n;
	}
	ms->v[ms->n++] = m;
	return 0;
}

/* map_cmp: orders maps by start address. */
static int map_cmp(const void *a, const void *b)
{
	const struct map *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* maps_insert: adds m, trimming or splitting the maps it overlaps, as a
 * new mmap over old ones replaces them. */
int maps_insert(struct maps *ms, struct map m)
{
	struct maps out = { .gen = ms->gen + 1 };
	int rc = 0;
	for (size_t i = 0; i < ms->n && !rc; i++) {
		struct map o = ms->v[i];
		if (o.end <= m.start || o.start >= m.end) {
			rc = maps_push(&out, o);
			continue;
		}
		if (o.start < m.start) {
			struct map left = o;
			left.end = m.start;
			rc = maps_push(&out, left);
		}
		if (!rc && o.end > m.end) {
			struct map right = o;
			right.pgoff += m.end - o.start;
			right.start = m.end;
			rc = maps_push(&out, right);
		}
	}
	if (!rc)
		rc = maps_push(&out, m);
	free(ms->v);
	*ms = out;
	qsort(ms->v, ms->n, sizeof(*ms->v), map_cmp);
	return rc;
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

int maps_copy(struct maps *to, const struct maps *from)
{
	to->gen++;
	for (size_t i = 0; i < from->n; i++)
		if (maps_push(to, from->v[i]))
			return -1;
	return 0;
}

void maps_free(struct maps *ms)
{
	free(ms->v);
	ms->v = NULL;
	ms->n = ms->cap = 0;
}
