/* A growable string buffer: see strbuf.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/alloc.h"
#include "lib/strbuf.h"

/* sb_putn: see strbuf.h. */
void sb_putn(struct strbuf *b, const char *s, size_t n)
{
	ALLOC_GROW(b->p, b->len + n + 1, b->cap);
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

/* sb_puts: see strbuf.h. */
void sb_puts(struct strbuf *b, const char *s)
{
	sb_putn(b, s, strlen(s));
}

/* sb_putc: see strbuf.h. */
void sb_putc(struct strbuf *b, char c)
{
	sb_putn(b, &c, 1);
}

/* sb_vprintf: see strbuf.h. */
void sb_vprintf(struct strbuf *b, const char *fmt, va_list ap)
{
	va_list cp;
	va_copy(cp, ap);
	int n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	ALLOC_GROW(b->p, b->len + (size_t)n + 1, b->cap);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

/* sb_printf: see strbuf.h. */
void sb_printf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb_vprintf(b, fmt, ap);
	va_end(ap);
}

/* sb_str: see strbuf.h. */
const char *sb_str(const struct strbuf *b)
{
	return b->p ? b->p : "";
}

/* sb_take: see strbuf.h. */
char *sb_take(struct strbuf *b)
{
	char *s = b->p ? b->p : xstrdup("");
	*b = (struct strbuf){ 0 };
	return s;
}

/* sb_reset: see strbuf.h. */
void sb_reset(struct strbuf *b)
{
	b->len = 0;
	if (b->p)
		b->p[0] = '\0';
}

/* sb_free: see strbuf.h. */
void sb_free(struct strbuf *b)
{
	free(b->p);
	*b = (struct strbuf){ 0 };
}
