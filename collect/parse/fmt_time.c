/* --parse time: nothing is read from the output; the run's own wall,
 * user and system seconds (its process tree's, as wait4 gives them) are
 * its metrics. */
#include "collect/parse/parse_int.h"

/* end: the usage as three metrics. */
static void end(void *state, const struct parse_usage *u, struct parse_result *out)
{
	(void)state;
	if (!u) {
		parse_fail(out, "time: the run's usage is unknown");
		return;
	}
	parse_metric(out, "elapsed_s", (double)u->wall_ns / 1e9, "s", BETTER_LOWER, "(the run's wall time)");
	parse_metric(out, "user_s", (double)u->user_ns / 1e9, "s", BETTER_LOWER, "(the run's user time)");
	parse_metric(out, "sys_s", (double)u->sys_ns / 1e9, "s", BETTER_LOWER, "(the run's system time)");
}

const struct parse_format parse_fmt_time = {
	.name = "time",
	.summary = "nothing: the run's own wall, user and system time",
	.metrics = "elapsed_s, user_s, sys_s (s, lower)",
	.end = end,
};
