/* perfdb: verb dispatch. Each verb lives in its own file (collect/cmd_*.c,
 * analyze/cmd_*.c, reports/cmd_*.c); this table maps names to them. */
#include <stdio.h>
#include <string.h>
#include "cmd.h"

struct verb {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static const struct verb verbs[] = {
	{ "record", cmd_record, "run a workload under perf record, import it as a session" },
	{ "import", cmd_import, "import perf.data files as sessions" },
	{ "sessions", cmd_sessions, "list the sessions of a database" },
	{ "sched", cmd_sched, "context switches per second per CPU and per process" },
	{ "ipis", cmd_ipis, "TLB-flush IPIs and whether their targets still ran the mm" },
	{ "hitm", cmd_hitm, "cacheline HITMs (perf c2c) attributed to struct fields, false sharing" },
	{ "watch", cmd_watch, "writes hardware watchpoints saw: per field, CPU and code site; sharing" },
	{ "cgdiff", cmd_cgdiff, "call-graph diff of two sessions or labels, with intervals" },
	{ "tree", cmd_tree, "a session's call tree with inclusive shares" },
	{ "folded", cmd_folded, "a session's call stacks as folded lines for flame graphs" },
	{ "doctor", cmd_doctor, "what perf and this kernel can record, and why not" },
};

/* usage: the verb list on stream out. */
static void usage(FILE *out)
{
	fprintf(out, "usage: perfdb VERB [OPTIONS] [ARGS]\n\nverbs:\n");
	for (size_t i = 0; i < sizeof(verbs) / sizeof(*verbs); i++)
		fprintf(out, "  %-10s %s\n", verbs[i].name, verbs[i].help);
	fprintf(out, "\n'perfdb VERB --help' describes a verb.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(verbs) / sizeof(*verbs); i++)
		if (!strcmp(argv[1], verbs[i].name))
			return verbs[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "perfdb: '%s' is not a perfdb verb\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
