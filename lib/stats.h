/* Statistics for A/B comparisons of perf measurements: location and spread
 * (mean, median, standard deviation, relative standard deviation), the
 * normal and Student t distributions, and 95%-style intervals: Wilson
 * score interval of a proportion, Newcombe's hybrid score interval of a
 * difference of two proportions, Student t interval of a mean, and
 * Student's (pooled) and Welch's t intervals of a difference of two means.
 *
 * Conventions: conf is the confidence level as a fraction (0.95); an
 * interval is {lo, hi} with lo <= hi; proportions are fractions in [0, 1]
 * (callers multiply by 100 for percent). Functions never allocate and
 * never fail: an undefined result (too few values, conf outside (0, 1))
 * is NaN, and an interval with NaN ends when undefined. */
#ifndef PERFDB_STATS_H
#define PERFDB_STATS_H
#include <stdbool.h>
#include <stddef.h>

/* A confidence interval: lo <= hi, or both NaN when undefined. */
struct interval {
	double lo, hi;
};

/* stats_mean(v, n): the arithmetic mean of v[0..n-1]; NaN when n == 0. */
double stats_mean(const double *v, size_t n);

/* stats_median(v, n): the median of v[0..n-1] (the mean of the two middle
 * values when n is even); v is not modified; NaN when n == 0. Values are
 * sorted in a copy on the stack for n <= 64, else in a malloc'ed copy. */
double stats_median(const double *v, size_t n);

/* stats_stddev(v, n): the sample standard deviation (divisor n - 1);
 * NaN when n < 2. */
double stats_stddev(const double *v, size_t n);

/* stats_rel_stddev(v, n): the standard deviation as a percentage of the
 * mean (mmtests' "%stddev"); NaN when n < 2 or the mean is 0. */
double stats_rel_stddev(const double *v, size_t n);

/* stats_norm_cdf(x): P(Z <= x) for a standard normal Z. */
double stats_norm_cdf(double x);

/* stats_norm_quantile(p): x with P(Z <= x) = p (relative error below
 * 1e-12); -inf for p == 0, +inf for p == 1, NaN outside [0, 1]. */
double stats_norm_quantile(double p);

/* stats_t_cdf(t, df): P(T <= t) for Student's t with df > 0 degrees of
 * freedom (df need not be an integer); NaN when df <= 0. */
double stats_t_cdf(double t, double df);

/* stats_t_quantile(p, df): t with P(T <= t) = p for Student's t with df
 * degrees of freedom, to about 1e-10 relative; NaN when df <= 0 or p is
 * outside (0, 1). */
double stats_t_quantile(double p, double df);

/* stats_wilson(p, n, conf): the Wilson score interval of a proportion
 * observed as p in n trials (n need not be an integer: an effective
 * sample size is fine). {0, 1} when n <= 0; NaN ends when p is outside
 * [0, 1] or conf outside (0, 1). The interval always lies in [0, 1]. */
struct interval stats_wilson(double p, double n, double conf);

/* stats_newcombe(p1, n1, p2, n2, conf): Newcombe's hybrid score interval
 * (his method 10, from the two Wilson intervals) of the difference
 * p2 - p1 of two independent proportions; within [-1, 1]. A side with
 * n <= 0 contributes its whole [0, 1] Wilson interval. */
struct interval stats_newcombe(double p1, double n1, double p2, double n2, double conf);

/* stats_t_mean(v, n, conf): the Student t interval of the mean of v;
 * NaN ends when n < 2. A zero standard deviation gives {mean, mean}. */
struct interval stats_t_mean(const double *v, size_t n, double conf);

/* stats_welch(a, na, b, nb, conf): Welch's t interval (Welch-Satterthwaite
 * degrees of freedom) of mean(b) - mean(a); NaN ends when na < 2 or
 * nb < 2. When both standard deviations are 0 it is the point
 * {mean(b) - mean(a), mean(b) - mean(a)}. */
struct interval stats_welch(const double *a, size_t na, const double *b, size_t nb,
			    double conf);

/* stats_student2(a, na, b, nb, conf): Student's two-sample t interval
 * (pooled variance, na + nb - 2 degrees of freedom) of mean(b) - mean(a);
 * NaN ends when na + nb < 3 or a side is empty. With na == nb its
 * standard error equals Welch's, and it is robust to unequal variances.
 * Zero spread on both sides gives the point difference. */
struct interval stats_student2(const double *a, size_t na, const double *b, size_t nb,
			       double conf);

/* A sample summarized: size, mean and variance (divisor n - 1; NaN when
 * n < 2). */
struct summary {
	size_t n;
	double mean, var;
};

/* stats_summary(v, n): the summary of v[0..n-1]. */
struct summary stats_summary(const double *v, size_t n);

/* stats_t_diff(a, b, pooled, conf): the t interval of b.mean - a.mean from
 * two summaries: Student's with pooled variance (a.n + b.n - 2 degrees of
 * freedom; a side with n == 1 adds no variance) or Welch's (Welch-
 * Satterthwaite degrees of freedom; needs n >= 2 on both sides). NaN ends
 * when undefined; zero variance gives the point difference. Callers may
 * raise a variance (to a known lower bound) before calling. */
struct interval stats_t_diff(struct summary a, struct summary b, bool pooled, double conf);

/* stats_excludes(ci, x): true when x lies outside ci (a NaN interval
 * excludes nothing). */
bool stats_excludes(struct interval ci, double x);
#endif
