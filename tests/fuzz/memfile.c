/* Fuzzing harness helpers: see memfile.h. */
#include "tests/fuzz/memfile.h"
#include <bpf/libbpf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <traceevent/event-parse.h>
#include <unistd.h>

#define SLOTS 4

/* memfile_path: see memfile.h. */
const char *memfile_path(int slot, const uint8_t *data, size_t size)
{
	static int fds[SLOTS] = { -1, -1, -1, -1 };
	static char paths[SLOTS][64];
	size_t done = 0;
	ssize_t w;
	if (slot < 0 || slot >= SLOTS)
		abort();
	if (fds[slot] < 0) {
		fds[slot] = memfd_create("perfdb-fuzz", 0);
		if (fds[slot] < 0)
			abort();
		snprintf(paths[slot], sizeof(paths[slot]), "/proc/self/fd/%d", fds[slot]);
	}
	if (ftruncate(fds[slot], 0))
		abort();
	while (done < size) {
		w = pwrite(fds[slot], data + done, size - done, (off_t)done);
		if (w <= 0)
			abort();
		done += (size_t)w;
	}
	return paths[slot];
}

/* no_libbpf_print: drops libbpf's messages. */
static int no_libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* fuzz_quiet: see memfile.h. */
void fuzz_quiet(void)
{
	tep_set_loglevel(TEP_LOG_NONE);
	libbpf_set_print(no_libbpf_print);
	setenv("PERFDB_SYNC_WRITES", "1", 1);
	setenv("PERF_BUILDID_DIR", "/nonexistent-perfdb-fuzz", 1);
}
