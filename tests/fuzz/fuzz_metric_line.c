/* libFuzzer harness: a workload's stdout line through the bench's
 * metric-line parser (collect/metric_line.h), as perfdb bench reads each
 * line a workload prints. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "collect/metric_line.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1), err[256];
	struct metric m;
	memcpy(line, data, size);
	line[size] = '\0';
	if (metric_parse(line, &m, err, sizeof(err)) == 1)
		sink += strlen(m.name) + strlen(m.unit) + strlen(m.line) + (uint64_t)m.better;
	free(line);
	return 0;
}
