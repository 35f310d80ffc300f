/* Memory maps of one process during an import: see maps.h. The treap is
 * ordered by start address (maps never overlap, so by end too); each node
 * has a random priority no smaller than its children's. split and merge
 * are the two primitives; an insert splits out the range the new map
 * covers, trims the maps at its edges and merges the rest back. Nodes are
 * reference-counted and shared between a forked child's maps and its
 * parent's; split and merge copy a shared node before changing it (the
 * O(log n) nodes on the path an insert touches). */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/random.h>
#include "lib/alloc.h"
#include "collect/symbols/maps.h"

struct map_node {
	struct map m;
	uint64_t prio;
	size_t size;		/* nodes in this subtree */
	size_t refs;		/* pointers to this node (trees, parents) */
	struct map_node *l, *r;
};

/* seed: a random xorshift64 state (never 0): with a fixed one a file could
 * order its mmaps so that the treap is a chain (each insert O(n), the
 * recursion n deep). getrandom(2), else a mix of the time, the pid and an
 * address. */
static uint64_t seed(void)
{
	uint64_t x = 0;
	struct timespec ts;
	if (getrandom(&x, sizeof(x), GRND_NONBLOCK) != (ssize_t)sizeof(x)) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		x = (uint64_t)ts.tv_nsec * 0x9E3779B97F4A7C15ULL ^ (uint64_t)ts.tv_sec << 32 ^
		    (uint64_t)getpid() ^ (uint64_t)(uintptr_t)&ts;
	}
	return x ? x : 0x9E3779B97F4A7C15ULL;
}

/* next_prio: the next priority of ms's xorshift64 sequence, seeded at
 * random on ms's first node. Only the tree's shape depends on it. */
static uint64_t next_prio(struct maps *ms)
{
	uint64_t x = ms->rng ? ms->rng : seed();
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	ms->rng = x;
	return x;
}

static size_t size_of(const struct map_node *t)
{
	return t ? t->size : 0;
}

/* fix: t with its size recounted after a change of its children. */
static struct map_node *fix(struct map_node *t)
{
	t->size = 1 + size_of(t->l) + size_of(t->r);
	return t;
}

/* node_new: a leaf holding m (one reference: the caller's). */
static struct map_node *node_new(struct maps *ms, struct map m)
{
	struct map_node *t = xcalloc(1, sizeof(*t));
	t->m = m;
	t->prio = next_prio(ms);
	t->size = t->refs = 1;
	return t;
}

/* unref: drops one reference to t, freeing what nothing points to any
 * more. */
static void unref(struct map_node *t)
{
	if (!t || --t->refs)
		return;
	unref(t->l);
	unref(t->r);
	free(t);
}

/* own: t itself when the caller's reference is its only one, else a copy
 * of it (sharing t's children) that takes over that reference: nodes
 * shared with another process's maps are never changed in place. */
static struct map_node *own(struct map_node *t)
{
	struct map_node *c;
	if (t->refs == 1)
		return t;
	c = xmalloc(sizeof(*c));
	*c = *t;
	c->refs = 1;
	if (c->l)
		c->l->refs++;
	if (c->r)
		c->r->refs++;
	t->refs--;
	return c;
}

/* split: t into *a (starts below key) and *b (starts at or above key);
 * takes the caller's reference to t, gives one to each of *a and *b. */
static void split(struct map_node *t, uint64_t key, struct map_node **a,
		  struct map_node **b)
{
	if (!t) {
		*a = *b = NULL;
		return;
	}
	t = own(t);
	if (t->m.start < key) {
		split(t->r, key, &t->r, b);
		*a = fix(t);
	} else {
		split(t->l, key, a, &t->l);
		*b = fix(t);
	}
}

/* merge: the union of a and b, every start of a below every start of b;
 * takes both references, gives one to the result. */
static struct map_node *merge(struct map_node *a, struct map_node *b)
{
	if (!a || !b)
		return a ? a : b;
	if (a->prio >= b->prio) {
		a = own(a);
		a->r = merge(a->r, b);
		return fix(a);
	}
	b = own(b);
	b->l = merge(a, b->l);
	return fix(b);
}

/* last: the map of t with the largest start, or NULL. */
static const struct map *last(const struct map_node *t)
{
	while (t && t->r)
		t = t->r;
	return t ? &t->m : NULL;
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

/* trim_below: lo (maps starting below m) with its last map cut at
 * m.start when it reaches into m; *tail gets that map's part above m.end
 * when it outlasts m. */
static struct map_node *trim_below(struct maps *ms, struct map_node *lo, struct map m,
				   struct map_node **tail)
{
	const struct map *e = last(lo);
	struct map_node *edge;
	if (!e || e->end <= m.start)
		return lo;
	if (e->end > m.end)
		*tail = node_new(ms, right_part(*e, m.end));
	split(lo, e->start, &lo, &edge);	/* edge: that one map alone */
	edge = own(edge);
	edge->m.end = m.start;
	return merge(lo, edge);
}

/* maps_insert: see maps.h. */
void maps_insert(struct maps *ms, struct map m)
{
	struct map_node *lo, *mid, *hi, *tail = NULL;
	const struct map *e;
	if (m.end <= m.start)
		return;
	ms->gen++;
	split(ms->root, m.start, &lo, &mid);
	split(mid, m.end, &mid, &hi);
	lo = trim_below(ms, lo, m, &tail);
	e = last(mid);		/* the last map starting inside m may outlast it */
	if (e && e->end > m.end)
		tail = node_new(ms, right_part(*e, m.end));
	unref(mid);
	ms->root = merge(merge(lo, node_new(ms, m)), merge(tail, hi));
	ms->n = size_of(ms->root);
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

/* maps_copy: see maps.h. An empty to shares from's nodes (each side
 * copies what it later changes), so that a fork costs O(1) however many
 * maps the parent has. */
void maps_copy(struct maps *to, const struct maps *from)
{
	to->gen++;
	if (to->root || !from->root) {
		copy_into(to, from->root);
		return;
	}
	to->root = from->root;
	to->root->refs++;
	to->n = from->n;
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
	unref(ms->root);
	ms->root = NULL;
	ms->n = 0;
}
