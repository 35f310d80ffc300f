/* What an analyzer could not see, said the same way by every analyzer: a
 * zero (or an empty table, or a verdict) that comes from an instrument
 * that did not look rather than from a measurement. Each gets a warning
 * (shown before the tables) and an entry of the findings array "unseen"
 * that programs can read: {"what": CODE, "warning": SENTENCE, ...} plus
 * the caller's own members (the CPUs, the session, the events); what
 * leaves out a part of the findings rather than a number is a note
 * instead ({"what": CODE, "note": SENTENCE, ...}). */
#ifndef PERFDB_UNSEEN_H
#define PERFDB_UNSEEN_H
#include "lib/doc.h"

/* unseen(d, what, fmt, ...): adds the warning fmt and an entry {"what":
 * what, "warning": the same sentence} to d's findings array "unseen"
 * (made at the first call); returns the entry, for more members. */
struct dval *unseen(struct doc *d, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* unseen_note(d, what, fmt, ...): the same as a note (how to read what is
 * shown: a section left out), the entry's sentence under "note". */
struct dval *unseen_note(struct doc *d, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* unseen_carry(to, from, part): from's "unseen" entries into to's, each
 * as {"what", "warning" or "note": "PART: SENTENCE", "part": part,
 * "session" when it had one} (the caller carries the sentences
 * themselves, as a report does its analyzers'). */
void unseen_carry(struct doc *to, const struct doc *from, const char *part);
#endif
