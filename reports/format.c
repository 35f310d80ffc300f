/* The output format names: see format.h. */
#include <string.h>
#include "reports/format.h"

const char *const out_format_names[] = { "text", "md", "csv", "json", "html", NULL };

/* out_format_parse: see format.h. */
int out_format_parse(const char *s, enum out_format *f)
{
	for (int i = 0; s && out_format_names[i]; i++)
		if (!strcmp(s, out_format_names[i])) {
			*f = (enum out_format)i;
			return 0;
		}
	return -1;
}

/* out_format_name: see format.h. */
const char *out_format_name(enum out_format f)
{
	return (unsigned)f <= FMT_HTML ? out_format_names[f] : "?";
}
