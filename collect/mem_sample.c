/* Memory-access samples: data_src decoding and the mem_sample row. */
#include "collect/db.h"
#include "collect/mem_sample.h"

#define S_ADDR		(1ULL << 3)
#define S_STACK_USER	(1ULL << 13)
#define S_WEIGHT	(1ULL << 14)
#define S_DATA_SRC	(1ULL << 15)
#define S_PHYS_ADDR	(1ULL << 19)
#define S_WEIGHT_STRUCT	(1ULL << 24)

const char mem_sample_sql[] =
	"INSERT INTO mem_sample(sample_id, addr, phys_addr, weight, ins_lat, data_src,"
	" mem_op, mem_lvl, lvl_num, snoop, snoopx, remote, mem_lock, dtlb, hops, blk)"
	" VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";

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
	if (st & S_STACK_USER && !s->addr && (s->data_src == MEM_SRC_NA || !s->data_src))
		return false;
	return (st & S_DATA_SRC) || (st & (S_WEIGHT | S_WEIGHT_STRUCT | S_PHYS_ADDR));
}

int mem_sample_insert(sqlite3_stmt *st, int64_t sample_id, const struct pd_sample *s)
{
	struct mem_src m;
	mem_src_decode(s->data_src, &m);
	sqlite3_bind_int64(st, 1, sample_id);
	sqlite3_bind_int64(st, 2, (int64_t)s->addr);
	sqlite3_bind_int64(st, 3, (int64_t)s->phys_addr);
	sqlite3_bind_int64(st, 4, (int64_t)s->weight);
	sqlite3_bind_int64(st, 5, s->ins_lat);
	sqlite3_bind_int64(st, 6, (int64_t)s->data_src);
	sqlite3_bind_int(st, 7, (int)m.op);
	sqlite3_bind_int(st, 8, (int)m.lvl);
	sqlite3_bind_int(st, 9, (int)m.lvl_num);
	sqlite3_bind_int(st, 10, (int)m.snoop);
	sqlite3_bind_int(st, 11, (int)m.snoopx);
	sqlite3_bind_int(st, 12, (int)m.remote);
	sqlite3_bind_int(st, 13, (int)m.lock);
	sqlite3_bind_int(st, 14, (int)m.dtlb);
	sqlite3_bind_int(st, 15, (int)m.hops);
	sqlite3_bind_int(st, 16, (int)m.blk);
	return db_step_done(st, NULL, 0);
}
