/* Fuzzing harness helpers: an input handed to code that reads files by
 * path, through an in-memory file (memfd) instead of a disk file, and the
 * process-wide quieting of libraries that print warnings. */
#ifndef PERFDB_FUZZ_MEMFILE_H
#define PERFDB_FUZZ_MEMFILE_H
#include <stddef.h>
#include <stdint.h>

/* memfile_path(slot, data, size): writes data[0..size) as the whole
 * content of in-memory file slot (0..3; created at the first call) and
 * returns its path ("/proc/self/fd/N", a regular file of exactly size
 * bytes that a fopen() opens afresh at offset 0). Aborts when the memfd
 * cannot be made or written (a harness failure, not a finding). */
const char *memfile_path(int slot, const uint8_t *data, size_t size);

/* fuzz_quiet(): silences libtraceevent's and libbpf's warnings (they
 * would print one line per malformed input) and makes the import's
 * writes synchronous (no writer thread per input). */
void fuzz_quiet(void);
#endif
