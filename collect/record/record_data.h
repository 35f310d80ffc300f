/* Where `perfdb record --perf-data FILE` keeps perf's recording: FILE
 * must not exist (perf itself would rename an existing FILE over
 * FILE.old, destroying that one), nor be the database; perf writes into
 * record's temporary directory and the finished recording is put at FILE
 * without replacing anything that appeared there meanwhile. */
#ifndef PERFDB_RECORD_DATA_H
#define PERFDB_RECORD_DATA_H
#include <stddef.h>

/* record_data_check(path, db_path, err, errlen): 0 when path may receive
 * the recording; -1 with one line in err when it exists (a directory, the
 * database, a recording or any other file: nothing is replaced) or its
 * folder cannot take it. */
int record_data_check(const char *path, const char *db_path, char *err, size_t errlen);

/* record_data_place(from, to, err, errlen): moves the finished recording
 * from to to (0600), by a rename that replaces nothing, or across file
 * systems by a copy into a new file; from is removed once to holds it.
 * 0, or -1 with err set (from is left as it was). */
int record_data_place(const char *from, const char *to, char *err, size_t errlen);
#endif
