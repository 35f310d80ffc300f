/* Man pages of perfdb and its verbs, in roff (man(7) macros), generated
 * from the verbs' declarations and option tables, the same ones --help
 * prints, so the pages cannot drift from what the parser accepts. The
 * Makefile writes them at build time with the hidden `perfdb --man`. */
#ifndef PERFDB_MANPAGE_H
#define PERFDB_MANPAGE_H
#include <stddef.h>
#include <stdio.h>
#include "builtin/builtin.h"

/* The top-level page's text, which perfdb.c owns with its verb table. */
struct perfdb_about {
	const char *summary;		/* the NAME line's description */
	const char *const *usage;	/* synopsis lines, NULL-terminated */
	const char *description;	/* paragraphs separated by blank lines */
	const struct verb_item *files;	/* FILES, { NULL }-terminated */
	const struct verb_item *examples;	/* EXAMPLES, { NULL }-terminated */
};

/* man_perfdb(out, about, verbs, n): page perfdb(1): what perfdb is, its
 * n verbs each with its summary and page, the exit statuses (naming the
 * verbs whose statuses are their own), every environment variable perfdb
 * reads once with the verbs that read it, the files, the examples. */
void man_perfdb(FILE *out, const struct perfdb_about *about, const struct verb *const *verbs,
		size_t n);

/* man_verb(out, v): page perfdb-NAME(1) of verb v: synopsis, summary,
 * description, every shown option of its table with its help, exit
 * statuses, environment, files, examples (builtin.h's struct verb), see
 * also. */
void man_verb(FILE *out, const struct verb *v);
#endif
