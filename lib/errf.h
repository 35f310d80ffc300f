/* Error lines into a caller's buffer: the err, errlen pair most perfdb
 * functions take to say why they failed. */
#ifndef PERFDB_ERRF_H
#define PERFDB_ERRF_H
#include <stddef.h>

/* errf(err, errlen, fmt, ...): the printf output of fmt into err, cut to
 * errlen bytes with its NUL (nothing is written when err is NULL or errlen
 * is 0). Returns -1, so that a failing function can `return errf(...)`. */
int errf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#endif
