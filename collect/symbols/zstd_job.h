/* Compressing a buffer with zstd on a thread of its own, so that work the
 * import needs only at its end (the kallsyms snapshot a session keeps)
 * runs while records are read instead of after them. */
#ifndef PERFDB_ZSTD_JOB_H
#define PERFDB_ZSTD_JOB_H
#include <stddef.h>

struct zstd_job;

/* zstd_job_start(src, len, level): starts compressing src[0..len) at
 * level on a new thread; src must stay unchanged and allocated until
 * zstd_job_finish. Where no thread can be made, the work waits for
 * zstd_job_finish, which does it itself. Never NULL. */
struct zstd_job *zstd_job_start(const void *src, size_t len, int level);

/* zstd_job_finish(j, out, outlen): waits for j, frees it, and hands over
 * the compressed bytes (*out, malloc'ed, the caller frees them; *outlen
 * bytes). Returns 0, or -1 (nothing handed over) when compression failed.
 * j NULL: returns -1. */
int zstd_job_finish(struct zstd_job *j, void **out, size_t *outlen);
#endif
