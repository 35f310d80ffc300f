/* Statistics for A/B comparisons: see stats.h. The t distribution goes
 * through the regularized incomplete beta function (continued fraction,
 * modified Lentz), the normal quantile through Acklam's rational
 * approximation refined by one Halley step. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lib/alloc.h"
#include "lib/stats.h"

/* stats_mean: see stats.h. */
double stats_mean(const double *v, size_t n)
{
	double s = 0;
	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++)
		s += v[i];
	return s / (double)n;
}

/* cmp_double: qsort order of doubles, ascending. */
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* stats_median: see stats.h. */
double stats_median(const double *v, size_t n)
{
	double small[64], *c, m;
	if (!n)
		return NAN;
	c = n <= 64 ? small : xreallocarray(NULL, n, sizeof(*c));
	memcpy(c, v, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_double);
	m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
	if (c != small)
		free(c);
	return m;
}

/* stats_stddev: see stats.h. */
double stats_stddev(const double *v, size_t n)
{
	double m, s = 0;
	if (n < 2)
		return NAN;
	m = stats_mean(v, n);
	for (size_t i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	return sqrt(s / (double)(n - 1));
}

/* stats_rel_stddev: see stats.h. */
double stats_rel_stddev(const double *v, size_t n)
{
	double m = stats_mean(v, n);
	if (n < 2 || m == 0)
		return NAN;
	return 100 * stats_stddev(v, n) / fabs(m);
}

/* stats_norm_cdf: see stats.h. */
double stats_norm_cdf(double x)
{
	return 0.5 * erfc(-x / M_SQRT2);
}

/* acklam: Acklam's approximation of the normal quantile, 0 < p < 1
 * (relative error about 1e-9). */
static double acklam(double p)
{
	static const double a[] = { -3.969683028665376e+01, 2.209460984245205e+02,
		-2.759285104469687e+02, 1.383577518672690e+02, -3.066479806614716e+01,
		2.506628277459239e+00 };
	static const double b[] = { -5.447609879822406e+01, 1.615858368580409e+02,
		-1.556989798598866e+02, 6.680131188771972e+01, -1.328068155288572e+01 };
	static const double c[] = { -7.784894002430293e-03, -3.223964580411365e-01,
		-2.400758277161838e+00, -2.549732539343734e+00, 4.374664141464968e+00,
		2.938163982698783e+00 };
	static const double d[] = { 7.784695709041462e-03, 3.224671290700398e-01,
		2.445134137142996e+00, 3.754408661907416e+00 };
	double q, r;
	if (p < 0.02425 || p > 1 - 0.02425) {
		q = sqrt(-2 * log(p < 0.5 ? p : 1 - p));
		r = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
		    ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
		return p < 0.5 ? r : -r;
	}
	q = p - 0.5;
	r = q * q;
	return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
	       (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

/* stats_norm_quantile: see stats.h. */
double stats_norm_quantile(double p)
{
	double x, e, u;
	if (!(p >= 0 && p <= 1))
		return NAN;
	if (p == 0 || p == 1)
		return p == 0 ? -INFINITY : INFINITY;
	x = acklam(p);
	e = stats_norm_cdf(x) - p;	/* one Halley step */
	u = e * sqrt(2 * M_PI) * exp(x * x / 2);
	return x - u / (1 + x * u / 2);
}

/* betacf: the continued fraction of the incomplete beta function
 * (modified Lentz), valid for x < (a + 1) / (a + b + 2). */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double qab = a + b, qap = a + 1, qam = a - 1, c = 1, d = 1 - qab * x / qap, h;
	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 200000; m++) {
		double m2 = 2.0 * m, aa = m * (b - m) * x / ((qam + m2) * (a + m2)), del;
		d = 1 + aa * d;
		c = 1 + aa / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1 + aa * d;
		c = 1 + aa / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-16)
			break;
	}
	return h;
}

/* betai: the regularized incomplete beta function I_x(a, b), 0 <= x <= 1. */
static double betai(double a, double b, double x)
{
	double bt;
	if (x <= 0 || x >= 1)
		return x <= 0 ? 0 : 1;
	bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return bt * betacf(a, b, x) / a;
	return 1 - bt * betacf(b, a, 1 - x) / b;
}

/* stats_t_cdf: see stats.h. */
double stats_t_cdf(double t, double df)
{
	double tail;
	if (!(df > 0) || isnan(t))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	if (df > 1e7)
		return stats_norm_cdf(t);
	tail = 0.5 * betai(df / 2, 0.5, df / (df + t * t));	/* P(T > |t|) */
	return t >= 0 ? 1 - tail : tail;
}

/* stats_t_quantile: see stats.h. The last answer is kept (per thread):
 * callers ask for one quantile many times in a row. */
double stats_t_quantile(double p, double df)
{
	static _Thread_local double last_p = -1, last_df = -1, last_q;
	double lo = 0, hi = 1;
	if (!(df > 0) || !(p > 0 && p < 1))
		return NAN;
	if (p < 0.5)
		return -stats_t_quantile(1 - p, df);
	if (df > 1e7)
		return stats_norm_quantile(p);
	if (p == last_p && df == last_df)
		return last_q;
	while (stats_t_cdf(hi, df) < p && hi < 1e300)
		hi *= 2;
	for (int i = 0; i < 400 && hi - lo > 1e-13 * hi; i++) {
		double mid = (lo + hi) / 2;
		if (stats_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	last_p = p;
	last_df = df;
	return last_q = (lo + hi) / 2;
}

/* z_of: the two-sided normal quantile for confidence conf; NaN when conf
 * is outside (0, 1). */
static double z_of(double conf)
{
	return conf > 0 && conf < 1 ? stats_norm_quantile(1 - (1 - conf) / 2) : NAN;
}

/* stats_wilson: see stats.h. */
struct interval stats_wilson(double p, double n, double conf)
{
	double z = z_of(conf), z2, den, ctr, half;
	if (isnan(z) || !(p >= 0 && p <= 1))
		return (struct interval){ NAN, NAN };
	if (!(n > 0))
		return (struct interval){ 0, 1 };
	z2 = z * z;
	den = 1 + z2 / n;
	ctr = (p + z2 / (2 * n)) / den;
	half = z / den * sqrt(p * (1 - p) / n + z2 / (4 * n * n));
	/* exactly 0 (1) at p = 0 (1), where rounding would leave a speck */
	return (struct interval){ p == 0 ? 0 : fmax(0, ctr - half),
				  p == 1 ? 1 : fmin(1, ctr + half) };
}

/* stats_newcombe: see stats.h. */
struct interval stats_newcombe(double p1, double n1, double p2, double n2, double conf)
{
	struct interval w1 = stats_wilson(p1, n1, conf), w2 = stats_wilson(p2, n2, conf);
	double d = p2 - p1;
	if (isnan(w1.lo) || isnan(w2.lo))
		return (struct interval){ NAN, NAN };
	return (struct interval){
		fmax(-1, d - sqrt((p2 - w2.lo) * (p2 - w2.lo) + (w1.hi - p1) * (w1.hi - p1))),
		fmin(1, d + sqrt((w2.hi - p2) * (w2.hi - p2) + (p1 - w1.lo) * (p1 - w1.lo))),
	};
}

/* stats_t_mean: see stats.h. */
struct interval stats_t_mean(const double *v, size_t n, double conf)
{
	double m, half;
	if (n < 2 || !(conf > 0 && conf < 1))
		return (struct interval){ NAN, NAN };
	m = stats_mean(v, n);
	half = stats_t_quantile(1 - (1 - conf) / 2, (double)(n - 1)) *
	       stats_stddev(v, n) / sqrt((double)n);
	return (struct interval){ m - half, m + half };
}

/* stats_summary: see stats.h. */
struct summary stats_summary(const double *v, size_t n)
{
	double sd = stats_stddev(v, n);
	return (struct summary){ n, stats_mean(v, n), sd * sd };
}

/* stats_t_diff: see stats.h. */
struct interval stats_t_diff(struct summary a, struct summary b, bool pooled, double conf)
{
	double d = b.mean - a.mean, se2, df, half;
	if (!(conf > 0 && conf < 1) || !a.n || !b.n || a.n + b.n < 3 ||
	    (!pooled && (a.n < 2 || b.n < 2)))
		return (struct interval){ NAN, NAN };
	if (pooled) {
		double ssa = a.n > 1 ? a.var * (double)(a.n - 1) : 0;
		double ssb = b.n > 1 ? b.var * (double)(b.n - 1) : 0;
		df = (double)(a.n + b.n - 2);
		se2 = (ssa + ssb) / df * (1.0 / (double)a.n + 1.0 / (double)b.n);
	} else {
		double va = a.var / (double)a.n, vb = b.var / (double)b.n;
		se2 = va + vb;
		df = se2 > 0 ? se2 * se2 / (va * va / (double)(a.n - 1) + vb * vb / (double)(b.n - 1)) : 1;
	}
	if (!(se2 > 0))
		return (struct interval){ d, d };
	half = stats_t_quantile(1 - (1 - conf) / 2, df) * sqrt(se2);
	return (struct interval){ d - half, d + half };
}

/* stats_welch: see stats.h. */
struct interval stats_welch(const double *a, size_t na, const double *b, size_t nb,
			    double conf)
{
	return stats_t_diff(stats_summary(a, na), stats_summary(b, nb), false, conf);
}

/* stats_student2: see stats.h. */
struct interval stats_student2(const double *a, size_t na, const double *b, size_t nb,
			       double conf)
{
	return stats_t_diff(stats_summary(a, na), stats_summary(b, nb), true, conf);
}

/* stats_excludes: see stats.h. */
bool stats_excludes(struct interval ci, double x)
{
	return x < ci.lo || x > ci.hi;
}
