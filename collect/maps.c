/* Memory maps of one process during an import: see maps.h. The treap is
 * ordered by start address (maps never overlap, so by end too); each node
 * has a random priority no smaller than its children's. split and merge
 * are the two primitives; an insert splits out the range the new map
 * covers, trims the maps at its edges and merges the rest back. */
#include <stdlib.h>
#include "lib/alloc.h"
#include "collect/maps.h"

struct map_node {
	struct map m;
	uint64_t prio;
	struct map_node *l, *r;
};

/* next_prio: the next priority of ms's xorshift64 sequence. */
static uint64_t next_prio(struct maps *ms)
{
	uint64_t x = ms->rng ? ms->rng : 0x9E3779B97F4A7C15ULL;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	ms->rng = x;
	return x;
}

/* node_new: a leaf holding m. */
static struct map_node *node_new(struct maps *ms, struct map m)
{
	struct map_node *t = xcalloc(1, sizeof(*t));
	t->m = m;
	t->prio = next_prio(ms);
	ms->n++;
	return t;
}

/* split: t into *a (starts below key) and *b (starts at or above key). */
static void split(struct map_node *t, uint64_t key, struct map_node **a,
		  struct map_node **b)
{
	if (!t) {
		*a = *b = NULL;
	} else if (t->m.start < key) {
		split(t->r, key, &t->r, b);
		*a = t;
	} else {
		split(t->l, key, a, &t->l);
		*b = t;
	}
}

/* merge: the union of a and b, every start of a below every start of b. */
static struct map_node *merge(struct map_node *a, struct map_node *b)
{
	if (!a || !b)
		return a ? a : b;
	if (a->prio >= b->prio) {
		a->r = merge(a->r, b);
		return a;
	}
	b->l = merge(a, b->l);
	return b;
}

/* last: the node of t with the largest start, or NULL. */
static struct map_node *last(struct map_node *t)
{
	while (t && t->r)
		t = t->r;
	return t;
}

/* drop: frees the subtree t, counting its maps out of ms. */
static void drop(struct maps *ms, struct map_node *t)
{
	if (!t)
		return;
	drop(ms, t->l);
	drop(ms, t->r);
	ms->n--;
	free(t);
}

/* right_part: the part of o above end, as its own map (o.start < end <
 * o.end). */
static struct map right_part(struct map o, uint64_t end)
{
	struct map right = o;
	right.pgoff += end - o.start;
	right.start = end;
	return right;
}

/* maps_insert: see maps.h. */
void maps_insert(struct maps *ms, struct map m)
{
	struct map_node *lo, *mid, *hi, *edge, *tail = NULL;
	if (m.end <= m.start)
		return;
	ms->gen++;
	split(ms->root, m.start, &lo, &mid);
	split(mid, m.end, &mid, &hi);
	edge = last(lo);	/* the one map below m.start that may reach into m */
	if (edge && edge->m.end > m.start) {
		if (edge->m.end > m.end)
			tail = node_new(ms, right_part(edge->m, m.end));
		edge->m.end = m.start;
	}
	edge = last(mid);	/* the last map starting inside m may outlast it */
	if (edge && edge->m.end > m.end)
		tail = node_new(ms, right_part(edge->m, m.end));
	drop(ms, mid);
	ms->root = merge(merge(lo, node_new(ms, m)), merge(tail, hi));
}

/* copy_into: inserts every map of t into to. */
static void copy_into(struct maps *to, const struct map_node *t)
{
	if (!t)
		return;
	copy_into(to, t->l);
	maps_insert(to, t->m);
	copy_into(to, t->r);
}

/* maps_copy: see maps.h. */
void maps_copy(struct maps *to, const struct maps *from)
{
	to->gen++;
	copy_into(to, from->root);
}

/* maps_find: see maps.h. */
const struct map *maps_find(const struct maps *ms, uint64_t addr)
{
	const struct map_node *t = ms->root, *best = NULL;
	while (t) {
		if (t->m.start <= addr) {
			best = t;
			t = t->r;
		} else {
			t = t->l;
		}
	}
	return best && addr < best->m.end ? &best->m : NULL;
}

/* walk: in-order traversal of t. */
static void walk(const struct map_node *t, void (*fn)(void *, const struct map *),
		 void *ctx)
{
	if (!t)
		return;
	walk(t->l, fn, ctx);
	fn(ctx, &t->m);
	walk(t->r, fn, ctx);
}

/* maps_walk: see maps.h. */
void maps_walk(const struct maps *ms, void (*fn)(void *ctx, const struct map *m),
	       void *ctx)
{
	walk(ms->root, fn, ctx);
}

/* maps_free: see maps.h. */
void maps_free(struct maps *ms)
{
	drop(ms, ms->root);
	ms->root = NULL;
	ms->n = 0;
}
