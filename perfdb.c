/* perfdb: verb dispatch only. The table below lists the verbs (each in
 * builtin/NAME.c) and what each needs before it runs, as git.c's RUN_SETUP
 * does; builtin/run.c does that part. */
#include <stdio.h>
#include <string.h>
#include "builtin/builtin.h"
#include "cmd.h"
#include "lib/version.h"

/* A verb: its definition and needs, or (until it moves to builtin/) its
 * old entry point. */
struct entry {
	const char *name;
	const struct verb *v;
	unsigned needs;
	int (*old)(int argc, char **argv);
	const char *summary;
};

#define FINDINGS (RUN_DB_READ | RUN_FINDINGS)

static const struct entry verbs[] = {
	{ "record", NULL, 0, cmd_record, "run a workload under perf record, import it as a session" },
	{ "import", NULL, 0, cmd_import, "import perf.data files as sessions" },
	{ "layout", &verb_layout, 0, NULL, NULL },
	{ "sessions", &verb_sessions, FINDINGS, NULL, NULL },
	{ "sched", &verb_sched, FINDINGS | RUN_SESSIONS | RUN_COMPARE, NULL, NULL },
	{ "ipis", NULL, 0, cmd_ipis, "TLB-flush IPIs and whether their targets still ran the mm" },
	{ "hitm", &verb_hitm, FINDINGS | RUN_SESSIONS, NULL, NULL },
	{ "watch", &verb_watch, FINDINGS | RUN_SESSIONS, NULL, NULL },
	{ "cgdiff", NULL, 0, cmd_cgdiff, "call-graph diff of two sessions or labels, with intervals" },
	{ "tree", NULL, 0, cmd_tree, "a session's call tree with inclusive shares" },
	{ "folded", NULL, 0, cmd_folded, "a session's call stacks as folded lines for flame graphs" },
	{ "doctor", NULL, 0, cmd_doctor, "what perf and this kernel can record, and why not" },
};
#define NVERBS (sizeof(verbs) / sizeof(*verbs))

/* summary_of(e): the one-line description of a verb. */
static const char *summary_of(const struct entry *e)
{
	return e->v ? e->v->summary : e->summary;
}

/* usage(out): the verb list on stream out. */
static void usage(FILE *out)
{
	fprintf(out, "usage: perfdb VERB [OPTIONS] [OPERANDS]\n"
		     "       perfdb --version | perfdb help [VERB]\n\nverbs:\n");
	for (size_t i = 0; i < NVERBS; i++)
		fprintf(out, "  %-10s %s\n", verbs[i].name, summary_of(&verbs[i]));
	fprintf(out, "\n'perfdb VERB --help' describes a verb.\n");
}

/* find(name): the entry of verb name, or NULL. */
static const struct entry *find(const char *name)
{
	for (size_t i = 0; i < NVERBS; i++)
		if (!strcmp(name, verbs[i].name))
			return &verbs[i];
	return NULL;
}

/* version(): prints the version line; EXIT_OK. */
static int version(void)
{
	printf("perfdb %s%s%s\n", perfdb_version, *perfdb_commit ? " " : "", perfdb_commit);
	return fflush(stdout) ? EXIT_FAIL : EXIT_OK;
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
	if (!e) {
		fprintf(stderr, "perfdb: '%s' is not a perfdb verb (perfdb --help lists them)\n", argv[1]);
		return EXIT_USAGE;
	}
	return e->v ? run_verb(e->v, e->needs, 2, hargv) : e->old(2, hargv);
}

int main(int argc, char **argv)
{
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
	if (!(e = find(argv[1]))) {
		fprintf(stderr, "perfdb: '%s' is not a perfdb verb (perfdb --help lists them)\n", argv[1]);
		return EXIT_USAGE;
	}
	return e->v ? run_verb(e->v, e->needs, argc - 1, argv + 1) : e->old(argc - 1, argv + 1);
}
