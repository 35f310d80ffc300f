/* Loading a kallsyms file (read whole, parsed into a symbol table) on a
 * thread of its own, started as soon as the recording's header says which
 * file the import will want: the first kernel address then finds it
 * loaded, or waits less, instead of stopping the import for the whole
 * load (~10-30 ms for a kernel's 100k+ symbols). */
#ifndef PERFDB_KALLSYMS_JOB_H
#define PERFDB_KALLSYMS_JOB_H
#include <stdbool.h>
#include <stddef.h>
#include "collect/symbols/zstd_job.h"
#include "lib/symtab.h"

/* What a load gives: the text read (malloc'ed), its finished table, and
 * the text's zstd compression (the copy a session keeps), started on a
 * thread of its own as soon as the text was read, so that it runs beside
 * the parse; all NULL when the file could not be read or held no usable
 * symbols. The text must outlive z: kallsyms_load_free keeps the order. */
struct kallsyms_load {
	char *text;
	size_t len;
	struct symtab *syms;
	struct zstd_job *z;
};

/* The zstd level of the kept copy: the fastest (a kernel's kallsyms
 * text, 5.4 MB of 122k lines, shrinks 5.4x at it). */
#define KALLSYMS_ZSTD_LEVEL 1

/* kallsyms_load_path: loads path here, now (read_text_file's rules:
 * any_kind for a file the user named). */
struct kallsyms_load kallsyms_load_path(const char *path, bool any_kind);

/* kallsyms_load_free: waits for l's compression and drops its result,
 * then frees the table and the text; *l is left empty. */
void kallsyms_load_free(struct kallsyms_load *l);

struct kallsyms_job;

/* kallsyms_job_start: starts kallsyms_load_path(path, any_kind) on a new
 * thread (path is copied); where no thread can be made, the load waits
 * for kallsyms_job_finish, which does it itself. Never NULL. */
struct kallsyms_job *kallsyms_job_start(const char *path, bool any_kind);

/* kallsyms_job_path: the path j loads. */
const char *kallsyms_job_path(const struct kallsyms_job *j);

/* kallsyms_job_finish: waits for j, frees it and hands over its load
 * (the caller frees it: kallsyms_load_free, or zstd_job_finish of z
 * before it frees the text). */
struct kallsyms_load kallsyms_job_finish(struct kallsyms_job *j);
#endif
