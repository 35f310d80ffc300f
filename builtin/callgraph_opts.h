/* What the call-graph verbs (cgdiff, tree, folded) share on their command
 * lines: the --limit that became --percent-limit, --self/--children, the
 * choices of --per, and the old operand form DB SESSION. */
#ifndef PERFDB_CALLGRAPH_OPTS_H
#define PERFDB_CALLGRAPH_OPTS_H
#include "analyze/callgraph/cgdiff.h"
#include "builtin/builtin.h"

/* What lost samples make of cgdiff's, tree's and folded's figures (the
 * warning of analyze/lost_note.h). */
#define CG_LOST_DOUBTFUL "sample counts are lower bounds, shares (and their intervals) " \
	"unknown: perf loses samples in bursts, of whatever ran then"

/* cg_per_names: the choices of cgdiff --per, in the order of enum cg_per. */
extern const char *const cg_per_names[];

/* cg_limit_renamed: an option callback refusing --limit with one line
 * saying it is --percent-limit now. */
int cg_limit_renamed(const struct opt *opt, const char *arg, struct strbuf *err);

/* OPT_LIMIT_RENAMED(): the hidden --limit entry. */
#define OPT_LIMIT_RENAMED() \
	{ .type = OPT_T_CALLBACK, .long_name = "limit", .argh = "PCT", .cb = cg_limit_renamed, \
	  .help = "renamed --percent-limit", .flags = PO_HIDDEN }

/* OPT_CG_FILTER(f): the sample filters every call-graph verb takes, into
 * struct ct_filter f: --comm, --pid, --tid, --event. */
#define OPT_CG_FILTER(f) \
	OPT_STRING(0, "comm", &(f).comm, "C", \
		   "only samples of threads named C at the time (as perf report --comm)"), \
	OPT_INT(0, "pid", &(f).pid, "P", 0, (double)LLONG_MAX, "only samples of process P"), \
	OPT_INT(0, "tid", &(f).tid, "T", 0, (double)LLONG_MAX, "only samples of thread T"), \
	OPT_STRING(0, "event", &(f).event, "E", \
		   "the event (default: the event recorded with callchains that has the most samples)")

/* cg_pick_event(ctx, sides, n, f, event, len): f->event, or the event
 * recorded with callchains that has the most samples in the n sides, into
 * event (len bytes), and f->event pointed at it. 0, or EXIT_FAIL after one
 * line saying what is missing. */
int cg_pick_event(const struct verb_ctx *ctx, const struct cg_pick *sides, int n,
		  struct ct_filter *f, char *event, size_t len);

/* cg_mode(ctx, self, children, mode): *mode from --self and --children;
 * EXIT_USAGE after one line when both are given, else 0. */
int cg_mode(const struct verb_ctx *ctx, bool self, bool children, enum cg_mode *mode);

/* cg_db_session(ctx, n, ops): the operands of tree and folded: [DB], and
 * without -s the old form DB SESSION. A lone operand that is no regular
 * file is refused (it was the old SESSION): one line giving the new form,
 * EXIT_USAGE. Sets ctx->dbpath and common.session. */
int cg_db_session(struct verb_ctx *ctx, int n, char **ops);
#endif
