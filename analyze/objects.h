/* The object map of `perfdb hitm`: address ranges of known objects in a
 * session, so that a memory sample's data address names an object (and,
 * with its type's layout, a field).
 *
 * Sources, best first when ranges overlap:
 *  - user objects: `--object TYPE@ADDR[:SIZE]`, stored in c2c_object;
 *  - a binary's variables (`--dwarf FILE`): DWARF globals with their
 *    types, and the ELF data symbols that DWARF does not describe, placed
 *    at the addresses each process mapped the file at (or, for a kernel
 *    image, shifted by the KASLR offset between its _text and the
 *    session's kallsyms), stored in c2c_object;
 *  - mm_struct instances: every mm pointer of the mmap_lock_* and
 *    exit_mmap tracepoints, one instance per lifetime (an exit_mmap ends
 *    one; the next sighting starts another), owned by the process seen
 *    most often with it, sized by the session's mm_struct layout;
 *  - static kernel data symbols of the session's kallsyms snapshot (types
 *    d, b, r and upper case), sized up to the next symbol (1 MiB at most).
 * Among candidates, a typed object beats an untyped one and a smaller one
 * a larger one. Objects with a pid only hold samples of that process. */
#ifndef PERFDB_OBJECTS_H
#define PERFDB_OBJECTS_H
#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/layout.h"

enum obj_source { OBJ_USER, OBJ_DWARF, OBJ_MMAP_LOCK, OBJ_KALLSYMS, OBJ_NSOURCES };

struct hobj {
	uint64_t addr, size;
	int64_t t0, t1;		/* lifetime [t0, t1) in ns; INT64_MIN/MAX open */
	int32_t pid;		/* owning process; -1: any */
	uint16_t session;	/* index in c2c_data.sessions */
	uint8_t source;		/* enum obj_source */
	char *type;		/* layout name ("mm_struct"), "" when untyped */
	char *type_decl;	/* the C type of an untyped variable, or NULL */
	char *name;		/* variable, symbol, or "mm 0x... (pid N comm)" */
};

struct objmap {
	struct hobj *v;
	size_t n, cap;
	uint64_t *maxend;	/* prefix maxima of end addresses (finished) */
};

/* objects_load(db, session, ix, ls, m): adds session's objects (session
 * index ix) to m, sizing mm_struct instances by ls's mm_struct layout
 * (none are added without it). Call objects_finish before lookups.
 * Returns the number added, or -1 on an SQL error. */
long objects_load(sqlite3 *db, int64_t session, uint16_t ix, const struct layout_set *ls,
		  struct objmap *m);

/* objects_has_mm(db, session): whether session's tracepoints name any mm. */
int objects_has_mm(sqlite3 *db, int64_t session);

/* objects_finish(m): sorts m for objects_find. */
void objects_finish(struct objmap *m);

/* objects_find(m, session, addr, pid, time): the index of the best object
 * holding addr for a sample of pid at time in session ix, or -1. */
long objects_find(const struct objmap *m, uint16_t session, uint64_t addr, int32_t pid,
		  int64_t time);

/* objects_free(m): frees m and empties it. */
void objects_free(struct objmap *m);

/* A parsed --object TYPE@ADDR[:SIZE]. */
struct obj_spec {
	char type[256];
	uint64_t addr, size;	/* size 0: the type's layout size */
	int32_t pid;		/* -1 */
};

/* objects_parse_spec(s, o): parses "TYPE@ADDR[:SIZE][/PID]" (ADDR and
 * SIZE in C notation: 0x... or decimal). 0, or -1 when malformed. */
int objects_parse_spec(const char *s, struct obj_spec *o);

/* objects_store_user(db, session, o, err, errlen): stores --object o in
 * session's c2c_object rows (replacing one at the same address and
 * type). 0 or -1. */
int objects_store_user(sqlite3 *db, int64_t session, const struct obj_spec *o,
		       char *err, size_t errlen);

/* objects_store_binary(db, session, path, err, errlen): stores the
 * variables and data symbols of the ELF file path at the addresses the
 * session mapped it at (see above), replacing rows from the same file.
 * Returns the number of objects stored, or -1 with a message in err (the
 * file is unreadable, or the session never mapped it). */
long objects_store_binary(sqlite3 *db, int64_t session, const char *path,
			  char *err, size_t errlen);
#endif
