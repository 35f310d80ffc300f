/* Programming errors: see bug.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "lib/bug.h"
#include "lib/prog.h"

/* bug: see bug.h. */
_Noreturn void bug(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: internal error: ", prog_name());
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}
