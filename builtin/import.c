/* perfdb import: perf.data files (or a pipe) into sessions of a database
 * (collect/import/import.h does the work). */
#include "builtin/builtin.h"
#include "builtin/describe_args.h"
#include "collect/import/import.h"

static const char *const usage[] = {
	"perfdb import [-o DB] [-l LABEL] [--kallsyms FILE] [-q] [--btf FILE] [--dwarf FILE]...",
	"              [--object TYPE@ADDR[:SIZE][/PID]]... [-t TYPE]... FILE.data...",
	NULL,
};

static const char *db_path;
static struct ingest_opts o;
static bool quiet;

static const struct opt options[] = {
	OPT_STRING('o', "output", &db_path, "DB", "database to add the sessions to (default ./perfdb.db)"),
	OPT_STRING('l', "label", &o.label, "LABEL", "label of the new sessions (e.g. base, patched)"),
	OPT_STRING(0, "kallsyms", &o.kallsyms, "FILE",
		   "kernel symbols from this saved /proc/kallsyms (default: perf's build-id cache, "
		   "or /proc/kallsyms when the file was recorded on the running kernel)"),
	OPT_BOOL('q', "quiet", &quiet, "no progress and no summary on stderr"),
	OPT_GROUP("what field attribution needs (as perfdb layout):"),
	OPT_DESCRIBE(),
	OPT_END(),
};

/* run: the files, in order. */
static int run(struct verb_ctx *ctx)
{
	if (ctx->nops < 1) {
		fprintf(stderr, "%s: no file to import (perfdb import [-o DB] FILE.data...; '-' is "
			"standard input)\n", ctx->prog);
		return EXIT_USAGE;
	}
	struct describe_opts dsc = describe_opts_of(true);
	int rc;
	if ((o.kallsyms && input_file_check(ctx->prog, "--kallsyms", o.kallsyms)) ||
	    describe_args_check(ctx->prog)) {
		describe_args_free();
		return EXIT_FAIL;
	}
	o.progress = !quiet;
	rc = import_files(db_path ? db_path : PERFDB_DEFAULT_DB, ctx->ops, ctx->nops, &o, &dsc, quiet);
	describe_args_free();
	return rc;
}

const struct verb verb_import = {
	.name = "import",
	.summary = "import perf.data files as sessions",
	.usage = usage,
	.description =
		"Each file becomes one session, in its own transaction: a file that is truncated "
		"or corrupt gives exit status 2 and one line naming the file offset of what is "
		"wrong, and leaves the database as it was. FILE may be '-': a pipe-mode recording "
		"on standard input (perf record -o - ... | perfdb import -).\n\n"
		"Each new session also gets what field attribution (perfdb hitm, watch) needs, as "
		"perfdb layout would store it: the objects and layouts the options give, and the "
		"layouts its samples need (mm_struct when its tracepoints name mm_structs) from the "
		"running kernel's BTF when it was recorded on this kernel's release; for a recording "
		"of another kernel, give that kernel's BTF with --btf.\n",
	.options = options,
	.run = run,
};
