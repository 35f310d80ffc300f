/* perfdb doctor: what perf and this kernel can record, and why not
 * (collect/doctor/doctor.h runs the checks). */
#include "builtin/builtin.h"
#include "collect/doctor/doctor.h"

static const char *const usage[] = {
	"perfdb doctor [--format F]",
	NULL,
};

static const struct opt options[] = {
	OPT_FORMAT(),
	OPT_END(),
};

/* run: the checks, as findings. */
static int run(struct verb_ctx *ctx)
{
	if (ctx->nops > 0) {
		fprintf(stderr, "%s: too many operands ('%s'): it takes none\n", ctx->prog, ctx->ops[0]);
		return EXIT_USAGE;
	}
	doctor_findings(ctx->doc);
	return EXIT_OK;
}

const struct verb verb_doctor = {
	.name = "doctor",
	.summary = "what perf and this kernel can record, and why not",
	.usage = usage,
	.description =
		"One row per check, with status ok, partial or no and what was seen: perf and its "
		"version, kernel.perf_event_paranoid, tracefs, each recipe's events, whether "
		"TLB-flush IPIs can be seen (a 0.1 s probe: pages dropped beside a spinning thread "
		"of the same mm, the flushes it received counted), PMU cycles, "
		"memory-sampling events (c2c), hardware breakpoints (watch: one is opened and fired "
		"on a variable of perfdb's, 1000 writes, and the recipe is ok only when it caught "
		"them all), BTF and kallsyms; "
		"then the Debian packages perfdb uses to run, build and test (dpkg-query), the "
		"missing ones named, with the apt-get line that installs them all in a note. "
		"The exit status is 0 whatever the checks find.\n",
	.options = options,
	.run = run,
};
