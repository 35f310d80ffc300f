/* Memory-access samples: data_src decoding and the mem_sample row. */
#include "schema/batch.h"
#include "schema/db.h"
#include "collect/import/mem_sample.h"

#define S_ADDR		(1ULL << 3)
#define S_STACK_USER	(1ULL << 13)
#define S_WEIGHT	(1ULL << 14)
#define S_DATA_SRC	(1ULL << 15)
#define S_PHYS_ADDR	(1ULL << 19)
#define S_WEIGHT_STRUCT	(1ULL << 24)

static const char *const cols[] = { "sample_id", "addr", "phys_addr", "weight",
	"ins_lat", "data_src", "mem_op", "mem_lvl", "lvl_num", "snoop", "snoopx",
	"remote", "mem_lock", "dtlb", "hops", "blk" };

/* bits: width bits of v starting at bit lo. */
static unsigned bits(uint64_t v, int lo, int width)
{
	return (unsigned)((v >> lo) & ((1ULL << width) - 1));
}

void mem_src_decode(uint64_t v, struct mem_src *m)
{
	m->op = bits(v, 0, 5);
	m->lvl = bits(v, 5, 14);
	m->snoop = bits(v, 19, 5);
	m->lock = bits(v, 24, 2);
	m->dtlb = bits(v, 26, 7);
	m->lvl_num = bits(v, 33, 4);
	m->remote = bits(v, 37, 1);
	m->snoopx = bits(v, 38, 2);
	m->blk = bits(v, 40, 3);
	m->hops = bits(v, 43, 3);
}

bool mem_sample_wanted(const struct pd_evsel *e, const struct pd_sample *s)
{
	uint64_t st = e->sample_type;
	if (!(st & (S_DATA_SRC | S_ADDR)) || e->type == 2)
		return false;
	/* --call-graph dwarf sets ADDR|DATA_SRC with nothing in them */
	if (st & S_STACK_USER && !s->addr &&
	    (s->data_src == MEM_SRC_NA || s->data_src == MEM_SRC_NA_OLD || !s->data_src))
		return false;
	return (st & S_DATA_SRC) || (st & (S_WEIGHT | S_WEIGHT_STRUCT | S_PHYS_ADDR));
}

struct batch *mem_sample_batch(sqlite3 *db, struct sqlq *q)
{
	return batch_new(db, q, "mem_sample", cols, (int)(sizeof(cols) / sizeof(*cols)));
}

int mem_sample_add(struct batch *b, int64_t sample_id, const struct pd_sample *s)
{
	struct mem_src m;
	unsigned f[10];
	mem_src_decode(s->data_src, &m);
	batch_int(b, 0, sample_id);
	batch_int(b, 1, (int64_t)s->addr);
	batch_int(b, 2, (int64_t)s->phys_addr);
	batch_int(b, 3, (int64_t)s->weight);
	batch_int(b, 4, s->ins_lat);
	batch_int(b, 5, (int64_t)s->data_src);
	f[0] = m.op; f[1] = m.lvl; f[2] = m.lvl_num; f[3] = m.snoop; f[4] = m.snoopx;
	f[5] = m.remote; f[6] = m.lock; f[7] = m.dtlb; f[8] = m.hops; f[9] = m.blk;
	for (int i = 0; i < 10; i++)
		batch_int(b, 6 + i, f[i]);
	return batch_row(b);
}
