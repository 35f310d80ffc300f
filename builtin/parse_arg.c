/* --parse FORMAT of perfdb bench and perfdb record (see parse_arg.h). */
#include <stdio.h>
#include <string.h>
#include "builtin/parse_arg.h"
#include "collect/parse/parse.h"
#include "lib/alloc.h"
#include "lib/exit.h"
#include "lib/strbuf.h"

/* list(): every format, three lines each. */
static void list(void)
{
	size_t n;
	const struct parse_format *const *f = parse_formats(&n);
	printf("The formats of --parse FORMAT (the workload's stdout, read as it comes):\n");
	for (size_t i = 0; i < n; i++)
		printf("\n  %s\n      %s\n      metrics: %s\n", parse_format_name(f[i]),
		       parse_format_summary(f[i]), parse_format_metrics(f[i]));
}

/* parse_arg_formats: see parse_arg.h. */
const struct verb_item *parse_arg_formats(void)
{
	static struct verb_item *items;
	static char **texts;
	size_t n;
	const struct parse_format *const *f = parse_formats(&n);
	if (items)
		return items;
	items = xcalloc(n + 1, sizeof(*items));
	texts = xcalloc(n, sizeof(*texts));
	for (size_t i = 0; i < n; i++) {
		struct strbuf b = STRBUF_INIT;
		sb_printf(&b, "%s. Metrics: %s.", parse_format_summary(f[i]), parse_format_metrics(f[i]));
		texts[i] = sb_take(&b);
		items[i] = (struct verb_item){ parse_format_name(f[i]), texts[i] };
	}
	return items;
}

/* parse_arg_check: see parse_arg.h. */
int parse_arg_check(const char *prog, const char *spec)
{
	char err[1024];
	if (!spec)
		return 0;
	if (!strcmp(spec, "help")) {
		list();
		return PARSE_HELP;
	}
	if (parse_check(spec, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return EXIT_USAGE;
	}
	return 0;
}
