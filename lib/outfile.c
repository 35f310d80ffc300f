/* Output files replaced only when complete (see outfile.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/alloc.h"
#include "lib/openreg.h"
#include "lib/outfile.h"

/* file_holds_data: see outfile.h. */
const char *file_holds_data(const char *path)
{
	int fd = open_regular(path, NULL);
	char head[16] = { 0 };
	ssize_t n;
	if (fd < 0)
		return NULL;
	n = read(fd, head, sizeof(head));
	close(fd);
	if (n == 16 && !memcmp(head, "SQLite format 3", 16))
		return "an SQLite database";
	if (n >= 8 && (!memcmp(head, "PERFILE2", 8) || !memcmp(head, "2ELIFREP", 8) ||
		       !memcmp(head, "PERFFILE", 8)))
		return "a perf.data recording";
	return NULL;
}

/* same_file(a, b): whether a and b both exist and are one file. */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* refuse(path, keep, err, errlen): why path must not be written, or 0. */
static int refuse(const char *path, const char *keep, char *err, size_t errlen)
{
	struct stat st;
	const char *kind;
	int there = !stat(path, &st);
	if (there && S_ISDIR(st.st_mode))
		snprintf(err, errlen, "%s: is a directory", path);
	else if (there && !S_ISREG(st.st_mode))
		snprintf(err, errlen, "%s: is not a regular file (a device, FIFO or socket); not replacing it",
			 path);
	else if (keep && same_file(path, keep))
		snprintf(err, errlen, "%s: is the database being read; not overwriting it", path);
	else if ((kind = file_holds_data(path)))
		snprintf(err, errlen, "%s: holds %s; not overwriting it (remove it first)", path, kind);
	else
		return 0;
	return -1;
}

/* outfile_open: see outfile.h. */
int outfile_open(struct outfile *o, const char *path, int mode, const char *keep, char *err,
		 size_t errlen)
{
	int fd;
	memset(o, 0, sizeof(*o));
	if (refuse(path, keep, err, errlen))
		return -1;
	o->path = xstrdup(path);
	o->tmp = xasprintf("%s.XXXXXX", path);
	o->mode = mode;
	if ((fd = mkstemp(o->tmp)) < 0 || !(o->f = fdopen(fd, "w"))) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		free(o->tmp);
		free(o->path);
		memset(o, 0, sizeof(*o));
		return -1;
	}
	return 0;
}

/* outfile_close: see outfile.h. */
int outfile_close(struct outfile *o, char *err, size_t errlen)
{
	mode_t mask = umask(0);
	int bad;
	umask(mask);
	errno = 0;
	bad = ferror(o->f);
	bad |= fchmod(fileno(o->f), (mode_t)o->mode & ~mask) != 0;
	bad |= fclose(o->f) != 0;
	o->f = NULL;
	if (!bad)
		return 0;
	snprintf(err, errlen, "%s: %s", o->path, errno ? strerror(errno) : "write error");
	outfile_abort(o);
	return -1;
}

/* outfile_commit: see outfile.h. */
int outfile_commit(struct outfile *o, char *err, size_t errlen)
{
	int bad = 0;
	if (o->f && outfile_close(o, err, errlen))
		return -1;
	if (rename(o->tmp, o->path)) {
		snprintf(err, errlen, "%s: %s", o->path, strerror(errno));
		unlink(o->tmp);
		bad = 1;
	}
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
	return bad ? -1 : 0;
}

/* outfile_abort: see outfile.h. */
void outfile_abort(struct outfile *o)
{
	if (o->f)
		fclose(o->f);
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
}

/* outfiles_add: see outfile.h. */
void outfiles_add(struct outfiles *s, struct outfile *o)
{
	ALLOC_GROW(s->v, s->n + 1, s->alloc);
	s->v[s->n++] = *o;
	memset(o, 0, sizeof(*o));
}

/* outfiles_commit: see outfile.h. Committed and failed files are zeroed,
 * so the abort that empties s aborts only the files after a failure. */
int outfiles_commit(struct outfiles *s, char *err, size_t errlen)
{
	int rc = 0;
	for (size_t i = 0; i < s->n && !rc; i++)
		rc = outfile_commit(&s->v[i], err, errlen);
	outfiles_abort(s);
	return rc;
}

/* outfiles_abort: see outfile.h. */
void outfiles_abort(struct outfiles *s)
{
	for (size_t i = 0; i < s->n; i++)
		outfile_abort(&s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}
