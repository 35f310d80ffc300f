/* The object map of field attribution (`perfdb hitm`): address ranges of
 * known objects in a session, so that a memory sample's data address
 * names an object (and, with its type's layout, a field). Only reads the
 * database.
 *
 * Sources, best first when ranges overlap:
 *  - user objects (`perfdb layout --object TYPE@ADDR[:SIZE][/PID]`),
 *    c2c_object rows with source 'object';
 *  - a binary's variables and data symbols (`perfdb layout --dwarf
 *    FILE`), c2c_object rows with source 'dwarf:PATH' (see
 *    collect/layout/objects_store.h for how they are placed);
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

#include "analyze/hitm/layout_load.h"

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
 * (none are added without it) and objects stored with size 0 by their
 * type's layout. Call objects_finish before lookups. Returns the number
 * added, or -1 on an SQL error. */
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
#endif
