/* "Did you mean": the words nearest to one mistyped (a verb, an option),
 * by the optimal string alignment distance (an insertion, a deletion, a
 * substitution or a swap of two neighbours counts 1 each). A candidate
 * is near when it is within a third of the word's length (at least 1
 * edit), or when it starts with the word (two characters or more): "shed"
 * gives sched, "formt" format, "rep" report, "bogus" nothing. */
#ifndef PERFDB_SIMILAR_H
#define PERFDB_SIMILAR_H
#include <stdbool.h>
#include <stddef.h>
#include "lib/strbuf.h"

/* The nearest candidates offered so far. */
struct similar {
	const char *word;	/* the mistyped word */
	size_t len;		/* its length in bytes */
	size_t best;		/* the distance of those kept */
	const char *near[4];	/* the first four at that distance */
	size_t n;		/* how many there were in all */
};

/* str_distance(a, na, b, nb): the edits that make the na bytes of a into
 * the nb bytes of b. */
size_t str_distance(const char *a, size_t na, const char *b, size_t nb);

/* similar_init(s, word, len): s for the len bytes of word (not copied). */
void similar_init(struct similar *s, const char *word, size_t len);

/* similar_offer(s, cand): cand kept when near word and at least as near
 * as those kept (nearer ones replace them); cand is not copied. */
void similar_offer(struct similar *s, const char *cand);

/* similar_text(s, prefix, b): "did you mean 'a'?", "... 'a' or 'b'?",
 * "... 'a', 'b' or 'c'?" with prefix before each candidate ("--"), into
 * b; false, b untouched, when none was near. */
bool similar_text(const struct similar *s, const char *prefix, struct strbuf *b);
#endif
