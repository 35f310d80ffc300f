/* perfdb watch: what hardware write-watchpoints saw (perfdb record -r
 * watch, or any recording of mem:ADDR/LEN:w events): per watched field its
 * writes, writer CPUs, ownership transfers and store sites, per cacheline
 * a verdict, in the field contention document of perfdb hitm
 * (analyze/hitm/hitm_findings.h). */
#include <stdio.h>
#include "analyze/hitm/hitm_findings.h"
#include "analyze/hitm/watch_load.h"
#include "builtin/builtin.h"

static const char *const usage[] = {
	"perfdb watch [DB] [-s SESSION] [--min-transfers N] [--sites N] [-n ROWS] [--format F]",
	NULL,
};

static long long min_transfers = WATCH_MIN_TRANSFERS, sites = 5;

static const struct opt options[] = {
	OPT_SESSION(),
	OPT_INT(0, "min-transfers", &min_transfers, "N", 1, (double)LLONG_MAX,
		"ownership transfers a line needs for a sharing verdict (default 10)"),
	OPT_INT(0, "sites", &sites, "N", 0, (double)LLONG_MAX,
		"store sites per field in the table sites, the most writing first (default 5, 0: all)"),
	OPT_ROWS("all", "cachelines: in address order, with their fields"),
	OPT_FORMAT(),
	OPT_END(),
};

/* need_watched(ctx): whether every session watched something; else one
 * line and false. */
static bool need_watched(const struct verb_ctx *ctx)
{
	for (int i = 0; i < ctx->sessions.n; i++) {
		if (hitm_watched(ctx->db, ctx->sessions.ids[i]))
			continue;
		fprintf(stderr, "%s: %s: session %lld has no watchpoint (mem:ADDR/LEN:w) events (record "
			"them with perfdb record -r watch --watch FIELD)\n", ctx->prog, ctx->dbpath,
			(long long)ctx->sessions.ids[i]);
		return false;
	}
	return true;
}

/* run: the sessions' watched fields as one document. */
static int run(struct verb_ctx *ctx)
{
	struct hitm_watch_opts o = { .min_transfers = min_transfers, .site_rows = sites, .rows = verb_rows(0) };
	char err[512];
	if (!need_watched(ctx))
		return EXIT_FAIL;
	if (watch_findings(ctx->db, ctx->sessions.ids, ctx->sessions.n, &o, ctx->doc, err,
			   sizeof(err))) {
		return verb_fail(ctx, err);
	}
	return EXIT_OK;
}

const struct verb verb_watch = {
	.name = "watch",
	.summary = "writes hardware watchpoints saw: per field, CPU and code site; sharing",
	.usage = usage,
	.examples = (const struct verb_item[]){
		{ "perfdb watch -s w", "What the watchpoints of the session labelled w saw, per field "
		  "and line" },
		{ "perfdb watch -s w --min-transfers 100 --sites 0 --format json", "A stricter verdict "
		  "and every store site, as json" },
		{ NULL, NULL },
	},
	.files = (const struct verb_item[]){ VERB_FILE_DB_READ, { NULL, NULL } },
	.description =
		"Per watched field: its writes, writes per second, the CPUs that wrote it and its "
		"ownership transfers (consecutive writes by different CPUs: a lower bound on how "
		"often its line moved because of it), and its store sites (the function and offset "
		"of ip - 1, since a trap reports the instruction after the store); per cacheline a "
		"verdict: true sharing (one field written by CPUs in turn), false sharing "
		"(different fields written by different CPUs in turn), both, or none seen (fewer "
		"transfers than --min-transfers). The workload's own rate, watched and unwatched "
		"(--watch-baseline), in the table rates.\n\n"
		"No verdict (null, with a warning saying why) on a session whose watchpoints cannot "
		"tell a quiet field from watchpoints that do not fire: its canary (the variable of "
		"perfdb's that perfdb record -r watch watched and wrote 1000 times) was caught fewer "
		"times than written, or it has no canary and no watchpoint caught a single write. "
		"The table windows says so per session: watchpoints (verified, do not fire, fired, "
		"unverified), canary (recorded or probe), canary_writes, canary_seen, canary_lost.\n\n"
		"The tables are those perfdb hitm shows for the same sessions: \"cachelines\" (the "
		"main one) and \"fields\" with the columns memory samples fill too, then windows, "
		"cpus, sites and rates.\n",
	.options = options,
	.run = run,
};
