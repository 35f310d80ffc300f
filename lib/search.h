/* Binary search over sorted arrays: the one loop perfdb's lookups share
 * (the first element not before a key; the last one at or below it is the
 * one before the first above it). */
#ifndef PERFDB_SEARCH_H
#define PERFDB_SEARCH_H
#include <stdbool.h>
#include <stddef.h>

/* lower_bound(base, n, size, key, before): the index of the first of the
 * n elements of size bytes at base for which before(element, key) is
 * false, n when it holds for all of them (0 when n is 0; before is then
 * never called). The elements must be partitioned by before: every one
 * for which it holds comes first, as in an array sorted the way before
 * compares. With before "element < key" it is the first element >= key;
 * with "element <= key" the first element > key, and one less, the last
 * element <= key (none when it is 0). Inline, so that a constant before
 * is inlined too where the lookup is hot. */
static inline size_t lower_bound(const void *base, size_t n, size_t size, const void *key,
				 bool (*before)(const void *elem, const void *key))
{
	const char *p = base;
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (before(p + mid * size, key))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
#endif
