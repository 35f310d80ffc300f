/* The tables perfdb push and pull move and how: see fleet.h. */
#include <string.h>
#include "schema/fleet.h"

const char *const fleet_key_table[FK_N] = {
	"session", "event", "process", "thread", "dso", "symbol", "stack", "sample", "bench",
	"bench_run",
};

/* A session's samples are the ids first_sample_id..last_sample_id (and in
 * the session's partition on the server); mem_sample and ipi_send_cpumask
 * rows share their sample's id. Its stack nodes are those on the way up
 * from its samples' innermost nodes (the trie holds no other); its
 * symbols those of its dsos and the ones its samples and stack nodes name
 * (each import has its own '[unknown]' symbol of no dso). */
#define SAMPLES "BETWEEN (SELECT first_sample_id FROM session WHERE id = $1) " \
		"AND (SELECT last_sample_id FROM session WHERE id = $1)"
#define OWN_SAMPLES "FROM sample WHERE session_id = $1 AND id " SAMPLES
#define DSOS "(SELECT id FROM dso WHERE session_id = $1)"
#define STACKS "(WITH RECURSIVE up(id) AS (SELECT stack_id " OWN_SAMPLES " AND stack_id IS NOT NULL " \
	       "UNION SELECT st.parent_id FROM stack st JOIN up ON st.id = up.id " \
	       "WHERE st.parent_id IS NOT NULL) SELECT id FROM up)"

const struct fleet_table fleet_session_tables[] = {
	{ "session", "id = $1", FK_SESSION },
	{ "cpu", "session_id = $1", FK_NONE },
	{ "numa_node", "session_id = $1", FK_NONE },
	{ "event", "session_id = $1", FK_EVENT },
	{ "process", "session_id = $1", FK_PROCESS },
	{ "thread", "session_id = $1", FK_THREAD },
	{ "comm", "thread_id IN (SELECT id FROM thread WHERE session_id = $1)", FK_NONE },
	{ "dso", "session_id = $1", FK_DSO },
	{ "mmap", "session_id = $1", FK_NONE },
	{ "symbol", "dso_id IN " DSOS " OR id IN (SELECT symbol_id " OWN_SAMPLES ") OR id IN "
	  "(SELECT symbol_id FROM stack WHERE id IN " STACKS ")", FK_SYMBOL },
	{ "stack", "id IN " STACKS, FK_STACK },
	{ "sample", "session_id = $1 AND id " SAMPLES, FK_SAMPLE },
	{ "mem_sample", "sample_id " SAMPLES, FK_NONE },
	{ "ipi_send_cpumask", "sample_id " SAMPLES, FK_NONE },
	{ "data_quality", "session_id = $1", FK_NONE },
	{ "kallsyms", "session_id = $1", FK_NONE },
	{ "struct_layout", "session_id = $1", FK_NONE },
	{ "c2c_object", "session_id = $1", FK_NONE },
	{ "watch", "session_id = $1", FK_NONE },
	{ "watch_canary", "session_id = $1", FK_NONE },
	{ "workload_metric", "session_id = $1", FK_NONE },
	{ "lost", "session_id = $1", FK_NONE },
};
const size_t fleet_nsession_tables = sizeof(fleet_session_tables) / sizeof(*fleet_session_tables);

const struct fleet_table fleet_bench_tables[] = {
	{ "bench", "id = $1", FK_BENCH },
	{ "bench_param", "bench_id = $1", FK_NONE },
	{ "bench_cell", "bench_id = $1", FK_NONE },
	{ "bench_sitting", "bench_id = $1", FK_NONE },
	{ "bench_run", "bench_id = $1", FK_BENCH_RUN },
	{ "run_metric", "run_id IN (SELECT id FROM bench_run WHERE bench_id = $1)", FK_NONE },
};
const size_t fleet_nbench_tables = sizeof(fleet_bench_tables) / sizeof(*fleet_bench_tables);

/* fleet_column_key: see fleet.h. */
enum fleet_key fleet_column_key(const char *table, const char *col)
{
	static const struct { const char *col; enum fleet_key key; } refs[] = {
		{ "session_id", FK_SESSION }, { "event_id", FK_EVENT }, { "process_id", FK_PROCESS },
		{ "thread_id", FK_THREAD }, { "dso_id", FK_DSO }, { "symbol_id", FK_SYMBOL },
		{ "stack_id", FK_STACK }, { "sample_id", FK_SAMPLE }, { "first_sample_id", FK_SAMPLE },
		{ "last_sample_id", FK_SAMPLE }, { "bench_id", FK_BENCH }, { "run_id", FK_BENCH_RUN },
	};
	if (!strcmp(col, "id") || !strcmp(col, "parent_id")) {
		for (int k = 0; k < FK_N; k++)
			if (!strcmp(fleet_key_table[k], table))
				return (enum fleet_key)k;
		return FK_NONE;
	}
	for (size_t i = 0; i < sizeof(refs) / sizeof(*refs); i++)
		if (!strcmp(refs[i].col, col))
			return refs[i].key;
	return FK_NONE;
}

const char fleet_identity_cols[] =
	"hostname, os_release, arch, cpuid, perf_version, perf_cmdline, first_time, last_time, "
	"nr_records, nr_samples, clock_wall_ns";

/* fleet_identity: see fleet.h. */
void fleet_identity(struct strbuf *b, const char *const *vals)
{
	sb_puts(b, "perfdb-session-v1");
	for (int i = 0; i < FLEET_IDENTITY_NCOLS; i++) {
		sb_putc(b, '\x1f');
		sb_puts(b, vals[i] ? vals[i] : "\\N");
	}
}
