/* The verbs of perfdb: one file per verb in builtin/, each declaring its
 * options once (a lib/parse_options.h table) and a run function; perfdb.c
 * lists them with what each needs, and builtin/run.c does the common
 * part: parsing, --help, opening the database read-only, picking
 * sessions, rendering the findings document a verb returns (to standard
 * output, or to -o FILE with md's pictures in an assets directory: every
 * file through lib/outfile.h).
 *
 * Exit statuses: 0 success, 1 a usage error (one line saying what was
 * wrong), 2 bad input, missing events or a failed run (one line saying
 * what and where). */
#ifndef PERFDB_BUILTIN_H
#define PERFDB_BUILTIN_H
#include <limits.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include "lib/doc.h"
#include "lib/exit.h"
#include "lib/parse_options.h"
#include "reports/format.h"


/* The default database, as perf defaults to ./perf.data. */
#define PERFDB_DEFAULT_DB "perfdb.db"

/* What a verb needs before it runs (perfdb.c's table). */
enum {
	RUN_DB_READ = 1,	/* operand [DB] (default ./perfdb.db), opened read-only */
	RUN_SESSIONS = 2,	/* -s SESSION picked (default: the latest session) */
	RUN_COMPARE = 4,	/* --base L --new L picked, when given */
	RUN_COMPARE_ONLY = 8,	/* --base and --new are required */
	RUN_FINDINGS = 16,	/* run fills ctx->doc; --format, --table, --tables */
	RUN_OPERANDS = 32,	/* operands past [DB] go to the verb (ctx->ops) */
	RUN_STOP_AT_OPERAND = 64, /* options end at the first operand (a workload) */
	RUN_LABELS = 128,	/* --base and --new are required, labels the verb reads
				 * itself (report: benches too), not picked as sessions */
};

/* One side of a comparison, or the sessions of -s. */
struct verb_side {
	const char *spec;	/* as given, or NULL for the latest session */
	int64_t *ids;
	int n;
	bool cells;		/* spec is LABEL:NAME=V,...: the recorded runs of those cells */
};

struct verb;

/* A tagged paragraph of a verb's page (builtin/verb_doc.h): an example's
 * command line and what it does, an exit status and when, a file and
 * what the verb does with it, an environment variable and what it sets.
 * A tag may hold '\n': an example's command continued on the next line.
 * Lists of them end with { NULL }. */
struct verb_item {
	const char *tag;
	const char *text;
};

/* The FILES entries of the database, for the verbs that read the [DB]
 * operand and those that write -o DB. */
#define VERB_FILE_DB_READ \
	{ "./" PERFDB_DEFAULT_DB, "the database, unless the operand DB names another: opened " \
	  "read-only, never created or changed (it may lie on a read-only file system)" }
#define VERB_FILE_DB_WRITE(what) \
	{ "./" PERFDB_DEFAULT_DB, "the database " what ", unless -o DB names another; made when " \
	  "missing, mode 0600 whatever the umask (it holds kernel addresses)" }

/* What a verb's run function gets. */
struct verb_ctx {
	const struct verb *verb;
	unsigned needs;
	const char *prog;	/* "perfdb sched", for messages */
	const char *dbpath;	/* RUN_DB_READ: the database's path */
	sqlite3 *db;		/* RUN_DB_READ: open read-only */
	struct verb_side sessions;	/* RUN_SESSIONS (not in compare mode) */
	bool compare;		/* --base/--new given */
	struct verb_side base, new;	/* RUN_COMPARE in compare mode */
	struct doc *doc;	/* RUN_FINDINGS: filled by run */
	char **ops;		/* operands (past [DB] with RUN_DB_READ) */
	int nops;
};

struct verb {
	const char *name;
	const char *summary;		/* one line: the verb list, man NAME */
	const char *const *usage;	/* synopsis lines, NULL-terminated */
	const char *description;	/* paragraphs for --help and the man page */
	const struct opt *options;
	enum out_format default_format;	/* --format when not given (0: text) */
	/* operands(ctx, n, ops): RUN_DB_READ verbs with other operand forms
	 * (cgdiff BASE NEW) set ctx->dbpath, and common.session, common.base
	 * and common.new, from them (the sessions are picked from those
	 * after); 0, or EXIT_USAGE after one line. NULL: at most one operand,
	 * the DB. */
	int (*operands)(struct verb_ctx *ctx, int n, char **ops);
	/* init(): sets the verb's option values to their defaults before
	 * parsing (NULL: static initializers are the defaults). */
	void (*init)(void);
	int (*run)(struct verb_ctx *ctx);
	/* Usage errors come before anything is opened (builtin/run.c):
	 * required: the long names of the options the verb cannot run without
	 * (string or string-list options), NULL-terminated; a missing one is
	 * one line, EXIT_USAGE. check(ctx): the verb's own checks of how the
	 * options go together (or of what they name, that needs no database),
	 * after --base/--new are known (ctx->compare); 0, or an exit status
	 * (EXIT_USAGE for a usage error) after one line. NULL: none. */
	const char *const *required;
	int (*check)(struct verb_ctx *ctx);
	/* The sections of the man page past the options (builtin/manpage.c;
	 * --help prints all but the files: builtin/verb_doc.h): EXAMPLES,
	 * EXIT STATUS (NULL: the statuses every verb has, builtin.h's), FILES
	 * it reads or writes, and the names of the ENVIRONMENT variables it
	 * reads, each described once in builtin/verb_doc.c. NULL: none. */
	const struct verb_item *examples, *exits, *files;
	const char *const *environment;
	/* more(): a section of the man page of the verb's own, after the
	 * options (bench and record: OUTPUT FORMATS), named more_name: its
	 * tagged paragraphs, ending with a NULL tag, made when the page is
	 * (the list lives in the code it documents). NULL: none. */
	const char *more_name;
	const struct verb_item *(*more)(void);
};

/* The options shared by verbs, filled by the parser (builtin/run.c). */
struct common_opts {
	const char *session, *base, *new, *table;
	const char *output, *assets;	/* -o FILE, --assets DIR (OPT_OUTPUT, OPT_ASSETS) */
	int format;		/* enum out_format */
	bool list_tables;
	long long rows;		/* -n: -1 when not given */
};
extern struct common_opts common;

/* Shared option entries: put them in a verb's table. */
#define OPT_SESSION() \
	OPT_STRING('s', "session", &common.session, "SESSION", \
		   "session id or label (a label naming several sessions means all of them), or " \
		   "LABEL:NAME=V[,NAME=V...] for the recorded runs of those cells of LABEL's bench; " \
		   "default: the latest session")
#define OPT_BASE_NEW() \
	OPT_STRING(0, "base", &common.base, "LABEL", \
		   "the sessions before the change: a label or session id, or LABEL:NAME=V[,NAME=V...] " \
		   "for the recorded runs of those cells of LABEL's bench"), \
	OPT_STRING(0, "new", &common.new, "LABEL", \
		   "the sessions after the change: a label or session id, or LABEL:NAME=V[,...] as --base")
/* OPT_ROWS(def, tables): -n ROWS, the same in every verb that has long
 * tables: at most ROWS rows in each of them (tables: their names, and
 * which rows are kept), 0 for all; def the default ("20", "all"), which
 * the verb gives verb_rows. */
#define OPT_ROWS(def, tables) \
	OPT_INT('n', "rows", &common.rows, "ROWS", 0, (double)LLONG_MAX, \
		"at most ROWS rows in each long table (" tables "), 0 for all (default " def ")")
/* --stat STAT of results and report: *v the index in bd_stats. */
#define OPT_STAT(v) \
	OPT_CHOICE(0, "stat", v, NULL, bd_stats, \
		   "compare distributions (metrics with sample= lines) on each run's STAT: mean " \
		   "(default), p50, p90, p99, min, max, stddev, bamean95, bamean99 or count")
#define OPT_FORMAT() \
	OPT_CHOICE('f', "format", &common.format, NULL, out_format_names, \
		   "output format (default text)"), \
	OPT_STRING(0, "table", &common.table, "NAME", \
		   "only the table NAME (csv prints one table: the main one unless NAME is given)"), \
	OPT_BOOL_F(0, "tables", &common.list_tables, \
		   "list the names and titles of the tables the output holds, and exit", PO_NONEG)

/* -o FILE and --assets DIR of a RUN_FINDINGS verb, with its help text
 * what: builtin/run.c opens FILE before the verb runs (lib/outfile.h:
 * refused when it is the database, another database, a recording or not
 * a regular file; written beside it and renamed over it when complete, a
 * symbolic link replaced, never followed) and, for md, makes the pictures'
 * directory (DIR, default FILE's name with .assets; none for standard
 * output without --assets) and writes each picture the same way; all are
 * replaced together once the whole output is written, or none is. */
#define OPT_OUTPUT(what) OPT_STRING('o', "output", &common.output, "FILE", what)
#define OPT_ASSETS(what) OPT_STRING(0, "assets", &common.assets, "DIR", what)

/* run_verb(v, needs, argc, argv): parses argv (argv[0] is the verb),
 * sets up what needs asks for (and the -o file), runs v, renders its
 * findings; the exit status. */
int run_verb(const struct verb *v, unsigned needs, int argc, char **argv);

/* verb_help(v, out): the whole --help text of v. */
void verb_help(const struct verb *v, FILE *out);

/* verb_fail(ctx, err): the one line of a failure that err describes,
 * "perfdb VERB: DB: err" on stderr; returns EXIT_FAIL. */
int verb_fail(const struct verb_ctx *ctx, const char *err);

/* verb_rows(def): -n's value, or def when it was not given. */
long long verb_rows(long long def);

/* verb_need_events(ctx, s, events, recipe): whether every session of s
 * has a sample of at least one of events (NULL-terminated names); if
 * not, prints "PROG: DB: session N has no E or F events (record them with
 * perfdb record -r RECIPE)", or, when the session recorded some of them
 * without keeping a sample, whether perf lost them or they never fired
 * (session_none_of), and returns false. */
bool verb_need_events(const struct verb_ctx *ctx, const struct verb_side *s,
		      const char *const *events, const char *recipe);

/* The verbs (builtin/<name>.c). */
extern const struct verb verb_record, verb_import, verb_bench, verb_layout, verb_sessions,
	verb_results, verb_report, verb_sched, verb_ipis, verb_hitm, verb_watch, verb_cgdiff,
	verb_tree, verb_folded, verb_doctor, verb_push, verb_pull;
#endif
