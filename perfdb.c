/* perfdb: verb dispatch only. The table below lists the verbs (each in
 * builtin/NAME.c) and what each needs before it runs, as git.c's RUN_SETUP
 * does; builtin/run.c does that part. Hidden words for the build: --man
 * [VERB] (a man page), --bash-completion, --verbs (their names). */
#include <stdio.h>
#include <string.h>
#include "builtin/builtin.h"
#include "builtin/completion.h"
#include "builtin/manpage.h"
#include "lib/similar.h"
#include "lib/version.h"

/* A verb and what it needs (builtin.h's RUN_* flags). */
struct entry {
	const struct verb *v;
	unsigned needs;
};

#define FINDINGS (RUN_DB_READ | RUN_FINDINGS)

static const struct entry verbs[] = {
	{ &verb_record, RUN_STOP_AT_OPERAND },
	{ &verb_import, 0 },
	{ &verb_bench, RUN_STOP_AT_OPERAND },
	{ &verb_layout, 0 },
	{ &verb_sessions, FINDINGS },
	{ &verb_results, FINDINGS },
	{ &verb_report, FINDINGS | RUN_LABELS },
	{ &verb_sched, FINDINGS | RUN_SESSIONS | RUN_COMPARE },
	{ &verb_ipis, FINDINGS | RUN_SESSIONS },
	{ &verb_hitm, FINDINGS | RUN_SESSIONS },
	{ &verb_watch, FINDINGS | RUN_SESSIONS },
	{ &verb_cgdiff, FINDINGS | RUN_COMPARE_ONLY },
	{ &verb_tree, FINDINGS | RUN_SESSIONS },
	{ &verb_folded, FINDINGS | RUN_SESSIONS },
	{ &verb_push, RUN_DB_READ },
	{ &verb_pull, 0 },
	{ &verb_doctor, RUN_FINDINGS },
};
#define NVERBS (sizeof(verbs) / sizeof(*verbs))

/* What perfdb(1) says of perfdb as a whole. */
static const char *const top_usage[] = {
	"perfdb VERB [OPTIONS] [OPERANDS]",
	"perfdb --version",
	"perfdb help [VERB]",
	NULL,
};
static const struct perfdb_about about = {
	.summary = "record, store, analyze and compare Linux kernel performance data",
	.usage = top_usage,
	.description =
		"perfdb runs a workload many times over a parameter matrix, records it with perf "
		"record when asked, stores everything in an SQLite database (one session per "
		"recording, one bench per label and boot), analyzes it (context switches, TLB-flush "
		"IPIs, contended cachelines by struct field, call-graph diffs) and writes the A/B "
		"report of a kernel change.\n\n"
		"The database is ./perfdb.db unless given: -o DB for the verbs that write, the "
		"operand DB for those that read, which open it read-only. -s SESSION is a session id "
		"or a label (a label naming several sessions means all of them; the default is the "
		"latest session); --base L --new L compare two labels; -n ROWS limits the long "
		"tables; --format text|md|csv|json|html picks the output (csv prints one table, "
		"--table NAME which one, --tables lists them). Results go to stdout, diagnostics to "
		"stderr.\n\n"
		"perfdb help VERB and perfdb VERB --help print a verb's options, from the table this "
		"page and the verb's own page come from.\n",
	.files = (const struct verb_item[]){
		{ "./" PERFDB_DEFAULT_DB, "the database, unless -o DB (the verbs that write) or the "
		  "operand DB (those that read) names another" },
		{ ".perfdb-record-PID-XXXXXX/", "beside the database: a recording while perfdb record "
		  "(or bench -r) runs perf, removed at the end" },
		{ "FILE.assets/", "the pictures of perfdb report -o FILE in md" },
		{ "~/.debug/", "perf's build-id cache, where the import finds the recorded kernel's "
		  "symbols and binaries" },
		{ "PREFIX/libexec/perfdb/", "the built-in workloads: yield, tlbflush, falseshare, faults" },
		{ NULL, NULL },
	},
	.examples = (const struct verb_item[]){
		{ "perfdb doctor", "What perf and this kernel can record, and why not" },
		{ "perfdb bench -l base --runs 5 -p cpus=1,2 -p mm=shared,private -r sched --record-every 5\n"
		  "-- yield --cpus {cpus} --{mm}-mm --seconds 1", "A kernel developer's day: a bench on "
		  "the base kernel" },
		{ "perfdb bench -l patched --runs 5 -p cpus=1,2 -p mm=shared,private -r sched --record-every 5\n"
		  "-- yield --cpus {cpus} --{mm}-mm --seconds 1", "The same bench after booting the "
		  "patched kernel" },
		{ "perfdb report --base base --new patched -o report.md", "The changelog-ready A/B "
		  "report of the two, its pictures in report.assets/" },
		{ NULL, NULL },
	},
};

/* verb_list(out): the verbs of the table into out (NVERBS entries). */
static void verb_list(const struct verb **out)
{
	for (size_t i = 0; i < NVERBS; i++)
		out[i] = verbs[i].v;
}

/* usage(out): the verb list on stream out. */
static void usage(FILE *out)
{
	fprintf(out, "usage: perfdb VERB [OPTIONS] [OPERANDS]\n"
		     "       perfdb --version | perfdb help [VERB]\n\nverbs:\n");
	for (size_t i = 0; i < NVERBS; i++)
		fprintf(out, "  %-10s %s\n", verbs[i].v->name, verbs[i].v->summary);
	fprintf(out, "\n'perfdb VERB --help' describes a verb.\n");
}

/* find(name): the entry of verb name, or NULL. */
static const struct entry *find(const char *name)
{
	for (size_t i = 0; i < NVERBS; i++)
		if (!strcmp(name, verbs[i].v->name))
			return &verbs[i];
	return NULL;
}

/* version(): prints the version line; EXIT_OK. */
static int version(void)
{
	printf("perfdb %s%s%s\n", perfdb_version, *perfdb_commit ? " " : "", perfdb_commit);
	return fflush(stdout) ? EXIT_FAIL : EXIT_OK;
}

/* unknown(name): the one line for a word that is no verb, or an option
 * perfdb does not take, with the verbs or options nearest to it
 * (lib/similar.h); EXIT_USAGE. */
static int unknown(const char *name)
{
	static const char *const words[] = { "help", "version", "--help", "--version" };
	struct strbuf b = STRBUF_INIT;
	struct similar s;
	similar_init(&s, name, strlen(name));
	for (size_t i = 0; i < NVERBS; i++)
		similar_offer(&s, verbs[i].v->name);
	for (size_t i = name[0] == '-' ? 2 : 0; i < (name[0] == '-' ? 4 : 2); i++)
		similar_offer(&s, words[i]);
	if (similar_text(&s, "", &b))
		fprintf(stderr, "perfdb: %s%s%s: %s\n", name[0] == '-' ? "unknown option '" : "'", name,
			name[0] == '-' ? "'" : "' is not a perfdb verb", sb_str(&b));
	else if (name[0] == '-')
		fprintf(stderr, "perfdb: unknown option '%s' (perfdb takes a verb, --help or --version: "
			"perfdb --help lists the verbs)\n", name);
	else
		fprintf(stderr, "perfdb: '%s' is not a perfdb verb (perfdb --help lists them)\n", name);
	sb_free(&b);
	return EXIT_USAGE;
}

/* help(argc, argv): "perfdb help [VERB]". */
static int help(int argc, char **argv)
{
	const struct entry *e = argc > 1 ? find(argv[1]) : NULL;
	char *hargv[] = { argc > 1 ? argv[1] : NULL, (char *)"--help", NULL };
	if (argc < 2) {
		usage(stdout);
		return EXIT_OK;
	}
	return e ? run_verb(e->v, e->needs, 2, hargv) : unknown(argv[1]);
}

/* generate(argc, argv): the hidden --man [VERB], --bash-completion and
 * --verbs; -1 when argv[1] is none of them. */
static int generate(int argc, char **argv)
{
	const struct verb *list[NVERBS];
	const struct entry *e = NULL;
	verb_list(list);
	if (!strcmp(argv[1], "--man")) {
		if (argc > 2 && !(e = find(argv[2])))
			return unknown(argv[2]);
		if (e)
			man_verb(stdout, e->v);
		else
			man_perfdb(stdout, &about, list, NVERBS);
	} else if (!strcmp(argv[1], "--bash-completion")) {
		completion_bash(stdout, list, NVERBS);
	} else if (!strcmp(argv[1], "--verbs")) {
		for (size_t i = 0; i < NVERBS; i++)
			printf("%s\n", list[i]->name);
	} else {
		return -1;
	}
	return fflush(stdout) ? EXIT_FAIL : EXIT_OK;
}

int main(int argc, char **argv)
{
	int rc;
	const struct entry *e;
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "help"))
		return help(argc - 1, argv + 1);
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version"))
		return version();
	if ((rc = generate(argc, argv)) >= 0)
		return rc;
	if (!(e = find(argv[1])))
		return unknown(argv[1]);
	return run_verb(e->v, e->needs, argc - 1, argv + 1);
}
