/* Field contention as findings: one model for both kinds of evidence
 * perfdb has about which fields of which cachelines move between CPUs.
 *   evidence "c2c":   memory samples (perf c2c record, perf mem record:
 *                     PEBS, IBS, SPE) attributed to fields (hitm.h);
 *   evidence "watch": hardware write-watchpoint traps (watch.h), for
 *                     machines without them.
 * Both fill the same two tables, "cachelines" and "fields", whose common
 * columns mean the same thing whatever the evidence; a column an evidence
 * kind cannot fill is NULL in its rows. Each evidence adds tables of its
 * own (hitm_c2c.h: summary, types, offsets; hitm_watch.h: windows, cpus,
 * sites, rates).
 *
 * Table "cachelines" (the main table), one row per 64-byte line:
 *   idx            the line's number in the document (0, 1, ...), the key
 *                  of its rows in the other tables
 *   session        the session the line is from
 *   address        the line's address ("0x..."; the virtual line of its
 *                  first sample, as perf c2c report shows it)
 *   evidence       "c2c" or "watch"
 *   verdict        "true sharing", "false sharing", "true and false
 *                  sharing", or "no sharing seen" (rules: hitm.h, watch.h);
 *                  NULL where the evidence cannot tell (watch: watchpoints
 *                  that did not fire, or unverified: watch.h)
 *   verdict_detail the fields and CPUs the verdict rests on
 *   fields         how many rows of "fields" the line has
 *   cpus           how many CPUs the evidence saw on the line (c2c: CPUs of
 *                  its samples; watch: CPUs that wrote it); cpu_list: them
 *                  ("0-3,7")
 *   objects        the objects its fields belong to
 * c2c only, perf c2c report's counts of the line (c2c.h; perf's names):
 *   cpumode, pid (of a line keyed by process, else NULL), pct (share of
 *   the display metric among the shared lines), hitm_total, hitm_local,
 *   hitm_remote, peer_total, peer_local, peer_remote, records (load and
 *   store samples), records_perf and loads_perf (perf's "Total records"
 *   and "Total loads"), samples, loads, stores, stores_l1hit,
 *   stores_l1miss, stores_na, stores_uncached, ld_fbhit, ld_l1hit,
 *   ld_l2hit, ld_llchit, rmt_hit, lcl_dram, rmt_dram, locks, unparsable.
 * watch only: writes (every write to its watched fields), transfers
 *   (consecutive writes by different CPUs), transfers_per_sec,
 *   same_field and cross_field (transfers between writes of one field /
 *   of different fields).
 *
 * Table "fields", one row per field of a line, by offset in the line:
 *   idx, session, evidence   the line's (join with "cachelines" on idx)
 *   object         the object holding the field: a variable, a kernel
 *                  symbol, "mm 0x... (pid N comm)"; NULL when none known
 *   object_address its address ("0x...")
 *   type           the object's type: a struct ("mm_struct", no "struct "
 *                  prefix) whose layout names the fields, else its C type
 *                  or "symbol"; "unknown object" for an address in no
 *                  known object
 *   field          the member: a dotted path in type ("lru_gen.bitmap",
 *                  "saved_auxv[3]", "<hole after mm_count>"); for an
 *                  untyped object its name ("+0xN" past its start)
 *   offset, size   the field's place in the object (NULL when unknown)
 *   line_offset    its first byte in the line (c2c: the lowest sampled)
 *   writers        CPUs seen writing it (c2c: with a sampled store; watch:
 *                  with a trapped write); writer_cpus: them ("0-3")
 *   code_sites     its busiest code sites, "site (n), ..." (3 at most;
 *                  c2c: of its samples; watch: of its stores, at ip - 1)
 * c2c only: hitm_total, hitm_local, hitm_remote, peer_local, peer_remote,
 *   loads, stores, records, readers and reader_cpus (CPUs with a sampled
 *   load), mean_rmt_hitm, mean_lcl_hitm, mean_load (mean weights: the
 *   load latencies in cycles).
 * watch only: watch (the watch's name as perfdb record -r watch stored it,
 *   "fs_shared.packed.bitmap_a": the key of its rows in cpus and sites),
 *   field_type, watched ("0xADDR/LEN", "(part)" when the field is wider),
 *   writes, writes_per_sec, transfers (its own), transfers_per_sec.
 *
 * csv and json always have every column. Text and md show the columns
 * some row fills, session only with several sessions, evidence only with
 * both kinds, and leave the finer ones to csv and json (cachelines: pid,
 * peer_local, peer_remote, records_perf, samples, loads_perf,
 * stores_uncached, ld_*, rmt_hit, locks, unparsable; fields:
 * object_address, watch, peer_local, peer_remote, records, readers,
 * writers, the means). */
#ifndef PERFDB_HITM_DOC_H
#define PERFDB_HITM_DOC_H
#include <stddef.h>
#include <stdint.h>
#include "lib/doc.h"
#include "lib/strbuf.h"

/* The type and field of an address in no known object. */
#define HITM_UNKNOWN "unknown object"

/* A line's verdict, whatever the evidence. */
enum share_verdict { SHARE_NONE, SHARE_TRUE, SHARE_FALSE, SHARE_BOTH };

/* share_verdict_name(v): "no sharing seen", "true sharing", "false
 * sharing", "true and false sharing". */
const char *share_verdict_name(enum share_verdict v);

enum hitm_evidence { EV_C2C, EV_WATCH };

/* The columns of "cachelines", in order. */
enum cl_col {
	CL_IDX, CL_SESSION, CL_ADDRESS, CL_EVIDENCE, CL_CPUMODE, CL_PID, CL_PCT,
	CL_HITM_TOTAL, CL_HITM_LOCAL, CL_HITM_REMOTE, CL_PEER_TOTAL, CL_PEER_LOCAL, CL_PEER_REMOTE,
	CL_RECORDS, CL_RECORDS_PERF, CL_SAMPLES, CL_LOADS, CL_LOADS_PERF, CL_STORES,
	CL_STORES_L1HIT, CL_STORES_L1MISS, CL_STORES_NA, CL_STORES_UNCACHED, CL_LD_FBHIT,
	CL_LD_L1HIT, CL_LD_L2HIT, CL_LD_LLCHIT, CL_RMT_HIT, CL_LCL_DRAM, CL_RMT_DRAM, CL_LOCKS,
	CL_UNPARSABLE, CL_WRITES, CL_TRANSFERS, CL_TRANSFERS_PER_SEC, CL_SAME_FIELD,
	CL_CROSS_FIELD, CL_FIELDS, CL_CPUS, CL_CPU_LIST, CL_VERDICT, CL_VERDICT_DETAIL,
	CL_OBJECTS, CL_NCOLS
};

/* The columns of "fields", in order. */
enum fl_col {
	FL_IDX, FL_SESSION, FL_EVIDENCE, FL_LINE_OFFSET, FL_OBJECT, FL_OBJECT_ADDRESS, FL_TYPE,
	FL_FIELD, FL_OFFSET, FL_SIZE, FL_WATCH, FL_FIELD_TYPE, FL_WATCHED, FL_HITM_TOTAL,
	FL_HITM_LOCAL, FL_HITM_REMOTE, FL_PEER_LOCAL, FL_PEER_REMOTE, FL_LOADS, FL_STORES,
	FL_RECORDS, FL_WRITES, FL_WRITES_PER_SEC, FL_TRANSFERS, FL_TRANSFERS_PER_SEC, FL_READERS,
	FL_READER_CPUS, FL_WRITERS, FL_WRITER_CPUS, FL_MEAN_RMT_HITM, FL_MEAN_LCL_HITM,
	FL_MEAN_LOAD, FL_CODE_SITES, FL_NCOLS
};

/* The two shared tables while evidence fills them. */
struct hitm_doc {
	struct table *lines, *fields;
	long long nlines;	/* rows of lines so far: the next idx */
	unsigned evidence;	/* 1 << enum hitm_evidence of the rows so far */
};

/* hitm_doc_init(hd): the two tables, empty. */
void hitm_doc_init(struct hitm_doc *hd);

/* hitm_doc_line(hd, ev, session, address): appends a "cachelines" row
 * with idx, session, address and evidence set (the other cells are set
 * with table_set_* on hd->lines and the CL_* columns); returns its idx. */
long long hitm_doc_line(struct hitm_doc *hd, enum hitm_evidence ev, int64_t session,
			uint64_t address);

/* hitm_doc_field(hd, idx, ev, session): appends a "fields" row of line
 * idx with idx, session and evidence set (the FL_* columns for the rest). */
void hitm_doc_field(struct hitm_doc *hd, long long idx, enum hitm_evidence ev, int64_t session);

/* hitm_doc_hex(t, col, v): cell col of t's last row becomes "0x..." of v. */
void hitm_doc_hex(struct table *t, int col, uint64_t v);

/* hitm_doc_finish(hd, nsessions, parent): decides which columns text and
 * md show (see the top) and adds "cachelines" then "fields" under parent;
 * hd no longer owns them. */
void hitm_doc_finish(struct hitm_doc *hd, int nsessions, struct dval *parent);

/* hitm_doc_free(hd): frees the tables hitm_doc_finish did not take. */
void hitm_doc_free(struct hitm_doc *hd);

/* CPU sets as bitsets of words 64-bit words. cpuset_count: how many CPUs
 * s holds; cpuset_text(s, words, b): appends "0-3,7" to b ("" for none). */
int cpuset_count(const uint64_t *s, int words);
void cpuset_text(const uint64_t *s, int words, struct strbuf *b);

/* sites_text(b, names, counts, n, max): appends the max busiest of n code
 * sites (names[i] seen counts[i] times) to b as "site (n), ...", busiest
 * first (the first of equals first). */
void sites_text(struct strbuf *b, const char *const *names, const long long *counts, size_t n,
		int max);
#endif
