/* Loading a kallsyms file on a thread of its own: see kallsyms_job.h. */
#include <pthread.h>
#include <stdlib.h>
#include "collect/symbols/kallsyms_job.h"
#include "lib/alloc.h"
#include "lib/kallsyms.h"
#include "lib/openreg.h"

struct kallsyms_job {
	pthread_t thread;
	bool threaded, any_kind;
	char *path;
	struct kallsyms_load load;
};

/* kallsyms_load_path: see kallsyms_job.h. */
struct kallsyms_load kallsyms_load_path(const char *path, bool any_kind)
{
	struct kallsyms_load l = { NULL, 0, NULL, NULL };
	char err[256];
	l.text = read_text_file(path, &l.len, any_kind);
	if (!l.text)
		return l;
	l.z = zstd_job_start(l.text, l.len, KALLSYMS_ZSTD_LEVEL);
	l.syms = symtab_new();
	if (kallsyms_load_buf(l.syms, l.text, l.len, err, sizeof(err)) < 0)
		kallsyms_load_free(&l);
	return l;
}

void kallsyms_load_free(struct kallsyms_load *l)
{
	void *z = NULL;
	size_t n;
	if (l->z && !zstd_job_finish(l->z, &z, &n))
		free(z);
	symtab_free(l->syms);
	free(l->text);
	*l = (struct kallsyms_load){ NULL, 0, NULL, NULL };
}

/* run: the thread's body. */
static void *run(void *arg)
{
	struct kallsyms_job *j = arg;
	j->load = kallsyms_load_path(j->path, j->any_kind);
	return NULL;
}

struct kallsyms_job *kallsyms_job_start(const char *path, bool any_kind)
{
	struct kallsyms_job *j = xcalloc(1, sizeof(*j));
	j->path = xstrdup(path);
	j->any_kind = any_kind;
	j->threaded = pthread_create(&j->thread, NULL, run, j) == 0;
	return j;
}

const char *kallsyms_job_path(const struct kallsyms_job *j)
{
	return j->path;
}

struct kallsyms_load kallsyms_job_finish(struct kallsyms_job *j)
{
	struct kallsyms_load l;
	if (j->threaded)
		pthread_join(j->thread, NULL);
	else
		run(j);
	l = j->load;
	free(j->path);
	free(j);
	return l;
}
