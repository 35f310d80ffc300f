/* CPU lists: see cpulist.h. */
#include <ctype.h>
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
