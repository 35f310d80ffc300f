/* perfdb record: perf record around a workload with ready recipes,
 * imported as a session (collect/record/record.h does the work). */
#include <string.h>
#include "builtin/builtin.h"
#include "builtin/describe_args.h"
#include "builtin/parse_arg.h"
#include "collect/record/record.h"

static const char *const usage[] = {
	"perfdb record [-o DB] [-l LABEL] [-r RECIPES] [-C CPUS] [-F FREQ] [-g | --call-graph fp|dwarf]",
	"              [-m PAGES] [--perf-data FILE] [--no-kallsyms-snapshot] [--parse FORMAT] [-q]",
	"              [--watch SPEC[,SPEC]... [--watch-mm exec|fork] [--watch-baseline]]",
	"              [--btf FILE] [--dwarf FILE]... [--object TYPE@ADDR]... [-t TYPE]... -- CMD [ARG...]",
	NULL,
};

static struct record_args a;
static long long freq = -1, pages = -1;
static int callgraph = -1, watch_mm = 0;
static bool g_flag;

static const char *const cg_modes[] = { "fp", "dwarf", NULL };
static const char *const mm_modes[] = { "exec", "fork", NULL };

/* add_watch(o, arg, err): one --watch argument (comma-separated specs). */
static int add_watch(const struct opt *o, const char *arg, struct strbuf *err)
{
	char msg[512];
	(void)o;
	if (!watch_add_specs(&a.watch, arg, msg, sizeof(msg)))
		return 0;
	sb_puts(err, msg);
	return -1;
}

static const struct opt options[] = {
	OPT_STRING('o', "output", &a.db_path, "DB", "database to add the session to (default ./perfdb.db)"),
	OPT_STRING('l', "label", &a.label, "LABEL", "label of the session (e.g. base, patched)"),
	OPT_STRING('r', "recipes", &a.spec, "LIST",
		   "comma-separated recipes (default profile): sched (scheduler tracepoints), tlb "
		   "(TLB flush, IPI and CSD tracepoints), profile (cycles, or cpu-clock without a "
		   "PMU, -F 999 -g), c2c (perf c2c record: needs PEBS, IBS or SPE), watch (hardware "
		   "write-watchpoints on --watch fields)"),
	OPT_STRING('C', "cpu", &a.po.cpus, "CPUS", "record only these CPUs (perf's -C list)"),
	OPT_INT('F', "freq", &freq, "HZ", 1, 100000, "the profile recipe's sampling frequency (default 999)"),
	OPT_BOOL_F('g', NULL, &g_flag, "frame-pointer call graphs on every event", PO_NONEG),
	OPT_CHOICE(0, "call-graph", &callgraph, NULL, cg_modes,
		   "fp, or dwarf (the profile event only, next to tracepoints)"),
	OPT_INT('m', "mmap-pages", &pages, "PAGES", 1, 1 << 20,
		"perf's ring buffer pages per CPU, a power of 2 (default 1024)"),
	OPT_STRING(0, "perf-data", &a.perf_data, "FILE", "keep perf's recording in FILE (default: a temporary file)"),
	OPT_BOOL(0, "kallsyms-snapshot", &a.snapshot,
		 "save /proc/kallsyms before recording, so kernel symbols resolve elsewhere (default on)"),
	OPT_STRING(0, "parse", &a.parse, "FORMAT", PARSE_ARG_HELP),
	OPT_BOOL('q', "quiet", &a.quiet, "no progress and no summary on stderr"),
	OPT_GROUP("the watch recipe:"),
	OPT_CALLBACK(0, "watch", NULL, "SPEC[,SPEC]", add_watch,
		     "at most 4 in all: mm_struct.FIELD (the workload's mm), TYPE.FIELD@ADDR, "
		     "SYMBOL[.FIELD][+OFF][:LEN] (a global of the workload's binary)"),
	OPT_CHOICE(0, "watch-mm", &watch_mm, NULL, mm_modes,
		   "the mm of the workload after its exec (default), or of the process it forks first"),
	OPT_BOOL_F(0, "watch-baseline", &a.watch.baseline, "run CMD once unwatched first, for its own rate",
		   PO_NONEG),
	OPT_GROUP("what field attribution needs (as perfdb layout):"),
	OPT_DESCRIBE(),
	OPT_END(),
};

/* finish_args(ctx): the parsed options into a; 0 or EXIT_USAGE. */
static int finish_args(struct verb_ctx *ctx)
{
	if (pages > 0 && (pages & (pages - 1))) {
		fprintf(stderr, "%s: --mmap-pages: '%lld' is not a power of 2\n", ctx->prog, pages);
		return EXIT_USAGE;
	}
	int rc = parse_arg_check(ctx->prog, a.parse);
	if (rc)
		return rc;
	if (a.parse && a.spec && strstr(a.spec, "watch") && strcmp(a.parse, "metric")) {
		fprintf(stderr, "%s: -r watch reads metric lines only (its own runs keep them); "
			"--parse %s goes with the other recipes\n", ctx->prog, a.parse);
		return EXIT_USAGE;
	}
	if (ctx->nops < 1) {
		fprintf(stderr, "%s: no workload given (perfdb record [OPTIONS] -- CMD [ARG...])\n", ctx->prog);
		return EXIT_USAGE;
	}
	if (freq > 0)
		a.po.freq = (unsigned)freq;
	if (pages > 0)
		a.po.mmap_pages = (unsigned)pages;
	if (g_flag)
		a.po.callgraph = CG_FP;
	if (callgraph >= 0)
		a.po.callgraph = callgraph ? CG_DWARF : CG_FP;
	a.po.quiet = a.quiet;
	a.watch.mm_mode = watch_mm ? WATCH_MM_FORK : WATCH_MM_EXEC;
	if (!a.db_path)
		a.db_path = PERFDB_DEFAULT_DB;
	a.workload = ctx->ops;
	return 0;
}

/* run: the hidden wrapper mode, or a recording. */
static int run(struct verb_ctx *ctx)
{
	int rc;
	if (ctx->nops > 0 && !strcmp(ctx->ops[0], "__exec"))
		return record_exec_wrapper(ctx->nops, ctx->ops);
	if ((rc = finish_args(ctx)) || (rc = describe_args_check(ctx->prog))) {
		watch_set_free(&a.watch);
		describe_args_free();
		return rc == PARSE_HELP ? EXIT_OK : rc;
	}
	struct describe_opts dsc = describe_opts_of(false);
	a.describe = describe_given() ? &dsc : NULL;
	rc = record_run(&a);
	parse_result_free(&a.result);
	describe_args_free();
	return rc;
}

/* init: the defaults, before parsing. */
static void init(void)
{
	record_args_init(&a, NULL);
}

const struct verb verb_record = {
	.name = "record",
	.summary = "run a workload under perf record, import it as a session",
	.more_name = PARSE_ARG_MAN,
	.more = parse_arg_formats,
	.usage = usage,
	.examples = (const struct verb_item[]){
		{ "perfdb record -l base -r sched -- yield --seconds 1",
		  "The scheduler's tracepoints around the built-in yield workload, as a session "
		  "labelled base in ./perfdb.db" },
		{ "perfdb record -o tlb.db -l patched -r sched,tlb -C 0-1 -- tlbflush --seconds 1",
		  "Context switches and TLB-flush IPIs on CPUs 0 and 1 alone, into tlb.db" },
		{ "perfdb record -r watch --watch mm_struct.mm_count --watch-baseline -- yield --seconds 1",
		  "Where machines have no memory sampling: a hardware watchpoint on a field of the "
		  "workload's mm_struct, after one unwatched run for the workload's own rate" },
		{ "perfdb record --call-graph dwarf --perf-data run.data -- ./mybench --quick",
		  "A profile with DWARF call graphs, keeping perf's recording as run.data" },
		{ NULL, NULL },
	},
	.exits = (const struct verb_item[]){
		{ "0-255", "the workload's exit status, also when a signal stopped the recording (what "
		  "was recorded is then imported, marked interrupted); 1 and 2 may be the workload's "
		  "too: the session line on stderr, and perfdb sessions, say" },
		{ "128+N", "the workload died of signal N; or perfdb itself did, during the import "
		  "(then nothing is stored)" },
		{ "1", "a usage error: one line, before anything runs" },
		{ "2", "perf or the workload could not start, perf failed, the import failed, or -r "
		  "watch's canary showed the watchpoints do not fire: one line, and no session is added" },
		{ NULL, NULL },
	},
	.files = (const struct verb_item[]){
		VERB_FILE_DB_WRITE("the session is added to"),
		{ ".perfdb-record-PID-XXXXXX/", "beside the database: perf's recording while it runs "
		  "(mode 0700), removed at the end; those left by perfdbs that were killed are removed "
		  "by the next record into the same directory, which says so" },
		{ "perfdb-record-PID.data", "beside the database: a recording that could not be "
		  "imported, kept" },
		{ "/proc/kallsyms", "the kernel's symbols, saved with the session before the recording" },
		{ "/sys/kernel/btf/vmlinux", "the running kernel's BTF: struct mm_struct's layout, and "
		  "those -t names" },
		{ "/sys/kernel/tracing", "tracefs, mounted there when missing (as root), as perf does" },
		{ "PREFIX/libexec/perfdb/", "the built-in workloads yield, tlbflush, falseshare and faults, "
		  "found by name when CMD is none in PATH" },
		{ NULL, NULL },
	},
	.environment = (const char *const[]){ "PERFDB_PERF", "PERFDB_EXTRA_EVENTS", "PATH",
		"PERF_BUILDID_DIR", "HOME", "PERFDB_SYNC_WRITES", NULL },
	.description =
		"Runs CMD (an argv, never a shell string) under perf record with the events of the "
		"chosen recipes and imports the recording as a new session. Tracepoints the running "
		"kernel lacks are left out with one warning; where memory sampling is unsupported "
		"-r c2c stops before anything runs. Ctrl-C (SIGINT, SIGTERM, SIGHUP, SIGPIPE) stops perf "
		"and the workload, which gets the same signal; what was recorded is imported and marked "
		"interrupted. The built-in workloads (yield, "
		"tlbflush, falseshare, faults) are found by name.\n\n"
		"-r watch also watches a canary, a variable of perfdb's own written 1000 times while "
		"the watchpoints are armed (recorded beside the watches, or counted apart when they "
		"take every debug register): when fewer of its writes are caught than made (less "
		"what perf lost), the watchpoints do not fire, and the recording stops with one "
		"line saying what was caught, storing nothing.\n",
	.options = options,
	.init = init,
	.run = run,
};
