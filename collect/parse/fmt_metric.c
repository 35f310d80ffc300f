/* --parse metric (the default): perfdb's own result lines,
 * "metric=NAME value=V ..." and "metric=NAME sample=V ..."
 * (collect/metric_line.h). */
#include "collect/parse/parse_int.h"

/* line: a metric line adds its value or sample; a malformed one fails the
 * run and shows as it was. */
static int line(void *state, const char *s, struct parse_result *out)
{
	struct metric m;
	char err[256];
	int k = metric_parse(s, &m, err, sizeof(err));
	(void)state;
	if (k < 0)
		parse_fail(out, "%s", err);
	if (k <= 0)
		return 0;
	if (m.sample)
		parse_sample(out, m.name, m.value, m.unit, m.better, m.line);
	else
		parse_metric(out, m.name, m.value, m.unit, m.better, m.line);
	return 1;
}

/* end: a run that printed no metric line fails, saying what is asked. */
static void end(void *state, const struct parse_usage *u, struct parse_result *out)
{
	(void)state;
	(void)u;
	if (!out->nmetrics && !out->ndists)
		parse_fail(out, "printed no metric line (metric=NAME value=V ...) on stdout");
}

const struct parse_format parse_fmt_metric = {
	.name = "metric",
	.summary = "perfdb's own lines: metric=NAME value=V (or sample=V) [unit=U] [better=higher|lower]",
	.metrics = "as printed; sample= lines make a distribution per run",
	.line = line,
	.end = end,
};
