/* perf c2c's memory-sample classification (see c2c.h), written from the
 * rules of perf's c2c_decode_stats() as c2c.h spells them out. */
#include "analyze/hitm/c2c.h"

#include <stdbool.h>

/* decode_load_hit(s, m, mrem): the counters of a load with LVL_HIT.
 * Returns the HITM/peer class it counted, or C2C_LOAD. */
static enum c2c_class decode_load_hit(struct c2c_stats *s, const struct c2c_src *m, bool mrem)
{
	enum c2c_class c = C2C_LOAD;
	s->ld_uncache += !!(m->lvl & C2C_LVL_UNC);
	s->ld_io += !!(m->lvl & C2C_LVL_IO);
	s->ld_fbhit += !!(m->lvl & C2C_LVL_LFB);
	s->ld_l1hit += !!(m->lvl & C2C_LVL_L1);
	if (m->lvl & C2C_LVL_L2) {
		s->ld_l2hit++;
		if (m->snoopx & C2C_SNOOPX_PEER) {
			s->lcl_peer++;
			c = C2C_LCL_PEER;
		}
	}
	if (m->lvl & C2C_LVL_L3) {
		if (m->snoop & C2C_SNOOP_HITM) {
			s->lcl_hitm++;
			c = C2C_LCL_HITM;
		} else {
			s->ld_llchit++;
		}
		if (m->snoopx & C2C_SNOOPX_PEER) {
			s->lcl_peer++;
			if (c != C2C_LCL_HITM)
				c = C2C_LCL_PEER;
		}
	}
	if (m->lvl & C2C_LVL_LOC_RAM) {
		s->lcl_dram++;
		*(m->snoop & C2C_SNOOP_HIT ? &s->ld_shared : &s->ld_excl) += 1;
	}
	if ((m->lvl & (C2C_LVL_REM_RAM1 | C2C_LVL_REM_RAM2)) || mrem) {
		s->rmt_dram++;
		*(m->snoop & C2C_SNOOP_HIT ? &s->ld_shared : &s->ld_excl) += 1;
	}
	return c;
}

/* decode_load(s, m): the counters of a load; returns its class. */
static enum c2c_class decode_load(struct c2c_stats *s, const struct c2c_src *m)
{
	bool mrem = m->remote && !m->hops;
	enum c2c_class c = C2C_LOAD;
	s->load++;
	if (!m->addr) {
		s->ld_noadrs++;
		return C2C_LOAD;
	}
	if (m->lvl & C2C_LVL_HIT)
		c = decode_load_hit(s, m, mrem);
	if ((m->lvl & (C2C_LVL_REM_CCE1 | C2C_LVL_REM_CCE2)) || mrem) {
		if (m->snoop & C2C_SNOOP_HIT) {
			s->rmt_hit++;
		} else if (m->snoop & C2C_SNOOP_HITM) {
			s->rmt_hitm++;
			c = C2C_RMT_HITM;
		} else if (m->snoopx & C2C_SNOOPX_PEER) {
			s->rmt_hit++;
			s->rmt_peer++;
			if (c != C2C_LCL_HITM)
				c = C2C_RMT_PEER;
		}
	}
	s->ld_miss += !!(m->lvl & C2C_LVL_MISS);
	return c;
}

/* decode_store(s, m): the counters of a store; returns its class. */
static enum c2c_class decode_store(struct c2c_stats *s, const struct c2c_src *m)
{
	s->store++;
	if (!m->addr) {
		s->st_noadrs++;
		return C2C_STORE;
	}
	if (m->lvl & C2C_LVL_HIT) {
		s->st_uncache += !!(m->lvl & C2C_LVL_UNC);
		s->st_l1hit += !!(m->lvl & C2C_LVL_L1);
	}
	if ((m->lvl & C2C_LVL_MISS) && (m->lvl & C2C_LVL_L1))
		s->st_l1miss++;
	s->st_na += !!(m->lvl & C2C_LVL_NA);
	return C2C_STORE;
}

/* c2c_decode: see c2c.h. */
enum c2c_class c2c_decode(struct c2c_stats *s, const struct c2c_src *m)
{
	s->nr_entries++;
	s->locks += !!(m->lock & C2C_LOCK_LOCKED);
	s->blk_data += !!(m->blk & C2C_BLK_DATA);
	s->blk_addr += !!(m->blk & C2C_BLK_ADDR);
	if (m->op & C2C_OP_LOAD) {
		enum c2c_class c = decode_load(s, m);
		s->tot_hitm = s->lcl_hitm + s->rmt_hitm;
		s->tot_peer = s->lcl_peer + s->rmt_peer;
		return c;
	}
	if (m->op & C2C_OP_STORE)
		return decode_store(s, m);
	s->noparse++;
	return C2C_NONE;
}

/* c2c_stats_add: see c2c.h. */
void c2c_stats_add(struct c2c_stats *dst, const struct c2c_stats *src)
{
	uint32_t *d = (uint32_t *)dst;
	const uint32_t *s = (const uint32_t *)src;
	for (unsigned i = 0; i < sizeof(*dst) / sizeof(uint32_t); i++)
		d[i] += s[i];
}

/* c2c_llc_misses: see c2c.h. */
uint64_t c2c_llc_misses(const struct c2c_stats *s)
{
	return (uint64_t)s->lcl_dram + s->rmt_dram + s->rmt_hitm + s->rmt_hit;
}

/* c2c_loads_perf: see c2c.h. */
uint64_t c2c_loads_perf(const struct c2c_stats *s)
{
	return c2c_llc_misses(s) + s->ld_fbhit + s->ld_l1hit + s->ld_l2hit + s->ld_llchit +
	       s->lcl_hitm;
}

/* c2c_records_perf: see c2c.h. */
uint64_t c2c_records_perf(const struct c2c_stats *s)
{
	return c2c_loads_perf(s) + s->st_l1hit + s->st_l1miss + s->st_na;
}
