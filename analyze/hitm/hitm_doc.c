/* The shared tables of field contention (see hitm_doc.h): their columns,
 * rows with the common cells, which columns text shows, CPU sets and code
 * site lists as text. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/hitm/hitm_doc.h"
#include "lib/alloc.h"

/* Who fills a column: both kinds of evidence, or one. */
enum { BY_ALL, BY_C2C, BY_WATCH };

/* A column: its name, type, decimals, who fills it and whether text
 * shows it at all. */
struct coldef {
	const char *name;
	enum col_type type;
	int precision;
	int by;
	bool human;
};

#define I(n, by) { n, COL_INT, 0, by, true }
#define D(n, by) { n, COL_INT, 0, by, false }	/* data only */
#define S(n, by) { n, COL_STR, 0, by, true }
#define R(n, p, by) { n, COL_REAL, p, by, true }

static const struct coldef line_cols[CL_NCOLS] = {
	[CL_IDX] = I("idx", BY_ALL), [CL_SESSION] = I("session", BY_ALL),
	[CL_ADDRESS] = S("address", BY_ALL), [CL_EVIDENCE] = S("evidence", BY_ALL),
	[CL_CPUMODE] = S("cpumode", BY_C2C), [CL_PID] = D("pid", BY_C2C),
	[CL_PCT] = { "pct", COL_PCT, 2, BY_C2C, true },
	[CL_HITM_TOTAL] = I("hitm_total", BY_C2C), [CL_HITM_LOCAL] = I("hitm_local", BY_C2C),
	[CL_HITM_REMOTE] = I("hitm_remote", BY_C2C), [CL_PEER_TOTAL] = I("peer_total", BY_C2C),
	[CL_PEER_LOCAL] = D("peer_local", BY_C2C), [CL_PEER_REMOTE] = D("peer_remote", BY_C2C),
	[CL_RECORDS] = I("records", BY_C2C), [CL_RECORDS_PERF] = D("records_perf", BY_C2C),
	[CL_SAMPLES] = D("samples", BY_C2C), [CL_LOADS] = I("loads", BY_C2C),
	[CL_LOADS_PERF] = D("loads_perf", BY_C2C), [CL_STORES] = I("stores", BY_C2C),
	[CL_STORES_L1HIT] = I("stores_l1hit", BY_C2C), [CL_STORES_L1MISS] = I("stores_l1miss", BY_C2C),
	[CL_STORES_NA] = I("stores_na", BY_C2C), [CL_STORES_UNCACHED] = D("stores_uncached", BY_C2C),
	[CL_LD_FBHIT] = D("ld_fbhit", BY_C2C), [CL_LD_L1HIT] = D("ld_l1hit", BY_C2C),
	[CL_LD_L2HIT] = D("ld_l2hit", BY_C2C), [CL_LD_LLCHIT] = D("ld_llchit", BY_C2C),
	[CL_RMT_HIT] = D("rmt_hit", BY_C2C), [CL_LCL_DRAM] = I("lcl_dram", BY_C2C),
	[CL_RMT_DRAM] = I("rmt_dram", BY_C2C), [CL_LOCKS] = D("locks", BY_C2C),
	[CL_UNPARSABLE] = D("unparsable", BY_C2C),
	[CL_WRITES] = I("writes", BY_WATCH), [CL_TRANSFERS] = I("transfers", BY_WATCH),
	[CL_TRANSFERS_PER_SEC] = R("transfers_per_sec", 1, BY_WATCH),
	[CL_SAME_FIELD] = I("same_field", BY_WATCH), [CL_CROSS_FIELD] = I("cross_field", BY_WATCH),
	[CL_FIELDS] = I("fields", BY_ALL), [CL_CPUS] = I("cpus", BY_ALL),
	[CL_CPU_LIST] = S("cpu_list", BY_ALL), [CL_VERDICT] = S("verdict", BY_ALL),
	[CL_VERDICT_DETAIL] = S("verdict_detail", BY_ALL), [CL_OBJECTS] = S("objects", BY_ALL),
};

static const struct coldef field_cols[FL_NCOLS] = {
	[FL_IDX] = I("idx", BY_ALL), [FL_SESSION] = I("session", BY_ALL),
	[FL_EVIDENCE] = S("evidence", BY_ALL), [FL_LINE_OFFSET] = I("line_offset", BY_ALL),
	[FL_OBJECT] = S("object", BY_ALL), [FL_OBJECT_ADDRESS] = D("object_address", BY_ALL),
	[FL_TYPE] = S("type", BY_ALL), [FL_FIELD] = S("field", BY_ALL),
	[FL_OFFSET] = I("offset", BY_ALL), [FL_SIZE] = I("size", BY_ALL),
	[FL_WATCH] = D("watch", BY_WATCH), [FL_FIELD_TYPE] = S("field_type", BY_WATCH),
	[FL_WATCHED] = S("watched", BY_WATCH),
	[FL_HITM_TOTAL] = I("hitm_total", BY_C2C), [FL_HITM_LOCAL] = I("hitm_local", BY_C2C),
	[FL_HITM_REMOTE] = I("hitm_remote", BY_C2C), [FL_PEER_LOCAL] = D("peer_local", BY_C2C),
	[FL_PEER_REMOTE] = D("peer_remote", BY_C2C), [FL_LOADS] = I("loads", BY_C2C),
	[FL_STORES] = I("stores", BY_C2C), [FL_RECORDS] = D("records", BY_C2C),
	[FL_WRITES] = I("writes", BY_WATCH), [FL_WRITES_PER_SEC] = R("writes_per_sec", 1, BY_WATCH),
	[FL_TRANSFERS] = I("transfers", BY_WATCH),
	[FL_TRANSFERS_PER_SEC] = R("transfers_per_sec", 1, BY_WATCH),
	[FL_READERS] = D("readers", BY_C2C), [FL_READER_CPUS] = S("reader_cpus", BY_C2C),
	[FL_WRITERS] = D("writers", BY_ALL), [FL_WRITER_CPUS] = S("writer_cpus", BY_ALL),
	[FL_MEAN_RMT_HITM] = { "mean_rmt_hitm", COL_REAL, 0, BY_C2C, false },
	[FL_MEAN_LCL_HITM] = { "mean_lcl_hitm", COL_REAL, 0, BY_C2C, false },
	[FL_MEAN_LOAD] = { "mean_load", COL_REAL, 0, BY_C2C, false },
	[FL_CODE_SITES] = S("code_sites", BY_ALL),
};

/* share_verdict_name: see hitm_doc.h. */
const char *share_verdict_name(enum share_verdict v)
{
	static const char *const names[] = { "no sharing seen", "true sharing", "false sharing",
					     "true and false sharing" };
	return v <= SHARE_BOTH ? names[v] : "?";
}

/* new_table(name, title, cols, n): a table with the columns cols[0..n). */
static struct table *new_table(const char *name, const char *title, const struct coldef *cols,
			       int n)
{
	struct table *t = table_new(name, title);
	for (int c = 0; c < n; c++)
		table_col(t, cols[c].name, cols[c].type, cols[c].precision);
	table_null_text(t, "-");
	return t;
}

/* hitm_doc_init: see hitm_doc.h. */
void hitm_doc_init(struct hitm_doc *hd)
{
	*hd = (struct hitm_doc){
		.lines = new_table("cachelines", "Cachelines: contention and verdict", line_cols,
				   CL_NCOLS),
		.fields = new_table("fields", "Fields of each cacheline", field_cols, FL_NCOLS),
	};
}

/* evidence_name(ev): "c2c" or "watch". */
static const char *evidence_name(enum hitm_evidence ev)
{
	return ev == EV_C2C ? "c2c" : "watch";
}

/* hitm_doc_line: see hitm_doc.h. */
long long hitm_doc_line(struct hitm_doc *hd, enum hitm_evidence ev, int64_t session,
			uint64_t address)
{
	struct table *t = hd->lines;
	table_add_row(t);
	table_set_int(t, CL_IDX, hd->nlines);
	table_set_int(t, CL_SESSION, session);
	hitm_doc_hex(t, CL_ADDRESS, address);
	table_set_str(t, CL_EVIDENCE, evidence_name(ev));
	hd->evidence |= 1u << ev;
	return hd->nlines++;
}

/* hitm_doc_field: see hitm_doc.h. */
void hitm_doc_field(struct hitm_doc *hd, long long idx, enum hitm_evidence ev, int64_t session)
{
	struct table *t = hd->fields;
	table_add_row(t);
	table_set_int(t, FL_IDX, idx);
	table_set_int(t, FL_SESSION, session);
	table_set_str(t, FL_EVIDENCE, evidence_name(ev));
}

/* hitm_doc_hex: see hitm_doc.h. */
void hitm_doc_hex(struct table *t, int col, uint64_t v)
{
	table_set_strf(t, col, "0x%" PRIx64, v);
}

/* filled(t, col): whether some row of t has a value in col. */
static bool filled(const struct table *t, int col)
{
	for (size_t r = 0; r < table_nrows(t); r++)
		if (table_cell(t, r, col)->kind != CELL_NULL)
			return true;
	return false;
}

/* shown(t, cols, n, nsessions, both): which columns text and md show. */
static void shown(struct table *t, const struct coldef *cols, int n, int nsessions, bool both)
{
	for (int c = 0; c < n; c++) {
		bool human = cols[c].human && (cols[c].by == BY_ALL || filled(t, c));
		if (!strcmp(cols[c].name, "session"))
			human = nsessions > 1;
		else if (!strcmp(cols[c].name, "evidence"))
			human = both;
		table_col_show(t, c, human ? SHOW_ALL : SHOW_DATA);
	}
}

/* hitm_doc_finish: see hitm_doc.h. */
void hitm_doc_finish(struct hitm_doc *hd, int nsessions, struct dval *parent)
{
	bool both = hd->evidence == (1u << EV_C2C | 1u << EV_WATCH);
	shown(hd->lines, line_cols, CL_NCOLS, nsessions, both);
	shown(hd->fields, field_cols, FL_NCOLS, nsessions, both);
	dv_table(parent, hd->lines);
	dv_table(parent, hd->fields);
	hd->lines = hd->fields = NULL;
}

/* hitm_doc_free: see hitm_doc.h. */
void hitm_doc_free(struct hitm_doc *hd)
{
	table_free(hd->lines);
	table_free(hd->fields);
	hd->lines = hd->fields = NULL;
}

/* has_cpu(s, c): whether bitset s holds CPU c. */
static bool has_cpu(const uint64_t *s, int c)
{
	return s[c / 64] >> (c % 64) & 1;
}

/* cpuset_count: see hitm_doc.h. */
int cpuset_count(const uint64_t *s, int words)
{
	int n = 0;
	for (int i = 0; i < words; i++)
		n += __builtin_popcountll(s[i]);
	return n;
}

/* cpuset_text: see hitm_doc.h. */
void cpuset_text(const uint64_t *s, int words, struct strbuf *b)
{
	int n = words * 64;
	bool first = true;
	for (int c = 0; c < n; c++) {
		if (!has_cpu(s, c))
			continue;
		int e = c;
		while (e + 1 < n && has_cpu(s, e + 1))
			e++;
		if (e == c)
			sb_printf(b, "%s%d", first ? "" : ",", c);
		else
			sb_printf(b, "%s%d-%d", first ? "" : ",", c, e);
		first = false;
		c = e;
	}
}

/* sites_text: see hitm_doc.h. */
void sites_text(struct strbuf *b, const char *const *names, const long long *counts, size_t n,
		int max)
{
	bool *used = xcalloc(n + 1, sizeof(*used));
	for (int k = 0; k < max; k++) {
		size_t best = n;
		for (size_t i = 0; i < n; i++)
			if (!used[i] && (best == n || counts[i] > counts[best]))
				best = i;
		if (best == n)
			break;
		used[best] = true;
		sb_printf(b, "%s%s (%lld)", k ? ", " : "", names[best], counts[best]);
	}
	free(used);
}
