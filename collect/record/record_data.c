/* Where perfdb record keeps perf's recording (see record_data.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "collect/record/record_data.h"
#include "lib/outfile.h"

/* canonical(path, out, len): path with its folder resolved (realpath)
 * and its last name as given; 0, or -1 when the folder does not resolve. */
static int canonical(const char *path, char *out, size_t len)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *slash = strrchr(path, '/');
	snprintf(dir, sizeof(dir), "%.*s", slash ? (slash == path ? 1 : (int)(slash - path)) : 1,
		 slash ? path : ".");
	if (!realpath(dir, real))
		return -1;
	snprintf(out, len, "%s/%s", strcmp(real, "/") ? real : "", slash ? slash + 1 : path);
	return 0;
}

/* same_path(a, b): whether a and b name one file, existing or not. */
static bool same_path(const char *a, const char *b)
{
	char ca[PATH_MAX + 256], cb[PATH_MAX + 256];
	return !canonical(a, ca, sizeof(ca)) && !canonical(b, cb, sizeof(cb)) && !strcmp(ca, cb);
}

/* record_data_check: see record_data.h. */
int record_data_check(const char *path, const char *db_path, char *err, size_t errlen)
{
	struct stat st, db;
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/'), *kind;
	if (!*path) {
		snprintf(err, errlen, "--perf-data: an empty file name");
		return -1;
	}
	if (same_path(path, db_path)) {
		snprintf(err, errlen, "--perf-data %s: is the database the session goes into", path);
		return -1;
	}
	if (!lstat(path, &st)) {
		if (S_ISDIR(st.st_mode))
			snprintf(err, errlen, "--perf-data %s: is a directory", path);
		else if (!stat(db_path, &db) && !stat(path, &st) && st.st_dev == db.st_dev && st.st_ino == db.st_ino)
			snprintf(err, errlen, "--perf-data %s: is the database the session goes into", path);
		else
			snprintf(err, errlen, "--perf-data %s: exists (%s); not replacing it: remove it or name "
				 "another file", path, (kind = file_holds_data(path)) ? kind : "a file");
		return -1;
	}
	snprintf(dir, sizeof(dir), "%.*s", slash ? (slash == path ? 1 : (int)(slash - path)) : 1,
		 slash ? path : ".");
	if (access(dir, W_OK | X_OK)) {
		snprintf(err, errlen, "--perf-data %s: %s: %s", path, dir, strerror(errno));
		return -1;
	}
	return 0;
}

/* copy_new(from, to, err, errlen): from's bytes into to, made new (an
 * existing to is an error); 0 or -1 (a partial to is removed). */
static int copy_new(const char *from, const char *to, char *err, size_t errlen)
{
	char buf[1 << 16];
	ssize_t n = 0;
	int in = open(from, O_RDONLY | O_CLOEXEC), out = -1, rc = -1;
	if (in < 0 || (out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600)) < 0) {
		snprintf(err, errlen, "%s: %s", in < 0 ? from : to, strerror(errno));
		goto out;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		for (ssize_t off = 0, w; off < n; off += w)
			if ((w = write(out, buf + off, (size_t)(n - off))) < 0)
				goto write_failed;
	if (n < 0 || fsync(out))
		goto write_failed;
	rc = 0;
	goto out;
write_failed:
	snprintf(err, errlen, "%s: %s", to, strerror(errno));
	unlink(to);
out:
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out) && !rc) {
		snprintf(err, errlen, "%s: %s", to, strerror(errno));
		unlink(to);
		rc = -1;
	}
	return rc;
}

/* record_data_place: see record_data.h. */
int record_data_place(const char *from, const char *to, char *err, size_t errlen)
{
	chmod(from, 0600);
	if (!link(from, to))	/* a new name only: link never replaces */
		return unlink(from), 0;
	if (errno == EEXIST) {
		snprintf(err, errlen, "--perf-data %s: appeared while recording; not replacing it", to);
		return -1;
	}
	if (errno != EXDEV && errno != EPERM && errno != ENOTSUP) {
		snprintf(err, errlen, "--perf-data %s: %s", to, strerror(errno));
		return -1;
	}
	if (copy_new(from, to, err, errlen))	/* another file system, or no hard links there */
		return -1;
	unlink(from);
	return 0;
}
