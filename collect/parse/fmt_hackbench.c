/* --parse hackbench: the hackbench of rt-tests (and the older ones
 * before it), whose one result is its "Time: SECONDS" line: the time
 * its groups took to pass every message. */
#include <string.h>
#include "collect/parse/parse_int.h"

/* line: "Time: S" is the run's seconds; every line is hackbench's own
 * (they show as they were). */
static int line(void *state, const char *text, struct parse_result *out)
{
	const char *end;
	double v;
	(void)state;
	if (strncmp(text, "Time:", 5))
		return 0;
	if (parse_number(text + 5, &end, &v) || end[strspn(end, " \t\r\n")] || v < 0) {
		size_t n = strcspn(text, "\r\n");
		parse_fail(out, "hackbench: '%.*s' has no number of seconds (finite, >= 0)", n < 80 ? (int)n : 80,
			   text);
		return 0;
	}
	parse_metric(out, "seconds", v, "s", BETTER_LOWER, text);
	return 0;
}

/* end: the Time line must have come. */
static void end(void *state, const struct parse_usage *u, struct parse_result *out)
{
	(void)state;
	(void)u;
	if (!out->nmetrics)
		parse_fail(out, "hackbench: no 'Time:' line");
}

const struct parse_format parse_fmt_hackbench = {
	.name = "hackbench",
	.summary = "rt-tests hackbench: its 'Time: S' line",
	.metrics = "seconds (s, lower)",
	.line = line,
	.end = end,
};
