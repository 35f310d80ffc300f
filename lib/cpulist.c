/* CPU lists: see cpulist.h. */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "lib/cpulist.h"

/* Larger CPU numbers are no CPU's. */
#define CPULIST_MAX (1 << 20)

/* number(p, out): a CPU number at *p (advanced past it); 0, or -1. */
static int number(const char **p, int *out)
{
	char *end;
	long v;
	if (!isdigit((unsigned char)**p))
		return -1;
	v = strtol(*p, &end, 10);
	if (v >= CPULIST_MAX)
		return -1;
	*p = end;
	*out = (int)v;
	return 0;
}

/* cpulist_has: see cpulist.h. */
int cpulist_has(const char *list, int cpu)
{
	const char *p = list;
	int in = 0;
	for (;;) {
		int lo, hi;
		if (number(&p, &lo))
			return -1;
		hi = lo;
		if (*p == '-' && (++p, number(&p, &hi) || hi < lo))
			return -1;
		in |= cpu >= lo && cpu <= hi;
		if (*p != ',')
			break;
		p++;
	}
	return *p == '\0' || !strcmp(p, "\n") ? in : -1;
}

/* cpulist_parse: see cpulist.h. */
int cpulist_parse(const char *list, int *cpus, int max)
{
	int n = 0;
	while (*list && *list != '\n') {
		char *end;
		long a = strtol(list, &end, 10), b = a;
		if (end == list || a < 0)
			return -1;
		if (*end == '-') {
			list = end + 1;
			b = strtol(list, &end, 10);
			if (end == list || b < a)
				return -1;
		}
		for (long c = a; c <= b; c++) {
			if (n >= max || c > INT_MAX)
				return -1;
			cpus[n++] = (int)c;
		}
		if (*end && *end != ',' && *end != '\n')
			return -1;
		list = *end == ',' ? end + 1 : end;
	}
	return n;
}
