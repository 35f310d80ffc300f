/* Unit tests of lib/dist.c (dist_summarize): hand-computed vectors, the
 * numbers mmtests' own Perl (bin/lib/MMTests/Summarise.pm, Stat.pm) gives
 * for a small one, and many random vectors against an independent
 * oracle: Python 3 computing each quantity from dist.h's definitions
 * (sorted(), statistics.stdev on exact fractions, math.fsum). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/dist.h"
#include "tests/unit/tap.h"

/* near(got, want, tol, what): one check that |got - want| <= tol. */
static void near(double got, double want, double tol, const char *what)
{
	if (!ok(fabs(got - want) <= tol, "%s", what))
		printf("#   got %.17g, want %.17g\n", got, want);
}

/* summarize(v, n, lower_better): dist_summarize of a copy of v[0..n). */
static struct dist_summary summarize(const double *v, size_t n, int lower_better)
{
	struct dist_summary s;
	double *c = malloc(n * sizeof(*c));
	memcpy(c, v, n * sizeof(*c));
	dist_summarize(c, n, lower_better, &s);
	free(c);
	return s;
}

/* test_one_to_ten: 1..10 given shuffled. Ranks: P50 floor(5) = 5, P90
 * floor(9) = 9, P99 floor(9.9) = 9, BAmean-95 floor(9.5) = 9 values,
 * BAmean-99 floor(9.9) = 9. So p50 5, p90 9, p99 9; lower better: the
 * 9 smallest, mean(1..9) = 45/9 = 5; higher better: mean(2..10) = 54/9
 * = 6. Mean 5.5; sum of squared deviations 2 * (0.25 + 2.25 + 6.25 +
 * 12.25 + 20.25) = 82.5, stddev sqrt(82.5 / 9). */
static void test_one_to_ten(void)
{
	double v[] = { 7, 3, 10, 1, 5, 9, 2, 8, 6, 4 };
	struct dist_summary s;
	dist_summarize(v, 10, 1, &s);
	ok(s.count == 10 && s.min == 1 && s.max == 10, "1..10: count 10, min 1, max 10");
	ok(s.p50 == 5 && s.p90 == 9 && s.p99 == 9, "1..10: p50 5, p90 9, p99 9 (got %g %g %g)", s.p50,
	   s.p90, s.p99);
	ok(s.bamean95 == 5 && s.bamean99 == 5, "1..10 lower better: BAmean-95 = BAmean-99 = mean(1..9) = 5 (got %g %g)",
	   s.bamean95, s.bamean99);
	near(s.mean, 5.5, 0, "1..10: mean 5.5");
	near(s.stddev, sqrt(82.5 / 9), 1e-15, "1..10: sample stddev sqrt(82.5 / 9)");
	int sorted = 1;
	for (int i = 0; i < 10; i++)
		sorted &= v[i] == i + 1;
	ok(sorted, "dist_summarize sorts v in place, ascending");
	dist_summarize(v, 10, 0, &s);
	ok(s.bamean95 == 6 && s.bamean99 == 6 && s.p90 == 9,
	   "1..10 higher better: BAmean-95 = mean(2..10) = 6, percentiles unchanged (ascending)");
}

/* test_small: n = 1 (everything the value, stddev 0), n = 2, ties. */
static void test_small(void)
{
	double one = -3.5, two[] = { 3, 1 }, ties[] = { 2, 2, 2, 1, 1 };
	struct dist_summary s = summarize(&one, 1, 1);
	ok(s.count == 1 && s.mean == -3.5 && s.stddev == 0 && s.min == -3.5 && s.max == -3.5 &&
	   s.p50 == -3.5 && s.p90 == -3.5 && s.p99 == -3.5 && s.bamean95 == -3.5 && s.bamean99 == -3.5,
	   "n = 1: every statistic is the value, stddev 0");
	s = summarize(&one, 1, 0);
	ok(s.bamean95 == -3.5 && s.bamean99 == -3.5 && s.stddev == 0, "n = 1 higher better: the same");
	/* n = 2: every rank is max(1, floor(2 * P / 100)) = 1: the smaller;
	 * BAmean the one best value; stddev sqrt(((1 - 2)^2 + (3 - 2)^2) / 1). */
	s = summarize(two, 2, 1);
	ok(s.p50 == 1 && s.p90 == 1 && s.p99 == 1 && s.bamean95 == 1 && s.bamean99 == 1 && s.mean == 2,
	   "n = 2 lower better: percentiles 1, BAmeans 1, mean 2");
	near(s.stddev, sqrt(2), 1e-15, "n = 2: stddev sqrt(2)");
	s = summarize(two, 2, 0);
	ok(s.p99 == 1 && s.bamean95 == 3 && s.bamean99 == 3, "n = 2 higher better: p99 1, BAmeans 3");
	/* {2, 2, 2, 1, 1}: ascending 1 1 2 2 2; p50 rank floor(2.5) = 2: 1;
	 * p90 floor(4.5) = 4 and p99 floor(4.95) = 4: 2; BAmean ranks 4:
	 * lower (1 + 1 + 2 + 2) / 4 = 1.5, higher (2 + 2 + 2 + 1) / 4 = 1.75. */
	s = summarize(ties, 5, 1);
	ok(s.p50 == 1 && s.p90 == 2 && s.p99 == 2 && s.bamean95 == 1.5 && s.bamean99 == 1.5,
	   "ties lower better: p50 1, p90 2, p99 2, BAmeans 1.5");
	s = summarize(ties, 5, 0);
	ok(s.bamean95 == 1.75 && s.bamean99 == 1.75, "ties higher better: BAmeans 1.75");
}

/* test_hundreds: 1..n descending for n = 100 and 101, where the ranks of
 * a rule off by one (ceil, round, n + 1) differ from floor's.
 * n = 100: ranks 50, 90, 99; BAmean-95 = mean(1..95) = 48, BAmean-99 =
 * mean(1..99) = 50; higher better mean(6..100) = 53, mean(2..100) = 51.
 * n = 101: ranks floor(50.5) = 50, floor(90.9) = 90, floor(99.99) = 99,
 * BAmean-95 floor(95.95) = 95 values: 48; higher better mean(7..101) = 54. */
static void test_hundreds(void)
{
	double v[101];
	struct dist_summary s;
	for (int i = 0; i < 100; i++)
		v[i] = 100 - i;
	s = summarize(v, 100, 1);
	ok(s.p50 == 50 && s.p90 == 90 && s.p99 == 99 && s.bamean95 == 48 && s.bamean99 == 50,
	   "1..100 lower better: p50 50, p90 90, p99 99, BAmean-95 48, BAmean-99 50 (got %g %g %g %g %g)",
	   s.p50, s.p90, s.p99, s.bamean95, s.bamean99);
	s = summarize(v, 100, 0);
	ok(s.bamean95 == 53 && s.bamean99 == 51, "1..100 higher better: BAmean-95 53, BAmean-99 51");
	for (int i = 0; i < 101; i++)
		v[i] = 101 - i;
	s = summarize(v, 101, 1);
	ok(s.p50 == 50 && s.p90 == 90 && s.p99 == 99 && s.bamean95 == 48,
	   "1..101: p50 50, p90 90, p99 99, BAmean-95 48 (got %g %g %g %g)", s.p50, s.p90, s.p99, s.bamean95);
	s = summarize(v, 101, 0);
	ok(s.bamean95 == 54, "1..101 higher better: BAmean-95 = mean(7..101) = 54 (got %g)", s.bamean95);
}

/* test_mmtests: what mmtests' Summarise.pm prints for the samples
 * {120, 95, 300, 101, 99, 250, 97, 130} of a metric whose preferred value
 * is Lower (its default). extractSummary sorts them ascending:
 * 95 97 99 101 120 130 250 300; runStatFunc's "percentile-P" is
 * $dataref->[count - 1] with count = int(8 * P / 100), at least 1:
 * percentile-50 int(4) = 4: 101; percentile-90 int(7.2) = 7: 250;
 * percentile-99 int(7.92) = 7: 250. "amean-95" (its BAmean.95) is
 * calc_amean of the first int(7.6) = 7: (95 + 97 + 99 + 101 + 120 + 130 +
 * 250) / 7 = 892 / 7; "amean-99" likewise int(7.92) = 7: 892 / 7. Amean
 * 1192 / 8 = 149; calc_stddev: squared deviations 2916 + 2704 + 2500 +
 * 2304 + 841 + 361 + 10201 + 22801 = 44628, sqrt(44628 / 7) (n - 1).
 * For a Higher metric it sorts them descending (300 250 130 120 101 99
 * 97 95) and takes the same counts from the top: "amean-95" = (1192 -
 * 95) / 7 = 1097 / 7, which is perfdb's BAmean-95 of a higher-better
 * metric. Its percentile-P is then counted from the top too
 * (percentile-90 = the 7th from the top, 97; percentile-50 = 120) where
 * perfdb's stay ascending (250, 101), and its default mean there
 * ("_mean", "_mean-95") is the harmonic one (Hmean, BHmean.95): perfdb's
 * percentiles and means of a higher-better distribution are not
 * mmtests'. */
static void test_mmtests(void)
{
	const double v[] = { 120, 95, 300, 101, 99, 250, 97, 130 };
	struct dist_summary s = summarize(v, 8, 1);
	ok(s.min == 95 && s.max == 300 && s.mean == 149, "mmtests' Min 95, Max 300, Amean 149");
	ok(s.p50 == 101 && s.p90 == 250 && s.p99 == 250, "mmtests' Pctile.50 101, Pctile.90 250, Pctile.99 250");
	near(s.bamean95, 892.0 / 7, 1e-12, "mmtests' BAmean.95 (amean-95) 892 / 7");
	near(s.bamean99, 892.0 / 7, 1e-12, "mmtests' BAmean.99 (amean-99) 892 / 7");
	near(s.stddev, sqrt(44628.0 / 7), 1e-12, "mmtests' Stddev sqrt(44628 / 7)");
	s = summarize(v, 8, 0);
	near(s.bamean95, 1097.0 / 7, 1e-12, "higher better: mmtests' amean-95 on its descending sort, 1097 / 7");
	ok(s.p90 == 250 && s.p50 == 101, "higher better: perfdb's percentiles stay ascending (mmtests': 97, 120)");
}

/* ---- the Python oracle ---- */

/* The oracle, written from dist.h's definitions, not from dist.c: each
 * input line "LOWER N V..." gives one output line "N MEAN STDDEV MIN P50
 * P90 P99 MAX BAMEAN95 BAMEAN99" (repr: round-trips exactly). */
static const char oracle[] =
	"import math, statistics, sys\n"
	"for line in open(sys.argv[1]):\n"
	"    f = line.split()\n"
	"    lower, n, v = f[0] == '1', int(f[1]), [float(x) for x in f[2:]]\n"
	"    assert len(v) == n\n"
	"    asc = sorted(v)\n"
	"    rank = lambda p: max(1, n * p // 100)\n"
	"    best = asc if lower else asc[::-1]\n"
	"    bamean = lambda p: math.fsum(best[:rank(p)]) / rank(p)\n"
	"    sd = statistics.stdev(v) if n > 1 else 0.0\n"
	"    out = [math.fsum(v) / n, sd, asc[0], asc[rank(50) - 1], asc[rank(90) - 1],\n"
	"           asc[rank(99) - 1], asc[-1], bamean(95), bamean(99)]\n"
	"    print(n, *[repr(x) for x in out])\n";

/* rng(): the next of a fixed splitmix64 sequence (the same vectors every run). */
static uint64_t rng(void)
{
	static uint64_t x = 0x5eed1e55u;
	uint64_t z = (x += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* uniform(): a double in [0, 1) with 53 random bits. */
static double uniform(void)
{
	return (double)(rng() >> 11) * 0x1p-53;
}

/* The kinds of random vector. */
enum kind { K_REAL, K_TIES, K_NEGATIVE, K_LATENCY, K_SPREAD, NKINDS };
static const char *const kind_name[] = { "reals in [-1000, 1000)", "ties (integers -2..3)",
					 "negative with ties", "latencies (exponential)",
					 "spread 1e-3..1e6" };

/* value(k): one random value of kind k. */
static double value(enum kind k)
{
	switch (k) {
	case K_REAL: return uniform() * 2000 - 1000;
	case K_TIES: return (double)(rng() % 6) - 2;
	case K_NEGATIVE: return -(double)(rng() % 50) / 4 - 0.5;
	case K_LATENCY: return 50 - 100 * log(1 - uniform());
	default: return pow(10, (double)(rng() % 10) - 3) * (1 + (double)(rng() % 7));
	}
}

struct vec {
	size_t n;
	int lower;
	enum kind kind;
	double *v, scale;	/* scale: the largest |v|, for the tolerances */
};

/* check(x, want): x's summary against the oracle's line want; one check. */
static void check(const struct vec *x, const char *want)
{
	struct dist_summary s = summarize(x->v, x->n, x->lower);
	double w[9], tol = 1e-12 * x->scale;
	const double got[9] = { s.mean, s.stddev, s.min, s.p50, s.p90, s.p99, s.max, s.bamean95, s.bamean99 };
	static const char *const what[9] = { "mean", "stddev", "min", "p50", "p90", "p99", "max",
					     "bamean95", "bamean99" };
	/* order statistics pick one of the values: exact; sums within tol */
	static const int exact[9] = { 0, 0, 1, 1, 1, 1, 1, 0, 0 };
	char *end;
	unsigned long long n = strtoull(want, &end, 10);
	const char *bad = n == x->n && s.count == x->n ? NULL : "count";
	for (int i = 0; i < 9; i++) {
		w[i] = strtod(end, &end);
		if (!bad && (exact[i] ? got[i] != w[i] : !(fabs(got[i] - w[i]) <= tol)))
			bad = what[i];
	}
	if (!ok(!bad, "n = %zu, %s, %s better: as the oracle", x->n, kind_name[x->kind], x->lower ? "lower" : "higher"))
		for (int i = 0; i < 9; i++)
			printf("#   %s: got %.17g, oracle %.17g%s\n", what[i], got[i], w[i],
			       bad == what[i] ? " <-" : "");
}

/* test_oracle: every size of interest and a few random ones, each kind,
 * both better= sides, against the Python oracle. */
static void test_oracle(void)
{
	static const size_t sizes[] = { 1, 2, 3, 4, 7, 19, 20, 21, 99, 100, 101, 199, 1000 };
	const size_t nsizes = sizeof(sizes) / sizeof(*sizes);
	char dir[] = "/tmp/test_dist.XXXXXX", script[64], data[64], cmd[160], *line = NULL;
	struct vec vecs[(sizeof(sizes) / sizeof(*sizes) + 3) * NKINDS * 2];
	size_t nv = 0, cap = 0;
	FILE *f;
	if (system("python3 -c 'import statistics' 2>/dev/null")) {
		skip("python3 (the oracle) is not available");
		return;
	}
	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(script, sizeof(script), "%s/oracle.py", dir);
	snprintf(data, sizeof(data), "%s/vectors", dir);
	for (size_t i = 0; i < nsizes + 3; i++)
		for (int k = 0; k < NKINDS; k++)
			for (int lower = 0; lower < 2; lower++) {
				struct vec *x = &vecs[nv++];
				x->n = i < nsizes ? sizes[i] : 5 + rng() % 600;
				x->lower = lower;
				x->kind = (enum kind)k;
				x->v = malloc(x->n * sizeof(double));
				x->scale = 0;
				for (size_t j = 0; j < x->n; j++) {
					x->v[j] = value(x->kind);
					x->scale = fmax(x->scale, fabs(x->v[j]));
				}
			}
	f = fopen(script, "w");
	if (f) {
		fputs(oracle, f);
		fclose(f);
	}
	f = fopen(data, "w");
	for (size_t i = 0; f && i < nv; i++) {
		fprintf(f, "%d %zu", vecs[i].lower, vecs[i].n);
		for (size_t j = 0; j < vecs[i].n; j++)
			fprintf(f, " %.17g", vecs[i].v[j]);
		fputc('\n', f);
	}
	if (f)
		fclose(f);
	snprintf(cmd, sizeof(cmd), "python3 %s %s", script, data);
	fflush(stdout);
	f = popen(cmd, "r");
	size_t done = 0;
	while (f && done < nv && getline(&line, &cap, f) > 0)
		check(&vecs[done++], line);
	ok(f && pclose(f) == 0 && done == nv, "the oracle answered for all %zu vectors (%zu)", nv, done);
	free(line);
	for (size_t i = 0; i < nv; i++)
		free(vecs[i].v);
	unlink(script);
	unlink(data);
	rmdir(dir);
}

/* main: runs every test; exit status 0 when all passed. */
int main(void)
{
	test_one_to_ten();
	test_small();
	test_hundreds();
	test_mmtests();
	test_oracle();
	return tap_done();
}
