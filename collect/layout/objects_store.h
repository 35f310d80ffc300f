/* Objects named for field attribution, stored in a session's c2c_object
 * rows (schema/tables.sql) so that analyze/hitm/objects.h finds them when it
 * maps a data address to an object:
 *  - user objects: `--object TYPE@ADDR[:SIZE][/PID]`: an object of struct
 *    TYPE at ADDR (size 0: the layout's size), of process PID only;
 *  - a binary's variables (`--dwarf FILE`): DWARF globals with their
 *    types, and the ELF data symbols that DWARF does not describe, placed
 *    at the addresses each process of the session mapped the file at
 *    (the load bias of the PT_LOAD segment holding the mapping's file
 *    offset), or, for a kernel image no process mapped, shifted by the
 *    KASLR offset between its _text and the session's kallsyms _text.
 * Rows are written inside the caller's transaction, if any. */
#ifndef PERFDB_OBJECTS_STORE_H
#define PERFDB_OBJECTS_STORE_H
#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

/* A parsed --object TYPE@ADDR[:SIZE][/PID]. */
struct obj_spec {
	char type[256];
	uint64_t addr, size;	/* size 0: the type's layout size */
	int32_t pid;		/* -1: any process */
};

/* objects_parse_spec(s, o): parses "TYPE@ADDR[:SIZE][/PID]" (ADDR and
 * SIZE in C notation: 0x... or decimal). 0, or -1 when malformed. */
int objects_parse_spec(const char *s, struct obj_spec *o);

/* objects_store_user(db, session, o, err, errlen): stores --object o in
 * session's c2c_object rows (replacing one at the same address and
 * type). 0, or -1 with one line in err. */
int objects_store_user(sqlite3 *db, int64_t session, const struct obj_spec *o,
		       char *err, size_t errlen);

/* objects_store_binary(db, session, path, err, errlen): stores the
 * variables and data symbols of the ELF file path at the addresses the
 * session mapped it at (see above), replacing rows from the same file.
 * Returns the number of objects stored, or -1 with one line in err (the
 * file is unreadable, or the session never mapped it). */
long objects_store_binary(sqlite3 *db, int64_t session, const char *path,
			  char *err, size_t errlen);
#endif
