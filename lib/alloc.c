/* Allocation that never fails for the caller: see alloc.h. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/alloc.h"
#include "lib/prog.h"

/* die_oom: see alloc.h. */
_Noreturn void die_oom(size_t n)
{
	char msg[128];
	int len = snprintf(msg, sizeof(msg), "%s: out of memory (%zu bytes)\n", prog_name(), n);
	if (len > 0 && write(2, msg, (size_t)len) < 0)
		len = 0;
	_exit(2);
}

/* xmalloc: see alloc.h. */
void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die_oom(n);
	return p;
}

/* xcalloc: see alloc.h. */
void *xcalloc(size_t n, size_t size)
{
	void *p;
	if (size && n > SIZE_MAX / size)
		die_oom(SIZE_MAX);
	p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		die_oom(n * size);
	return p;
}

/* xrealloc: see alloc.h. */
void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		die_oom(n);
	return q;
}

/* xreallocarray: see alloc.h. */
void *xreallocarray(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		die_oom(SIZE_MAX);
	return xrealloc(p, n * size);
}

/* xstrdup: see alloc.h. */
char *xstrdup(const char *s)
{
	return s ? xstrndup(s, strlen(s)) : NULL;
}

/* xstrndup: see alloc.h. */
char *xstrndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = 0;
	return p;
}

/* xasprintf: see alloc.h. */
char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	int n;
	char *p;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		die_oom(0);
	p = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

/* alloc_nr: see alloc.h. */
size_t alloc_nr(size_t cap)
{
	return cap > SIZE_MAX / 2 ? SIZE_MAX : cap + cap / 2 + 16;
}
