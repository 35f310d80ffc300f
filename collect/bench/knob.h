/* A knob: a file of /sys, /proc/sys or a debugfs mount that perfdb bench
 * --set writes before each run. What may be one, reading it, writing it
 * and checking it reads back. A sysfs choice file reads back as "always
 * [madvise] never": its value is the bracketed word (what writing it back
 * restores). No database here (collect/bench/bench_knob.h keeps them). */
#ifndef PERFDB_KNOB_H
#define PERFDB_KNOB_H
#include <stdbool.h>
#include <stddef.h>

/* knob_check(path, real, reallen, err, errlen): path resolved (realpath)
 * into real, which must be a regular file under /sys, /proc/sys or a
 * debugfs mount that can be opened for writing (nothing is written). 0,
 * or -1 with "PATH: why" in err. */
int knob_check(const char *path, char *real, size_t reallen, char *err, size_t errlen);

/* knob_read(path, buf, len, err, errlen): the file's content, trailing
 * white space cut, into buf. 0, or -1 with err set. */
int knob_read(const char *path, char *buf, size_t len, char *err, size_t errlen);

/* knob_value(content, out, len): the value content says: its bracketed
 * word when it has one ("always [madvise] never": madvise), else content
 * itself. */
void knob_value(const char *content, char *out, size_t len);

/* knob_matches(content, value): whether content, read back after value
 * was written, says value: equal but for runs of white space, or its
 * bracketed word is value. */
bool knob_matches(const char *content, const char *value);

/* knob_set(path, value, err, errlen): value written to path in one write
 * (a lone newline for ""), then read back and matched (knob_matches). 0,
 * or -1 with why in err ("wrote 'x' to PATH, it reads back 'y'"). */
int knob_set(const char *path, const char *value, char *err, size_t errlen);
#endif
