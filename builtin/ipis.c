/* perfdb ipis: TLB-flush IPIs and whether their targets still ran the mm
 * (analyze/timeline/ipis_findings.h). */
#include <stdint.h>
#include "analyze/timeline/ipis.h"
#include "analyze/timeline/ipis_findings.h"
#include "analyze/timeline/tl_load.h"
#include "builtin/builtin.h"

static const char *const usage[] = {
	"perfdb ipis [DB] [-s SESSION] [-w US] [-n ROWS] [--timeline] [--format F]",
	NULL,
};

static struct ipis_opts o = { .window_ns = IPIS_WINDOW_NS };

/* parse_window(opt, arg, err): -w US (decimals allowed, to the ns) into
 * o.window_ns. */
static int parse_window(const struct opt *opt, const char *arg, struct strbuf *err)
{
	int64_t ns;
	(void)opt;
	/* read as seconds (1e9 ns per unit), so microseconds are 1e6 times that */
	if (tl_parse_time(arg, &ns)) {
		sb_printf(err, "'%s' is not a number of microseconds (e.g. 20 or 2.5)", arg);
		return -1;
	}
	o.window_ns = ns / 1000000;
	return 0;
}

static const struct opt options[] = {
	OPT_SESSION(),
	OPT_CALLBACK('w', "window", NULL, "US", parse_window,
		     "window of switched_near_send in microseconds (default 20): IPIs whose target's "
		     "class for the flushed mm changed in the US before the send (a count, not a class)"),
	OPT_ROWS("20", "processes, pairs: the busiest"),
	OPT_BOOL_F(0, "timeline", &o.timeline, "add every CPU's loaded-mm timeline (table timeline)",
		   PO_NONEG),
	OPT_FORMAT(),
	OPT_END(),
};

static const char *const need[] = { "csd:csd_queue_cpu", "ipi:ipi_send_cpu", "ipi:ipi_send_cpumask",
	NULL };

/* run: the sessions of -s, added up. */
static int run(struct verb_ctx *ctx)
{
	char err[512];
	o.rows = verb_rows(20);
	if (!verb_need_events(ctx, &ctx->sessions, need, "tlb"))
		return EXIT_FAIL;
	if (ipis_findings(ctx->db, ctx->sessions.ids, ctx->sessions.n, &o, ctx->doc, err, sizeof(err))) {
		return verb_fail(ctx, err);
	}
	return EXIT_OK;
}

const struct verb verb_ipis = {
	.name = "ipis",
	.summary = "TLB-flush IPIs and whether their targets still ran the mm",
	.usage = usage,
	.examples = (const struct verb_item[]){
		{ "perfdb ipis -s patched", "The TLB-flush IPIs of the sessions labelled patched, "
		  "classed by what their targets ran" },
		{ "perfdb ipis -s 4 -w 50 --timeline --format json", "With a 50 us window and every "
		  "CPU's loaded-mm history, as json" },
		{ NULL, NULL },
	},
	.files = (const struct verb_item[]){ VERB_FILE_DB_READ, { NULL, NULL } },
	.description =
		"Each flush IPI is one request to one remote CPU: a csd:csd_queue_cpu of "
		"flush_tlb_func, or, in recordings without csd events, an ipi_send_cpu/cpumask at a "
		"TLB-flush callsite or right after a flush attempt. Each gets one class from what its "
		"target ran when the IPI arrived (its receiver's csd_function_entry): running (a task "
		"of the flushed mm), lazy (idle or a kernel thread holding the mm after a task of it), "
		"other (another mm: a wasted IPI), unknown (no history of the target yet, the flushed "
		"mm not known, or the target's after a switch the kernel did not trace: unknown_why "
		"says which), or "
		"unverified when no receiver was recorded (never guessed; why, when the recording "
		"tells: lost events, a task perf recorded nothing of, the recording's end). The "
		"receiver's first tlb_flush inside the flush function is its verdict (reason 1 "
		"flushed, 5 wrong CPU, 0 a lazy CPU leaving for init_mm, none: up to date), and the "
		"output says how often it agrees with the class. Besides the classes, "
		"switched_near_send counts the IPIs whose target switched in the -w window before the "
		"send (the sender's view).\n\n"
		"Tables: the summary (flush attempts, IPIs, interrupts, classes, verdicts, per second), "
		"class against the receiver's verdict, and the IPIs per flushed process, per sender -> "
		"target CPU, per callsite and per CPU; --timeline adds each CPU's loaded-mm history. "
		"Several sessions (a label naming runs) are added up.\n\n"
		"A kernel that flushes other CPUs' TLBs without IPIs (a paravirtualized "
		"flush_tlb_multi, a broadcast flush) leaves nothing to count: when 20 or more flush "
		"attempts of an mm another CPU was running reached such a CPU by fewer than one flush "
		"IPI in 100, a warning says the flush IPIs cannot be seen, names the flush functions "
		"the session's kallsyms has that may do without them, and the IPI counts are null "
		"(\"not seen\"), not 0; flush_ipis_visible and flush_ipi_check give the counts.\n",
	.options = options,
	.run = run,
};
