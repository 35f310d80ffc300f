/* The name messages start with: see prog.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "lib/prog.h"

static char name[64] = "perfdb";

/* prog_set_name: see prog.h. */
void prog_set_name(const char *n)
{
	snprintf(name, sizeof(name), "%s", n);
}

/* prog_name: see prog.h. */
const char *prog_name(void)
{
	return name;
}

/* eprintf: see prog.h. The message is formatted first, so that the name
 * and it reach stderr in one write (another process's lines never land
 * between them). */
void eprintf(const char *fmt, ...)
{
	char buf[1024], *s = buf;
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(buf)) {
		va_start(ap, fmt);
		if (vasprintf(&s, fmt, ap) < 0)
			s = NULL;
		va_end(ap);
	}
	fprintf(stderr, "%s: %s", name, s ? s : buf);
	if (s != buf)
		free(s);
}
