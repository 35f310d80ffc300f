/* Sweeping the temporary directories killed recordings left (see
 * record_sweep.h). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "collect/record/record_sweep.h"
#include "lib/prog.h"

/* pid_alive(pid): whether a process pid exists. */
static bool pid_alive(long pid)
{
	return pid > 0 && pid <= INT_MAX && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

/* pid_is_perfdb(pid): whether process pid runs perfdb (its comm). */
static bool pid_is_perfdb(long pid)
{
	char path[64], comm[32] = "";
	FILE *f;
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	if (!(f = fopen(path, "re")))
		return false;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = 0;
	fclose(f);
	comm[strcspn(comm, "\n")] = 0;
	return !strcmp(comm, "perfdb");
}

/* record_sweep_pid: see record_sweep.h. */
long record_sweep_pid(const char *name)
{
	const char *p, *q;
	long pid = 0;
	if (strncmp(name, RECORD_TMP_PREFIX, strlen(RECORD_TMP_PREFIX)))
		return 0;
	p = name + strlen(RECORD_TMP_PREFIX);
	for (q = p; *q >= '0' && *q <= '9' && q - p < 10; q++)
		pid = pid * 10 + (*q - '0');
	if (q == p || *q++ != '-')
		return 0;
	for (int i = 0; i < 6; i++)
		if (!isalnum((unsigned char)q[i]))
			return 0;
	return q[6] ? 0 : pid;
}

/* stale(fd, pid): whether the directory open as fd (named with pid) is
 * one no perfdb uses: this user's, its lock free, its perfdb gone. */
static bool stale(int fd, long pid)
{
	struct stat st;
	if (fstat(fd, &st) || st.st_uid != geteuid() || flock(fd, LOCK_EX | LOCK_NB))
		return false;
	if (!pid_alive(pid))
		return true;
	return st.st_mtime + 60 < time(NULL) && !pid_is_perfdb(pid);	/* a reused pid */
}

/* only_files(fd): whether the directory open as fd holds plain files only. */
static bool only_files(int fd)
{
	int dup_fd = dup(fd);
	DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	struct dirent *e;
	struct stat st;
	bool ok = d != NULL;
	if (!d && dup_fd >= 0)
		close(dup_fd);
	if (d)
		rewinddir(d);	/* a dup shares fd's offset */
	while (ok && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			ok = !fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) && S_ISREG(st.st_mode);
	if (d)
		closedir(d);
	return ok;
}

/* remove_files(fd, dfd, name): removes the files of directory fd, then
 * the directory name in dfd; 0 or -1. */
static int remove_files(int fd, int dfd, const char *name)
{
	int dup_fd = dup(fd), rc = 0;
	DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	struct dirent *e;
	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return -1;
	}
	rewinddir(d);	/* a dup shares fd's offset, which only_files moved */
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			rc |= unlinkat(fd, e->d_name, 0);
	closedir(d);
	return rc || unlinkat(dfd, name, AT_REMOVEDIR) ? -1 : 0;
}

/* sweep_one(dfd, dir, name, quiet): name (in dir, open as dfd) removed
 * when it is stale and holds files only. */
static void sweep_one(int dfd, const char *dir, const char *name, bool quiet)
{
	long pid = record_sweep_pid(name);
	int fd = pid > 0 ? openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
	if (fd < 0)
		return;
	if (!stale(fd, pid)) {
		close(fd);
		return;
	}
	if (!only_files(fd)) {
		if (!quiet)
			eprintf("left %s/%s, left by a recording that did not end: it holds "
				"more than files, which perfdb never puts there\n", dir, name);
	} else if (remove_files(fd, dfd, name)) {
		if (!quiet)
			eprintf("cannot remove %s/%s, left by a recording that did not end: "
				"%s\n", dir, name, strerror(errno));
	} else if (!quiet) {
		eprintf("removed %s/%s, left by a recording that did not end\n", dir, name);
	}
	close(fd);	/* its lock goes with it */
}

/* record_sweep: see record_sweep.h. */
void record_sweep(const char *dir, bool quiet)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	if (!d)
		return;
	while ((e = readdir(d)))
		if (record_sweep_pid(e->d_name) > 0)
			sweep_one(dirfd(d), dir, e->d_name, quiet);
	closedir(d);
}
