/* A call-graph diff row's weights, run by run, and its effective samples
 * (see cgdiff_int.h): what the shares (cgdiff.c) and the absolute terms
 * (cgdiff_per.c) both read, so that neither calls the other back. */
#include "analyze/callgraph/cgdiff_int.h"

/* cg_value: see cgdiff_int.h. */
double cg_value(const struct ct_run *r, enum cg_kind k, int32_t i)
{
	return k == V_INCL ? r->incl[i] : k == V_FINCL ? r->fincl[i] : r->fself[i];
}

/* cg_value_sq: see cgdiff_int.h. */
double cg_value_sq(const struct ct_run *r, enum cg_kind k, int32_t i)
{
	return k == V_INCL ? r->incl_sq[i] : k == V_FINCL ? r->fincl_sq[i] : r->fself_sq[i];
}

/* cg_row_neff: see cgdiff_int.h. */
double cg_row_neff(const struct cgdiff *d, enum cg_kind k, int32_t i)
{
	double n = 0;
	for (int s = 0; s < d->nsides; s++) {
		const struct cg_side *sd = &d->side[s];
		double w = 0, q = 0;
		for (int r = sd->first_run; r < sd->first_run + sd->nsessions; r++) {
			w += cg_value(&d->t->runs[r], k, i);
			q += cg_value_sq(&d->t->runs[r], k, i);
		}
		n += q > 0 ? w * w / q : 0;
	}
	return n;
}
