/* Unit test for analyze/hitm/c2c.c: perf c2c's classification of one memory
 * sample, case by case, with data_src values as the kernel writes them on
 * Intel (PEBS), AMD (IBS), Arm (SPE) and Power. Expected counters are
 * worked out by hand from the rules in c2c.h (perf's c2c_decode_stats()). */
#include <string.h>

#include "analyze/hitm/c2c.h"
#include "collect/import/mem_sample.h"
#include "tests/unit/tap.h"

/* One case: the fields of a sample and the counters it must set. */
struct dcase {
	const char *what;
	struct c2c_src m;
	enum c2c_class cls;
	struct c2c_stats want;	/* nr_entries is implied (1) */
};

#define LD C2C_OP_LOAD
#define ST C2C_OP_STORE
#define HIT C2C_LVL_HIT
#define A 0x1000	/* any non-zero address */

static const struct dcase cases[] = {
	{ "L1 hit", { A, LD, C2C_LVL_L1 | HIT, C2C_SNOOP_NONE, 0, 0, 0, 0, 0 }, C2C_LOAD,
	  { .load = 1, .ld_l1hit = 1 } },
	{ "fill buffer hit", { A, LD, C2C_LVL_LFB | HIT, C2C_SNOOP_NONE, 0, 0, 0, 0, 0 }, C2C_LOAD,
	  { .load = 1, .ld_fbhit = 1 } },
	{ "L2 hit", { A, LD, C2C_LVL_L2 | HIT, C2C_SNOOP_NONE, 0, 0, 0, 0, 0 }, C2C_LOAD,
	  { .load = 1, .ld_l2hit = 1 } },
	{ "LLC hit", { A, LD, C2C_LVL_L3 | HIT, C2C_SNOOP_MISS, 0, 0, 0, 0, 0 }, C2C_LOAD,
	  { .load = 1, .ld_llchit = 1 } },
	{ "local HITM", { A, LD, C2C_LVL_L3 | HIT, C2C_SNOOP_HITM, 0, 0, 0, 0, 0 }, C2C_LCL_HITM,
	  { .load = 1, .lcl_hitm = 1, .tot_hitm = 1 } },
	{ "local DRAM", { A, LD, C2C_LVL_LOC_RAM | HIT, C2C_SNOOP_MISS, 0, 0, 0, 0, 0 }, C2C_LOAD,
	  { .load = 1, .lcl_dram = 1, .ld_excl = 1 } },
	{ "local DRAM, shared", { A, LD, C2C_LVL_LOC_RAM | HIT, C2C_SNOOP_HIT, 0, 0, 0, 0, 0 }, C2C_LOAD,
	  { .load = 1, .lcl_dram = 1, .ld_shared = 1 } },
	{ "remote DRAM (REM_RAM1)", { A, LD, C2C_LVL_REM_RAM1 | HIT, C2C_SNOOP_MISS, 0, 0, 0, 1, 0 },
	  C2C_LOAD, { .load = 1, .rmt_dram = 1, .ld_excl = 1 } },
	/* Intel: remote cache HITM sets LVL_HIT, REM_CCE1 and the remote bit:
	 * perf counts it as remote DRAM as well (mrem) */
	{ "Intel remote HITM", { A, LD, C2C_LVL_REM_CCE1 | HIT, C2C_SNOOP_HITM, 0, 0, 0, 1, 0 },
	  C2C_RMT_HITM, { .load = 1, .rmt_hitm = 1, .tot_hitm = 1, .rmt_dram = 1, .ld_excl = 1 } },
	{ "Intel remote HIT (forward)", { A, LD, C2C_LVL_REM_CCE1 | HIT, C2C_SNOOP_HIT, 0, 0, 0, 1, 0 },
	  C2C_LOAD, { .load = 1, .rmt_hit = 1, .rmt_dram = 1, .ld_shared = 1 } },
	/* AMD IBS: remote with hops 1: no mrem, so no remote DRAM */
	{ "AMD remote HITM (hops 1)", { A, LD, C2C_LVL_REM_CCE1 | HIT, C2C_SNOOP_HITM, 0, 0, 0, 1, 1 },
	  C2C_RMT_HITM, { .load = 1, .rmt_hitm = 1, .tot_hitm = 1 } },
	{ "remote HITM without HIT bit", { A, LD, C2C_LVL_REM_CCE2, C2C_SNOOP_HITM, 0, 0, 0, 0, 0 }, C2C_RMT_HITM,
	  { .load = 1, .rmt_hitm = 1, .tot_hitm = 1 } },
	/* Power: remote bit with hops names another core of the node */
	{ "Power remote bit with hops", { A, LD, C2C_LVL_L3 | HIT, C2C_SNOOP_HIT, 0, 0, 0, 1, 2 },
	  C2C_LOAD, { .load = 1, .ld_llchit = 1 } },
	/* Arm SPE: peer core (L2 + PEER), peer cluster (L3 + PEER), remote */
	{ "Arm peer core", { A, LD, C2C_LVL_L2 | HIT, C2C_SNOOP_NONE, C2C_SNOOPX_PEER, 0, 0, 0, 0 }, C2C_LCL_PEER,
	  { .load = 1, .ld_l2hit = 1, .lcl_peer = 1, .tot_peer = 1 } },
	{ "Arm peer cluster", { A, LD, C2C_LVL_L3 | HIT, C2C_SNOOP_NONE, C2C_SNOOPX_PEER, 0, 0, 0, 0 }, C2C_LCL_PEER,
	  { .load = 1, .ld_llchit = 1, .lcl_peer = 1, .tot_peer = 1 } },
	{ "Arm remote", { A, LD, C2C_LVL_REM_CCE1, C2C_SNOOP_NONE, C2C_SNOOPX_PEER, 0, 0, 1, 0 },
	  C2C_RMT_PEER, { .load = 1, .rmt_hit = 1, .rmt_peer = 1, .tot_peer = 1 } },
	{ "L3 HITM and peer", { A, LD, C2C_LVL_L3 | HIT, C2C_SNOOP_HITM, C2C_SNOOPX_PEER, 0, 0, 0, 0 }, C2C_LCL_HITM,
	  { .load = 1, .lcl_hitm = 1, .tot_hitm = 1, .lcl_peer = 1, .tot_peer = 1 } },
	{ "uncached IO miss", { A, LD, C2C_LVL_UNC | C2C_LVL_IO | HIT | C2C_LVL_MISS, 0, 0, 0, 0, 0, 0 }, C2C_LOAD,
	  { .load = 1, .ld_uncache = 1, .ld_io = 1, .ld_miss = 1 } },
	{ "load without level", { A, LD, C2C_LVL_NA, C2C_SNOOP_NA, 0, 0, 0, 0, 0 }, C2C_LOAD, { .load = 1 } },
	{ "load without address", { 0, LD, C2C_LVL_L3 | HIT, C2C_SNOOP_HITM, 0, 0, 0, 0, 0 }, C2C_LOAD,
	  { .load = 1, .ld_noadrs = 1 } },
	{ "locked blocked load", { A, LD, C2C_LVL_L1 | HIT, 0, 0, C2C_LOCK_LOCKED, C2C_BLK_DATA | C2C_BLK_ADDR, 0, 0 },
	  C2C_LOAD, { .load = 1, .ld_l1hit = 1, .locks = 1, .blk_data = 1, .blk_addr = 1 } },
	{ "store L1 hit", { A, ST, C2C_LVL_L1 | HIT, 0, 0, 0, 0, 0, 0 }, C2C_STORE, { .store = 1, .st_l1hit = 1 } },
	{ "store L1 miss", { A, ST, C2C_LVL_L1 | C2C_LVL_MISS, 0, 0, 0, 0, 0, 0 }, C2C_STORE, { .store = 1, .st_l1miss = 1 } },
	{ "store N/A", { A, ST, C2C_LVL_NA, 0, 0, 0, 0, 0, 0 }, C2C_STORE, { .store = 1, .st_na = 1 } },
	{ "store uncached", { A, ST, C2C_LVL_UNC | HIT, 0, 0, 0, 0, 0, 0 }, C2C_STORE, { .store = 1, .st_uncache = 1 } },
	{ "store L2 hit (no L1 bit)", { A, ST, C2C_LVL_L2 | HIT, 0, 0, 0, 0, 0, 0 }, C2C_STORE, { .store = 1 } },
	{ "store L2 miss (no L1 bit): no L1 miss", { A, ST, C2C_LVL_L2 | C2C_LVL_MISS, 0, 0, 0, 0, 0, 0 }, C2C_STORE,
	  { .store = 1 } },
	{ "store without address", { 0, ST, C2C_LVL_L1 | HIT, 0, 0, 0, 0, 0, 0 }, C2C_STORE, { .store = 1, .st_noadrs = 1 } },
	{ "load and store bits: a load", { A, LD | ST, C2C_LVL_L1 | HIT, 0, 0, 0, 0, 0, 0 }, C2C_LOAD,
	  { .load = 1, .ld_l1hit = 1 } },
	{ "op N/A", { A, 1, C2C_LVL_NA, 0, 0, 0, 0, 0, 0 }, C2C_NONE, { .noparse = 1 } },
	{ "op 0", { A, 0, C2C_LVL_L1 | HIT, 0, 0, 0, 0, 0, 0 }, C2C_NONE, { .noparse = 1 } },
};

/* check_case(c): decodes c and compares every counter. */
static void check_case(const struct dcase *c)
{
	struct c2c_stats s = { 0 }, want = c->want;
	const uint32_t *a = (const uint32_t *)&s, *b = (const uint32_t *)&want;
	want.nr_entries = 1;
	enum c2c_class cls = c2c_decode(&s, &c->m);
	int bad = -1;
	for (unsigned i = 0; i < sizeof(s) / sizeof(uint32_t); i++)
		if (a[i] != b[i] && bad < 0)
			bad = (int)i;
	ok(bad < 0, "%s: counters", c->what);
	if (bad >= 0)
		printf("#   counter #%d is %u, want %u\n", bad, a[bad], b[bad]);
	is_int(cls, c->cls, "%s: class", c->what);
}

/* test_formulas: perf's per-line Total loads/records over several samples. */
static void test_formulas(void)
{
	struct c2c_stats s = { 0 }, t = { 0 };
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		c2c_decode(&s, &cases[i].m);
	/* loads: every L1/FB/L2/LLC hit, local HITM, local and remote DRAM,
	 * remote HITM and HIT; the Intel remote HITM and HIT count twice */
	is_int(c2c_llc_misses(&s), s.lcl_dram + s.rmt_dram + s.rmt_hitm + s.rmt_hit, "LLC misses");
	is_int(c2c_loads_perf(&s), c2c_llc_misses(&s) + s.ld_fbhit + s.ld_l1hit + s.ld_l2hit +
	       s.ld_llchit + s.lcl_hitm, "perf's Total loads");
	is_int(c2c_records_perf(&s), c2c_loads_perf(&s) + s.st_l1hit + s.st_l1miss + s.st_na,
	       "perf's Total records");
	is_int(s.nr_entries, (long long)(sizeof(cases) / sizeof(*cases)), "every sample is an entry");
	c2c_stats_add(&t, &s);
	c2c_stats_add(&t, &s);
	is_int(t.rmt_hitm, 2 * s.rmt_hitm, "stats add up");
	is_int(t.noparse, 2 * s.noparse, "stats add up (last counter)");
}

/* test_real_encodings: data_src words as recorded, through mem_src_decode. */
static void test_real_encodings(void)
{
	/* from the AMD IBS recording in ../shared/perfdata: lvl 0x402
	 * (REM_CCE1|HIT), snoop HITM, remote 1, hops 1 */
	uint64_t amd_rmt = 2 | 0x402ULL << 5 | 16ULL << 19 | 11ULL << 33 | 1ULL << 37 | 1ULL << 43;
	struct mem_src ms;
	struct c2c_stats s = { 0 };
	mem_src_decode(amd_rmt, &ms);
	struct c2c_src m = { A, ms.op, ms.lvl, ms.snoop, ms.snoopx, ms.lock, ms.blk, ms.remote, ms.hops };
	is_int(c2c_decode(&s, &m), C2C_RMT_HITM, "AMD remote HITM word");
	is_int(s.rmt_dram, 0, "AMD remote HITM is no remote DRAM (hops 1)");
	mem_src_decode(MEM_SRC_NA, &ms);
	m = (struct c2c_src){ A, ms.op, ms.lvl, ms.snoop, ms.snoopx, ms.lock, ms.blk, ms.remote, ms.hops };
	is_int(c2c_decode(&s, &m), C2C_NONE, "the all-N/A word is unparsable");
	is_int(s.noparse, 1, "counted as unparsable");
}

/* main: every case, then the formulas. */
int main(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		check_case(&cases[i]);
	test_formulas();
	test_real_encodings();
	is_int(c2c_cl_address(0x12345), 0x12340, "cacheline address");
	is_int(c2c_cl_offset(0x12345), 5, "cacheline offset");
	return tap_done();
}
