/* The one allocation policy of perfdb: allocation never fails for the
 * caller. Running out of memory prints "perfdb: out of memory (N bytes)"
 * on stderr and ends the process with exit status 2 (an import in
 * progress is rolled back by SQLite's journal on the next open), so no
 * caller checks for NULL. Sizes are checked for overflow. */
#ifndef PERFDB_ALLOC_H
#define PERFDB_ALLOC_H
#include <stddef.h>

/* die_oom(n): reports that n bytes could not be allocated and exits 2. */
_Noreturn void die_oom(size_t n);

/* xmalloc(n) / xcalloc(n, size) / xrealloc(p, n): malloc, calloc and
 * realloc that never return NULL (a size of 0 allocates 1 byte). */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);

/* xreallocarray(p, n, size): xrealloc(p, n * size), dying when the
 * product overflows. */
void *xreallocarray(void *p, size_t n, size_t size);

/* xstrdup(s): a malloc'd copy of s; NULL for NULL. xstrndup(s, n): a
 * copy of at most n bytes of s, NUL-terminated. */
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* xasprintf(fmt, ...): the printf output as a malloc'd string. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* alloc_nr(cap): the next capacity after cap: 3/2 of it plus 16. */
size_t alloc_nr(size_t cap);

/* ALLOC_GROW(p, n, cap): makes the array p (of *p elements) hold at least
 * n elements, growing cap (a size_t lvalue) by alloc_nr when it is too
 * small; p may be NULL with cap 0. */
#define ALLOC_GROW(p, n, cap)                                                   \
	do {                                                                    \
		if ((size_t)(n) > (cap)) {                                      \
			size_t alloc_grow_new_ = alloc_nr(cap);                 \
			if (alloc_grow_new_ < (size_t)(n))                      \
				alloc_grow_new_ = (size_t)(n);                  \
			(p) = xreallocarray((p), alloc_grow_new_, sizeof(*(p))); \
			(cap) = alloc_grow_new_;                                \
		}                                                               \
	} while (0)
#endif
