/* Unit tests of collect/symbols/maps.c (a process's memory maps in a treap)
 * against a model: an array of pages, each remembering the dso and file
 * offset of the last map laid over it. Thousands of random inserts (maps
 * over maps, inside maps, across several), then every page looked up,
 * the walk checked sorted and disjoint, and a fork's copy over maps the
 * child already had; a child sharing its parent's nodes, both changed
 * afterwards, each as its own model; plus 100,000 maps in one process
 * inserted and found in well under a second (the old copy-and-sort took
 * minutes) and 2,000 forks of a 20,000-map process in a few MB (each fork
 * copied every map before). */
#include <malloc.h>
#include <stdlib.h>
#include <time.h>
#include "collect/symbols/maps.h"
#include "tests/unit/tap.h"

#define PAGES	512
#define PAGE	0x1000ULL
#define NONE	((size_t)-1)

/* The model: per page, the dso and file offset mapped there. */
struct model {
	size_t dso[PAGES];
	uint64_t off[PAGES];
};

static void model_insert(struct model *md, struct map m)
{
	for (uint64_t p = m.start / PAGE; p < m.end / PAGE; p++) {
		md->dso[p] = m.dso;
		md->off[p] = m.pgoff + p * PAGE - m.start;
	}
}

/* agrees: whether every page's lookup (at its start and last byte) gives
 * the model's dso and file offset. */
static int agrees(const struct maps *ms, const struct model *md)
{
	for (uint64_t p = 0; p < PAGES; p++)
		for (uint64_t at = p * PAGE; at <= p * PAGE + PAGE - 1; at += PAGE - 1) {
			const struct map *m = maps_find(ms, at);
			if (md->dso[p] == NONE ? m != NULL :
			    !m || m->dso != md->dso[p] ||
			    m->pgoff + (at - m->start) != md->off[p] + (at - p * PAGE))
				return 0;
		}
	return 1;
}

/* What check_walk sees. */
struct walk {
	uint64_t last_end;
	size_t n;
	int ok;
};

static void walk_one(void *ctx, const struct map *m)
{
	struct walk *w = ctx;
	if (m->start < w->last_end || m->end <= m->start)
		w->ok = 0;
	w->last_end = m->end;
	w->n++;
}

/* walk_ok: the walk is in order, disjoint, and sees n maps. */
static int walk_ok(const struct maps *ms)
{
	struct walk w = { 0, 0, 1 };
	maps_walk(ms, walk_one, &w);
	return w.ok && w.n == ms->n;
}

/* random_map: a map of 1 to 40 pages somewhere in the model's range. */
static struct map random_map(size_t dso)
{
	uint64_t s = (uint64_t)(rand() % PAGES), len = 1 + (uint64_t)(rand() % 40);
	if (s + len > PAGES)
		len = PAGES - s;
	return (struct map){ s * PAGE, (s + len) * PAGE, (uint64_t)(rand() % 1000) * PAGE, dso };
}

static void test_against_model(void)
{
	struct maps ms = { 0 }, child = { 0 };
	struct model md, mc;
	int good = 1, walks = 1;
	srand(12);
	for (int i = 0; i < PAGES; i++)
		md.dso[i] = NONE;
	for (size_t i = 0; i < 4000; i++) {
		struct map m = random_map(i);
		maps_insert(&ms, m);
		model_insert(&md, m);
		if (i % 97 == 0) {
			good &= agrees(&ms, &md);
			walks &= walk_ok(&ms);
		}
	}
	ok(good && agrees(&ms, &md), "4000 random maps over each other: every page as the model");
	ok(walks && walk_ok(&ms), "the walk is sorted and disjoint and counts %zu maps", ms.n);
	for (int i = 0; i < PAGES; i++)
		mc.dso[i] = NONE;
	for (size_t i = 0; i < 50; i++) {
		struct map m = random_map(100000 + i);
		maps_insert(&child, m);
		model_insert(&mc, m);
	}
	maps_copy(&child, &ms);
	for (int p = 0; p < PAGES; p++)
		if (md.dso[p] != NONE) {
			mc.dso[p] = md.dso[p];
			mc.off[p] = md.off[p];
		}
	ok(agrees(&child, &mc) && walk_ok(&child),
	   "a fork's copy over the child's own maps: the parent's win where they overlap");
	maps_insert(&ms, (struct map){ 5 * PAGE, 5 * PAGE, 0, 1 });
	ok(agrees(&ms, &md), "an empty map changes nothing");
	maps_free(&ms);
	maps_free(&child);
	ok(ms.n == 0 && !maps_find(&ms, 0), "freed maps are empty");
}

/* test_shared: a fork's child shares the parent's nodes; changes on
 * either side stay on that side. */
static void test_shared(void)
{
	struct maps parent = { 0 }, child = { 0 };
	struct model mp, mc;
	int good = 1;
	srand(34);
	for (int i = 0; i < PAGES; i++)
		mp.dso[i] = NONE;
	for (size_t i = 0; i < 300; i++) {
		struct map m = random_map(i);
		maps_insert(&parent, m);
		model_insert(&mp, m);
	}
	maps_copy(&child, &parent);
	mc = mp;
	ok(child.n == parent.n && agrees(&child, &mc), "a child shares its parent's %zu maps",
	   parent.n);
	for (size_t i = 0; i < 2000; i++) {
		struct map m = random_map(1000 + i);
		if (i % 2) {
			maps_insert(&child, m);
			model_insert(&mc, m);
		} else {
			maps_insert(&parent, m);
			model_insert(&mp, m);
		}
		if (i % 101 == 0)
			good &= agrees(&parent, &mp) && agrees(&child, &mc);
	}
	ok(good && agrees(&parent, &mp) && walk_ok(&parent),
	   "the parent's later maps: as its model, the child's not among them");
	ok(agrees(&child, &mc) && walk_ok(&child),
	   "the child's later maps: as its model, the parent's not among them");
	maps_free(&parent);
	ok(agrees(&child, &mc), "the child's maps outlive the parent's");
	maps_free(&child);
}

/* heap_used: bytes malloc has handed out, or 0 when unknown. */
static size_t heap_used(void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33) && \
	!defined(__SANITIZE_ADDRESS__)
	return mallinfo2().uordblks;
#else
	return 0;
#endif
}

/* test_forks: 2,000 children of a 20,000-map process, each with a map of
 * its own, cost O(log n) nodes each. */
static void test_forks(void)
{
	enum { N = 20000, KIDS = 2000 };
	static struct maps kids[KIDS];
	struct maps parent = { 0 };
	size_t before, grown;
	int good = 1;
	for (uint64_t i = 0; i < N; i++)
		maps_insert(&parent, (struct map){ i * 2 * PAGE, i * 2 * PAGE + PAGE, 0, 1 });
	before = heap_used();
	for (size_t k = 0; k < KIDS; k++) {
		maps_copy(&kids[k], &parent);
		maps_insert(&kids[k], (struct map){ k * 2 * PAGE, k * 2 * PAGE + PAGE, 0, 2 + k });
	}
	grown = heap_used() - before;
	for (size_t k = 0; k < KIDS; k += 97) {
		const struct map *m = maps_find(&kids[k], k * 2 * PAGE);
		const struct map *o = maps_find(&kids[k], (k + 1) * 2 * PAGE);
		good &= m && m->dso == 2 + k && o && o->dso == 1 && kids[k].n == N;
	}
	ok(good && maps_find(&parent, 0)->dso == 1, "%d children of a %d-map process, each with "
	   "its own map over one of the parent's", KIDS, N);
	if (!before)
		skip("heap size unknown (no mallinfo2, or a sanitizer)");
	else
		ok(grown < (16u << 20), "... in %zu KB of heap (bound 16 MB; copies: %zu MB)",
		   grown >> 10, (size_t)KIDS * N * 48 >> 20);
	for (size_t k = 0; k < KIDS; k++)
		maps_free(&kids[k]);
	maps_free(&parent);
}

static void test_many(void)
{
	enum { N = 100000 };
	struct maps ms = { 0 };
	clock_t t0 = clock();
	int found = 0;
	double secs;
	for (uint64_t i = 0; i < N; i++)	/* in a scattered order */
		maps_insert(&ms, (struct map){ ((i * 7919) % N) * 2 * PAGE,
					       ((i * 7919) % N) * 2 * PAGE + PAGE, 0, (size_t)i });
	for (uint64_t i = 0; i < N; i++) {
		const struct map *m = maps_find(&ms, i * 2 * PAGE + 5);
		found += m && m->start == i * 2 * PAGE && !maps_find(&ms, i * 2 * PAGE + PAGE);
	}
	secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	ok(found == N && ms.n == N, "%d disjoint maps inserted and each found (%d)", N, found);
	ok(secs < 5, "in %.2f s of CPU (bound 5 s)", secs);
	maps_free(&ms);
}

int main(void)
{
	test_against_model();
	test_shared();
	test_forks();
	test_many();
	return tap_done();
}
