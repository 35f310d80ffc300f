/* Counting memory samples by class (see hitm_result.h). */
#include "analyze/hitm/hitm_result.h"

/* hitm_count_sample: see hitm_result.h. */
void hitm_count_sample(struct hitm_counts *c, const struct c2c_sample *smp)
{
	switch (smp->cls) {
	case C2C_RMT_HITM:
		c->rmt_hitm++;
		c->n_rmt++;
		c->w_rmt += smp->weight;
		break;
	case C2C_LCL_HITM:
		c->lcl_hitm++;
		c->n_lcl++;
		c->w_lcl += smp->weight;
		break;
	case C2C_RMT_PEER:
		c->rmt_peer++;
		break;
	case C2C_LCL_PEER:
		c->lcl_peer++;
		break;
	case C2C_LOAD:
		c->n_load++;
		c->w_load += smp->weight;
		break;
	default:
		break;
	}
	c->loads += smp->cls != C2C_STORE && smp->cls != C2C_NONE;
	c->stores += smp->cls == C2C_STORE;
	c->records += smp->cls != C2C_NONE;
}

/* hitm_counts_add: see hitm_result.h. */
void hitm_counts_add(struct hitm_counts *a, const struct hitm_counts *c)
{
	a->lcl_hitm += c->lcl_hitm;
	a->rmt_hitm += c->rmt_hitm;
	a->lcl_peer += c->lcl_peer;
	a->rmt_peer += c->rmt_peer;
	a->loads += c->loads;
	a->stores += c->stores;
	a->records += c->records;
	a->n_lcl += c->n_lcl;
	a->n_rmt += c->n_rmt;
	a->n_load += c->n_load;
	a->w_lcl += c->w_lcl;
	a->w_rmt += c->w_rmt;
	a->w_load += c->w_load;
}
