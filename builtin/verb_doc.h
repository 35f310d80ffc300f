/* The parts of a verb's --help and man page past its options, from its
 * struct verb (builtin.h): examples, exit statuses, the environment
 * variables it reads and the files it reads or writes; and the one
 * description of each environment variable perfdb reads, which the verbs'
 * pages and perfdb(1) print. */
#ifndef PERFDB_VERB_DOC_H
#define PERFDB_VERB_DOC_H
#include <stdio.h>
#include "builtin/builtin.h"

/* Every environment variable perfdb reads (each getenv of its sources,
 * and those of libpq that push and pull pass on), with what it does;
 * ends with { NULL }. */
extern const struct verb_item verb_environment[];

/* The exit statuses of a verb that gives none (builtin.h's). */
extern const struct verb_item verb_exits_default[];

/* verb_env(name): the entry of variable name in verb_environment, or
 * NULL. */
const struct verb_item *verb_env(const char *name);

/* verb_exits(v): v's exit statuses: its own, or those every verb has. */
const struct verb_item *verb_exits(const struct verb *v);

/* verb_help_more(v, out): what --help prints after the options: v's
 * examples, exit statuses and environment variables (the files are the
 * man page's). */
void verb_help_more(const struct verb *v, FILE *out);
#endif
