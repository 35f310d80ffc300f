/* The shape of one distribution (see dist.h). */
#include <math.h>
#include <stdlib.h>
#include "lib/dist.h"

/* cmp_double(a, b): ascending order of doubles. */
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* rank(n, pct): max(1, floor(n * pct / 100)), in integer arithmetic. */
static size_t rank(size_t n, unsigned pct)
{
	size_t k = n / 100 * pct + n % 100 * pct / 100;
	return k < 1 ? 1 : k;
}

/* best_mean(v, n, k, lower_better): the mean of the k best of the
 * ascending v[0..n). */
static double best_mean(const double *v, size_t n, size_t k, int lower_better)
{
	double sum = 0;
	for (size_t i = 0; i < k; i++)
		sum += lower_better ? v[i] : v[n - 1 - i];
	return sum / (double)k;
}

/* dist_summarize: see dist.h. */
void dist_summarize(double *v, size_t n, int lower_better, struct dist_summary *out)
{
	double sum = 0, ss = 0;
	qsort(v, n, sizeof(*v), cmp_double);
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	out->count = n;
	out->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - out->mean) * (v[i] - out->mean);
	out->stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
	out->min = v[0];
	out->max = v[n - 1];
	out->p50 = v[rank(n, 50) - 1];
	out->p90 = v[rank(n, 90) - 1];
	out->p99 = v[rank(n, 99) - 1];
	out->bamean95 = best_mean(v, n, rank(n, 95), lower_better);
	out->bamean99 = best_mean(v, n, rank(n, 99), lower_better);
}
