/* perfdb sched: context switches per second per CPU and per process, or
 * two labels' medians side by side (analyze/timeline/sched_findings.h). */
#include <stdint.h>
#include <string.h>
#include "analyze/lost_note.h"
#include "analyze/timeline/sched_findings.h"
#include "analyze/timeline/tl_load.h"
#include "builtin/builtin.h"

static const char *const usage[] = {
	"perfdb sched [DB] [-s SESSION] [--time START,END] [--latency] [-n ROWS] [--format F]",
	"perfdb sched [DB] --base LABEL --new LABEL [-n ROWS] [--format F]",
	NULL,
};

static struct sched_opts o = { .t0 = INT64_MIN, .t1 = INT64_MAX };
static bool timed;

/* parse_window(opt, arg, err): --time A,B into o.t0, o.t1. */
static int parse_window(const struct opt *opt, const char *arg, struct strbuf *err)
{
	const char *comma = strchr(arg, ',');
	char a[64];
	(void)opt;
	timed = true;
	if (!comma || (size_t)(comma - arg) >= sizeof(a)) {
		sb_printf(err, "'%s' is not START,END (seconds; either may be empty)", arg);
		return -1;
	}
	memcpy(a, arg, (size_t)(comma - arg));
	a[comma - arg] = 0;
	if ((*a && tl_parse_time(a, &o.t0)) || (comma[1] && tl_parse_time(comma + 1, &o.t1))) {
		sb_printf(err, "'%s' is not START,END in seconds (e.g. 1217.36,1218)", arg);
		return -1;
	}
	if (o.t1 < o.t0) {
		sb_printf(err, "'%s' ends before it starts", arg);
		return -1;
	}
	return 0;
}

static const struct opt options[] = {
	OPT_SESSION(),
	OPT_CALLBACK(0, "time", NULL, "START,END", parse_window,
		     "count only [START, END], in seconds on the perf clock (as perf script prints "
		     "them); either side may be empty"),
	OPT_BOOL_F(0, "latency", &o.latency, "wakeup latency per task and per process (the tables "
		   "latency, latency_processes; csv prints latency): count, mean and max from runnable "
		   "to switch-in, as perf sched latency -p", PO_NONEG),
	OPT_BASE_NEW(),
	OPT_ROWS("20", "processes, latency, latency_processes: the busiest; with --base/--new the "
		 "busiest processes in compare"),
	OPT_FORMAT(),
	OPT_END(),
};

/* What lost events make of the comparison (analyze/lost_note.h). */
#define SCHED_COMPARE_DOUBTFUL "the rates of the sessions that lost events are lower bounds, run " \
	"times unknown, so their side's medians, ranges and intervals are doubtful"

static const char *const need[] = { "sched:sched_switch", NULL };

/* check: what does not go with --base/--new, before the database opens. */
static int check(struct verb_ctx *ctx)
{
	if (ctx->compare && (timed || o.latency)) {
		fprintf(stderr, "%s: %s does not go with --base/--new\n", ctx->prog,
			timed ? "--time" : "--latency");
		return EXIT_USAGE;
	}
	return 0;
}

/* run: one mode or the other. */
static int run(struct verb_ctx *ctx)
{
	char err[512];
	int rc;
	o.rows = verb_rows(20);
	if (ctx->compare) {
		struct sched_side b = { ctx->base.spec, ctx->base.ids, ctx->base.n };
		struct sched_side n = { ctx->new.spec, ctx->new.ids, ctx->new.n };
		if (!verb_need_events(ctx, &ctx->base, need, "sched") ||
		    !verb_need_events(ctx, &ctx->new, need, "sched"))
			return EXIT_FAIL;
		lost_note_sides(ctx->db, b.ids, b.n, n.ids, n.n, o.t0, o.t1, SCHED_COMPARE_DOUBTFUL,
				ctx->doc);	/* first: what else could not be seen comes after */
		rc = sched_compare_findings(ctx->db, &b, &n, &o, ctx->doc, err, sizeof(err));
	} else {
		if (!verb_need_events(ctx, &ctx->sessions, need, "sched"))
			return EXIT_FAIL;
		rc = sched_findings(ctx->db, ctx->sessions.ids, ctx->sessions.n, &o, ctx->doc, err,
				    sizeof(err));
	}
	if (rc) {
		return verb_fail(ctx, err);
	}
	return EXIT_OK;
}

const struct verb verb_sched = {
	.name = "sched",
	.summary = "context switches per second per CPU and per process",
	.usage = usage,
	.examples = (const struct verb_item[]){
		{ "perfdb sched -s base", "Context switches per CPU and per process of the sessions "
		  "labelled base, added up" },
		{ "perfdb sched -s 3 --latency -n 10", "The wakeup latency of the ten busiest tasks and "
		  "processes of session 3" },
		{ "perfdb sched -s 3 --time 1217.36,1218", "Only what happened in that window of the "
		  "perf clock" },
		{ "perfdb sched box7.db --base base --new patched", "Two labels' medians side by side, "
		  "with their change and its interval" },
		{ NULL, NULL },
	},
	.files = (const struct verb_item[]){ VERB_FILE_DB_READ, { NULL, NULL } },
	.description =
		"Per CPU: switches per second split by the address spaces on both sides (same mm, "
		"other mm, idle or kernel thread, unknown task), migrations in and out, idle time, "
		"and switches the kernel did not trace (inferred from samples). Per process (mm): "
		"switches away from its threads per second, over the window and per CPU it ran on, "
		"and its run time. Several sessions (a label naming runs) are added up.\n\n"
		"With --latency: the wakeup latency per task and per process, as perf sched latency -p "
		"measures it (runnable to switch-in: count, mean, max and when the max began and "
		"ended).\n\n"
		"With --base and --new: the median over each label's sessions of every per-CPU rate "
		"and of the busiest processes' rates and run times with their range over the runs, "
		"the % change and, with 3 or more runs a side, the 95% interval of the difference "
		"(simultaneous over the rows) and * where it excludes 0; rows 0 in every run of both "
		"sides are left out.\n\n"
		"When perf lost events in the window, a warning says how many, on which CPUs, and what "
		"that makes doubtful. What the recording could not see is never shown as 0: a CPU "
		"outside its -C list (its row unknown, -), a recording of a workload's tasks alone, a "
		"CPU that kept nothing of the window, a window outside the recording, migrations or "
		"wakeups never recorded; each gets a warning and an entry of the json's findings "
		"array unseen.\n",
	.options = options,
	.run = run,
	.check = check,
};
