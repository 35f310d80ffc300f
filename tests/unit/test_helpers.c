/* Unit tests of lib/'s small shared helpers: errf (error lines into a
 * caller's buffer: written, cut, or not written at all) and lower_bound
 * (binary search: empty, one element, a key below, above and among equal
 * elements, the lower, upper and last-at-or-below bounds, elements wider
 * than a word, and every sorted array of up to 8 small values against a
 * linear scan). */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "lib/errf.h"
#include "lib/search.h"
#include "tests/unit/tap.h"

/* test_errf: writes, cuts at errlen with its NUL, skips a NULL or empty
 * buffer, always returns -1. */
static void test_errf(void)
{
	char buf[16];
	memset(buf, 'x', sizeof(buf));
	is_int(errf(buf, sizeof(buf), "%s %d", "bad", 42), -1, "errf returns -1");
	is_str(buf, "bad 42", "errf writes the printf output");
	is_int(errf(buf, 5, "%s", "abcdefgh"), -1, "a cut line still returns -1");
	is_str(buf, "abcd", "cut to errlen bytes with its NUL");
	memset(buf, 'x', sizeof(buf));
	errf(buf, 1, "abc");
	is_str(buf, "", "errlen 1: the NUL alone");
	memset(buf, 'x', sizeof(buf));
	is_int(errf(buf, 0, "abc"), -1, "errlen 0: -1");
	ok(buf[0] == 'x', "errlen 0: nothing written");
	is_int(errf(NULL, 10, "abc"), -1, "a NULL buffer: -1, nothing written");
}

static int calls;

/* below / at_or_below: int predicates, counting their calls. */
static bool below(const void *e, const void *k)
{
	calls++;
	return *(const int *)e < *(const int *)k;
}

static bool at_or_below(const void *e, const void *k)
{
	calls++;
	return *(const int *)e <= *(const int *)k;
}

/* bound(v, n, key, upper): lower_bound of key in v[0..n). */
static size_t bound(const int *v, size_t n, int key, bool upper)
{
	return lower_bound(v, n, sizeof(*v), &key, upper ? at_or_below : below);
}

/* test_edges: empty, one element, keys outside, runs of equal elements. */
static void test_edges(void)
{
	const int one[] = { 5 }, v[] = { 1, 2, 2, 2, 3, 7 };
	calls = 0;
	is_int(lower_bound(NULL, 0, sizeof(int), &calls, below), 0, "empty: 0");
	is_int(calls, 0, "empty: the predicate is never called");
	is_int(bound(one, 1, 4, false), 0, "one element above the key: 0");
	is_int(bound(one, 1, 5, false), 0, "one element equal to the key: 0 (first >=)");
	is_int(bound(one, 1, 5, true), 1, "one element equal to the key: 1 (first >)");
	is_int(bound(one, 1, 6, false), 1, "one element below the key: 1");
	is_int(bound(v, 6, 0, false), 0, "key below all: 0");
	is_int(bound(v, 6, 0, true), 0, "key below all, upper: 0 (no last <= key)");
	is_int(bound(v, 6, 9, false), 6, "key above all: n");
	is_int(bound(v, 6, 9, true), 6, "key above all, upper: n");
	is_int(bound(v, 6, 2, false), 1, "first of equal elements (first >= key)");
	is_int(bound(v, 6, 2, true), 4, "past the equal elements (first > key)");
	is_int((long)bound(v, 6, 2, true) - 1, 3, "last <= key: the last of the equal ones");
	is_int(bound(v, 6, 5, false), 5, "a key between elements: the next one");
	is_int((long)bound(v, 6, 5, true) - 1, 4, "a key between elements: last <= key");
	calls = 0;
	bound(v, 6, 2, false);
	ok(calls <= 3, "6 elements: at most 3 predicate calls (%d)", calls);
}

/* A wide element searched by one of its fields. */
struct wide {
	char pad[13];
	uint64_t start;
	char tail[7];
};

/* starts_by: whether w starts at or below *key. */
static bool starts_by(const void *w, const void *key)
{
	return ((const struct wide *)w)->start <= *(const uint64_t *)key;
}

/* test_wide: elements larger than a word, a 64-bit key. */
static void test_wide(void)
{
	struct wide w[5];
	uint64_t k;
	memset(w, 0, sizeof(w));
	for (int i = 0; i < 5; i++)
		w[i].start = (uint64_t)i * 10 + ((uint64_t)1 << 40);
	k = ((uint64_t)1 << 40) + 25;
	is_int(lower_bound(w, 5, sizeof(w[0]), &k, starts_by), 3, "wide elements: first start > key");
	k = ((uint64_t)1 << 40) + 40;
	is_int(lower_bound(w, 5, sizeof(w[0]), &k, starts_by), 5, "wide elements: the last starts at key");
}

/* linear(v, n, key, upper): what lower_bound must give, by a scan. */
static size_t linear(const int *v, size_t n, int key, bool upper)
{
	size_t i = 0;
	while (i < n && (upper ? v[i] <= key : v[i] < key))
		i++;
	return i;
}

/* test_exhaustive: every non-decreasing array of up to 8 values in 0..3,
 * every key in -1..4, both bounds, against the scan. */
static void test_exhaustive(void)
{
	long arrays = 0, bad = 0;
	for (size_t n = 0; n <= 8; n++) {
		int v[8] = { 0 };
		for (;;) {
			for (int key = -1; key <= 4; key++)
				for (int upper = 0; upper < 2; upper++)
					bad += bound(v, n, key, upper) != linear(v, n, key, upper);
			arrays++;
			size_t i = n;	/* the next non-decreasing array */
			while (i > 0 && v[i - 1] == 3)
				i--;
			if (i == 0)
				break;
			v[i - 1]++;
			for (size_t j = i; j < n; j++)
				v[j] = v[i - 1];
		}
	}
	ok(!bad, "%ld sorted arrays of up to 8 values, keys -1..4: as a linear scan (%ld differ)",
	   arrays, bad);
}

int main(void)
{
	test_errf();
	test_edges();
	test_wide();
	test_exhaustive();
	return tap_done();
}
