/* Context-switch accounting per CPU and per process (see sched.h). Pure
 * code: no database, no I/O. */
#include "analyze/timeline/sched.h"
#include "lib/alloc.h"

#include <stdlib.h>
#include <string.h>

/* sw_kind_of: see sched.h. */
enum sw_kind sw_kind_of(const struct ident *id, int64_t prev, int64_t next, int64_t t)
{
	int64_t a = ident_mm(id, prev, t), b = ident_mm(id, next, t);
	if (a == MM_KERNEL || b == MM_KERNEL)
		return SW_IDLE_KTHREAD;
	if (a == MM_UNKNOWN || b == MM_UNKNOWN)
		return SW_UNKNOWN;
	return a == b ? SW_SAME_MM : SW_OTHER_MM;
}

/* The per-CPU state of an accounting: the current task and since when. */
struct sched_cur {
	int64_t tid, since;
	bool known;
};

/* proc_slot(r, id, tid, t): the r->procs slot of task tid at time t. */
static size_t proc_slot(const struct sched_result *r, const struct ident *id, int64_t tid, int64_t t)
{
	long p = ident_proc_of(id, tid, t);
	return p < 0 ? r->nprocs - 1 : (size_t)p;
}

/* ran(r, slot, cpu, ns): slot's task ran ns on cpu. */
static void ran(struct sched_result *r, size_t slot, int cpu, int64_t ns)
{
	uint64_t v = 0;
	r->procs[slot].run_ns += ns;
	hm_get(&r->ran, slot, (uint64_t)cpu, &v);
	hm_put(&r->ran, slot, (uint64_t)cpu, v + (uint64_t)ns);
}

/* count_cpus(r): each process's ncpus_ran from its run time per CPU. */
static void count_cpus(struct sched_result *r)
{
	for (size_t i = 0; i < r->ran.cap; i++) {
		if (!r->ran.used[i])
			continue;
		struct sched_proc *p = &r->procs[r->ran.k1[i]];
		if ((double)r->ran.val[i] >= SCHED_CPU_SHARE * (double)p->run_ns && r->ran.val[i])
			p->ncpus_ran++;
	}
}

/* run_until(r, id, c, cpu, t): the current task of cpu ran until t (only
 * the part inside the window counts). */
static void run_until(struct sched_result *r, const struct ident *id, struct sched_cur *c, int cpu, int64_t t)
{
	int64_t from = c->since > r->t0 ? c->since : r->t0;
	int64_t to = t < r->t1 ? t : r->t1;
	if (to < from)
		return;
	if (c->tid == 0)
		r->cpus[cpu].idle_ns += to - from;
	ran(r, proc_slot(r, id, c->tid, to), cpu, to - from);
}

/* on_switch(r, id, cs, e): accounts a switch and makes its next current. */
static void on_switch(struct sched_result *r, const struct ident *id, struct sched_cur *cs,
		      const struct tl_event *e)
{
	struct sched_cur *c = &cs[e->cpu];
	if (!c->known)
		*c = (struct sched_cur){ e->b, r->t0, true };
	run_until(r, id, c, e->cpu, e->time);
	if (e->time >= r->t0 && e->time <= r->t1) {
		struct sched_cpu *k = &r->cpus[e->cpu];
		k->switches++;
		k->kind[sw_kind_of(id, e->b, e->a, e->time)]++;
		r->procs[proc_slot(r, id, e->b, e->time)].switches++;
	}
	*c = (struct sched_cur){ e->a, e->time, true };
}

/* on_sample(r, id, cs, e): what any event says as a sample: its tid is
 * the task current on its CPU (tl_sample_task). A CPU's first such task
 * runs since t0; an exec by the current task only renames it (a
 * non-leader thread that execs takes its process's pid, e->b its old
 * tid); otherwise a task other than
 * the current one is a switch the kernel did not trace, taken at e: the
 * current task's run ends there and the switch counts in untraced, not in
 * switches, its kind or the per-process counts. */
static void on_sample(struct sched_result *r, const struct ident *id, struct sched_cur *cs,
		      const struct tl_event *e)
{
	struct sched_cur *c = &cs[e->cpu];
	int64_t tid = tl_sample_task(e);
	if (tid < 0 || (c->known && c->tid == tid))
		return;
	if (!c->known || (e->kind == TL_EXEC && e->b == c->tid)) {
		*c = (struct sched_cur){ tid, c->known ? c->since : r->t0, true };
		return;
	}
	run_until(r, id, c, e->cpu, e->time);
	if (e->time >= r->t0 && e->time <= r->t1)
		r->cpus[e->cpu].untraced++;
	*c = (struct sched_cur){ tid, e->time, true };
}

/* on_migrate(r, e): a migration from cpu b to cpu arg. */
static void on_migrate(struct sched_result *r, const struct tl_event *e)
{
	if (e->time < r->t0 || e->time > r->t1)
		return;
	if (e->b >= 0 && e->b < r->ncpus)
		r->cpus[e->b].mig_out++;
	if (e->arg >= 0 && e->arg < r->ncpus)
		r->cpus[e->arg].mig_in++;
}

/* cpus_upto(a, n): a's per-CPU arrays hold at least n CPUs. */
static void cpus_upto(struct sched_acc *a, size_t n)
{
	if (n <= a->ncs)
		return;
	size_t m = a->ncs ? a->ncs : 1;
	while (m < n)
		m *= 2;
	a->cs = xreallocarray(a->cs, m, sizeof(*a->cs));
	a->r.cpus = xreallocarray(a->r.cpus, m, sizeof(*a->r.cpus));
	memset(a->cs + a->ncs, 0, (m - a->ncs) * sizeof(*a->cs));
	memset(a->r.cpus + a->ncs, 0, (m - a->ncs) * sizeof(*a->r.cpus));
	a->ncs = m;
	if (a->grow)
		a->r.ncpus = (int)m;
}

/* sched_begin: see sched.h. */
void sched_begin(struct sched_acc *a, const struct ident *id, int ncpus, bool grow,
		 int64_t t0, int64_t t1)
{
	memset(a, 0, sizeof(*a));
	a->id = id;
	a->grow = grow;
	hm_init(&a->r.ran);
	a->r.nprocs = id->nprocs + 1;
	a->r.t0 = t0;
	a->r.t1 = t1;
	a->r.procs = xcalloc(a->r.nprocs, sizeof(*a->r.procs));
	cpus_upto(a, ncpus > 0 ? (size_t)ncpus : 1);
	a->r.ncpus = grow ? (int)a->ncs : ncpus > 0 ? ncpus : 0;
}

/* sched_feed: see sched.h. */
void sched_feed(struct sched_acc *a, const struct tl_event *e)
{
	struct sched_result *r = &a->r;
	if (a->grow && e->cpu >= 0 && e->cpu <= 65535)
		cpus_upto(a, (size_t)e->cpu + 1);
	if (a->grow && e->kind == TL_MIGRATE) {
		if (e->b >= 0 && e->b <= 65535)
			cpus_upto(a, (size_t)e->b + 1);
		if (e->arg >= 0 && e->arg <= 65535)
			cpus_upto(a, (size_t)e->arg + 1);
	}
	if (e->cpu >= 0 && e->cpu < r->ncpus)
		on_sample(r, a->id, a->cs, e);
	if (e->kind == TL_MIGRATE)
		on_migrate(r, e);
	else if (e->kind == TL_SWITCH && e->cpu >= 0 && e->cpu < r->ncpus)
		on_switch(r, a->id, a->cs, e);
}

/* sched_finish: see sched.h. */
void sched_finish(struct sched_acc *a, int ncpus, struct sched_result *r)
{
	if (a->grow)
		a->r.ncpus = ncpus > 0 ? (ncpus < (int)a->ncs ? ncpus : (int)a->ncs) : 0;
	for (int c = 0; c < a->r.ncpus; c++)
		if (a->cs[c].known)
			run_until(&a->r, a->id, &a->cs[c], c, a->r.t1);
	count_cpus(&a->r);
	*r = a->r;
	free(a->cs);
	memset(a, 0, sizeof(*a));
}

/* sched_acc_free: see sched.h. */
void sched_acc_free(struct sched_acc *a)
{
	free(a->cs);
	sched_result_free(&a->r);
	memset(a, 0, sizeof(*a));
}

/* sched_account: see sched.h. */
void sched_account(const struct tl_event *ev, size_t n, const struct ident *id,
		   int ncpus, int64_t t0, int64_t t1, struct sched_result *r)
{
	struct sched_acc a;
	sched_begin(&a, id, ncpus, false, t0, t1);
	for (size_t i = 0; i < n; i++)
		sched_feed(&a, &ev[i]);
	sched_finish(&a, ncpus, r);
}

/* sched_result_free: see sched.h. */
void sched_result_free(struct sched_result *r)
{
	free(r->cpus);
	free(r->procs);
	hm_free(&r->ran);
	memset(r, 0, sizeof(*r));
}

/* sched_lifetime: see sched.h. */
int64_t sched_lifetime(const struct ident_proc *p, int64_t t0, int64_t t1)
{
	int64_t a = p->start > t0 ? p->start : t0;
	int64_t b = p->end < t1 ? p->end : t1;
	return b > a ? b - a : 0;
}
