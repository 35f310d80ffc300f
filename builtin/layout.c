/* perfdb layout: stores in sessions the objects and struct layouts field
 * attribution needs (collect/layout/describe.h), so that perfdb hitm and perfdb
 * watch only read. */
#include <stdio.h>
#include <stdlib.h>
#include "builtin/builtin.h"
#include "builtin/describe_args.h"
#include "collect/layout/describe.h"
#include "lib/alloc.h"
#include "schema/db.h"

static const char *const usage[] = {
	"perfdb layout [DB] [-s SESSION] [--btf FILE] [--dwarf FILE]... "
	"[--object TYPE@ADDR[:SIZE][/PID]]... [-t TYPE]...",
	NULL,
};

static const struct opt options[] = {
	OPT_SESSION(),
	OPT_DESCRIBE(),
	OPT_END(),
};

/* describe(ctx, db): picks the sessions and stores what they need. */
static int describe(struct verb_ctx *ctx, sqlite3 *db)
{
	struct describe_opts o = describe_opts_of(false);
	struct describe_result *r;
	int64_t *ids = NULL;
	char err[4400];
	int n = db_pick_sessions(db, common.session, &ids, err, sizeof(err)), rc = EXIT_FAIL;
	if (n > 0 && !describe_sessions(db, ids, n, &o, &r, err, sizeof(err))) {
		describe_report(ctx->prog, r, n, stdout);
		rc = fflush(stdout) ? EXIT_FAIL : EXIT_OK;
		describe_results_free(r, n);
	} else {
		rc = verb_fail(ctx, err);
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
	} else if (describe_args_check(ctx->prog)) {
		rc = EXIT_FAIL;
	} else if (!(db = db_open(ctx->nops ? ctx->ops[0] : ctx->dbpath, false, err, sizeof(err)))) {
		fprintf(stderr, "%s: %s\n", ctx->prog, err);
	} else {
		ctx->dbpath = ctx->nops ? ctx->ops[0] : ctx->dbpath;
		rc = describe(ctx, db);
		db_close(db);
	}
	describe_args_free();
	return rc;
}

const struct verb verb_layout = {
	.name = "layout",
	.summary = "store the objects and struct layouts field attribution needs (for hitm, watch)",
	.usage = usage,
	.examples = (const struct verb_item[]){
		{ "perfdb layout -s 3 -t task_struct",
		  "Store struct task_struct's layout, from the running kernel's BTF, in session 3" },
		{ "perfdb layout -s w --dwarf ./falseshare",
		  "The struct layouts and global variables of a binary built with -g, for the "
		  "watchpoint session w" },
		{ "perfdb layout lab.db -s c2c --btf vmlinux --object mm_struct@0xffff888100a40000",
		  "An mm_struct at a known address, its layout from another kernel's BTF" },
		{ NULL, NULL },
	},
	.files = (const struct verb_item[]){
		{ "./" PERFDB_DEFAULT_DB, "the database, unless the operand DB names another: opened "
		  "for writing" },
		{ "/sys/kernel/btf/vmlinux", "the running kernel's BTF, after the --dwarf and --btf files" },
		{ NULL, NULL },
	},
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
