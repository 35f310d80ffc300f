/* A growable NUL-terminated string buffer. {0} (or STRBUF_INIT) is an
 * empty buffer; the bytes are always a valid C string once anything was
 * added. Allocation follows lib/alloc.h (never fails). */
#ifndef PERFDB_STRBUF_H
#define PERFDB_STRBUF_H
#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char *p;
	size_t len, cap;
};

#define STRBUF_INIT { NULL, 0, 0 }

/* sb_putn(b, s, n): appends n bytes of s. sb_puts: a C string. sb_putc:
 * one byte. */
void sb_putn(struct strbuf *b, const char *s, size_t n);
void sb_puts(struct strbuf *b, const char *s);
void sb_putc(struct strbuf *b, char c);

/* sb_printf(b, fmt, ...) / sb_vprintf: appends printf output of any
 * length. */
void sb_printf(struct strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(struct strbuf *b, const char *fmt, va_list ap);

/* sb_str(b): the string so far ("" when empty); owned by b. */
const char *sb_str(const struct strbuf *b);

/* sb_take(b): the built string (never NULL), owned by the caller; b is
 * left empty. */
char *sb_take(struct strbuf *b);

/* sb_reset(b): empties b, keeping its memory. sb_free(b): frees it. */
void sb_reset(struct strbuf *b);
void sb_free(struct strbuf *b);
#endif
