/* The common part of every verb: options, --help, the database, the
 * sessions, rendering (see builtin.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/session_info.h"
#include "builtin/builtin.h"
#include "builtin/verb_doc.h"
#include "lib/alloc.h"
#include "lib/prog.h"
#include "lib/strbuf.h"
#include "reports/render.h"
#include "schema/db.h"

struct common_opts common;

/* verb_help: see builtin.h. */
void verb_help(const struct verb *v, FILE *out)
{
	for (int i = 0; v->usage && v->usage[i]; i++)
		fprintf(out, "%s %s\n", !i ? "usage:" : v->usage[i][0] == ' ' ? "      " : "   or:",
			v->usage[i]);
	fprintf(out, "\n%s.\n", v->summary);
	for (const char *p = v->description; p && *p;) {
		const char *end = strstr(p, "\n\n");
		size_t n = end ? (size_t)(end - p) : strlen(p);
		while (n && p[n - 1] == '\n')
			n--;
		char *para = xstrndup(p, n);
		fputc('\n', out);
		po_wrap(out, para, 0, 79);
		free(para);
		p += n;
		while (*p == '\n')
			p++;
	}
	if (v->options && v->options[0].type != OPT_T_END) {
		fprintf(out, "\noptions:\n");
		options_help(out, v->options);
	}
	verb_help_more(v, out);
}

/* verb_rows: see builtin.h. */
long long verb_rows(long long def)
{
	return common.rows >= 0 ? common.rows : def;
}

/* usage_err(ctx, fmt, ...): one line "PROG: ..." on stderr; EXIT_USAGE. */
static int usage_err(const struct verb_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int usage_err(const struct verb_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: ", ctx->prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

/* take_operands(ctx, n, ops): the DB operand (or the verb's own forms). */
static int take_operands(struct verb_ctx *ctx, int n, char **ops)
{
	if (!(ctx->needs & RUN_DB_READ)) {
		ctx->ops = ops;
		ctx->nops = n;
		return 0;
	}
	if (ctx->verb->operands)
		return ctx->verb->operands(ctx, n, ops);
	if (n > 0)
		ctx->dbpath = ops[0];
	if (n > 1 && !(ctx->needs & RUN_OPERANDS))
		return usage_err(ctx, "too many operands ('%s'): the only one is the database", ops[1]);
	ctx->ops = ops + (n > 0);
	ctx->nops = n > 0 ? n - 1 : 0;
	return 0;
}

/* check_modes(ctx): -s against --base/--new. */
static int check_modes(struct verb_ctx *ctx)
{
	if (!(ctx->needs & (RUN_COMPARE | RUN_COMPARE_ONLY)))
		return 0;
	if (!common.base != !common.new)
		return usage_err(ctx, "%s needs %s too", common.base ? "--base" : "--new",
				 common.base ? "--new" : "--base");
	if ((ctx->needs & RUN_COMPARE_ONLY) && !common.base)
		return usage_err(ctx, "which sessions to compare? give --base LABEL --new LABEL");
	if (common.base && common.session)
		return usage_err(ctx, "-s does not go with --base/--new");
	ctx->compare = common.base != NULL;
	ctx->base.spec = common.base;
	ctx->new.spec = common.new;
	return 0;
}

/* check_usage(ctx): the options the verb requires, then its own check
 * (builtin.h): usage errors before the database is opened. */
static int check_usage(struct verb_ctx *ctx)
{
	struct strbuf b = STRBUF_INIT;
	const struct verb *v = ctx->verb;
	int n = v->required ? options_missing(v->options, v->required, &b) : 0;
	if (n)
		usage_err(ctx, "%s %s required", sb_str(&b), n > 1 ? "are" : "is");
	sb_free(&b);
	if (n)
		return EXIT_USAGE;
	return v->check ? v->check(ctx) : 0;
}

/* pick(ctx, s): the sessions of side s; 0 or EXIT_FAIL after one line. */
static int pick(struct verb_ctx *ctx, struct verb_side *s)
{
	char err[512];
	s->n = db_pick_sessions(ctx->db, s->spec, &s->ids, err, sizeof(err));
	if (s->n > 0)
		return 0;
	fprintf(stderr, "%s: %s: %s\n", ctx->prog, ctx->dbpath, err);
	return EXIT_FAIL;
}

/* setup(ctx): opens the database and picks the sessions. */
static int setup(struct verb_ctx *ctx)
{
	char err[1024];
	if (!(ctx->needs & RUN_DB_READ))
		return 0;
	if (!(ctx->db = db_open_read(ctx->dbpath, err, sizeof(err)))) {
		fprintf(stderr, "%s: %s\n", ctx->prog, err);
		return EXIT_FAIL;
	}
	if (ctx->compare)
		return pick(ctx, &ctx->base) || pick(ctx, &ctx->new) ? EXIT_FAIL : 0;
	if (ctx->needs & RUN_SESSIONS) {
		ctx->sessions.spec = common.session;
		return pick(ctx, &ctx->sessions);
	}
	return 0;
}

/* table_names(d, b): "a, b, c". */
static void table_names(const struct doc *d, struct strbuf *b)
{
	for (size_t i = 0; i < doc_ntables(d); i++)
		sb_printf(b, "%s%s", i ? ", " : "", table_name(doc_table_at(d, i)));
}

/* render(ctx): prints ctx->doc as --format, --table, --tables say. */
static int render(struct verb_ctx *ctx)
{
	struct doc *d = ctx->doc;
	int rc;
	if (common.list_tables) {
		rc = render_table_names(d, stdout);
	} else {
		if (common.table && !doc_table(d, common.table)) {
			struct strbuf b = STRBUF_INIT;
			table_names(d, &b);
			usage_err(ctx, "--table: '%s' is not one of %s", common.table,
				  b.len ? sb_str(&b) : "(no tables)");
			sb_free(&b);
			return EXIT_USAGE;
		}
		rc = render_doc(d, (enum out_format)common.format, common.table, stdout);
	}
	if (rc || fflush(stdout)) {
		fprintf(stderr, "%s: cannot write the output\n", ctx->prog);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* new_doc(ctx): the document with the envelope's sessions filled. */
static void new_doc(struct verb_ctx *ctx)
{
	ctx->doc = doc_new(ctx->verb->name);
	if (!ctx->db)
		return;
	if (ctx->compare) {
		session_info_add(doc_sessions(ctx->doc), ctx->db, ctx->base.ids, ctx->base.n, "base");
		session_info_add(doc_sessions(ctx->doc), ctx->db, ctx->new.ids, ctx->new.n, "new");
	} else if (ctx->sessions.n) {
		session_info_add(doc_sessions(ctx->doc), ctx->db, ctx->sessions.ids, ctx->sessions.n, NULL);
	}
}

/* run_verb: see builtin.h. */
int run_verb(const struct verb *v, unsigned needs, int argc, char **argv)
{
	char prog[64];
	char **ops = NULL;
	struct verb_ctx ctx = { .verb = v, .needs = needs, .prog = prog, .dbpath = PERFDB_DEFAULT_DB };
	int n, rc;
	snprintf(prog, sizeof(prog), "perfdb %s", v->name);
	common = (struct common_opts){ .rows = -1 };
	if (v->init)
		v->init();
	prog_set_name(prog);	/* what collect/'s messages start with */
	n = parse_options(argc, argv, prog, v->options,
			  needs & RUN_STOP_AT_OPERAND ? PO_STOP_AT_NON_OPTION : 0, &ops);
	if (n == PO_HELP) {
		verb_help(v, stdout);
		return fflush(stdout) ? EXIT_FAIL : EXIT_OK;
	}
	if (n < 0)
		return EXIT_USAGE;
	rc = take_operands(&ctx, n, ops);
	if (!rc)
		rc = check_modes(&ctx);
	if (!rc)
		rc = check_usage(&ctx);
	if (!rc)
		rc = setup(&ctx);
	if (!rc && (needs & RUN_FINDINGS))
		new_doc(&ctx);
	if (!rc)
		rc = v->run(&ctx);
	if (!rc && ctx.doc)
		rc = render(&ctx);
	doc_free(ctx.doc);
	free(ctx.sessions.ids);
	free(ctx.base.ids);
	free(ctx.new.ids);
	if (ctx.db)
		sqlite3_close(ctx.db);
	free(ops);
	return rc;
}

/* verb_need_events: see builtin.h. */
bool verb_need_events(const struct verb_ctx *ctx, const struct verb_side *s,
		      const char *const *events, const char *recipe)
{
	char *advice = xasprintf("record them with perfdb record -r %s", recipe);
	bool ok = true;
	for (int i = 0; i < s->n && ok; i++) {
		char *why = session_none_of(ctx->db, s->ids[i], events, advice);
		if (why)
			fprintf(stderr, "%s: %s: session %lld %s\n", ctx->prog, ctx->dbpath,
				(long long)s->ids[i], why);
		ok = !why;
		free(why);
	}
	free(advice);
	return ok;
}
