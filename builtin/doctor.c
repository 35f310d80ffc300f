/* perfdb doctor: what perf and this kernel can record, and why not
 * (collect/doctor/doctor.h runs the checks). */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "builtin/builtin.h"
#include "collect/doctor/doctor.h"

static const char *const usage[] = {
	"perfdb doctor [DB] [--format F]",
	NULL,
};

static const struct opt options[] = {
	OPT_FORMAT(),
	OPT_END(),
};

/* run: the checks, as findings. */
static int run(struct verb_ctx *ctx)
{
	if (ctx->nops > 1) {
		fprintf(stderr, "%s: too many operands ('%s'): it takes one database at most\n", ctx->prog,
			ctx->ops[1]);
		return EXIT_USAGE;
	}
	if (ctx->nops && access(ctx->ops[0], R_OK)) {	/* as every verb's [DB]: one line, exit 2 */
		fprintf(stderr, "%s: %s: %s\n", ctx->prog, ctx->ops[0], strerror(errno));
		return EXIT_FAIL;
	}
	doctor_findings(ctx->doc);
	if (ctx->nops)
		doctor_knobs(ctx->doc, ctx->ops[0]);
	return EXIT_OK;
}

const struct verb verb_doctor = {
	.name = "doctor",
	.summary = "what perf and this kernel can record, and why not",
	.usage = usage,
	.examples = (const struct verb_item[]){
		{ "perfdb doctor", "What works here, and the apt-get line for the missing packages" },
		{ "perfdb doctor --format json", "The same checks, for a script" },
		{ "perfdb doctor bench.db", "Also the knobs (perfdb bench --set) that a bench of bench.db "
		  "changed and did not write back: a crash or kill -9 leaves them" },
		{ NULL, NULL },
	},
	.exits = (const struct verb_item[]){
		{ "0", "the checks ran, whatever they found" },
		{ "1", "a usage error (one line)" },
		{ "2", "the output could not be written, or the database given cannot be read (one line)" },
		{ NULL, NULL },
	},
	.files = (const struct verb_item[]){
		{ "/proc/sys/kernel/perf_event_paranoid", "what perf may record" },
		{ "/sys/kernel/tracing", "tracefs, and the recipes' tracepoints in it" },
		{ "/sys/kernel/btf/vmlinux", "the running kernel's BTF" },
		{ "/proc/kallsyms", "whether kernel addresses can be read" },
		{ "DB", "with the operand: the database whose benches' knobs are listed, opened read-only" },
		{ NULL, NULL },
	},
	.environment = (const char *const[]){ "PERFDB_PERF", "PATH", NULL },
	.description =
		"One row per check, with status ok, partial or no and what was seen: perf and its "
		"version, kernel.perf_event_paranoid, tracefs, each recipe's events, whether "
		"TLB-flush IPIs can be seen (a 0.1 s probe: pages dropped beside a spinning thread "
		"of the same mm, the flushes it received counted), PMU cycles, "
		"memory-sampling events (c2c), hardware breakpoints (watch: one is opened and fired "
		"on a variable of perfdb's, 1000 writes, and the recipe is ok only when it caught "
		"them all), BTF and kallsyms; "
		"then the Debian packages perfdb uses to run, build and test (dpkg-query), the "
		"missing ones named, with the apt-get line that installs them all in a note.\n\n"
		"With a database DB, also the table knobs: each file a perfdb bench --set of DB "
		"changed and did not write back (path, whether its bench still runs or died, the "
		"original value, the label, the pid, since when); the next perfdb bench -o DB writes "
		"back the ones a dead bench left.\n",
	.options = options,
	.run = run,
};
