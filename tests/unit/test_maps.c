/* Unit tests of collect/maps.c (a process's memory maps in a treap)
 * against a model: an array of pages, each remembering the dso and file
 * offset of the last map laid over it. Thousands of random inserts (maps
 * over maps, inside maps, across several), then every page looked up,
 * the walk checked sorted and disjoint, and a fork's copy over maps the
 * child already had; plus 100,000 maps in one process inserted and found
 * in well under a second (the old copy-and-sort took minutes). */
#include <stdlib.h>
#include <time.h>
#include "collect/maps.h"
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
	test_many();
	return tap_done();
}
