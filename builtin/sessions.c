/* perfdb sessions: the sessions of a database, one row each, with their
 * sample counts per event. */
#include <stdlib.h>
#include "analyze/session_info.h"
#include "analyze/sessions.h"
#include "builtin/builtin.h"
#include "schema/db.h"

static const char *const usage[] = {
	"perfdb sessions [DB] [-s SESSION] [-n ROWS] [--format F] [--table NAME]",
	NULL,
};

static const struct opt options[] = {
	OPT_STRING('s', "session", &common.session, "SESSION",
		   "only the sessions of this id or label (default: every session)"),
	OPT_ROWS("all", "sessions: the latest, with their events and lost"),
	OPT_FORMAT(),
	OPT_END(),
};

/* run: every session (or those -s names; the latest -n of them), as
 * findings. */
static int run(struct verb_ctx *ctx)
{
	int64_t *ids = NULL;
	char err[512];
	int n = common.session ? db_pick_sessions(ctx->db, common.session, &ids, err, sizeof(err))
			       : sessions_all(ctx->db, &ids);
	long long rows = verb_rows(0);
	int skip = rows > 0 && n > rows ? n - (int)rows : 0;	/* ids in id order: the oldest */
	if (n < 0) {
		return verb_fail(ctx, err);
	}
	if (skip)
		doc_note(ctx->doc, "the latest %d of %d sessions (-n 0: all)", n - skip, n);
	session_info_add(doc_sessions(ctx->doc), ctx->db, ids + skip, n - skip, NULL);
	sessions_findings(ctx->db, ids + skip, n - skip, ctx->doc);
	free(ids);
	return EXIT_OK;
}

const struct verb verb_sessions = {
	.name = "sessions",
	.summary = "list the sessions of a database",
	.usage = usage,
	.examples = (const struct verb_item[]){
		{ "perfdb sessions", "Every session of ./perfdb.db" },
		{ "perfdb sessions lab.db -s base --format csv --table events",
		  "The events of the sessions labelled base, with their sample counts, as csv" },
		{ "perfdb sessions -n 5", "The five latest sessions" },
		{ NULL, NULL },
	},
	.files = (const struct verb_item[]){ VERB_FILE_DB_READ, { NULL, NULL } },
	.description = "One row per session: its label, kernel, samples, lost events and samples "
		       "(as perf counts them), length, and its events with their sample counts. "
		       "The table \"events\" lists every event of every session; the table \"lost\" "
		       "what perf report --stats says was lost: perf's LOST records per CPU (lost_records "
		       "is their number, lost_events the records they dropped) and its LOST_SAMPLES per "
		       "event and CPU (lost_samples). The two describe the same losses: they are not "
		       "added up.\n",
	.options = options,
	.run = run,
};
