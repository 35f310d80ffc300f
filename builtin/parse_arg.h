/* --parse FORMAT, as perfdb bench and perfdb record take it: checked
 * before anything runs, and --parse help listing the formats. */
#ifndef PERFDB_PARSE_ARG_H
#define PERFDB_PARSE_ARG_H
#include "builtin/builtin.h"

/* PARSE_HELP: parse_arg_check's answer when it printed the list. */
#define PARSE_HELP (-1)

/* parse_arg_check(prog, spec): spec NULL or a known format with a
 * well-formed argument: 0; "help": the formats listed on stdout (name,
 * summary, metrics), PARSE_HELP; else one line on stderr, EXIT_USAGE. */
int parse_arg_check(const char *prog, const char *spec);

/* parse_arg_formats(): the formats as man page paragraphs (tag: the
 * name; text: the summary and the metrics), NULL-tag-terminated; made
 * once, kept for the process's life. */
const struct verb_item *parse_arg_formats(void);

/* PARSE_ARG_MAN: the man page section's name. */
#define PARSE_ARG_MAN "OUTPUT FORMATS"

/* PARSE_ARG_HELP: the option's help text (both verbs'). */
#define PARSE_ARG_HELP \
	"read the workload's output in FORMAT (default metric: metric= lines); --parse help lists them"
#endif
