/* perfdb: verb dispatch only. The table below lists the verbs (each in
 * builtin/NAME.c) and what each needs before it runs, as git.c's RUN_SETUP
 * does; builtin/run.c does that part. */
#include <stdio.h>
#include <string.h>
#include "builtin/builtin.h"
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
	{ &verb_report, RUN_DB_READ },
	{ &verb_sched, FINDINGS | RUN_SESSIONS | RUN_COMPARE },
	{ &verb_ipis, FINDINGS | RUN_SESSIONS },
	{ &verb_hitm, FINDINGS | RUN_SESSIONS },
	{ &verb_watch, FINDINGS | RUN_SESSIONS },
	{ &verb_cgdiff, FINDINGS | RUN_COMPARE_ONLY },
	{ &verb_tree, FINDINGS | RUN_SESSIONS },
	{ &verb_folded, FINDINGS | RUN_SESSIONS },
	{ &verb_doctor, RUN_FINDINGS },
};
#define NVERBS (sizeof(verbs) / sizeof(*verbs))

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

/* unknown(name): the one line for a verb that does not exist. */
static int unknown(const char *name)
{
	fprintf(stderr, "perfdb: '%s' is not a perfdb verb (perfdb --help lists them)\n", name);
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
	if (!(e = find(argv[1])))
		return unknown(argv[1]);
	return run_verb(e->v, e->needs, argc - 1, argv + 1);
}
