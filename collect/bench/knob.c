/* Knob files: checked, read, written, matched (see knob.h). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "collect/bench/knob.h"

/* under(path, dir): whether path is dir or below it. */
static bool under(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	return !strncmp(path, dir, n) && (path[n] == '/' || (n == 1 && dir[0] == '/'));
}

/* in_debugfs(path): whether path is below a debugfs mount. */
static bool in_debugfs(const char *path)
{
	FILE *f = setmntent("/proc/self/mounts", "r");
	struct mntent *m;
	bool in = false;
	while (f && !in && (m = getmntent(f)))
		in = !strcmp(m->mnt_type, "debugfs") && under(path, m->mnt_dir);
	if (f)
		endmntent(f);
	return in;
}

/* knob_check: see knob.h. */
int knob_check(const char *path, char *real, size_t reallen, char *err, size_t errlen)
{
	char r[PATH_MAX];
	struct stat st;
	int fd = -1;
	if (!realpath(path, r) || stat(r, &st)) {
		snprintf(err, errlen, "--set %s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode) || !(under(r, "/sys") || under(r, "/proc/sys") || in_debugfs(r))) {
		snprintf(err, errlen, "--set %s: not a regular file under /sys, /proc/sys or debugfs%s%s", path,
			 strcmp(r, path) ? ": it is " : "", strcmp(r, path) ? r : "");
		return -1;
	}
	if (!(st.st_mode & 0222) || (fd = open(r, O_WRONLY | O_CLOEXEC)) < 0) {
		snprintf(err, errlen, "--set %s: not writable (%s)", path,
			 st.st_mode & 0222 ? strerror(errno) : "no write permission in its mode");
		return -1;
	}
	close(fd);
	snprintf(real, reallen, "%s", r);
	return 0;
}

/* knob_read: see knob.h. */
int knob_read(const char *path, char *buf, size_t len, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, len - 1);
	int e = errno;
	if (fd >= 0)
		close(fd);
	if (n < 0) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(e));
		return -1;
	}
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		n--;
	buf[n] = 0;
	return 0;
}

/* knob_value: see knob.h. */
void knob_value(const char *content, char *out, size_t len)
{
	const char *lb = strchr(content, '['), *rb = lb ? strchr(lb, ']') : NULL;
	if (rb)
		snprintf(out, len, "%.*s", (int)(rb - lb - 1), lb + 1);
	else
		snprintf(out, len, "%s", content);
}

/* same_words(a, b): a and b equal but for runs of white space (and white
 * space at either end). */
static bool same_words(const char *a, const char *b)
{
	for (;;) {
		while (isspace((unsigned char)*a))
			a++;
		while (isspace((unsigned char)*b))
			b++;
		size_t na = strcspn(a, " \t\n"), nb = strcspn(b, " \t\n");
		if (na != nb || strncmp(a, b, na))
			return false;
		if (!na)
			return true;
		a += na;
		b += nb;
	}
}

/* knob_matches: see knob.h. */
bool knob_matches(const char *content, const char *value)
{
	char word[4096];
	if (same_words(content, value))
		return true;
	if (!strchr(content, '['))
		return false;
	knob_value(content, word, sizeof(word));
	return !strcmp(word, value);
}

/* knob_set: see knob.h. */
int knob_set(const char *path, const char *value, char *err, size_t errlen)
{
	char back[4096];
	const char *v = *value ? value : "\n";
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : write(fd, v, strlen(v));
	int e = errno;
	if (fd >= 0 && close(fd) && n >= 0) {
		n = -1;
		e = errno;
	}
	if (n != (ssize_t)strlen(v)) {
		snprintf(err, errlen, "cannot write '%s' to %s: %s", value, path, n < 0 ? strerror(e) : "a short write");
		return -1;
	}
	if (knob_read(path, back, sizeof(back), err, errlen))
		return -1;
	if (!knob_matches(back, value)) {
		snprintf(err, errlen, "wrote '%s' to %s, it reads back '%s'", value, path, back);
		return -1;
	}
	return 0;
}
