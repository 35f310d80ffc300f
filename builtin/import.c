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
	.examples = (const struct verb_item[]){
		{ "perfdb import -l base perf.data",
		  "perf's recording as a session labelled base in ./perfdb.db" },
		{ "perf record -o - -a -e sched:sched_switch -- sleep 5 | perfdb import -l live -",
		  "A pipe-mode recording, straight from perf" },
		{ "perfdb import -o lab.db --kallsyms box7.kallsyms -l box7 box7.data",
		  "A recording made on another machine, with the /proc/kallsyms saved there" },
		{ "perfdb import --btf vmlinux-6.8.btf -t task_struct old.data",
		  "A recording of another kernel, with that kernel's struct layouts for perfdb hitm "
		  "and perfdb watch" },
		{ NULL, NULL },
	},
	.exits = (const struct verb_item[]){
		{ "0", "every file was imported" },
		{ "1", "a usage error: one line, before anything is read" },
		{ "2", "a file is truncated, corrupt or unreadable: one line naming it and the file "
		  "offset of what is wrong; nothing of it is stored (the files before it stay), a "
		  "database made for nothing is removed" },
		{ "128+N", "signal N (Ctrl-C, SIGTERM, SIGHUP) stopped the import: the file being "
		  "imported leaves nothing, those before it stay, and perfdb dies of the signal" },
		{ NULL, NULL },
	},
	.files = (const struct verb_item[]){
		VERB_FILE_DB_WRITE("the sessions are added to"),
		{ "FILE.data", "the perf.data recordings, read only; - is standard input" },
		{ "~/.debug/", "perf's build-id cache ($PERF_BUILDID_DIR): the recorded kernel's "
		  "kallsyms and the recorded binaries, by build id" },
		{ "/proc/kallsyms", "kernel symbols, for a recording of the running kernel that "
		  "brings none" },
		{ "/sys/kernel/btf/vmlinux", "struct layouts, for a recording of this kernel's release" },
		{ "$TMPDIR/", "a file without a name where the records of a pipe or a compressed "
		  "recording are put in time order" },
		{ NULL, NULL },
	},
	.environment = (const char *const[]){ "PERF_BUILDID_DIR", "HOME", "TMPDIR",
		"PERFDB_SYNC_WRITES", NULL },
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
