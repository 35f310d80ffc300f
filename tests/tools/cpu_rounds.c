/* cpu_rounds: writes a perf.data file shaped like a system-wide recording
 * on many CPUs (tests/lib/cpu_rounds.h: each round one ascending run per
 * CPU buffer, the runs overlapping in time), for the import benchmark's
 * memory figures on a CPU count this machine does not have.
 *   cpu_rounds PATH CPUS PER_CPU ROUNDS
 * PER_CPU records of each CPU per round. Exit 0, or 1 with a message. */
#include <stdio.h>
#include <stdlib.h>
#include "tests/lib/cpu_rounds.h"

int main(int argc, char **argv)
{
	struct cpu_rounds o = { .seed = 1, .few_ips = true };
	struct pdw_attr a = cpu_rounds_attr();
	struct pdw *w;
	if (argc != 5) {
		fprintf(stderr, "usage: cpu_rounds PATH CPUS PER_CPU ROUNDS\n");
		return 1;
	}
	o.cpus = (uint32_t)strtoul(argv[2], NULL, 10);
	o.per_cpu = (uint32_t)strtoul(argv[3], NULL, 10);
	o.rounds = (uint32_t)strtoul(argv[4], NULL, 10);
	if (!o.cpus || !o.per_cpu || !o.rounds) {
		fprintf(stderr, "cpu_rounds: CPUS, PER_CPU and ROUNDS must be positive\n");
		return 1;
	}
	w = pdw_new(NULL);
	pdw_add_attr(w, &a);
	pdw_feat_nrcpus(w, o.cpus, o.cpus);
	pdw_feat_string(w, PDW_FEAT_ARCH, "x86_64");
	pdw_feat_event_desc(w);
	if (cpu_rounds_write(w, 0, &o, NULL) || pdw_write(w, argv[1])) {
		fprintf(stderr, "cpu_rounds: %s: %s\n", argv[1], pdw_error(w));
		pdw_free(w);
		return 1;
	}
	pdw_free(w);
	return 0;
}
