/* What field attribution (hitm.h) gives: the counts by sample class, the
 * fields, lines and offsets rows of a result, and the counting of one
 * sample. hitm.h fills a result, hitm_rows.h adds its offsets rows, the
 * findings read it; all of them include this, none of them each other. */
#ifndef PERFDB_HITM_RESULT_H
#define PERFDB_HITM_RESULT_H
#include <stddef.h>
#include <stdint.h>

#include "analyze/hitm/c2c_load.h"
#include "analyze/hitm/hitm_doc.h"

/* Counts of one field (or line) by sample class. */
struct hitm_counts {
	uint32_t lcl_hitm, rmt_hitm, lcl_peer, rmt_peer, loads, stores, records;
	uint32_t n_lcl, n_rmt, n_load;	/* samples behind the mean latencies */
	uint64_t w_lcl, w_rmt, w_load;	/* their summed weights */
};

struct site_count {
	int32_t site;
	uint32_t n;
};

struct hitm_field {
	int32_t line;		/* cacheline, or -1 in per-type aggregates */
	int32_t obj;		/* object (objmap index), -1 unknown / aggregate */
	int32_t type, name;	/* strings (hitm_result.strs) */
	int64_t foff, fsize;	/* offset and size in the object (unknown: in
				 * the line, 1) */
	unsigned line_off;	/* lowest offset sampled in the line */
	struct hitm_counts c;
	uint64_t *readers, *writers;	/* CPU bitsets of cpu_words words */
	struct site_count *sites;
	size_t nsites, sites_cap;
};

struct hitm_line {
	size_t first, n;	/* its fields: fields[first .. first+n) */
	size_t first_row, nrows;	/* its offsets: rows[first_row .. +nrows) */
	enum share_verdict verdict;
	char *detail;
	uint64_t *cpus;		/* CPUs of every sample of the line */
};

/* One row of a line's offsets: one offset and code site. */
struct hitm_offset {
	unsigned offset;	/* in the line */
	int32_t site;		/* code site, -1 unknown */
	int32_t field;		/* field of the first sample (hitm_result.fields) */
	struct hitm_counts c;
	uint32_t st_l1hit, st_l1miss, st_na;
	int ncpus, ntids;	/* distinct CPUs; threads, 256 at most */
	uint64_t nodes;		/* NUMA nodes of its CPUs (0-63) */
	char pids[64];		/* up to 4 pids, "1,2,3,4+" */
};

struct hitm_result {
	struct hitm_field *fields;	/* per line and field, by line then offset */
	size_t nfields, fields_cap;
	struct hitm_field *tfields;	/* per type and field */
	size_t ntfields, tfields_cap;
	struct hitm_line *lines;	/* parallel to c2c_data.lines */
	size_t nlines, lines_cap;
	struct hitm_offset *rows;	/* per line, offset and site (finished) */
	size_t nrows;
	char **strs;
	size_t nstrs, strs_cap;
	int cpu_words;		/* words of every CPU bitset */
	void *priv;		/* the lookup state, until hitm_finish */
};

/* hitm_counts_add(a, c): adds c's counts to a. */
void hitm_counts_add(struct hitm_counts *a, const struct hitm_counts *c);

/* hitm_count_sample(c, smp): adds one sample to c by its class. */
void hitm_count_sample(struct hitm_counts *c, const struct c2c_sample *smp);
#endif
