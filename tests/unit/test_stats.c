/* Unit tests of reports/stats.c against reference values: published
 * examples (Newcombe 1998: Wilson 81/263, the differences 56/70 - 48/80
 * and 5/56 - 0/29), t and normal quantiles from tables, and values
 * computed with mpmath at 30 digits (t CDF, Welch, Student and t
 * intervals);
 * plus the edge cases (empty input, n = 0, zero spread, NaN). */
#include <math.h>
#include <stdlib.h>
#include "lib/stats.h"
#include "tests/unit/tap.h"

/* near(got, want, tol, what): one check that |got - want| <= tol. */
static void near(double got, double want, double tol, const char *what)
{
	if (!ok(fabs(got - want) <= tol, "%s", what))
		printf("#   got %.15g, want %.15g\n", got, want);
}

/* test_location: mean, median, stddev, relative stddev. */
static void test_location(void)
{
	double v[] = { 10.1, 9.8, 10.4, 10.0, 9.7 }, even[] = { 4, 1, 3, 2 }, one = 7;
	double big[100];
	for (int i = 0; i < 100; i++)
		big[i] = 99 - i;
	near(stats_mean(v, 5), 10.0, 1e-12, "mean");
	near(stats_median(v, 5), 10.0, 0, "median of an odd count");
	near(stats_median(even, 4), 2.5, 0, "median of an even count");
	ok(even[0] == 4 && even[1] == 1, "median leaves its input alone");
	near(stats_median(big, 100), 49.5, 0, "median of 100 values (heap copy)");
	near(stats_stddev(v, 5), 0.2738612787525832, 1e-12, "sample stddev");
	near(stats_rel_stddev(v, 5), 2.738612787525832, 1e-10, "relative stddev in percent");
	ok(isnan(stats_mean(v, 0)) && isnan(stats_median(v, 0)), "mean and median of nothing: NaN");
	ok(isnan(stats_stddev(&one, 1)) && isnan(stats_rel_stddev(&one, 1)), "stddev of one value: NaN");
}

/* test_normal: normal CDF and quantiles. */
static void test_normal(void)
{
	near(stats_norm_quantile(0.975), 1.959963984540054, 1e-12, "z(0.975)");
	near(stats_norm_quantile(0.999), 3.090232306167813, 1e-12, "z(0.999)");
	near(stats_norm_quantile(0.3), -0.5244005127080408, 1e-12, "z(0.3)");
	near(stats_norm_quantile(1e-10), -6.361340902404056, 1e-10, "z(1e-10)");
	near(stats_norm_quantile(0.5), 0, 1e-15, "z(0.5) = 0");
	near(stats_norm_cdf(1.959963984540054), 0.975, 1e-14, "Phi(1.96)");
	ok(isinf(stats_norm_quantile(0)) && stats_norm_quantile(0) < 0 &&
	   isinf(stats_norm_quantile(1)) && isnan(stats_norm_quantile(1.5)),
	   "z at 0, 1 and outside [0, 1]");
}

/* test_t: Student t quantiles and CDF. */
static void test_t(void)
{
	static const struct { double p, df, t; } q[] = {
		{ 0.975, 1, 12.7062047361747 }, { 0.975, 2, 4.30265272974946 },
		{ 0.975, 4, 2.77644510519779 }, { 0.975, 10, 2.22813885198627 },
		{ 0.975, 30, 2.04227245630124 }, { 0.995, 5, 4.03214298355523 },
		{ 0.95, 3, 2.35336343480182 }, { 0.975, 4.5, 2.6589123472044 },
		{ 0.975, 1000, 1.96233908082641 }, { 0.9995, 1, 636.61924876879 },
	};
	for (size_t i = 0; i < sizeof(q) / sizeof(*q); i++) {
		char what[64];
		snprintf(what, sizeof(what), "t quantile p=%g df=%g", q[i].p, q[i].df);
		near(stats_t_quantile(q[i].p, q[i].df), q[i].t, 1e-9 * q[i].t, what);
	}
	near(stats_t_quantile(0.025, 4), -2.77644510519779, 1e-9, "t quantile below 0.5 by symmetry");
	near(stats_t_quantile(0.975, 1e9), 1.959963984540054, 1e-9, "t with huge df is normal");
	near(stats_t_cdf(2.0, 5), 0.949030260585071, 1e-12, "t CDF(2, 5)");
	near(stats_t_cdf(-1.5, 2.5), 0.123918226543148, 1e-12, "t CDF(-1.5, 2.5)");
	near(stats_t_cdf(0.3, 1), 0.592773579077742, 1e-12, "t CDF(0.3, 1) (Cauchy)");
	ok(isnan(stats_t_quantile(0.975, 0)) && isnan(stats_t_quantile(1, 3)) &&
	   isnan(stats_t_cdf(1, -1)), "t with df <= 0 or p = 1: NaN");
}

/* test_wilson: Wilson score intervals. */
static void test_wilson(void)
{
	struct interval w = stats_wilson(81.0 / 263, 263, 0.95);
	near(w.lo, 0.255288519878274, 1e-12, "Wilson 81/263 low (Newcombe 1998: 0.2553)");
	near(w.hi, 0.366209576982800, 1e-12, "Wilson 81/263 high (0.3662)");
	w = stats_wilson(0, 10, 0.95);
	near(w.lo, 0, 0, "Wilson 0/10 low is 0");
	near(w.hi, 0.277532799862889, 1e-12, "Wilson 0/10 high");
	w = stats_wilson(1, 10, 0.95);
	near(w.lo, 1 - 0.277532799862889, 1e-12, "Wilson 10/10 mirrors 0/10");
	ok(w.hi == 1, "Wilson 10/10 high is 1");
	w = stats_wilson(0.5, 0, 0.95);
	ok(w.lo == 0 && w.hi == 1, "Wilson with n = 0 is [0, 1]");
	w = stats_wilson(1.5, 10, 0.95);
	ok(isnan(w.lo) && isnan(w.hi), "Wilson of p > 1 is NaN");
	w = stats_wilson(0.5, 10, 1);
	ok(isnan(w.lo), "Wilson at confidence 1 is NaN");
}

/* test_newcombe: Newcombe's hybrid score interval of p2 - p1. */
static void test_newcombe(void)
{
	struct interval d = stats_newcombe(48.0 / 80, 80, 56.0 / 70, 70, 0.95);
	near(d.lo, 0.0524314724023649, 1e-12, "Newcombe 56/70 - 48/80 low (paper: 0.0524)");
	near(d.hi, 0.333872654036906, 1e-12, "Newcombe 56/70 - 48/80 high (0.3339)");
	d = stats_newcombe(5.0 / 56, 56, 0, 29, 0.95);
	near(d.lo, -0.192560013855112, 1e-12, "Newcombe 0/29 - 5/56 low (paper: -0.1926)");
	near(d.hi, 0.0381371479035369, 1e-12, "Newcombe 0/29 - 5/56 high (0.0381)");
	d = stats_newcombe(0.3, 1000, 0.3, 1000, 0.95);
	ok(d.lo < 0 && d.hi > 0 && fabs(d.lo + d.hi) < 1e-12, "equal proportions: symmetric around 0");
	ok(!stats_excludes(d, 0) && stats_excludes(d, 0.5), "stats_excludes");
	d = stats_newcombe(1, 500, 1, 700, 0.95);
	ok(d.lo < 0 && d.hi > 0, "100%% against 100%%: interval contains 0");
	ok(!stats_excludes((struct interval){ NAN, NAN }, 0), "a NaN interval excludes nothing");
}

/* test_t_intervals: t interval of a mean, Welch and Student intervals of a
 * difference. */
static void test_t_intervals(void)
{
	double v[] = { 10.1, 9.8, 10.4, 10.0, 9.7 }, a[] = { 1, 2, 3, 4 }, b[] = { 2, 4, 6, 8, 10 };
	double c[] = { 5, 5, 5 }, e[] = { 7, 7, 7 };
	struct interval i = stats_t_mean(v, 5, 0.95);
	near(i.lo, 9.65995630967087, 1e-10, "t interval of a mean, low");
	near(i.hi, 10.3400436903291, 1e-10, "t interval of a mean, high");
	i = stats_welch(a, 4, b, 5, 0.95);
	near(i.lo, -0.385368080514045, 1e-9, "Welch interval low (df 5.52)");
	near(i.hi, 7.38536808051404, 1e-9, "Welch interval high");
	i = stats_student2(a, 4, b, 5, 0.95);
	near(i.lo, -0.521847816031475, 1e-9, "Student two-sample interval low (df 7)");
	near(i.hi, 7.52184781603147, 1e-9, "Student two-sample interval high");
	i = stats_student2(c, 3, e, 3, 0.95);
	ok(i.lo == 2 && i.hi == 2, "Student with no spread: the point difference");
	i = stats_student2(a, 1, b, 1, 0.95);
	ok(isnan(i.lo), "Student with one value a side: NaN");
	i = stats_welch(c, 3, e, 3, 0.95);
	ok(i.lo == 2 && i.hi == 2, "Welch with no spread: the point difference");
	i = stats_welch(a, 1, b, 5, 0.95);
	ok(isnan(i.lo) && isnan(i.hi), "Welch with one value on a side: NaN");
	i = stats_t_mean(v, 1, 0.95);
	ok(isnan(i.lo), "t interval of one value: NaN");
}

/* test_edges: an interval's ends hold their value (a change is significant
 * only when 0 lies strictly outside), and the spread of negative values
 * in percent of the mean's size. */
static void test_edges(void)
{
	double neg[] = { -10.1, -9.8, -10.4, -10.0, -9.7 };
	ok(!stats_excludes((struct interval){ 0, 1 }, 0), "[0, 1] holds 0: not excluded");
	ok(!stats_excludes((struct interval){ -1, 0 }, 0), "[-1, 0] holds 0: not excluded");
	ok(!stats_excludes((struct interval){ 2, 2 }, 2), "the point [2, 2] holds 2");
	ok(stats_excludes((struct interval){ 1e-12, 1 }, 0) && stats_excludes((struct interval){ -1, -1e-12 }, 0),
	   "[1e-12, 1] and [-1, -1e-12] exclude 0");
	ok(!stats_excludes((struct interval){ NAN, NAN }, 0), "a NaN interval excludes nothing");
	near(stats_rel_stddev(neg, 5), 2.738612787525832, 1e-10,
	     "relative stddev of negative values: positive, of the mean's size");
}

/* main: runs every test; exit status 0 when all passed. */
int main(void)
{
	test_location();
	test_normal();
	test_t();
	test_wilson();
	test_newcombe();
	test_t_intervals();
	test_edges();
	return tap_done();
}
