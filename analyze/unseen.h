/* What an analyzer could not see, said the same way by every analyzer: a
 * zero (or an empty table, or a verdict) that comes from an instrument
 * that did not look rather than from a measurement. Each gets a warning
 * (shown before the tables) and an entry of the findings array "unseen"
 * that programs can read: {"what": CODE, "warning": SENTENCE, ...} plus
 * the caller's own members (the CPUs, the session, the events). */
#ifndef PERFDB_UNSEEN_H
#define PERFDB_UNSEEN_H
#include "lib/doc.h"

/* unseen(d, what, fmt, ...): adds the warning fmt and an entry {"what":
 * what, "warning": the same sentence} to d's findings array "unseen"
 * (made at the first call); returns the entry, for more members. */
struct dval *unseen(struct doc *d, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#endif
