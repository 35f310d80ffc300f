/* Compressing a buffer with zstd on a thread of its own: see zstd_job.h. */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <zstd.h>
#include "collect/symbols/zstd_job.h"
#include "lib/alloc.h"

struct zstd_job {
	pthread_t thread;
	bool threaded;
	const void *src;
	size_t len;
	int level;
	void *out;
	size_t outlen;
	bool failed;
};

/* compress(j): does j's work into j->out, or sets j->failed. */
static void compress(struct zstd_job *j)
{
	size_t cap = ZSTD_compressBound(j->len);
	j->out = xmalloc(cap ? cap : 1);
	j->outlen = ZSTD_compress(j->out, cap, j->src, j->len, j->level);
	if (ZSTD_isError(j->outlen)) {
		free(j->out);
		j->out = NULL;
		j->failed = true;
	}
}

/* run: the thread's body. */
static void *run(void *arg)
{
	compress(arg);
	return NULL;
}

struct zstd_job *zstd_job_start(const void *src, size_t len, int level)
{
	struct zstd_job *j = xcalloc(1, sizeof(*j));
	j->src = src;
	j->len = len;
	j->level = level;
	j->threaded = pthread_create(&j->thread, NULL, run, j) == 0;
	return j;
}

int zstd_job_finish(struct zstd_job *j, void **out, size_t *outlen)
{
	int rc;
	if (!j)
		return -1;
	if (j->threaded)
		pthread_join(j->thread, NULL);
	else
		compress(j);
	rc = j->failed ? -1 : 0;
	if (!rc) {
		*out = j->out;
		*outlen = j->outlen;
	}
	free(j);
	return rc;
}
