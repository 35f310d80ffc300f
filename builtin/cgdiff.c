/* perfdb cgdiff: the call-graph diff of two sides (--base and --new, each
 * a session or a label's sessions) in the layout of the kswapd profiles
 * pasted into LKML (seed 004): each node's shares, delta, 95% interval and
 * `=>` marks (analyze/callgraph/cgdiff.h, analyze/callgraph/cgdiff_findings.h); with --svg
 * also a differential flame graph (reports/svg_flame.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "analyze/callgraph/cgdiff.h"
#include "analyze/callgraph/cgdiff_findings.h"
#include "analyze/lost_note.h"
#include "builtin/builtin.h"
#include "builtin/callgraph_opts.h"
#include "lib/outfile.h"
#include "reports/svg_flame.h"

static const char *const usage[] = {
	"perfdb cgdiff [DB] --base LABEL --new LABEL [--comm C] [--pid P] [--tid T] [--event E]",
	"              [--percent-limit PCT] [--self | --children] [--per share|run|second|op [--metric M]]",
	"              [-n ROWS] [--format F] [--svg FILE]",
	"perfdb cgdiff [DB] BASE NEW [OPTIONS]",
	NULL,
};

static struct cg_opts o = { .filter = { .pid = -1, .tid = -1 }, .limit = 0.5, .conf = 0.95 };
static bool self, children;
static int per;
static const char *svg;

static const struct opt options[] = {
	OPT_BASE_NEW(),
	OPT_CG_FILTER(o.filter),
	OPT_DOUBLE(0, "percent-limit", &o.limit, "PCT", 0, 100,
		   "leave out rows below PCT% on both sides, ancestors kept (default 0.5)"),
	OPT_LIMIT_RENAMED(),
	OPT_BOOL_F(0, "self", &self, "rows by symbol: self shares (the innermost frame)", PO_NONEG),
	OPT_BOOL_F(0, "children", &children,
		   "rows by symbol: children shares (anywhere on the path, once per sample)", PO_NONEG),
	OPT_CHOICE(0, "per", &per, NULL, cg_per_names,
		   "compare each side's samples (their periods summed) per run, per second of recording or "
		   "per operation of a workload metric, with intervals, instead of shares (default share)"),
	OPT_STRING(0, "metric", &o.metric, "M",
		   "with --per op: the metric whose operations divide (default: a count metric every "
		   "session printed, else a rate in .../s times the recording's length)"),
	OPT_ROWS("all", "nodes: the first, in the tree's order; the flame graph keeps every node"),
	OPT_FORMAT(),
	OPT_STRING(0, "svg", &svg, "FILE",
		   "also write a differential flame graph to FILE (plain SVG; width from NEW)"),
	OPT_END(),
};

/* forms(ctx, n, ops): [DB]; without --base/--new also the old forms
 * BASE NEW and DB BASE NEW. */
static int forms(struct verb_ctx *ctx, int n, char **ops)
{
	bool sides = common.base || common.new;
	if (!sides && (n == 2 || n == 3)) {
		if (n == 3)
			ctx->dbpath = ops[0];
		common.base = ops[n - 2];
		common.new = ops[n - 1];
		return 0;
	}
	if (n > 1) {
		fprintf(stderr, "%s: too many operands ('%s'): %s\n", ctx->prog, ops[sides ? 1 : 3],
			sides ? "with --base/--new the only one is the database" :
			"give [DB] --base LABEL --new LABEL, or [DB] BASE NEW");
		return EXIT_USAGE;
	}
	if (n == 1)
		ctx->dbpath = ops[0];
	return 0;
}

/* operands(ctx, n, ops): the verb's operands (forms) and, since the hook
 * runs before the database is opened, the mode options' usage check. */
static int operands(struct verb_ctx *ctx, int n, char **ops)
{
	o.per = (enum cg_per)per;
	if (o.metric && o.per != CG_PER_OP) {
		fprintf(stderr, "%s: --metric goes with --per op\n", ctx->prog);
		return EXIT_USAGE;
	}
	return cg_mode(ctx, self, children, &o.mode) ? EXIT_USAGE : forms(ctx, n, ops);
}

/* write_svg(ctx, d): the flame graph of d into the --svg file (complete
 * or not at all, never over the database: lib/outfile.h); an exit status. */
static int write_svg(const struct verb_ctx *ctx, const struct cgdiff *d)
{
	struct outfile o;
	struct table *t;
	char err[1200];
	int rc;
	if (outfile_open(&o, svg, 0644, ctx->dbpath, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", ctx->prog, err);
		return EXIT_FAIL;
	}
	t = cgdiff_flame(d);
	rc = svg_flame_write(o.f, t, 1200);
	table_free(t);
	if (rc) {
		outfile_abort(&o);
		fprintf(stderr, "%s: %s: cannot write the flame graph\n", ctx->prog, svg);
		return EXIT_FAIL;
	}
	if (outfile_commit(&o, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", ctx->prog, err);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* run: the event check, the diff, its findings and the flame graph. */
static int run(struct verb_ctx *ctx)
{
	struct cg_pick sides[2] = { { ctx->base.spec, ctx->base.ids, ctx->base.n },
				    { ctx->new.spec, ctx->new.ids, ctx->new.n } };
	struct cgdiff *d;
	char err[1024], event[256];
	int rc;
	if (cg_pick_event(ctx, sides, 2, &o.filter, event, sizeof(event)))
		return EXIT_FAIL;
	if ((rc = cgdiff_run(ctx->db, &sides[0], &sides[1], &o, &d, err, sizeof(err)))) {
		return verb_fail(ctx, err);
	}
	cgdiff_findings(d, ctx->doc);
	doc_limit_rows(ctx->doc, "nodes", verb_rows(0));
	lost_note_sides(ctx->db, ctx->base.ids, ctx->base.n, ctx->new.ids, ctx->new.n, INT64_MIN,
			INT64_MAX, CG_LOST_DOUBTFUL, ctx->doc);
	rc = svg ? write_svg(ctx, d) : EXIT_OK;
	cgdiff_free(d);
	return rc;
}

const struct verb verb_cgdiff = {
	.name = "cgdiff",
	.summary = "call-graph diff of two sessions or labels, with intervals",
	.usage = usage,
	.examples = (const struct verb_item[]){
		{ "perfdb cgdiff --base base --new patched --svg flame.svg", "The call-graph diff of two "
		  "labels, and its differential flame graph" },
		{ "perfdb cgdiff --base base --new patched --comm kswapd0 --self -n 20", "The 20 first "
		  "symbols by self share of kswapd0's samples" },
		{ "perfdb cgdiff --base base --new patched --per op", "Samples through each node per "
		  "operation of the workload's metric, with intervals" },
		{ "perfdb cgdiff lab.db 3 4", "Session 3 against session 4 (the operand form)" },
		{ NULL, NULL },
	},
	.files = (const struct verb_item[]){
		VERB_FILE_DB_READ,
		{ "FILE", "--svg's flame graph, written whole or not at all (never over the database)" },
		{ NULL, NULL },
	},
	.description =
		"The caller-order call tree of what each side's samples were doing, side by side: per "
		"node (with --self or --children, per symbol) each side's share of its selected "
		"samples weighted by period, the change in points and its 95% interval, simultaneous "
		"over the rows (Bonferroni), so that an A/A comparison marks nothing 95% of the time. "
		"'*' marks an interval that excludes 0, '=>' where the largest significant increase "
		"and decrease land, '-' a path absent on one side, and [N frames] the middle of a "
		"straight chain of unchanged shares (text and md; csv and json have every row).\n\n"
		"With --per run, second or op the rows compare each side's samples through the node "
		"(their periods summed: milliseconds of CPU for cpu-clock) per run, per second of "
		"recording or per operation (a workload metric: a count, or a rate in .../s times the "
		"recording's length), with t intervals over the runs (3 or more a side) or counting "
		"(Poisson) intervals; '*' and '=>' then follow that comparison. Without --per, the header "
		"says when the sides' totals per run differ significantly. A row with fewer than 10 "
		"samples on both sides together, or (shares) a side with fewer than 100 in a run, says "
		"\"too few samples\" in place of an interval.\n\n"
		"BASE and NEW (--base, --new) are a session id or a label; a label naming several "
		"sessions pools its runs. With 3 or more runs on both sides the shares are the means "
		"of the runs' shares and the intervals t intervals over the runs (Student's with "
		"equal run counts, Welch's otherwise); with fewer, Newcombe's on the pooled samples, "
		"which capture sampling noise only. Frames are keyed by symbol name without compiler "
		"clone suffixes, so different builds match.\n\n"
		"The table \"nodes\" (csv, json) has per row: symbol, path (the frames from the "
		"outermost caller, joined by ';'), depth, base_pct, new_pct, delta_pct, ci95_low, "
		"ci95_high, significant, marked, mark, in_base, in_new (0 or 1), and in tree mode "
		"node, parent, base_samples, new_samples; the findings also hold base and new (spec, "
		"label, sessions, runs, samples, effective_samples), event, interval and "
		"row_confidence.\n",
	.options = options,
	.operands = operands,
	.run = run,
};
