/* libFuzzer harness: one TRACING_DATA blob (the HEADER_TRACING_DATA
 * feature section of a perf.data file) through perfdb's tracing-data
 * parser, in process: its own checks, then libtraceevent on what passes
 * them. A crash here is a format perfdb's checks let through to a
 * libtraceevent bug (the real binary's vetting child still refuses it). */
#include <stddef.h>
#include <stdint.h>
#include "collect/perfdata/tracing_data.h"
#include "tests/fuzz/memfile.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tep_handle *tep = NULL;
	char err[256];
	if (!tracing_data_parse(data, size, &tep, err, sizeof(err)))
		tep_free(tep);
	return 0;
}
