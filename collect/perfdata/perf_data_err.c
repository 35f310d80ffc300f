/* perf.data reader: its error and its warnings, "PATH: offset N: what"
 * (see perf_data_int.h). Every part of the reader gives them: they sit
 * below all of them, in a file of their own. */
#include <stdarg.h>
#include <stdio.h>
#include "lib/alloc.h"
#include "lib/errf.h"
#include "collect/perfdata/perf_data_int.h"

/* pd_errorf: see perf_data_int.h. */
int pd_errorf(struct pd_reader *r, uint64_t offset, const char *fmt, ...)
{
	char what[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return errf(r->in->err, r->in->errlen, "%s: offset %llu: %s", r->path,
		    (unsigned long long)offset, what);
}

/* pd_warnf: see perf_data_int.h. */
void pd_warnf(struct pd_reader *r, uint64_t offset, const char *fmt, ...)
{
	char what[512], line[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(line, sizeof(line), "%s: offset %llu: %s", r->path,
		 (unsigned long long)offset, what);
	if (r->nr_warnings >= 100)
		return;
	r->warnings = xreallocarray(r->warnings, r->nr_warnings + 1, sizeof(*r->warnings));
	r->warnings[r->nr_warnings++] = xstrdup(line);
}
