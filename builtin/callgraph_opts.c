/* What the call-graph verbs share on their command lines (see
 * callgraph_opts.h). */
#include <string.h>
#include <sys/stat.h>
#include "builtin/callgraph_opts.h"

/* cg_per_names: see callgraph_opts.h. */
const char *const cg_per_names[] = { "share", "run", "second", "op", NULL };

/* cg_limit_renamed: see callgraph_opts.h. */
int cg_limit_renamed(const struct opt *opt, const char *arg, struct strbuf *err)
{
	(void)opt;
	(void)arg;
	sb_printf(err, "renamed --percent-limit PCT, as perf report calls it");
	return -1;
}

/* cg_pick_event: see callgraph_opts.h. */
int cg_pick_event(const struct verb_ctx *ctx, const struct cg_pick *sides, int n,
		  struct ct_filter *f, char *event, size_t len)
{
	char err[1024];
	if (cgdiff_event(ctx->db, sides, n, f->event, event, len, err, sizeof(err))) {
		return verb_fail(ctx, err);
	}
	f->event = event;
	return 0;
}

/* cg_mode: see callgraph_opts.h. */
int cg_mode(const struct verb_ctx *ctx, bool self, bool children, enum cg_mode *mode)
{
	if (self && children) {
		fprintf(stderr, "%s: --self does not go with --children\n", ctx->prog);
		return EXIT_USAGE;
	}
	*mode = self ? CG_SELF : children ? CG_CHILDREN : CG_TREE;
	return 0;
}

/* cg_db_session: see callgraph_opts.h. */
int cg_db_session(struct verb_ctx *ctx, int n, char **ops)
{
	struct stat st;
	if (n > 2 || (n == 2 && common.session)) {
		fprintf(stderr, "%s: too many operands ('%s'): give [DB] -s SESSION%s\n", ctx->prog,
			ops[common.session ? 1 : 2], common.session ? "" : ", or DB SESSION");
		return EXIT_USAGE;
	}
	if (n == 1 && !common.session && stat(ops[0], &st) && !strpbrk(ops[0], "/.")) {
		/* no such file, and no path: a session given where the database goes */
		fprintf(stderr, "%s: '%s' is not a database file; a session is given as %s [DB] -s "
			"SESSION\n", ctx->prog, ops[0], ctx->prog);
		return EXIT_USAGE;
	}
	if (n > 0)
		ctx->dbpath = ops[0];
	if (n == 2)
		common.session = ops[1];
	return 0;
}
