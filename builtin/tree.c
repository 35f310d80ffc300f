/* perfdb tree: one side's caller-order call tree with inclusive shares (or
 * flat self or children shares by symbol), in the layout of perfdb cgdiff
 * and of the kswapd profiles pasted into LKML (seed 004). */
#include <stdio.h>
#include "analyze/callgraph/cgdiff.h"
#include "analyze/callgraph/cgdiff_findings.h"
#include "analyze/lost_note.h"
#include "builtin/builtin.h"
#include "builtin/callgraph_opts.h"

static const char *const usage[] = {
	"perfdb tree [DB] [-s SESSION] [--comm C] [--pid P] [--tid T] [--event E]",
	"            [--percent-limit PCT] [--self | --children] [-n ROWS] [--format F]",
	"perfdb tree DB SESSION [OPTIONS]",
	NULL,
};

static struct cg_opts o = { .filter = { .pid = -1, .tid = -1 }, .limit = 0.5, .conf = 0.95 };
static bool self, children;

static const struct opt options[] = {
	OPT_SESSION(),
	OPT_CG_FILTER(o.filter),
	OPT_DOUBLE(0, "percent-limit", &o.limit, "PCT", 0, 100,
		   "leave out nodes below PCT%, ancestors kept (default 0.5)"),
	OPT_LIMIT_RENAMED(),
	OPT_BOOL_F(0, "self", &self, "rows by symbol: self shares (the innermost frame)", PO_NONEG),
	OPT_BOOL_F(0, "children", &children,
		   "rows by symbol: children shares (anywhere on the path, once per sample)", PO_NONEG),
	OPT_ROWS("all", "nodes: the first, in the tree's order"),
	OPT_FORMAT(),
	OPT_END(),
};

/* operands(ctx, n, ops): the verb's operands (forms) and, since the hook
 * runs before the database is opened, the mode options' usage check. */
static int operands(struct verb_ctx *ctx, int n, char **ops)
{
	return cg_mode(ctx, self, children, &o.mode) ? EXIT_USAGE : cg_db_session(ctx, n, ops);
}

/* run: the event check, the tree and its findings. */
static int run(struct verb_ctx *ctx)
{
	struct cg_pick side = { ctx->sessions.spec, ctx->sessions.ids, ctx->sessions.n };
	struct cgdiff *d;
	char err[1024], event[256];
	if (cg_pick_event(ctx, &side, 1, &o.filter, event, sizeof(event)))
		return EXIT_FAIL;
	if (cgdiff_run(ctx->db, &side, NULL, &o, &d, err, sizeof(err))) {
		return verb_fail(ctx, err);
	}
	cgdiff_findings(d, ctx->doc);
	doc_limit_rows(ctx->doc, "nodes", verb_rows(0));
	lost_note(ctx->db, ctx->sessions.ids, ctx->sessions.n, INT64_MIN, INT64_MAX, CG_LOST_DOUBTFUL, ctx->doc);
	cgdiff_free(d);
	return EXIT_OK;
}

const struct verb verb_tree = {
	.name = "tree",
	.summary = "a session's call tree with inclusive shares",
	.usage = usage,
	.examples = (const struct verb_item[]){
		{ "perfdb tree -s base", "The call tree of the sessions labelled base, pooled" },
		{ "perfdb tree -s 3 --comm kswapd0 --children -n 30", "The 30 first symbols by children "
		  "share of kswapd0's samples" },
		{ NULL, NULL },
	},
	.files = (const struct verb_item[]){ VERB_FILE_DB_READ, { NULL, NULL } },
	.description =
		"The caller-order call tree of the selected samples (default: every sample of the "
		"event) with each node's share, weighted by period, as perfdb cgdiff shows one side; "
		"[N frames] stands for the middle of a straight chain (text and md; csv and json have "
		"every row). A label naming several sessions pools their samples.\n\n"
		"The table \"nodes\" (csv, json) has per row: pct, symbol, path (the frames from the "
		"outermost caller, joined by ';'), depth, and in tree mode node, parent and samples.\n",
	.options = options,
	.operands = operands,
	.run = run,
};
