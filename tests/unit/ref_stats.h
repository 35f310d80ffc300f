/* Reference statistics for the unit tests that pin perfdb's numbers
 * (test_report.c, test_sched_db.c): the mean, sample variance and median,
 * Student's t quantile from its density integrated by Simpson's rule and
 * inverted by bisection, and the Welch and Student (pooled) intervals of a
 * difference of means: written here from the textbook definitions, none
 * of it from lib/stats.c, so that a test's expected values do not share
 * perfdb's code. */
#ifndef PERFDB_REF_STATS_H
#define PERFDB_REF_STATS_H
#include <math.h>
#include <stddef.h>

/* ref_mean(v, n), ref_var(v, n) (divisor n - 1), ref_median(v, n) (at
 * most 64 values, sorted in a copy by insertion). */
static inline double ref_mean(const double *v, size_t n)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += v[i];
	return s / (double)n;
}

static inline double ref_var(const double *v, size_t n)
{
	double m = ref_mean(v, n), s = 0;
	for (size_t i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	return s / (double)(n - 1);
}

static inline double ref_median(const double *v, size_t n)
{
	double c[64];
	for (size_t i = 0; i < n && i < 64; i++) {
		size_t j = i;
		for (; j > 0 && c[j - 1] > v[i]; j--)
			c[j] = c[j - 1];
		c[j] = v[i];
	}
	return n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
}

/* ref_t_density(x, df): Student's t density. */
static inline double ref_t_density(double x, double df)
{
	return exp(lgamma((df + 1) / 2) - lgamma(df / 2) - 0.5 * log(df * M_PI) -
		   (df + 1) / 2 * log1p(x * x / df));
}

/* ref_t_below(x, df): P(T <= x), x >= 0, by Simpson's rule over [0, x]. */
static inline double ref_t_below(double x, double df)
{
	const int steps = 20000;
	double h = x / steps, s = ref_t_density(0, df) + ref_t_density(x, df);
	for (int i = 1; i < steps; i++)
		s += (i % 2 ? 4 : 2) * ref_t_density(i * h, df);
	return 0.5 + s * h / 3;
}

/* ref_t_quant(p, df): x with P(T <= x) = p, 0.5 < p < 1, by bisection. */
static inline double ref_t_quant(double p, double df)
{
	double lo = 0, hi = 1;
	while (ref_t_below(hi, df) < p)
		hi *= 2;
	for (int i = 0; i < 60; i++) {
		double mid = (lo + hi) / 2;
		if (ref_t_below(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* ref_welch(a, na, b, nb, level, lo, hi): Welch's interval of mean(b) -
 * mean(a) at level (Welch-Satterthwaite degrees of freedom). */
static inline void ref_welch(const double *a, size_t na, const double *b, size_t nb, double level, double *lo,
			     double *hi)
{
	double va = ref_var(a, na) / (double)na, vb = ref_var(b, nb) / (double)nb, d = ref_mean(b, nb) - ref_mean(a, na);
	double df = (va + vb) * (va + vb) / (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
	double half = ref_t_quant(1 - (1 - level) / 2, df) * sqrt(va + vb);
	*lo = d - half;
	*hi = d + half;
}

/* ref_student(a, na, b, nb, level, lo, hi): Student's pooled interval of
 * mean(b) - mean(a) at level (na + nb - 2 degrees of freedom). */
static inline void ref_student(const double *a, size_t na, const double *b, size_t nb, double level, double *lo,
			       double *hi)
{
	double df = (double)(na + nb - 2), d = ref_mean(b, nb) - ref_mean(a, na);
	double sp2 = (ref_var(a, na) * (double)(na - 1) + ref_var(b, nb) * (double)(nb - 1)) / df;
	double half = ref_t_quant(1 - (1 - level) / 2, df) * sqrt(sp2 * (1.0 / (double)na + 1.0 / (double)nb));
	*lo = d - half;
	*hi = d + half;
}
#endif
