/* Command-line parsing shared by the call-graph verbs (cgdiff, tree,
 * folded): [DB] then the session specs, and the selection and output
 * options, each verb allowing its subset. */
#ifndef PERFDB_CGDIFF_CLI_H
#define PERFDB_CGDIFF_CLI_H
#include <stdbool.h>
#include "analyze/cgdiff.h"
#include "reports/legacy_table.h"

/* Options a verb accepts beyond --comm/--pid/--tid/--event/--help. */
enum {
	CLI_LIMIT = 1,		/* --limit PCT */
	CLI_MODES = 2,		/* --self, --children */
	CLI_FORMAT = 4,		/* --format text|md|csv|json */
	CLI_SVG = 8,		/* --svg FILE */
	CLI_PERIOD = 16,	/* --period */
};

struct cg_cli {
	const char *db;		/* PERFDB_DEFAULT_DB unless given */
	const char *spec[2];	/* the session specs, in order */
	struct cg_opts o;	/* selection, mode, limit (default 0.5), conf 0.95 */
	enum out_format format;
	const char *svg;	/* --svg FILE, or NULL */
	bool period;		/* --period */
};

/* cg_cli_parse(argc, argv, usage, nspecs, allow, c): parses a verb's
 * arguments (argv[0] is the verb) into c: nspecs session specs, optionally
 * preceded by DB, and the options in allow. Returns -1 when the verb
 * should run; otherwise the exit status to return at once: EXIT_OK after
 * printing usage for --help, EXIT_USAGE after printing usage and what was
 * wrong on stderr. */
int cg_cli_parse(int argc, char **argv, const char *usage, int nspecs, unsigned allow,
		 struct cg_cli *c);

/* cg_cli_open(c, verb): opens c->db for reading; NULL after printing
 * "perfdb VERB: ..." on stderr. */
sqlite3 *cg_cli_open(const struct cg_cli *c, const char *verb);
#endif
