/* perfdb sessions: the sessions of a database, one row each, with their
 * sample counts per event. */
#include <stdlib.h>
#include "analyze/session_info.h"
#include "analyze/sessions.h"
#include "builtin/builtin.h"
#include "schema/db.h"

static const char *const usage[] = {
	"perfdb sessions [DB] [-s SESSION] [--format F] [--table NAME]",
	NULL,
};

static const struct opt options[] = {
	OPT_STRING('s', "session", &common.session, "SESSION",
		   "only the sessions of this id or label (default: every session)"),
	OPT_FORMAT(),
	OPT_END(),
};

/* run: every session (or those -s names), as findings. */
static int run(struct verb_ctx *ctx)
{
	int64_t *ids = NULL;
	char err[512];
	int n = common.session ? db_pick_sessions(ctx->db, common.session, &ids, err, sizeof(err))
			       : sessions_all(ctx->db, &ids);
	if (n < 0) {
		fprintf(stderr, "%s: %s: %s\n", ctx->prog, ctx->dbpath, err);
		return EXIT_FAIL;
	}
	session_info_add(doc_sessions(ctx->doc), ctx->db, ids, n, NULL);
	sessions_findings(ctx->db, ids, n, ctx->doc);
	free(ids);
	return EXIT_OK;
}

const struct verb verb_sessions = {
	.name = "sessions",
	.summary = "list the sessions of a database",
	.usage = usage,
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
