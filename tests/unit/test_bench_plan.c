/* Unit tests of a bench's plan (collect/bench/bench_plan.h), against
 * what bench_plan.h defines, worked out here: the cells (the first
 * parameter varying slowest), a cell's command ({NAME} replaced, {{ and
 * }} literal), and the slots of every order: warm-ups before every
 * counted run (interleave and random round by round or shuffled within
 * their group, sequential cell by cell), one recorded run per
 * record_every bare runs, rounded up, after the bare run it follows; the
 * random order is the seed's (splitmix64 driving Fisher-Yates, written
 * again here), so that a resumed bench finds the same order. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "collect/bench/bench_plan.h"
#include "tests/unit/tap.h"

/* plan(p, order, warmup, runs, every): a plan of -p a=x,y -p b=1,2,3
 * (6 cells) over the command "w --a={a} {{lit}} {b}{a}", with recipes
 * when every > 0. */
static void plan(struct bench_plan *p, enum bench_order order, int warmup, int runs, int every)
{
	char err[256];
	char *argv[] = { "w", "--a={a}", "{{lit}}", "{b}{a}" };
	memset(p, 0, sizeof(*p));
	bench_plan_set_argv(p, argv, 4);
	bench_plan_add_param(p, "a=x,y", err, sizeof(err));
	bench_plan_add_param(p, "b=1,2,3", err, sizeof(err));
	p->order = order;
	p->warmup = warmup;
	p->runs = runs;
	p->record_every = every > 0 ? every : 1;
	p->recipes = every > 0 ? strdup("sched") : NULL;
	p->seed = 7;
}

/* test_cells: the cells and their commands. */
static void test_cells(void)
{
	struct bench_plan p;
	char err[256];
	plan(&p, ORDER_INTERLEAVE, 0, 1, 0);
	is_int(bench_ncells(&p), 6, "2 x 3 values: 6 cells");
	ok(!bench_plan_check(&p, err, sizeof(err)), "the plan checks");
	for (size_t c = 0; c < 6; c++) {
		char want[32], *text = bench_cell_text(&p, c);
		snprintf(want, sizeof(want), "a=%s b=%zu", c / 3 ? "y" : "x", c % 3 + 1);
		is_str(text, want, "cell %zu: the first parameter varies slowest", c);
		free(text);
	}
	char **v = bench_argv(&p, 4);
	ok(!strcmp(v[0], "w") && !strcmp(v[1], "--a=y") && !strcmp(v[2], "{lit}") && !strcmp(v[3], "2y") && !v[4],
	   "cell 4's command: {a} and {b} replaced, {{lit}} literal (%s %s %s %s)", v[0], v[1], v[2], v[3]);
	bench_argv_free(v);
	bench_plan_free(&p);
}

/* want_slot(v, i, cell, kind, run): slot i is (cell, kind, run). */
static bool want_slot(const struct slot *v, size_t i, size_t cell, enum slot_kind kind, int run)
{
	return v[i].cell == cell && v[i].kind == kind && v[i].run == run;
}

/* interleaved(p, w, n): the interleave order of p into w (its length in
 * *n): every cell's warm-up 1, then 2 ..., then round r: every cell's
 * bare run r and, when (r - 1) % every == 0, its recorded run. */
static void interleaved(const struct bench_plan *p, struct slot *w, size_t *n)
{
	*n = 0;
	for (int r = 1; r <= p->warmup; r++)
		for (size_t c = 0; c < 6; c++)
			w[(*n)++] = (struct slot){ c, SLOT_WARMUP, r };
	for (int r = 1; r <= p->runs; r++)
		for (size_t c = 0; c < 6; c++) {
			w[(*n)++] = (struct slot){ c, SLOT_BARE, r };
			if (p->recipes && (r - 1) % p->record_every == 0)
				w[(*n)++] = (struct slot){ c, SLOT_RECORDED, (r - 1) / p->record_every + 1 };
		}
}

/* same(a, b, n): the slots agree. */
static bool same(const struct slot *a, const struct slot *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!want_slot(a, i, b[i].cell, b[i].kind, b[i].run))
			return false;
	return true;
}

/* warmups_first(v, n): no warm-up after a counted run. */
static bool warmups_first(const struct slot *v, size_t n)
{
	bool counted = false;
	for (size_t i = 0; i < n; i++) {
		if (v[i].kind == SLOT_WARMUP && counted)
			return false;
		counted |= v[i].kind != SLOT_WARMUP;
	}
	return true;
}

/* splitmix(s): splitmix64's next value, as in its published form. */
static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* fisher_yates(v, n, s): shuffles v: for i from n down to 2, swaps v[i-1]
 * with v[next % i]. */
static void fisher_yates(struct slot *v, size_t n, uint64_t *s)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)(splitmix(s) % i);
		struct slot t = v[i - 1];
		v[i - 1] = v[j];
		v[j] = t;
	}
}

/* test_orders: each order's slots, warm-ups first in all three. */
static void test_orders(void)
{
	struct bench_plan p;
	struct slot w[128];
	size_t n, wn;
	plan(&p, ORDER_INTERLEAVE, 2, 3, 2);
	struct slot *v = bench_slots(&p, &n);
	interleaved(&p, w, &wn);
	ok(n == 6 * (2 + 3 + 2) && n == wn, "interleave: 6 cells x (2 warm-ups, 3 bare, 2 recorded) = %zu slots", n);
	ok(same(v, w, wn), "interleave: warm-ups round by round, then each round's bare and recorded runs");
	ok(warmups_first(v, n), "interleave: warm-ups first");
	free(v);
	bench_plan_free(&p);

	plan(&p, ORDER_SEQUENTIAL, 2, 3, 2);
	v = bench_slots(&p, &n);
	wn = 0;
	for (size_t c = 0; c < 6; c++)
		for (int r = 1; r <= 2; r++)
			w[wn++] = (struct slot){ c, SLOT_WARMUP, r };
	for (size_t c = 0; c < 6; c++)
		for (int r = 1; r <= 3; r++) {
			w[wn++] = (struct slot){ c, SLOT_BARE, r };
			if ((r - 1) % 2 == 0)
				w[wn++] = (struct slot){ c, SLOT_RECORDED, (r - 1) / 2 + 1 };
		}
	ok(n == wn && same(v, w, wn), "sequential: every warm-up cell by cell, then each cell's runs");
	ok(warmups_first(v, n), "sequential: warm-ups first");
	free(v);
	bench_plan_free(&p);

	plan(&p, ORDER_RANDOM, 2, 3, 2);
	v = bench_slots(&p, &n);
	interleaved(&p, w, &wn);
	uint64_t s = 7;
	fisher_yates(w, 12, &s);
	fisher_yates(w + 12, wn - 12, &s);
	ok(n == wn && warmups_first(v, n), "random: warm-ups first, then the counted runs");
	ok(same(v, w, wn), "random: the seed's order (the warm-ups shuffled, then the counted runs)");
	free(v);
	bench_plan_free(&p);

	plan(&p, ORDER_RANDOM, 1, 4, 3);
	v = bench_slots(&p, &n);
	int rec = 0, bare = 0;
	for (size_t i = 0; i < n; i++) {
		rec += v[i].kind == SLOT_RECORDED && v[i].cell == 5;
		bare += v[i].kind == SLOT_BARE && v[i].cell == 5;
	}
	ok(rec == 2 && bare == 4 && warmups_first(v, n), "random, 4 runs, one recorded every 3: 2 recorded (rounded up)");
	free(v);
	bench_plan_free(&p);

	plan(&p, ORDER_INTERLEAVE, 0, 4, 4);
	v = bench_slots(&p, &n);
	ok(n == 6 * 5 && want_slot(v, 1, 0, SLOT_RECORDED, 1) && want_slot(v, 2, 1, SLOT_BARE, 1),
	   "one recorded run every 4 of 4: after the first bare run, recorded run 1");
	free(v);
	bench_plan_free(&p);
}

int main(void)
{
	test_cells();
	test_orders();
	return tap_done();
}
