/* Opening files whose names come from untrusted input (an MMAP record's
 * filename, a build id, a debug link): only regular files, and never a
 * wait: open(2) of a FIFO with no writer, or of some devices, blocks
 * forever, so the file is opened non-blocking and checked before use. */
#ifndef PERFDB_OPENREG_H
#define PERFDB_OPENREG_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* open_regular: opens path read-only (close-on-exec) without blocking
 * and returns the fd when it is a regular file (its size in *size when
 * size is not NULL); else -1 with errno set (EINVAL: not a regular
 * file). O_NONBLOCK is cleared again: it means nothing to a regular
 * file's reads, but the fd may be handed to libraries. */
int open_regular(const char *path, uint64_t *size);

/* read_text_file: the whole of the file at path, malloc'ed (*len bytes,
 * not NUL-terminated); NULL when it cannot be opened. any_kind: path is
 * one the user named and may be anything readable (a pipe: --kallsyms
 * <(ssh host cat /proc/kallsyms)); otherwise only a regular file
 * (open_regular: a FIFO at a build-id cache path would wait forever). */
char *read_text_file(const char *path, size_t *len, bool any_kind);
#endif
