/* A session's kallsyms snapshot read back: the kallsyms table keeps the
 * /proc/kallsyms text of the recording kernel zstd-compressed; both sides
 * use the text (collect/ to place a vmlinux at its KASLR address,
 * analyze/ for the static kernel data objects), parsed with
 * lib/kallsyms.h. */
#ifndef PERFDB_SESSION_KALLSYMS_H
#define PERFDB_SESSION_KALLSYMS_H
#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

/* db_session_kallsyms(db, session, len): the session's kallsyms text
 * (malloc'ed, not NUL-terminated) with its length in *len, or NULL when
 * the session has none or the stored text does not decompress. */
char *db_session_kallsyms(sqlite3 *db, int64_t session, size_t *len);
#endif
