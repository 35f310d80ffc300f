/* perfdb folded: a session's call stacks as folded lines "a;b;c COUNT"
 * (outermost caller first, as flamegraph.pl, speedscope and inferno read
 * them), frames keyed and named as in perfdb cgdiff. */
#include <stdio.h>
#include "analyze/callgraph/cgdiff.h"
#include "analyze/callgraph/cgdiff_findings.h"
#include "analyze/lost_note.h"
#include "builtin/builtin.h"
#include "builtin/callgraph_opts.h"

static const char *const usage[] = {
	"perfdb folded [DB] [-s SESSION] [--comm C] [--pid P] [--tid T] [--event E] [--period]",
	"              [-n ROWS] [--format F]",
	"perfdb folded DB SESSION [OPTIONS]",
	NULL,
};

static struct cg_opts o = { .filter = { .pid = -1, .tid = -1 }, .conf = 0.95 };
static bool period;

static const struct opt options[] = {
	OPT_SESSION(),
	OPT_CG_FILTER(o.filter),
	OPT_BOOL_F(0, "period", &period, "count sample periods instead of samples", PO_NONEG),
	OPT_ROWS("all", "stacks: the heaviest, still in text order"),
	OPT_FORMAT(),
	OPT_END(),
};

/* run: the event check, the stacks and their findings. */
static int run(struct verb_ctx *ctx)
{
	struct cg_pick side = { ctx->sessions.spec, ctx->sessions.ids, ctx->sessions.n };
	struct cgdiff *d;
	char err[1024], event[256];
	if (cg_pick_event(ctx, &side, 1, &o.filter, event, sizeof(event)))
		return EXIT_FAIL;
	if (cgdiff_load(ctx->db, &side, NULL, &o, &d, err, sizeof(err))) {
		return verb_fail(ctx, err);
	}
	cgdiff_folded_findings(d, period, verb_rows(0), ctx->doc);
	lost_note(ctx->db, ctx->sessions.ids, ctx->sessions.n, INT64_MIN, INT64_MAX, CG_LOST_DOUBTFUL, ctx->doc);
	cgdiff_free(d);
	return EXIT_OK;
}

const struct verb verb_folded = {
	.name = "folded",
	.summary = "a session's call stacks as folded lines for flame graphs",
	.usage = usage,
	.examples = (const struct verb_item[]){
		{ "perfdb folded -s base | flamegraph.pl > base.svg", "A flame graph of the sessions "
		  "labelled base" },
		{ "perfdb folded -s 3 --period --comm kswapd0 > kswapd0.folded", "kswapd0's stacks "
		  "weighted by period, for speedscope or inferno" },
		{ NULL, NULL },
	},
	.files = (const struct verb_item[]){ VERB_FILE_DB_READ, { NULL, NULL } },
	.description =
		"One line per distinct call path with samples ending there, \"a;b;c COUNT\" with the "
		"outermost caller first, sorted: the input of flamegraph.pl, speedscope and inferno. "
		"COUNT is the number of samples, or with --period the sum of their periods. Frames "
		"are keyed as perfdb cgdiff keys them (symbols without compiler clone suffixes, "
		"\"[unknown] (DSO)\"); a ';' in a name is written ':'. A label naming several "
		"sessions pools their samples.\n\n"
		"The table \"stacks\" (csv, json) has the columns stack and count.\n",
	.options = options,
	.operands = cg_db_session,
	.run = run,
};
