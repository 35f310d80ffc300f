/* Task identity lookups and the per-CPU loaded-mm timelines (see
 * mm_timeline.h for the model). Pure code: no database, no I/O. */
#include "analyze/mm_timeline.h"
#include "lib/alloc.h"
#include "lib/hashmap.h"

#include <stdlib.h>

/* cmp_thread: qsort order of thread rows: (tid, start). */
static int cmp_thread(const void *x, const void *y)
{
	const struct ident_thread *a = x, *b = y;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return (a->start > b->start) - (a->start < b->start);
}

/* cmp_proc: qsort order of process rows: (pid, start, id). */
static int cmp_proc(const void *x, const void *y)
{
	const struct ident_proc *a = x, *b = y;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return (a->id > b->id) - (a->id < b->id);
}

/* ident_sort: see mm_timeline.h. */
void ident_sort(struct ident *id)
{
	if (id->nthreads)
		qsort(id->threads, id->nthreads, sizeof(*id->threads), cmp_thread);
	if (id->nprocs)
		qsort(id->procs, id->nprocs, sizeof(*id->procs), cmp_proc);
}

/* first_thread(id, tid): index of the first thread row of tid, or
 * id->nthreads when there is none. */
static size_t first_thread(const struct ident *id, int64_t tid)
{
	size_t lo = 0, hi = id->nthreads;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (id->threads[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < id->nthreads && id->threads[lo].tid == tid ? lo : id->nthreads;
}

/* first_proc(id, pid): index of the first process row of pid, or
 * id->nprocs when there is none. */
static size_t first_proc(const struct ident *id, int64_t pid)
{
	size_t lo = 0, hi = id->nprocs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (id->procs[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < id->nprocs && id->procs[lo].pid == pid ? lo : id->nprocs;
}

/* pid_of(id, tid, t): the pid of task tid at time t (its thread row with
 * the largest start <= t, else its earliest row), or tid itself when it
 * has no thread row. */
static int64_t pid_of(const struct ident *id, int64_t tid, int64_t t)
{
	size_t i = first_thread(id, tid);
	if (i == id->nthreads)
		return tid;
	size_t best = i;
	for (; i < id->nthreads && id->threads[i].tid == tid; i++)
		if (id->threads[i].start <= t)
			best = i;
	return id->threads[best].pid;
}

/* ident_proc_of: see mm_timeline.h. */
long ident_proc_of(const struct ident *id, int64_t tid, int64_t t)
{
	if (tid < 0)
		return -1;
	int64_t pid = pid_of(id, tid, t);
	size_t i = first_proc(id, pid);
	if (i == id->nprocs)
		return -1;
	size_t best = i;
	for (; i < id->nprocs && id->procs[i].pid == pid; i++)
		if (id->procs[i].start <= t)
			best = i;
	return (long)best;
}

/* ident_mm: see mm_timeline.h. */
int64_t ident_mm(const struct ident *id, int64_t tid, int64_t t)
{
	if (tid == 0)
		return MM_KERNEL;
	long p = ident_proc_of(id, tid, t);
	if (p < 0)
		return MM_UNKNOWN;
	return id->procs[p].user_mm ? id->procs[p].id : MM_KERNEL;
}

/* push_seg(c, t, mm, lazy, cause): starts a new segment on CPU c unless
 * nothing changes; a segment starting at the same time as the last one
 * replaces it. */
static void push_seg(struct tl_cpu *c, int64_t t, int64_t mm, int lazy, int cause)
{
	if (c->n) {
		struct tl_seg *last = &c->segs[c->n - 1];
		if (last->mm == mm && last->lazy == lazy)
			return;
		if (last->start == t) {
			*last = (struct tl_seg){ t, mm, lazy, cause };
			return;
		}
	}
	ALLOC_GROW(c->segs, c->n + 1, c->cap);
	c->segs[c->n++] = (struct tl_seg){ t, mm, lazy, cause };
}

/* The state of a build: the timelines, the identity, tasks that exited
 * (tid -> 1), whether each CPU has seen a switch, and the task each CPU
 * runs as far as the events say (-1: not known yet). */
struct build {
	struct timeline *tl;
	const struct ident *id;
	struct hashmap exited;
	bool *switched;
	int64_t *current;
};

/* last_seg(c): the CPU's current segment, or NULL. */
static const struct tl_seg *last_seg(const struct tl_cpu *c)
{
	return c->n ? &c->segs[c->n - 1] : NULL;
}

/* switch_to(b, cpu, next, t, cause): cpu switches to task next at t: its
 * mm is loaded, or the loaded one kept lazily for idle, kernel threads and
 * exited tasks. */
static void switch_to(struct build *b, int cpu, int64_t next, int64_t t, int cause)
{
	struct tl_cpu *c = &b->tl->cpus[cpu];
	const struct tl_seg *s = last_seg(c);
	uint64_t dummy;
	int64_t mm = ident_mm(b->id, next, t);
	b->switched[cpu] = true;
	b->current[cpu] = next;
	if (mm == MM_KERNEL || hm_get(&b->exited, (uint64_t)next, 0, &dummy))
		push_seg(c, t, s ? s->mm : MM_UNKNOWN, 1, cause);
	else
		push_seg(c, t, mm, 0, cause);
}

/* tl_sample_task: see mm_timeline.h. */
int64_t tl_sample_task(const struct tl_event *e)
{
	if (e->tid < 0 || (e->kind == TL_FLUSH && e->arg == 0))
		return -1;
	return e->tid;
}

/* unrecorded_switch(b, e): a sample's task is the task current on its CPU
 * (perf records the current task's tid with every sample), so a sample of
 * another task than the one the CPU switched to says the CPU switched
 * without a sched_switch record: some kernels do not trace a switch out of
 * the idle task (some recordings show a CPU that never traces leaving idle,
 * with no sample of its idle task either). The switch is taken at the
 * sample, the first time it is known. A reason-0 flush is no such
 * evidence: switch_mm traces it during a switch, after sched_switch named
 * the next task, with the previous one still current. The CPU's first
 * sample only says who runs (bootstrap may start the history with it). */
static void unrecorded_switch(struct build *b, const struct tl_event *e)
{
	int64_t *cur = &b->current[e->cpu], tid = tl_sample_task(e);
	if (tid < 0 || *cur == tid)
		return;
	if (*cur < 0)
		*cur = tid;
	else
		switch_to(b, e->cpu, tid, e->time, TL_SAMPLE);
}

/* bootstrap(b, e): before a CPU's first switch, a sample of a user task
 * says that task's mm is loaded (the first such sample starts the CPU's
 * timeline). */
static void bootstrap(struct build *b, const struct tl_event *e)
{
	struct tl_cpu *c = &b->tl->cpus[e->cpu];
	uint64_t dummy;
	if (c->n || b->switched[e->cpu] || e->tid < 0)
		return;
	int64_t mm = ident_mm(b->id, e->tid, e->time);
	if (mm < 0 || hm_get(&b->exited, (uint64_t)e->tid, 0, &dummy))
		return;
	push_seg(c, e->time, mm, 0, TL_SAMPLE);
}

/* on_event(b, e): applies one event to its CPU's timeline. */
static void on_event(struct build *b, const struct tl_event *e)
{
	struct tl_cpu *c = &b->tl->cpus[e->cpu];
	const struct tl_seg *s;
	if (e->kind == TL_SWITCH) {
		switch_to(b, e->cpu, e->a, e->time, TL_SWITCH);
		return;
	}
	unrecorded_switch(b, e);
	bootstrap(b, e);
	s = last_seg(c);
	if (e->kind == TL_EXEC) {
		int64_t who = e->a > 0 ? e->a : e->tid, mm = ident_mm(b->id, who, e->time);
		hm_del(&b->exited, (uint64_t)e->tid, 0);
		hm_del(&b->exited, (uint64_t)who, 0);
		push_seg(c, e->time, mm < 0 ? MM_UNKNOWN : mm, 0, TL_EXEC);
	} else if (e->kind == TL_EXIT) {
		if (e->tid >= 0)
			hm_put(&b->exited, (uint64_t)e->tid, 0, 1);
		if (s)
			push_seg(c, e->time, s->mm, 1, TL_EXIT);
	} else if (e->kind == TL_FORK) {
		hm_del(&b->exited, (uint64_t)e->a, 0);
	} else if (e->kind == TL_FLUSH && e->arg == 0 && s && s->lazy) {
		push_seg(c, e->time, MM_INIT, 1, TL_FLUSH);
	}
}

/* timeline_build: see mm_timeline.h. */
void timeline_build(const struct tl_event *ev, size_t n, const struct ident *id,
		    int ncpus, struct timeline *tl)
{
	struct build b = { .tl = tl, .id = id };
	size_t nc;
	tl->ncpus = ncpus > 0 ? ncpus : 0;
	nc = tl->ncpus ? (size_t)tl->ncpus : 1;
	tl->cpus = xcalloc(nc, sizeof(*tl->cpus));
	b.switched = xcalloc(nc, sizeof(*b.switched));
	b.current = xreallocarray(NULL, nc, sizeof(*b.current));
	hm_init(&b.exited);
	for (int i = 0; i < tl->ncpus; i++)
		b.current[i] = -1;
	for (size_t i = 0; i < n; i++)
		if (ev[i].cpu >= 0 && ev[i].cpu < tl->ncpus)
			on_event(&b, &ev[i]);
	hm_free(&b.exited);
	free(b.switched);
	free(b.current);
}

/* timeline_free: see mm_timeline.h. */
void timeline_free(struct timeline *tl)
{
	for (int i = 0; tl->cpus && i < tl->ncpus; i++)
		free(tl->cpus[i].segs);
	free(tl->cpus);
	tl->cpus = NULL;
	tl->ncpus = 0;
}

/* seg_index(c, t): index of the last segment starting at or before t, or
 * -1 when the first starts after t (or there is none). */
static long seg_index(const struct tl_cpu *c, int64_t t)
{
	size_t lo = 0, hi = c->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->segs[mid].start <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (long)lo - 1;
}

/* timeline_at: see mm_timeline.h. */
const struct tl_seg *timeline_at(const struct timeline *tl, int cpu, int64_t t)
{
	if (cpu < 0 || cpu >= tl->ncpus)
		return NULL;
	long i = seg_index(&tl->cpus[cpu], t);
	return i < 0 ? NULL : &tl->cpus[cpu].segs[i];
}

/* tl_class_name: see mm_timeline.h. */
const char *tl_class_name(enum tl_class c)
{
	static const char *const names[] = { "running", "lazy", "other", "unknown" };
	return c < CL_N ? names[c] : "?";
}

/* timeline_seg_class: see mm_timeline.h. */
enum tl_class timeline_seg_class(const struct tl_seg *s, int64_t mm)
{
	if (!s || mm <= 0 || s->mm == MM_UNKNOWN)
		return CL_UNKNOWN;
	if (s->mm == mm)
		return s->lazy ? CL_LAZY : CL_RUNNING;
	return CL_OTHER;
}

/* timeline_class: see mm_timeline.h. */
enum tl_class timeline_class(const struct timeline *tl, int cpu, int64_t t, int64_t mm)
{
	return timeline_seg_class(timeline_at(tl, cpu, t), mm);
}

/* timeline_stable: see mm_timeline.h. */
bool timeline_stable(const struct timeline *tl, int cpu, int64_t t0, int64_t t1, int64_t mm)
{
	if (cpu < 0 || cpu >= tl->ncpus)
		return true;
	const struct tl_cpu *c = &tl->cpus[cpu];
	long i = seg_index(c, t0);
	enum tl_class first = timeline_seg_class(i < 0 ? NULL : &c->segs[i], mm);
	for (size_t j = (size_t)(i + 1); j < c->n && c->segs[j].start <= t1; j++)
		if (timeline_seg_class(&c->segs[j], mm) != first)
			return false;
	return true;
}
