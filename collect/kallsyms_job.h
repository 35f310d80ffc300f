/* Loading a kallsyms file (read whole, parsed into a symbol table) on a
 * thread of its own, started as soon as the recording's header says which
 * file the import will want: the first kernel address then finds it
 * loaded, or waits less, instead of stopping the import for the whole
 * load (~10-30 ms for a kernel's 100k+ symbols). */
#ifndef PERFDB_KALLSYMS_JOB_H
#define PERFDB_KALLSYMS_JOB_H
#include <stdbool.h>
#include <stddef.h>
#include "lib/symtab.h"

/* What a load gives: the text read (malloc'ed) and its finished table;
 * both NULL when the file could not be read or held no usable symbols. */
struct kallsyms_load {
	char *text;
	size_t len;
	struct symtab *syms;
};

/* kallsyms_load_path: loads path here, now (read_text_file's rules:
 * any_kind for a file the user named). */
struct kallsyms_load kallsyms_load_path(const char *path, bool any_kind);

struct kallsyms_job;

/* kallsyms_job_start: starts kallsyms_load_path(path, any_kind) on a new
 * thread (path is copied); where no thread can be made, the load waits
 * for kallsyms_job_finish, which does it itself. Never NULL. */
struct kallsyms_job *kallsyms_job_start(const char *path, bool any_kind);

/* kallsyms_job_path: the path j loads. */
const char *kallsyms_job_path(const struct kallsyms_job *j);

/* kallsyms_job_finish: waits for j, frees it and hands over its load
 * (the caller frees the text and the table). */
struct kallsyms_load kallsyms_job_finish(struct kallsyms_job *j);
#endif
