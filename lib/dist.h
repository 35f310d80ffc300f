/* The shape of one distribution: many samples of one metric in one run
 * (one per fault, per wakeup). Percentiles and the best-part means follow
 * mmtests' rules, so that a number perfdb prints matches the one its
 * compare-kernels would print from the same samples of a lower-better
 * metric (mmtests' default). Of a higher-better one mmtests sorts the
 * samples descending: its Pctile.P counts from the top and its default
 * means are harmonic (Hmean, BHmean); perfdb's percentiles stay
 * ascending, and its BAmean is mmtests' amean-P of that descending sort. */
#ifndef PERFDB_DIST_H
#define PERFDB_DIST_H
#include <stddef.h>

struct dist_summary {
	size_t count;
	double mean, stddev;		/* stddev: the sample's (n - 1); 0 for one sample */
	double min, p50, p90, p99, max;
	double bamean95, bamean99;	/* the mean of the best 95% (99%) */
};

/* dist_summarize(v, n, lower_better, out): the summary of v[0..n) (n >= 1;
 * v is sorted in place, ascending). Percentile P is the value of rank
 * max(1, floor(n * P / 100)) in ascending order (nearest rank, rounding
 * down: mmtests' rule). BAmean-P is the mean of the first max(1,
 * floor(n * P / 100)) values best first: the smallest when lower_better,
 * the largest otherwise (mmtests' BAmean). */
void dist_summarize(double *v, size_t n, int lower_better, struct dist_summary *out);
#endif
