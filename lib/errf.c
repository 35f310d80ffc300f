/* Error lines into a caller's buffer: see errf.h. */
#include <stdarg.h>
#include <stdio.h>
#include "lib/errf.h"

/* errf: see errf.h. */
int errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	if (!err || !errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}
