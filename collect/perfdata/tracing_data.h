/* TRACING_DATA reader: turns the tracepoint format blob that perf stores in
 * perf.data (the HEADER_TRACING_DATA feature section, or the payload after a
 * pipe-mode PERF_RECORD_HEADER_TRACING_DATA record) into a libtraceevent
 * handle that can decode the RAW field of tracepoint samples. */
#ifndef PERFDB_TRACING_DATA_H
#define PERFDB_TRACING_DATA_H
#include <stddef.h>
#include <stdint.h>
#include <traceevent/event-parse.h>

/* Parses a perf.data TRACING_DATA blob (the HEADER_TRACING_DATA feature
 * section, or the payload that follows a pipe-mode
 * PERF_RECORD_HEADER_TRACING_DATA record) into a new libtraceevent handle.
 * Returns 0 and *out on success (free it with tep_free); on error returns
 * -1, writes a one-line message into err (errlen bytes) that includes the
 * byte offset within buf of the problem, and *out is NULL. Never reads
 * outside buf[0..len). Only structural problems (bad magic, truncation,
 * impossible sizes) fail. An event format that libtraceevent refuses, or
 * that fails the sanity checks guarding libtraceevent 1.7's known crashes on
 * corrupted formats, is skipped. Bytes after the last section are ignored. */
int tracing_data_parse(const void *buf, size_t len, struct tep_handle **out,
		       char *err, size_t errlen);

/* Registers kernel symbols so %pS/function fields print as names: calls
 * tep_register_function for each (addrs[i], names[i]) pair; NULL names are
 * skipped. libtraceevent builds its sorted symbol table once, at the first
 * lookup, and reads past its end if symbols are added later: call this
 * before decoding any event. The highest symbol matches only its exact
 * address, so include an end marker (e.g. _etext). Returns 0, or -1 if any
 * registration failed (out of memory); the others are still registered. */
int tracing_data_add_kallsyms(struct tep_handle *tep, const uint64_t *addrs,
			      const char *const *names, size_t n);
#endif
