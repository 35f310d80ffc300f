/* cpu_rounds: records shaped like perf's per-CPU drains (cpu_rounds.h). */
#include "tests/lib/cpu_rounds.h"

#define ROUND_NS	1000000ULL	/* a round's length, in ns */

/* cpu_rounds_attr: see cpu_rounds.h. */
struct pdw_attr cpu_rounds_attr(void)
{
	struct pdw_attr a = { .type = 1, .config = 0, .sample_period = 10000,
			      .sample_type = PDW_SAMPLE_IP | PDW_SAMPLE_TID | PDW_SAMPLE_TIME |
					     PDW_SAMPLE_CPU | PDW_SAMPLE_PERIOD,
			      .flags = PDW_ATTR_SAMPLE_ID_ALL, .name = "cpu-clock" };
	return a;
}

/* sample_time: the time of CPU c's record j in round k: CPU c's stretch
 * of the round starts c half-rounds / cpus after CPU 0's; its records are
 * evenly spaced with a jitter below the spacing (so each CPU's run is
 * ascending), and coarse (a multiple of the spacing) with ties. */
static uint64_t sample_time(const struct cpu_rounds *o, uint64_t *x, uint32_t k,
			    uint32_t c, uint32_t j)
{
	uint64_t gap = ROUND_NS / o->per_cpu, t;
	*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
	t = (uint64_t)(k + 1) * ROUND_NS + c * (ROUND_NS / 2) / o->cpus + j * gap;
	if (o->ties)
		return t - t % (gap ? gap : 1);
	return t + (gap > 1 ? (*x >> 33) % gap : 0);
}

/* cpu_rounds_write: see cpu_rounds.h. */
int cpu_rounds_write(struct pdw *w, int evsel, const struct cpu_rounds *o, uint64_t *times)
{
	uint64_t x = o->seed, n = 0;
	for (uint32_t k = 0; k < o->rounds; k++) {
		for (uint32_t c = 0; c < o->cpus; c++)
			for (uint32_t j = 0; j < o->per_cpu; j++) {
				struct pdw_sample s = { .ip = n, .pid = 100 + c, .tid = 100 + c,
							.cpu = c, .period = 10000 };
				if (o->few_ips)
					s.ip = 0xffffffff81000000ULL + 0x40 * (n % 16);
				s.time = sample_time(o, &x, k, c, j);
				if (times)
					times[n] = s.time;
				n++;
				if (pdw_sample(w, evsel, 0, &s))
					return -1;
			}
		if (pdw_finished_round(w))
			return -1;
	}
	return 0;
}
