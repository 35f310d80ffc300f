/* perfdb layout: stores in sessions the objects and struct layouts field
 * attribution needs (collect/describe.h), so that perfdb hitm and perfdb
 * watch only read. */
#include <stdio.h>
#include <stdlib.h>
#include "builtin/builtin.h"
#include "collect/describe.h"
#include "lib/alloc.h"
#include "schema/db.h"

static const char *const usage[] = {
	"perfdb layout [DB] [-s SESSION] [--btf FILE] [--dwarf FILE]... "
	"[--object TYPE@ADDR[:SIZE][/PID]]... [-t TYPE]...",
	NULL,
};

static const char *btf;
static struct string_list dwarf, types;
static struct obj_spec *objects;
static size_t nobjects, objects_cap;

/* parse_object(opt, arg, err): one --object into objects[]. */
static int parse_object(const struct opt *opt, const char *arg, struct strbuf *err)
{
	struct obj_spec o;
	(void)opt;
	if (objects_parse_spec(arg, &o)) {
		sb_printf(err, "'%s' is not TYPE@ADDR[:SIZE][/PID] (e.g. mm_struct@0xffff888100a40000)",
			  arg);
		return -1;
	}
	ALLOC_GROW(objects, nobjects + 1, objects_cap);
	objects[nobjects++] = o;
	return 0;
}

static const struct opt options[] = {
	OPT_SESSION(),
	OPT_STRING(0, "btf", &btf, "FILE",
		   "struct layouts from this BTF (raw, or an ELF file's .BTF), before the running "
		   "kernel's"),
	OPT_STRING_LIST(0, "dwarf", &dwarf, "FILE",
			"a binary or debug vmlinux built with -g: its struct layouts (tried first), "
			"and its variables and data symbols at the addresses the session mapped it at"),
	OPT_CALLBACK(0, "object", NULL, "TYPE@ADDR[:SIZE][/PID]", parse_object,
		     "an object of struct TYPE at ADDR (SIZE bytes, default the layout's size; of "
		     "process PID only)"),
	OPT_STRING_LIST('t', "type", &types, "TYPE",
			"also store the layout of struct TYPE (e.g. task_struct)"),
	OPT_END(),
};

/* report(ctx, r, n): one line per session on stdout, warnings on stderr. */
static int report(const struct verb_ctx *ctx, const struct describe_result *r, int n)
{
	for (int i = 0; i < n; i++) {
		char *line = describe_result_line(&r[i]);
		if (r[i].warning)
			fprintf(stderr, "%s: warning: %s\n", ctx->prog, r[i].warning);
		printf("%s\n", line);
		free(line);
	}
	if (fflush(stdout)) {
		fprintf(stderr, "%s: cannot write the output\n", ctx->prog);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* describe(ctx, db): picks the sessions and stores what they need. */
static int describe(struct verb_ctx *ctx, sqlite3 *db)
{
	struct describe_opts o = { .btf = btf, .dwarf = dwarf.v, .ndwarf = dwarf.n,
		.objects = objects, .nobjects = nobjects, .types = types.v, .ntypes = types.n };
	struct describe_result *r;
	int64_t *ids = NULL;
	char err[4400];
	int n = db_pick_sessions(db, common.session, &ids, err, sizeof(err)), rc = EXIT_FAIL;
	if (n > 0 && !describe_sessions(db, ids, n, &o, &r, err, sizeof(err))) {
		rc = report(ctx, r, n);
		describe_results_free(r, n);
	} else {
		fprintf(stderr, "%s: %s: %s\n", ctx->prog, ctx->dbpath, err);
	}
	free(ids);
	return rc;
}

/* run: opens the [DB] operand for writing and describes the sessions. */
static int run(struct verb_ctx *ctx)
{
	char err[1024];
	sqlite3 *db;
	int rc = EXIT_FAIL;
	if (ctx->nops > 1) {
		fprintf(stderr, "%s: too many operands ('%s'): the only one is the database\n",
			ctx->prog, ctx->ops[1]);
		rc = EXIT_USAGE;
	} else if (!(db = db_open(ctx->nops ? ctx->ops[0] : ctx->dbpath, false, err, sizeof(err)))) {
		fprintf(stderr, "%s: %s\n", ctx->prog, err);
	} else {
		ctx->dbpath = ctx->nops ? ctx->ops[0] : ctx->dbpath;
		rc = describe(ctx, db);
		sqlite3_close(db);
	}
	string_list_clear(&dwarf);
	string_list_clear(&types);
	free(objects);
	return rc;
}

const struct verb verb_layout = {
	.name = "layout",
	.summary = "store the objects and struct layouts field attribution needs (for hitm, watch)",
	.usage = usage,
	.description =
		"Stores in the sessions (default: the latest; one transaction for all) the objects "
		"given with --object and the variables of the --dwarf binaries, and the struct "
		"layouts the sessions need: mm_struct when their mmap_lock or exit_mmap tracepoints "
		"name mm_structs, the --object and -t types, and the types of DWARF objects their "
		"memory samples or watched addresses fall in. Each layout comes from the --dwarf "
		"files first, then --btf, then the running kernel's BTF (with a warning when a "
		"session was recorded on another kernel release). A layout a session has is "
		"only replaced from a --btf or --dwarf file that has it.\n\n"
		"Prints one line per session saying what was stored. perfdb hitm reads what this "
		"stores and never writes.\n",
	.options = options,
	.run = run,
};
