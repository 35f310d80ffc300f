/* The tables perfdb push and pull move and how, a session's identity and
 * the server form of text: see fleet.h. */
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
	{ "workload_dist", "session_id = $1", FK_NONE },
	{ "workload_sample", "session_id = $1", FK_NONE },
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
	{ "run_dist", "run_id IN (SELECT id FROM bench_run WHERE bench_id = $1)", FK_NONE },
	{ "run_sample", "run_id IN (SELECT id FROM bench_run WHERE bench_id = $1)", FK_NONE },
	{ "bench_set", "bench_id = $1", FK_NONE },
	{ "bench_knob", "bench_id = $1", FK_NONE },
	{ "run_knob", "run_id IN (SELECT id FROM bench_run WHERE bench_id = $1)", FK_NONE },
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
	"nr_records, nr_samples, clock_wall_ns, label";

/* identity(b, head, vals, n): head, then the n values each after a unit
 * separator (\N for NULL). */
static void identity(struct strbuf *b, const char *head, const char *const *vals, int n)
{
	sb_puts(b, head);
	for (int i = 0; i < n; i++) {
		sb_putc(b, '\x1f');
		sb_puts(b, vals[i] ? vals[i] : "\\N");
	}
}

/* fleet_identity: see fleet.h. */
void fleet_identity(struct strbuf *b, const char *const *vals)
{
	identity(b, "perfdb-session-v2", vals, FLEET_IDENTITY_NCOLS);
}

/* fleet_identity_v1: see fleet.h. */
void fleet_identity_v1(struct strbuf *b, const char *const *vals)
{
	identity(b, "perfdb-session-v1", vals, FLEET_IDENTITY_LABEL);
}

/* U+FFFD, the escape of the server form of text. */
static const char repl[] = "\xEF\xBF\xBD";
#define REPL_LEN 3

/* utf8_len(s, n): the length of the valid UTF-8 sequence at s (n > 0
 * bytes left): 1 to 4, or 0 when the bytes there are not one (a stray
 * continuation byte, an overlong form, a surrogate, past U+10FFFF, cut
 * short). The bounds are Unicode's table 3-7, which PostgreSQL checks. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned char lead = s[0], lo = 0x80, hi = 0xBF;
	size_t len = lead < 0x80 ? 1 : lead >= 0xC2 && lead <= 0xDF ? 2 :
		     lead >= 0xE0 && lead <= 0xEF ? 3 : lead >= 0xF0 && lead <= 0xF4 ? 4 : 0;
	if (len < 2)
		return len;
	if (len > n)
		return 0;
	if (lead == 0xE0)
		lo = 0xA0;
	else if (lead == 0xED)
		hi = 0x9F;
	else if (lead == 0xF0)
		lo = 0x90;
	else if (lead == 0xF4)
		hi = 0x8F;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xBF)
			return 0;
	return len;
}

/* is_repl(s, n): whether the n bytes at s start with U+FFFD. */
static bool is_repl(const char *s, size_t n)
{
	return n >= REPL_LEN && !memcmp(s, repl, REPL_LEN);
}

/* fleet_text_plain: see fleet.h. */
bool fleet_text_plain(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		size_t len;
		if (u[i] >= 0x20 && u[i] < 0x80) {	/* the common case first */
			i++;
			continue;
		}
		len = utf8_len(u + i, n - i);
		if (!len || !u[i] || is_repl(s + i, n - i))
			return false;
		i += len;
	}
	return true;
}

/* fleet_text_to_server: see fleet.h. */
void fleet_text_to_server(struct strbuf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		size_t len = u[i] ? utf8_len(u + i, n - i) : 0;
		if (len && is_repl(s + i, n - i)) {
			sb_putn(b, repl, REPL_LEN);
			sb_putn(b, repl, REPL_LEN);
		} else if (len) {
			sb_putn(b, s + i, len);
		} else {
			sb_putn(b, repl, REPL_LEN);
			sb_putc(b, hex[u[i] >> 4]);
			sb_putc(b, hex[u[i] & 15]);
			len = 1;
		}
		i += len;
	}
}

/* hex_val(c): the value of a lowercase hex digit, or -1. */
static int hex_val(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* fleet_text_from_server: see fleet.h. */
void fleet_text_from_server(struct strbuf *b, const char *s, size_t n)
{
	size_t i = 0, plain = 0;	/* s[plain..i) not written yet */
	while (i < n) {
		const char *e = memchr(s + i, '\xEF', n - i);
		int h, l;
		if (!e)
			break;
		i = (size_t)(e - s);
		if (!is_repl(e, n - i)) {
			i++;
			continue;
		}
		sb_putn(b, s + plain, i - plain);
		if (is_repl(e + REPL_LEN, n - i - REPL_LEN)) {
			sb_putn(b, repl, REPL_LEN);
			i += 2 * REPL_LEN;
		} else if (n - i >= REPL_LEN + 2 && (h = hex_val(e[REPL_LEN])) >= 0 &&
			   (l = hex_val(e[REPL_LEN + 1])) >= 0) {
			sb_putc(b, (char)(h << 4 | l));
			i += REPL_LEN + 2;
		} else {
			sb_putn(b, repl, REPL_LEN);	/* not an escape: kept */
			i += REPL_LEN;
		}
		plain = i;
	}
	sb_putn(b, s + plain, n - plain);
}
