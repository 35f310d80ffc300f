/* The common part of every verb: options, --help, the database, the
 * sessions, rendering, the output file and pictures (see builtin.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "analyze/bench/bench_data.h"
#include "analyze/session_info.h"
#include "builtin/builtin.h"
#include "builtin/verb_doc.h"
#include "lib/alloc.h"
#include "lib/outfile.h"
#include "lib/prog.h"
#include "lib/strbuf.h"
#include "reports/render.h"
#include "schema/db.h"

struct common_opts common;

/* What a findings verb writes besides standard output (OPT_OUTPUT,
 * OPT_ASSETS): the -o file and md's pictures, replaced together at the
 * end (lib/outfile.h), and the pictures' directory. */
struct output {
	struct outfile file;		/* -o FILE, open before the verb runs */
	struct outfiles pictures;	/* written and closed by the renderer */
	char *dir;			/* the pictures' directory, or NULL */
	bool made_dir;			/* made by this run: removed again on failure */
	struct render_opts ro;
	char err[1200];			/* ro.err: why a picture failed */
};

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

/* check_modes(ctx): -s against --base/--new; the labels of RUN_LABELS. */
static int check_modes(struct verb_ctx *ctx)
{
	if ((ctx->needs & RUN_LABELS) && (!common.base || !common.new))
		return usage_err(ctx, "which labels? give --base LABEL --new LABEL");
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

/* verb_fail: see builtin.h. */
int verb_fail(const struct verb_ctx *ctx, const char *err)
{
	fprintf(stderr, "%s: %s: %s\n", ctx->prog, ctx->dbpath, err);
	return EXIT_FAIL;
}

/* pick(ctx, s): the sessions of side s: an id or label, else
 * LABEL:NAME=V[,...], the recorded runs of those cells of LABEL's bench;
 * 0 or EXIT_FAIL after one line. */
static int pick(struct verb_ctx *ctx, struct verb_side *s)
{
	char err[512];
	s->n = db_pick_sessions(ctx->db, s->spec, &s->ids, err, sizeof(err));
	s->cells = s->n <= 0 && s->spec && strchr(s->spec, ':') && strchr(s->spec, '=');
	if (s->cells)
		s->n = bench_cell_sessions(ctx->db, s->spec, &s->ids, err, sizeof(err));
	if (s->n > 0)
		return 0;
	return verb_fail(ctx, err);
}

/* cells_note(ctx): when both sides are cells of one bench, the note that
 * their runs were interleaved. */
static void cells_note(struct verb_ctx *ctx)
{
	const char *a = ctx->base.spec, *b = ctx->new.spec;
	size_t n = ctx->base.cells ? strcspn(a, ":") : 0;
	if (!ctx->new.cells || !n || strcspn(b, ":") != n || strncmp(a, b, n))
		return;
	doc_note(ctx->doc, "both sides are cells of one bench (%.*s: %s against %s): their runs were "
		 "interleaved in the same sittings, so the machine's drift between sittings cancels out of "
		 "the comparison", (int)n, a, a + n + 1, b + n + 1);
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

/* default_assets(path): FILE.assets for the output file path, malloc'ed. */
static char *default_assets(const char *path)
{
	const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
	size_t n = dot && (!slash || dot > slash) ? (size_t)(dot - path) : strlen(path);
	return xasprintf("%.*s.assets", (int)n, path);
}

/* href_of(dir, file): how the output file refers to dir (relative to the
 * file's directory when dir is inside it). */
static const char *href_of(const char *dir, const char *file)
{
	const char *slash = file ? strrchr(file, '/') : NULL;
	size_t n = slash ? (size_t)(slash - file) + 1 : 0;
	return n && !strncmp(dir, file, n) ? dir + n : dir;
}

/* keep_of(ctx): the file no output may replace: the database read. */
static const char *keep_of(const struct verb_ctx *ctx)
{
	return ctx->needs & RUN_DB_READ ? ctx->dbpath : NULL;
}

/* assets_dir(ctx, out): for md with -o or --assets, the pictures'
 * directory, made or found (a directory, or a link to one; the pictures
 * in it are never followed), set in out->ro; 0, or EXIT_FAIL after one
 * line. */
static int assets_dir(const struct verb_ctx *ctx, struct output *out)
{
	struct stat st;
	int e = 0;
	if (common.format != FMT_MD || (!common.assets && !common.output))
		return 0;
	out->dir = common.assets ? xstrdup(common.assets) : default_assets(common.output);
	out->made_dir = !mkdir(out->dir, 0755);
	if (!out->made_dir)
		e = errno != EEXIST ? errno : stat(out->dir, &st) ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
	if (e) {
		fprintf(stderr, "%s: %s: %s (the pictures' directory)\n", ctx->prog, out->dir, strerror(e));
		return EXIT_FAIL;
	}
	out->ro = (struct render_opts){ out->dir, href_of(out->dir, common.output), keep_of(ctx),
					&out->pictures, out->err, sizeof(out->err) };
	return 0;
}

/* open_output(ctx, out): -o's file, opened before the verb runs (so a
 * refused one costs nothing), and the pictures' directory; 0, or
 * EXIT_FAIL after one line. */
static int open_output(const struct verb_ctx *ctx, struct output *out)
{
	char err[1200];
	if (!(ctx->needs & RUN_FINDINGS))
		return 0;
	if (common.output && outfile_open(&out->file, common.output, 0644, keep_of(ctx), err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", ctx->prog, err);
		return EXIT_FAIL;
	}
	return assets_dir(ctx, out);
}

/* commit_output(ctx, out): the pictures, then the -o file, replaced, and
 * what was written said; 0, or EXIT_FAIL after one line (what was not
 * replaced yet stays as it was). */
static int commit_output(const struct verb_ctx *ctx, struct output *out)
{
	size_t npictures = out->pictures.n;
	char err[1200];
	if ((out->file.f && outfile_close(&out->file, err, sizeof(err))) ||
	    outfiles_commit(&out->pictures, err, sizeof(err)) ||
	    (out->file.tmp && outfile_commit(&out->file, err, sizeof(err)))) {
		fprintf(stderr, "%s: %s\n", ctx->prog, err);
		return EXIT_FAIL;
	}
	if (common.output)
		fprintf(stderr, "%s: wrote %s%s%s\n", ctx->prog, common.output,
			npictures ? " and pictures in " : "", npictures ? out->dir : "");
	return EXIT_OK;
}

/* end_output(out, failed): what is left of out aborted; the pictures'
 * directory removed when this run made it and failed (if still empty). */
static void end_output(struct output *out, bool failed)
{
	outfile_abort(&out->file);
	outfiles_abort(&out->pictures);
	if (failed && out->made_dir)
		rmdir(out->dir);
	free(out->dir);
}

/* check_table(ctx): --table names a table of the document; 0, or
 * EXIT_USAGE after one line listing them. */
static int check_table(const struct verb_ctx *ctx)
{
	struct strbuf b = STRBUF_INIT;
	if (!common.table || doc_table(ctx->doc, common.table))
		return 0;
	table_names(ctx->doc, &b);
	usage_err(ctx, "--table: '%s' is not one of %s", common.table, b.len ? sb_str(&b) : "(no tables)");
	sb_free(&b);
	return EXIT_USAGE;
}

/* render(ctx, out): ctx->doc as --format, --table, --tables say, to -o's
 * file (then replaced, with the pictures) or standard output. */
static int render(struct verb_ctx *ctx, struct output *out)
{
	FILE *f = out->file.f ? out->file.f : stdout;
	int rc = common.list_tables ? 0 : check_table(ctx);
	if (rc)
		return rc;
	if (common.list_tables)
		rc = render_table_names(ctx->doc, f);
	else
		rc = render_doc_opts(ctx->doc, (enum out_format)common.format, common.table,
				     out->dir ? &out->ro : NULL, f);
	if (out->dir && *out->err) {
		fprintf(stderr, "%s: %s\n", ctx->prog, out->err);
		return EXIT_FAIL;
	}
	if (f == stdout && (rc || fflush(stdout))) {
		fprintf(stderr, "%s: cannot write the output\n", ctx->prog);
		return EXIT_FAIL;
	}
	return commit_output(ctx, out);
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
		cells_note(ctx);
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
	struct output out = { 0 };
	int n, rc;
	snprintf(prog, sizeof(prog), "perfdb %s", v->name);
	common = (struct common_opts){ .rows = -1, .format = (int)v->default_format };
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
	if (!rc)
		rc = open_output(&ctx, &out);
	if (!rc && (needs & RUN_FINDINGS))
		new_doc(&ctx);
	if (!rc)
		rc = v->run(&ctx);
	if (!rc && ctx.doc)
		rc = render(&ctx, &out);
	end_output(&out, rc != 0);
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
