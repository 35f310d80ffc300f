/* pdump: prints what perfdb's perf.data reader sees in a file, one line per
 * record in delivery order (type, time, cpu, pid/tid, event), then the
 * evsels and counts. A debugging aid and a test oracle helper. */
#include <stdio.h>
#include <string.h>
#include "collect/perfdata/perf_data.h"

static int on_event(void *ctx, struct pd_reader *r, const struct pd_event *ev)
{
	int verbose = *(int *)ctx;
	(void)r;
	if (verbose)
		printf("%u %llu %u %u/%u %s\n", ev->type, (unsigned long long)ev->sample.time,
		       ev->sample.cpu, ev->sample.pid, ev->sample.tid,
		       ev->evsel && ev->evsel->name ? ev->evsel->name : "-");
	return 0;
}

int main(int argc, char **argv)
{
	char err[512];
	int verbose = argc > 2 && !strcmp(argv[2], "-v");
	struct pd_ops ops = { &verbose, NULL, on_event, NULL };
	struct pd_reader *r;
	if (argc < 2)
		return fprintf(stderr, "usage: pdump FILE [-v]\n"), 1;
	if (!(r = pd_open(argv[1], err, sizeof(err))))
		return fprintf(stderr, "%s\n", err), 2;
	if (pd_read(r, &ops, err, sizeof(err)))
		return fprintf(stderr, "%s\n", err), pd_close(r), 2;
	for (size_t i = 0; i < r->nr_evsels; i++) {
		printf("evsel %zu %s type %u config %llu st %#llx ids", i, r->evsels[i]->name,
		       r->evsels[i]->type, (unsigned long long)r->evsels[i]->config,
		       (unsigned long long)r->evsels[i]->sample_type);
		for (size_t j = 0; j < r->evsels[i]->nr_ids; j++)
			printf(" %llu", (unsigned long long)r->evsels[i]->ids[j]);
		printf("\n");
	}
	printf("records %llu samples %llu lost %llu unknown %llu unordered %llu\n",
	       (unsigned long long)r->nr_records, (unsigned long long)r->nr_samples,
	       (unsigned long long)r->nr_lost, (unsigned long long)r->nr_unknown_id,
	       (unsigned long long)r->nr_unordered);
	pd_close(r);
	return 0;
}
