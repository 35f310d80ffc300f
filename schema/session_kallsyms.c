/* A session's kallsyms snapshot, decompressed (see session_kallsyms.h). */
#include <stdlib.h>
#include <zstd.h>
#include "lib/alloc.h"
#include "schema/db.h"
#include "schema/session_kallsyms.h"

/* db_session_kallsyms: see session_kallsyms.h. */
char *db_session_kallsyms(sqlite3 *db, int64_t session, size_t *len)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT text_zstd, size FROM kallsyms WHERE session_id = ?");
	char *text = NULL;
	if (!st)
		return NULL;
	sqlite3_bind_int64(st, 1, session);
	if (sqlite3_step(st) == SQLITE_ROW) {
		const void *z = sqlite3_column_blob(st, 0);
		size_t zn = (size_t)sqlite3_column_bytes(st, 0);
		int64_t size = sqlite3_column_int64(st, 1);
		if (z && size > 0) {
			text = xmalloc((size_t)size);
			size_t got = ZSTD_decompress(text, (size_t)size, z, zn);
			if (ZSTD_isError(got)) {
				free(text);
				text = NULL;
			} else {
				*len = got;
			}
		}
	}
	sqlite3_finalize(st);
	return text;
}
