/* Describing sessions for field attribution: storing in them the objects
 * they are given and the struct layouts their analysis needs, so that
 * `perfdb hitm` only reads. `perfdb layout` calls it; `perfdb import` and
 * `perfdb record` can call it at import time (with no options: the
 * layouts a session needs from the running kernel's BTF).
 *
 * Per session, in this order:
 *  1. the --object objects (collect/layout/objects_store.h), then the variables
 *     and data symbols of each --dwarf file at the addresses the session
 *     mapped it at;
 *  2. the layouts it needs: mm_struct when its mmap_lock or exit_mmap
 *     tracepoints have samples (they name the mm_structs), the types of
 *     its --object objects (those stored before too) and of -t, and the
 *     types of its DWARF objects that one of its memory samples or watched
 *     addresses falls in;
 *  3. each needed layout the session lacks from the first source that
 *     has it: the --dwarf files, the --btf file, the running kernel's BTF
 *     (collect/layout/layout_store.h); with --btf or --dwarf, a needed layout the
 *     session has is stored again when one of those files has it (the
 *     running kernel's BTF never replaces a stored layout: perfdb record
 *     stored it from the recording kernel's).
 * Everything happens in one savepoint (a transaction of its own when the
 * caller has none): all of it is stored, or nothing. */
#ifndef PERFDB_DESCRIBE_H
#define PERFDB_DESCRIBE_H
#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "collect/layout/objects_store.h"

/* What to store besides what the sessions' samples ask for. */
struct describe_opts {
	const char *btf;			/* --btf FILE, or NULL */
	const char *const *dwarf;		/* --dwarf FILE... */
	size_t ndwarf;
	const struct obj_spec *objects;		/* --object TYPE@ADDR... */
	size_t nobjects;
	const char *const *types;		/* -t TYPE... */
	size_t ntypes;
	bool kernel_same_release;	/* the running kernel's BTF only for sessions
					 * recorded on its release (import: a foreign
					 * file needs --btf) */
};

/* What was done in one session. The strings are malloc'ed ("" when
 * empty). */
struct describe_result {
	int64_t session;
	long objects;		/* c2c_object rows written */
	char *stored;		/* "mm_struct (the running kernel's BTF), ..." */
	char *kept;		/* needed layouts already there: "mm_struct, ..." */
	char *missing;		/* needed layouts no source has: "foo, ..." */
	char *warning;		/* NULL, or a sentence: a layout from the running
				 * kernel's BTF for a session recorded on another
				 * kernel release */
};

/* describe_sessions(db, ids, n, o, out, err, errlen): does the above for
 * sessions ids[0..n) of db (opened for writing), with one result per
 * session into *out (malloc'ed; free with describe_results_free).
 * Returns 0, or -1 with one line in err (an unreadable --btf or --dwarf
 * file, a --dwarf binary a session never mapped, a database error), then
 * nothing is stored and *out is NULL. */
int describe_sessions(sqlite3 *db, const int64_t *ids, int n, const struct describe_opts *o,
		      struct describe_result **out, char *err, size_t errlen);

/* describe_result_line(r): the one line saying what was stored in r's
 * session ("session 1: 2 objects; layouts stored: mm_struct (the
 * running kernel's BTF)"), malloc'ed. */
char *describe_result_line(const struct describe_result *r);

/* describe_results_free(r, n): frees what describe_sessions returned. */
void describe_results_free(struct describe_result *r, int n);
#endif
