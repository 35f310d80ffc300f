/* Bash completion of perfdb's verbs and options, generated from the same
 * option tables --help prints (the Makefile writes it at build time with
 * the hidden `perfdb --bash-completion`). */
#ifndef PERFDB_COMPLETION_H
#define PERFDB_COMPLETION_H
#include <stddef.h>
#include <stdio.h>
#include "builtin/builtin.h"

/* completion_bash(out, verbs, n): a bash script defining _perfdb and
 * registering it for perfdb: the n verbs (and help, --help, --version)
 * as the first word; a verb's shown options (--no-NAME for negatable
 * flags, -h and --help) for a word starting with '-'; the words of a
 * choice option after it; files otherwise; commands after "--" for the
 * verbs that run a workload. */
void completion_bash(FILE *out, const struct verb *const *verbs, size_t n);
#endif
