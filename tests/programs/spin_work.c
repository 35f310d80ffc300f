/*
 * spin_work: a workload whose speed a test sets, for the report's tests of
 * the machine in the verdict (tests/integration/sittings.sh builds it with
 * cc). For --seconds S of wall time it runs operations of integer work
 * (a dependent chain of multiplies and xors, no memory, no system call),
 * each --cost C times the work of one unit (default 1), and prints
 *
 *   metric=ops_per_sec value=V unit=ops/s better=higher
 *
 * so that --cost 1.25 is a real 20% slower workload than --cost 1 on the
 * same machine. Exit 0 ok, 1 usage error.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime with -std=c11 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define UNIT 4000	/* chain steps of one unit of work */

static volatile uint64_t sink;

/* now(): CLOCK_MONOTONIC in seconds. */
static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double seconds = 1, cost = 1, t0, t;
	for (int i = 1; i + 1 < argc; i += 2)
		if (!strcmp(argv[i], "--seconds"))
			seconds = atof(argv[i + 1]);
		else if (!strcmp(argv[i], "--cost"))
			cost = atof(argv[i + 1]);
		else
			return fprintf(stderr, "usage: spin_work [--seconds S] [--cost C]\n"), 1;
	if (!(seconds > 0) || !(cost > 0))
		return fprintf(stderr, "spin_work: --seconds and --cost must be positive\n"), 1;
	long steps = (long)(UNIT * cost), ops = 0;
	uint64_t x = 88172645463325252ULL;
	t0 = now();
	do {
		for (long k = 0; k < steps; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			x *= 0x2545F4914F6CDD1DULL;
		}
		ops++;
	} while ((t = now()) - t0 < seconds);
	sink = x;
	printf("metric=ops_per_sec value=%.1f unit=ops/s better=higher\n", (double)ops / (t - t0));
	return 0;
}
