/* Opening untrusted file names without blocking: see openreg.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/alloc.h"
#include "lib/openreg.h"

/* open_regular: see openreg.h. */
int open_regular(const char *path, uint64_t *size)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY), flags;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	flags = fcntl(fd, F_GETFL);
	if (flags >= 0)
		(void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	if (size)
		*size = (uint64_t)st.st_size;
	return fd;
}

/* read_text_file: see openreg.h. */
char *read_text_file(const char *path, size_t *len, bool any_kind)
{
	int fd = any_kind ? -1 : open_regular(path, NULL);
	FILE *f = any_kind ? fopen(path, "r") : fd >= 0 ? fdopen(fd, "r") : NULL;
	size_t cap = 0, n = 0, k;
	char *buf = NULL;
	if (!f) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	do {
		ALLOC_GROW(buf, n + (1 << 20), cap);
		while (n < cap && (k = fread(buf + n, 1, cap - n, f)) > 0)
			n += k;
	} while (n == cap);
	fclose(f);
	*len = n;
	return buf;
}
