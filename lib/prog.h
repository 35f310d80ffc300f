/* The name perfdb's messages on stderr start with: "perfdb" until the
 * runner names the verb ("perfdb record"), so that every line a verb
 * prints says which verb it comes from, wherever in perfdb the line is
 * made (collect/ and schema/ do not know the verb). */
#ifndef PERFDB_PROG_H
#define PERFDB_PROG_H

/* prog_set_name(name): the name messages start with from now on (copied,
 * at most 63 bytes). */
void prog_set_name(const char *name);

/* prog_name(): the name messages start with ("perfdb" until set). */
const char *prog_name(void);

/* eprintf(fmt, ...): "NAME: " and the printf-style fmt on stderr, in one
 * write; fmt brings its own newline (or the caller ends the line). */
void eprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#endif
