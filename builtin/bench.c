/* perfdb bench: repeated, interleaved runs of a workload over a parameter
 * matrix, on this kernel and boot (collect/bench/bench.h does the work). */
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include "builtin/builtin.h"
#include "builtin/parse_arg.h"
#include "collect/bench/bench.h"
#include "lib/alloc.h"

static const char *const usage[] = {
	"perfdb bench [-o DB] -l LABEL [--runs N] [--warmup N] [-p NAME=V1,V2,...]...",
	"             [--order interleave|random|sequential] [--seed N] [-r RECIPES [--record-every K]]",
	"             [--timeout S] [--parse FORMAT] [--set PATH=VALUE]... [-q] -- CMD [ARG|{NAME}]...",
	"perfdb bench [-o DB] --resume -l LABEL [--again] [-q]",
	NULL,
};

static struct bench_args a;
static long long runs, warmup = -1, every, seed = -1;
static int order = -1;
static const char *recipes, *parse;
static double timeout_s = -1;

/* add_param(o, arg, err): one -p NAME=V1,V2,... */
static int add_param(const struct opt *o, const char *arg, struct strbuf *err)
{
	char msg[512];
	(void)o;
	if (!bench_plan_add_param(&a.plan, arg, msg, sizeof(msg)))
		return 0;
	sb_puts(err, msg);
	return -1;
}

/* add_set(o, arg, err): one --set PATH=VALUE. */
static int add_set(const struct opt *o, const char *arg, struct strbuf *err)
{
	char msg[512];
	(void)o;
	if (!bench_plan_add_set(&a.plan, arg, msg, sizeof(msg)))
		return 0;
	sb_puts(err, msg);
	return -1;
}

static const struct opt options[] = {
	OPT_STRING('o', "output", &a.db_path, "DB", "database to store the runs in (default ./perfdb.db)"),
	OPT_STRING('l', "label", &a.label, "LABEL",
		   "the name of this configuration (e.g. base, patched); the same label on another "
		   "boot adds that boot's runs"),
	OPT_INT(0, "runs", &runs, "N", 1, 100000, "counted runs per cell (default 5)"),
	OPT_INT(0, "warmup", &warmup, "N", 0, 100000, "warm-up runs per cell, run first and not counted (default 0)"),
	OPT_CALLBACK('p', "param", NULL, "NAME=V1,V2,...", add_param,
		     "a parameter and its values; {NAME} in the command is replaced by the value; "
		     "the cells are the cross product of all -p lists"),
	OPT_CHOICE(0, "order", &order, NULL, bench_order_names,
		   "interleave (default: every cell's run 1, then every cell's run 2 ...), random "
		   "(shuffled; the seed is printed) or sequential (cell by cell)"),
	OPT_INT(0, "seed", &seed, "N", 0, 9007199254740991.0, "the random order's seed"),
	OPT_STRING('r', "recipes", &recipes, "LIST",
		   "also record runs with perf and these recipes (as perfdb record -r), each a "
		   "session linked to its run; the bare runs stay the measurement"),
	OPT_INT(0, "record-every", &every, "K", 1, 100000,
		"with -r: one recorded run per K counted runs of a cell (default 1)"),
	OPT_DOUBLE(0, "timeout", &timeout_s, "S", 0, 1e9, "stop a run after S seconds (stored as a timeout)"),
	OPT_STRING(0, "parse", &parse, "FORMAT", PARSE_ARG_HELP),
	OPT_CALLBACK(0, "set", NULL, "PATH=VALUE", add_set,
		     "a knob: write VALUE ({NAME} replaced as in the command) into PATH, a file under "
		     "/sys, /proc/sys or debugfs, before each run of a cell, and check it reads back; its "
		     "original is saved in the database and written back when the bench ends"),
	OPT_BOOL_F(0, "again", &a.again, "run the whole plan once more on this boot as a new sitting "
		   "(its runs numbered on after the stored ones): a report whose sides have 2 or more "
		   "sittings tests their means, so the machine's drift between sittings is inside its "
		   "intervals", PO_NONEG),
	OPT_BOOL_F(0, "resume", &a.resume, "run what the label's plan still needs on this boot "
		   "(no command: the plan comes from the database)", PO_NONEG),
	OPT_BOOL('q', "quiet", &a.quiet, "no progress or summary on stderr, the workload's stderr hidden"),
	OPT_END(),
};

/* random_seed(): a seed when none was given. */
static uint64_t random_seed(void)
{
	uint64_t s = 0;
	if (getrandom(&s, sizeof(s), 0) != sizeof(s))
		s = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	return s & ((1ULL << 53) - 1);	/* exact as a JSON or SQLite number */
}

/* finish(ctx): the plan from the options and the command. */
static int finish(struct verb_ctx *ctx)
{
	struct bench_plan *p = &a.plan;
	int rc = parse_arg_check(ctx->prog, parse);
	if (rc)
		return rc;
	if (!a.label || !*a.label) {
		fprintf(stderr, "%s: a bench needs a label (-l LABEL)\n", ctx->prog);
		return EXIT_USAGE;
	}
	if (a.resume && (ctx->nops || p->nparams || runs > 0 || warmup >= 0 || every > 0 || seed >= 0 ||
			 order >= 0 || recipes || timeout_s >= 0 || parse || p->nsets)) {
		fprintf(stderr, "%s: --resume takes the plan from the database: give no command, -p, "
			"--runs, --warmup, --order, --seed, -r, --record-every, --timeout, --parse or --set, or "
			"give the same command and options without --resume\n", ctx->prog);
		return EXIT_USAGE;
	}
	if (!a.resume && !ctx->nops) {
		fprintf(stderr, "%s: no workload given (perfdb bench -l LABEL [OPTIONS] -- CMD [ARG...])\n",
			ctx->prog);
		return EXIT_USAGE;
	}
	if (every > 0 && !recipes) {
		fprintf(stderr, "%s: --record-every needs -r RECIPES\n", ctx->prog);
		return EXIT_USAGE;
	}
	if (!a.db_path)
		a.db_path = PERFDB_DEFAULT_DB;
	if (a.resume)
		return 0;	/* the plan comes from the database */
	bench_plan_set_argv(p, ctx->ops, (size_t)ctx->nops);
	p->runs = runs > 0 ? (int)runs : 5;
	p->warmup = warmup > 0 ? (int)warmup : 0;
	p->order = order >= 0 ? (enum bench_order)order : ORDER_INTERLEAVE;
	p->seed = seed >= 0 ? (uint64_t)seed : random_seed();
	p->recipes = recipes ? xstrdup(*recipes ? recipes : "profile") : NULL;	/* as record -r "" */
	p->record_every = every > 0 ? (int)every : 1;
	p->timeout_s = timeout_s > 0 ? timeout_s : 0;
	p->parse = parse && strcmp(parse, "metric") ? xstrdup(parse) : NULL;	/* the default stays NULL */
	return 0;
}

/* run: the bench. */
static int run(struct verb_ctx *ctx)
{
	int rc = finish(ctx);
	if (rc) {
		bench_plan_free(&a.plan);
		return rc == PARSE_HELP ? EXIT_OK : rc;
	}
	return bench_main(&a);
}

const struct verb verb_bench = {
	.name = "bench",
	.summary = "run a workload many times over a parameter matrix, on this kernel and boot",
	.more_name = PARSE_ARG_MAN,
	.more = parse_arg_formats,
	.usage = usage,
	.examples = (const struct verb_item[]){
		{ "perfdb bench -l base --runs 5 -p cpus=1,2 -p mm=shared,private -r sched --record-every 5\n"
		  "-- yield --cpus {cpus} --{mm}-mm --seconds 1",
		  "Five runs of each of the four cells on the base kernel, one of each cell recorded "
		  "with the sched recipe; boot the patched kernel and run it again with -l patched" },
		{ "perfdb bench --resume -l base",
		  "Finish a bench that Ctrl-C, a crash or a reboot stopped, from the plan the database "
		  "keeps" },
		{ "perfdb bench --resume -l base --again",
		  "The whole plan once more, as a new sitting of this boot: the report then tests the "
		  "sittings' means" },
		{ "perfdb bench -o order.db -l x --order random --seed 7 --timeout 30 -- ./mybench",
		  "A random order that can be repeated, each run stopped after 30 s" },
		{ "perfdb bench -l thp -p thp=always,never --set /sys/kernel/mm/transparent_hugepage/enabled={thp}\n"
		  "-- faults --size 64M --fragment 0",
		  "A knob in the matrix: THP set before each run of its cell, and the original setting "
		  "written back at the end (or by the next bench, after a crash)" },
		{ NULL, NULL },
	},
	.exits = (const struct verb_item[]){
		{ "0", "every run ended well" },
		{ "1", "a usage error: one line, before anything runs" },
		{ "2", "a run failed (it is stored as failed and the bench went on), or the bench could "
		  "not run: the database, the command, a plan the label already has otherwise" },
		{ "130", "stopped by Ctrl-C, SIGTERM or SIGHUP: every finished run is kept, and the "
		  "line on stderr gives the command that resumes" },
		{ NULL, NULL },
	},
	.files = (const struct verb_item[]){
		VERB_FILE_DB_WRITE("the runs are stored in"),
		{ ".perfdb-record-PID-XXXXXX/", "with -r: each recorded run's recording, as perfdb "
		  "record makes it beside the database" },
		{ "/proc/stat", "the CPU time other processes and the hypervisor took during each run" },
		{ "/sys, /proc/sys, debugfs", "with --set: the knobs written before each run and back at "
		  "the end" },
		{ "/sys/kernel/notes", "the running kernel's build id" },
		{ "/proc/sys/kernel/random/boot_id", "the boot the runs belong to" },
		{ "PREFIX/libexec/perfdb/", "the built-in workloads, found by name when CMD is none in PATH" },
		{ NULL, NULL },
	},
	.environment = (const char *const[]){ "PATH", "PERFDB_PERF", "PERFDB_EXTRA_EVENTS",
		"PERF_BUILDID_DIR", "HOME", "PERFDB_SYNC_WRITES", NULL },
	.description =
		"Runs CMD (an argv, never a shell string) for every cell of the matrix the -p lists "
		"make, --runs times each, interleaved by default so that the machine's drift spreads "
		"over every cell, and stores each run: the workload's metric lines on stdout "
		"(metric=NAME value=V [unit=U] [better=higher|lower]; its other output passes "
		"through), exit status, wall time and resource usage of its process tree, the "
		"cell's parameters, the kernel (release, version, build id), the boot and the "
		"machine. A run that fails (non-zero exit, no metric line, a metric printed twice, "
		"a timeout) is stored as failed with the end of its output, and the bench goes on.\n\n"
		"--set PATH=VALUE makes a knob part of the matrix: before each run (warm-ups and "
		"recorded runs too) VALUE, its {NAME}s replaced as in the command, is written into "
		"PATH and read back (a sysfs choice file such as THP's 'always [madvise] never' "
		"matches when the bracketed word is VALUE); a mismatch fails that run, and each run "
		"stores the values it ran with. PATH must be a writable regular file under /sys, "
		"/proc/sys or a debugfs mount (after symbolic links). Its original content is saved "
		"in the database before the first write and written back when the bench ends, also "
		"after Ctrl-C, SIGTERM or SIGHUP; one a crash or kill -9 left changed is written back "
		"by the next perfdb bench of the database (any label), which says so, and perfdb "
		"doctor -o DB lists it.\n\n"
		"The same command again, or --resume, runs only what this boot still needs: a bench "
		"stopped by Ctrl-C, a crash or a reboot is finished without starting over, and the "
		"same label on another boot adds that boot's runs (results are summarized per boot, "
		"then across boots). Ctrl-C stops after the current run; twice stops it too.\n\n"
		"Each invocation that runs something is a sitting: a stretch of runs in which the "
		"machine is taken to be unchanged. --again runs the whole plan once more as a new "
		"sitting of this boot. Before every round of runs bench measures the machine's pulse "
		"(a few tens of ms of integer and memory loops, outside the runs), and over each run "
		"the CPU time other processes and the hypervisor took; results shows them per "
		"sitting, and report withholds a verdict the machine's own change could explain.\n",
	.options = options,
	.run = run,
};
