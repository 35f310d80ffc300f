/* libFuzzer harness: one perf.data file through the reader alone (no
 * database): header, attrs, feature sections, then every record decoded
 * and delivered in time order, each delivered field read back so that a
 * pointer or length the reader got wrong shows under ASan. Tracing data
 * is skipped (PD_VET_SKIP: fuzz_tracing_data covers it), so that an
 * input costs no libtraceevent parse and no fork. */
#include <stdint.h>
#include <string.h>
#include "collect/perfdata/perf_data.h"
#include "tests/fuzz/memfile.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* sink: what the callbacks read, kept so the reads are not optimised out. */
static volatile uint64_t sink;

/* sum: a checksum over n bytes at p (reads every byte). */
static uint64_t sum(const uint8_t *p, uint64_t n)
{
	uint64_t s = 0;
	for (uint64_t i = 0; p && i < n; i++)
		s = s * 31 + p[i];
	return s;
}

/* on_begin: reads every evsel's name and ids. */
static int on_begin(void *ctx, struct pd_reader *r)
{
	(void)ctx;
	for (size_t i = 0; i < r->nr_evsels; i++) {
		const struct pd_evsel *e = r->evsels[i];
		sink += e->name ? strlen(e->name) : 0;
		sink += sum((const uint8_t *)e->ids, e->nr_ids * sizeof(*e->ids));
	}
	return 0;
}

/* on_event: reads every field a consumer may read. */
static int on_event(void *ctx, struct pd_reader *r, const struct pd_event *ev)
{
	const struct pd_sample *s = &ev->sample;
	(void)ctx;
	for (uint64_t i = 0; i < s->nr_callchain; i++)
		sink += pd_callchain_at(r, s, i);
	sink += sum(s->raw, s->raw_size);
	sink += sum(s->branches, s->nr_branches * 24);
	if (s->read && s->read_nr)
		sink += sum(s->read, s->read_nr * s->read_stride);
	sink += sum(s->stack_user, s->stack_user_dyn);
	sink += s->regs_user ? s->regs_user[0] : 0;
	sink += ev->sb.str ? strlen(ev->sb.str) : 0;
	sink += ev->evsel ? ev->evsel->type : 0;
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	pd_set_tracing_vet(PD_VET_SKIP);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pd_ops ops = { NULL, on_begin, on_event, NULL };
	char err[1024];
	struct pd_reader *r = pd_open(memfile_path(0, data, size), err, sizeof(err));
	if (!r)
		return 0;
	pd_read(r, &ops, err, sizeof(err));
	sink += r->features.nr_build_ids + r->features.nr_events;
	sink += r->features.hostname ? strlen(r->features.hostname) : 0;
	sink += r->features.cmdline ? strlen(r->features.cmdline) : 0;
	pd_close(r);
	return 0;
}
