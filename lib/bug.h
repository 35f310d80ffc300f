/* Reporting a programming error (a misuse of an internal interface, never
 * bad input): one line on stderr, then abort(). */
#ifndef PERFDB_BUG_H
#define PERFDB_BUG_H

/* bug(fmt, ...): prints "PROG: internal error: " (PROG: lib/prog.h) and
 * the printf-style message as one line on stderr, then aborts. */
_Noreturn void bug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
