/* perf c2c's classification of memory samples: one sample's decoded
 * data_src (and data address) turned into the counters of perf's
 * c2c_decode_stats() (tools/perf/util/mem-events.c), so that perfdb's
 * per-cacheline figures equal `perf c2c report`'s.
 *
 * The rules, as perf applies them (PERF_MEM_* bits of perf_event.h):
 *  - every sample counts in nr_entries; LOCK_LOCKED counts a lock, BLK_DATA
 *    and BLK_ADDR the blocked loads;
 *  - a load (OP_LOAD) counts in load; with a zero data address it counts in
 *    ld_noadrs and nothing else. With LVL_HIT: LVL_UNC, LVL_IO, LVL_LFB and
 *    LVL_L1 count uncached, IO, fill-buffer and L1 hits; LVL_L2 an L2 hit
 *    (and a local peer with SNOOPX_PEER); LVL_L3 a local HITM with
 *    SNOOP_HITM, else an LLC hit (and a local peer with SNOOPX_PEER);
 *    LVL_LOC_RAM local DRAM; LVL_REM_RAM1/2 or "mrem" remote DRAM; the
 *    last two are "shared" with SNOOP_HIT, else "exclusive". Whatever the
 *    HIT bit: LVL_REM_CCE1/2 or mrem give a remote HIT (SNOOP_HIT), a
 *    remote HITM (SNOOP_HITM) or a remote HIT and remote peer
 *    (SNOOPX_PEER), in that order of precedence; LVL_MISS counts ld_miss.
 *    mrem is "remote bit set and hops 0" (Skylake's unknown remote level;
 *    on Power the remote bit with hops names another core of the node).
 *  - a store (OP_STORE, only when OP_LOAD is not set) counts in store; with
 *    a zero address in st_noadrs and nothing else; LVL_HIT with LVL_UNC an
 *    uncached store, LVL_HIT with LVL_L1 an L1 hit, LVL_MISS with LVL_L1 an
 *    L1 miss, LVL_NA an N/A store (these are not exclusive).
 *  - anything else is unparsable (noparse).
 * tot_hitm = lcl_hitm + rmt_hitm and tot_peer = lcl_peer + rmt_peer.
 * perf c2c report's per-line "Total records" and "Total loads" columns
 * are sums of these counters (c2c_records_perf, c2c_loads_perf): a load
 * counted twice (a remote HITM with the remote bit and LVL_HIT is also
 * remote DRAM) is counted twice there, and a load with no level bit not at
 * all. */
#ifndef PERFDB_C2C_H
#define PERFDB_C2C_H
#include <stdint.h>

/* PERF_MEM_* bits, as in include/uapi/linux/perf_event.h. */
#define C2C_OP_LOAD	0x02
#define C2C_OP_STORE	0x04
#define C2C_LVL_NA	0x01
#define C2C_LVL_HIT	0x02
#define C2C_LVL_MISS	0x04
#define C2C_LVL_L1	0x08
#define C2C_LVL_LFB	0x10
#define C2C_LVL_L2	0x20
#define C2C_LVL_L3	0x40
#define C2C_LVL_LOC_RAM	0x80
#define C2C_LVL_REM_RAM1 0x100
#define C2C_LVL_REM_RAM2 0x200
#define C2C_LVL_REM_CCE1 0x400
#define C2C_LVL_REM_CCE2 0x800
#define C2C_LVL_IO	0x1000
#define C2C_LVL_UNC	0x2000
#define C2C_SNOOP_NA	0x01
#define C2C_SNOOP_NONE	0x02
#define C2C_SNOOP_HIT	0x04
#define C2C_SNOOP_MISS	0x08
#define C2C_SNOOP_HITM	0x10
#define C2C_SNOOPX_FWD	0x01
#define C2C_SNOOPX_PEER	0x02
#define C2C_LOCK_LOCKED	0x02
#define C2C_BLK_DATA	0x02
#define C2C_BLK_ADDR	0x04

/* The decoded fields of one sample's data_src (collect/import/mem_sample.h
 * stores them as mem_sample columns) and its data address. */
struct c2c_src {
	uint64_t addr;
	unsigned op, lvl, snoop, snoopx, lock, blk, remote, hops;
};

/* perf's struct c2c_stats counters (same names). */
struct c2c_stats {
	uint32_t nr_entries, locks, store, st_uncache, st_noadrs, st_l1hit, st_l1miss, st_na;
	uint32_t load, ld_excl, ld_shared, ld_uncache, ld_io, ld_miss, ld_noadrs, ld_fbhit;
	uint32_t ld_l1hit, ld_l2hit, ld_llchit, lcl_hitm, rmt_hitm, tot_hitm, lcl_peer;
	uint32_t rmt_peer, tot_peer, rmt_hit, lcl_dram, rmt_dram, blk_data, blk_addr, noparse;
};

/* The class of one sample, for per-field counts and latencies. */
enum c2c_class {
	C2C_NONE,	/* unparsable (neither load nor store) */
	C2C_LOAD,	/* a load that is no HITM and no peer hit */
	C2C_LCL_HITM,
	C2C_RMT_HITM,
	C2C_LCL_PEER,
	C2C_RMT_PEER,
	C2C_STORE,
};

/* c2c_decode(s, m): adds one sample with fields m to the counters s, by
 * the rules above, and returns the sample's class: the first of remote
 * HITM, local HITM, remote peer, local peer, that it counted in, else
 * C2C_LOAD or C2C_STORE (C2C_NONE for an unparsable one),
 * as perf's compute_stats() picks the latency bucket. */
enum c2c_class c2c_decode(struct c2c_stats *s, const struct c2c_src *m);

/* c2c_stats_add(dst, src): adds every counter of src to dst. */
void c2c_stats_add(struct c2c_stats *dst, const struct c2c_stats *src);

/* c2c_llc_misses(s): lcl_dram + rmt_dram + rmt_hitm + rmt_hit. */
uint64_t c2c_llc_misses(const struct c2c_stats *s);

/* c2c_loads_perf(s): perf c2c report's per-line "Total loads": the LLC
 * misses plus fill-buffer, L1, L2, LLC hits and local HITMs. */
uint64_t c2c_loads_perf(const struct c2c_stats *s);

/* c2c_records_perf(s): perf c2c report's per-line "Total records":
 * c2c_loads_perf plus the L1-hit, L1-miss and N/A stores. */
uint64_t c2c_records_perf(const struct c2c_stats *s);

/* c2c_cl_address(addr) / c2c_cl_offset(addr): the 64-byte cacheline of
 * addr and addr's offset in it. */
static inline uint64_t c2c_cl_address(uint64_t addr)
{
	return addr & ~(uint64_t)63;
}
static inline unsigned c2c_cl_offset(uint64_t addr)
{
	return (unsigned)(addr & 63);
}
#endif
