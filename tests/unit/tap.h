/* Minimal TAP output for perfdb's unit tests: each check prints one
 * "ok N - what" or "not ok N - what" line; tests/run.sh counts them. */
#ifndef PERFDB_TAP_H
#define PERFDB_TAP_H
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

/* ok(cond, fmt, ...): records one check; returns cond so callers can stop. */
#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

static inline int tap_ok(int pass, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#include <stdarg.h>
static inline int tap_ok(int pass, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	printf("%sok %d - ", pass ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (!pass) {
		printf(" (%s:%d)", file, line);
		tap_failed++;
	}
	printf("\n");
	fflush(stdout);
	return pass;
}

#define is_int(a, b, ...) do { long long _a = (a), _b = (b); \
	if (!ok(_a == _b, __VA_ARGS__)) printf("#   got %lld, want %lld\n", _a, _b); } while (0)
#define is_str(a, b, ...) do { const char *_a = (a), *_b = (b); \
	if (!ok(_a && _b && !strcmp(_a, _b), __VA_ARGS__)) \
		printf("#   got '%s', want '%s'\n", _a ? _a : "(null)", _b ? _b : "(null)"); } while (0)

/* skip(fmt, ...): a check that could not run here: "ok N - # SKIP why"
 * (tests/run.sh counts it as skipped, never as passed). */
#define skip(...) tap_ok(1, __FILE__, __LINE__, "# SKIP " __VA_ARGS__)

/* tap_done(): exit status for main(): 0 when every check passed. */
static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
#endif
