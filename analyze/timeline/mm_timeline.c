/* Task identity lookups and the per-CPU loaded-mm timelines (see
 * mm_timeline.h for the model). Pure code: no database, no I/O. */
#include "analyze/timeline/mm_timeline.h"
#include "lib/alloc.h"
#include "lib/hashmap.h"
#include "lib/search.h"

#include <stdlib.h>
#include <string.h>

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

/* tid_before(r, tid): whether thread row r's tid is below *tid;
 * pid_before(r, pid): whether process row r's pid is below *pid. */
static bool tid_before(const void *r, const void *tid)
{
	return ((const struct ident_thread *)r)->tid < *(const int64_t *)tid;
}

static bool pid_before(const void *r, const void *pid)
{
	return ((const struct ident_proc *)r)->pid < *(const int64_t *)pid;
}

/* first_thread(id, tid): index of the first thread row of tid, or
 * id->nthreads when there is none. */
static size_t first_thread(const struct ident *id, int64_t tid)
{
	size_t i = lower_bound(id->threads, id->nthreads, sizeof(*id->threads), &tid, tid_before);
	return i < id->nthreads && id->threads[i].tid == tid ? i : id->nthreads;
}

/* first_proc(id, pid): index of the first process row of pid, or
 * id->nprocs when there is none. */
static size_t first_proc(const struct ident *id, int64_t pid)
{
	size_t i = lower_bound(id->procs, id->nprocs, sizeof(*id->procs), &pid, pid_before);
	return i < id->nprocs && id->procs[i].pid == pid ? i : id->nprocs;
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
	if (id->procs[p].user_mm)
		return id->procs[p].id;
	return id->procs[p].comm && *id->procs[p].comm ? MM_KERNEL : MM_UNKNOWN;
}

/* push_seg(c, t, mm, lazy, cause): starts a new segment on CPU c unless
 * nothing changes (an untraced stretch, and the one after it, always
 * start one: the stretch says when the CPU switched unseen); a segment
 * starting at the same time as the last one replaces it. */
static void push_seg(struct tl_cpu *c, int64_t t, int64_t mm, int lazy, int cause)
{
	if (c->n) {
		struct tl_seg *last = &c->segs[c->n - 1];
		if (last->mm == mm && last->lazy == lazy && last->cause != TL_CAUSE_UNTRACED &&
		    cause != TL_CAUSE_UNTRACED)
			return;
		if (last->start == t) {
			*last = (struct tl_seg){ t, mm, lazy, cause };
			return;
		}
	}
	ALLOC_GROW(c->segs, c->n + 1, c->cap);
	c->segs[c->n++] = (struct tl_seg){ t, mm, lazy, cause };
}

/* last_seg(c): the CPU's current segment, or NULL. */
static const struct tl_seg *last_seg(const struct tl_cpu *c)
{
	return c->n ? &c->segs[c->n - 1] : NULL;
}

/* holds_lazily(b, tid, t, mm): whether a CPU running task tid at t keeps
 * the mm it had loaded (idle, a kernel thread, a task past exit_mm); *mm
 * gets tid's own mm (ident_mm). */
static bool holds_lazily(const struct tl_builder *b, int64_t tid, int64_t t, int64_t *mm)
{
	uint64_t dummy;
	*mm = ident_mm(b->id, tid, t);
	return *mm == MM_KERNEL || hm_get(&b->exited, (uint64_t)tid, 0, &dummy);
}

/* switch_to(b, cpu, next, held, t, cause): cpu, holding mm held, switches
 * to task next at t: next's mm is loaded, or held kept lazily for idle,
 * kernel threads and exited tasks. */
static void switch_to(struct tl_builder *b, int cpu, int64_t next, int64_t held, int64_t t, int cause)
{
	struct tl_cpu *c = &b->tl->cpus[cpu];
	int64_t mm;
	b->switched[cpu] = true;
	b->current[cpu] = next;
	b->seen[cpu] = t;
	if (holds_lazily(b, next, t, &mm))
		push_seg(c, t, held, SEG_LAZY, cause);
	else
		push_seg(c, t, mm, SEG_RUNNING, cause);
}

/* untraced(b, cpu, who, t): cpu, last seen running another task, runs who
 * at t: it switched without a trace, taken as one switch to who at an
 * unknown moment after the CPU's last event. Marks the stretch from 1 ns
 * after that event (see timeline_build) and returns the mm the CPU held at
 * t: who's own, or the one loaded before when who holds lazily. */
static int64_t untraced(struct tl_builder *b, int cpu, int64_t who, int64_t t)
{
	struct tl_cpu *c = &b->tl->cpus[cpu];
	const struct tl_seg *s = last_seg(c);
	int64_t before = s ? s->mm : MM_UNKNOWN, mm;
	int lazy = SEG_RUNNING;
	if (holds_lazily(b, who, t, &mm)) {
		mm = before;
		lazy = SEG_LAZY;
	}
	if (!s || b->seen[cpu] == TIME_NONE || b->seen[cpu] >= t - 1)
		return mm;
	if (mm != before)
		push_seg(c, b->seen[cpu] + 1, MM_UNKNOWN, SEG_RUNNING, TL_CAUSE_UNTRACED);
	else
		push_seg(c, b->seen[cpu] + 1, mm, lazy == s->lazy ? lazy : SEG_UNSURE,
			 TL_CAUSE_UNTRACED);
	return mm;
}

/* on_switch(b, e): a sched_switch: both sides say who ran. An outgoing
 * task other than the one the CPU last ran is an untraced switch to it;
 * the outgoing task's own mm is the one held when it is a user task. */
static void on_switch(struct tl_builder *b, const struct tl_event *e)
{
	const struct tl_seg *s = last_seg(&b->tl->cpus[e->cpu]);
	int64_t prev = e->b, held = s ? s->mm : MM_UNKNOWN, mm;
	if (prev >= 0 && b->current[e->cpu] >= 0 && prev != b->current[e->cpu])
		held = untraced(b, e->cpu, prev, e->time);
	else if (prev >= 0 && !holds_lazily(b, prev, e->time, &mm))
		held = mm;
	switch_to(b, e->cpu, e->a, held, e->time, TL_SWITCH);
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
 * another task than the one the CPU last ran says the CPU switched without
 * a sched_switch record (some recordings show a CPU that never traces
 * leaving idle, or no event at all of some tasks): untraced() marks the
 * stretch before, and the switch is taken at the sample. A reason-0 flush
 * is no such evidence (tl_sample_task). An exec's sample names the pid its
 * thread became (old_pid in b). The CPU's first sample only says who runs
 * (bootstrap may start the history with it). */
static void unrecorded_switch(struct tl_builder *b, const struct tl_event *e)
{
	int64_t *cur = &b->current[e->cpu], tid = tl_sample_task(e);
	if (tid < 0)
		return;
	if (e->kind == TL_EXEC && e->b >= 0 && *cur == e->b)
		*cur = tid;
	if (*cur >= 0 && *cur != tid)
		switch_to(b, e->cpu, tid, untraced(b, e->cpu, tid, e->time), e->time, TL_SAMPLE);
	*cur = tid;
	b->seen[e->cpu] = e->time;
}

/* bootstrap(b, e): before a CPU's first switch, a sample of a user task
 * says that task's mm is loaded (the first such sample starts the CPU's
 * timeline). */
static void bootstrap(struct tl_builder *b, const struct tl_event *e)
{
	struct tl_cpu *c = &b->tl->cpus[e->cpu];
	uint64_t dummy;
	if (c->n || b->switched[e->cpu] || e->tid < 0)
		return;
	int64_t mm = ident_mm(b->id, e->tid, e->time);
	if (mm < 0 || hm_get(&b->exited, (uint64_t)e->tid, 0, &dummy))
		return;
	push_seg(c, e->time, mm, SEG_RUNNING, TL_SAMPLE);
}

/* on_event(b, e): applies one event to its CPU's timeline. */
static void on_event(struct tl_builder *b, const struct tl_event *e)
{
	struct tl_cpu *c = &b->tl->cpus[e->cpu];
	const struct tl_seg *s;
	c->last = e->time;
	if (e->kind == TL_SWITCH) {
		on_switch(b, e);
		return;
	}
	unrecorded_switch(b, e);
	bootstrap(b, e);
	s = last_seg(c);
	if (e->kind == TL_EXEC) {
		int64_t who = e->a > 0 ? e->a : e->tid, mm = ident_mm(b->id, who, e->time);
		hm_del(&b->exited, (uint64_t)e->tid, 0);
		hm_del(&b->exited, (uint64_t)who, 0);
		push_seg(c, e->time, mm < 0 ? MM_UNKNOWN : mm, SEG_RUNNING, TL_EXEC);
	} else if (e->kind == TL_EXIT) {
		if (e->tid >= 0)
			hm_put(&b->exited, (uint64_t)e->tid, 0, 1);
		if (s)
			push_seg(c, e->time, s->mm, SEG_LAZY, TL_EXIT);
	} else if (e->kind == TL_FORK) {
		hm_del(&b->exited, (uint64_t)e->a, 0);
	} else if (e->kind == TL_FLUSH && e->arg == 0 && s && s->lazy == SEG_LAZY) {
		push_seg(c, e->time, MM_INIT, SEG_LAZY, TL_FLUSH);
	}
}

/* cpus_upto(b, n): the timelines and b's per-CPU state hold at least n
 * CPUs (new ones: nothing known). */
static void cpus_upto(struct tl_builder *b, size_t n)
{
	struct timeline *tl = b->tl;
	if (n <= b->cap)
		return;
	size_t m = b->cap ? b->cap : 1;
	while (m < n)
		m *= 2;
	tl->cpus = xreallocarray(tl->cpus, m, sizeof(*tl->cpus));
	b->switched = xreallocarray(b->switched, m, sizeof(*b->switched));
	b->current = xreallocarray(b->current, m, sizeof(*b->current));
	b->seen = xreallocarray(b->seen, m, sizeof(*b->seen));
	for (size_t i = b->cap; i < m; i++) {
		tl->cpus[i] = (struct tl_cpu){ .last = TIME_NONE };
		b->switched[i] = false;
		b->current[i] = -1;
		b->seen[i] = TIME_NONE;
	}
	b->cap = m;
}

/* timeline_begin: see mm_timeline.h. */
void timeline_begin(struct tl_builder *b, const struct ident *id, int ncpus, bool grow,
		    struct timeline *tl)
{
	memset(b, 0, sizeof(*b));
	memset(tl, 0, sizeof(*tl));
	b->tl = tl;
	b->id = id;
	b->grow = grow;
	hm_init(&b->exited);
	cpus_upto(b, ncpus > 0 ? (size_t)ncpus : 1);
	tl->ncpus = ncpus > 0 ? ncpus : 0;
}

/* timeline_feed: see mm_timeline.h. */
void timeline_feed(struct tl_builder *b, const struct tl_event *e)
{
	if (b->grow && e->cpu >= b->tl->ncpus && e->cpu <= 65535) {
		cpus_upto(b, (size_t)e->cpu + 1);
		b->tl->ncpus = e->cpu + 1;
	}
	if (e->cpu >= 0 && e->cpu < b->tl->ncpus)
		on_event(b, e);
}

/* timeline_finish: see mm_timeline.h. */
void timeline_finish(struct tl_builder *b, int ncpus)
{
	if (b->grow && ncpus > b->tl->ncpus) {
		cpus_upto(b, (size_t)ncpus);
		b->tl->ncpus = ncpus;
	}
	hm_free(&b->exited);
	free(b->switched);
	free(b->current);
	free(b->seen);
	memset(b, 0, sizeof(*b));
}

/* timeline_build: see mm_timeline.h. */
void timeline_build(const struct tl_event *ev, size_t n, const struct ident *id,
		    int ncpus, struct timeline *tl)
{
	struct tl_builder b;
	timeline_begin(&b, id, ncpus, false, tl);
	for (size_t i = 0; i < n; i++)
		timeline_feed(&b, &ev[i]);
	timeline_finish(&b, ncpus);
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

/* starts_by(seg, t): whether segment seg starts at or before time *t. */
static bool starts_by(const void *seg, const void *t)
{
	return ((const struct tl_seg *)seg)->start <= *(const int64_t *)t;
}

/* seg_index(c, t): index of the last segment starting at or before t, or
 * -1 when the first starts after t (or there is none). */
static long seg_index(const struct tl_cpu *c, int64_t t)
{
	return (long)lower_bound(c->segs, c->n, sizeof(*c->segs), &t, starts_by) - 1;
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
	static const char *const names[] = { "running", "lazy", "other", "unknown", "unverified" };
	return c < CL_N ? names[c] : "?";
}

/* timeline_seg_class: see mm_timeline.h. */
enum tl_class timeline_seg_class(const struct tl_seg *s, int64_t mm)
{
	if (!s || mm <= 0 || s->mm == MM_UNKNOWN)
		return CL_UNKNOWN;
	if (s->mm == mm)
		return s->lazy == SEG_UNSURE ? CL_UNKNOWN : s->lazy == SEG_LAZY ? CL_LAZY : CL_RUNNING;
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

/* timeline_untraced_near: see mm_timeline.h. */
bool timeline_untraced_near(const struct timeline *tl, int cpu, int64_t t0, int64_t t1)
{
	if (cpu < 0 || cpu >= tl->ncpus)
		return false;
	const struct tl_cpu *c = &tl->cpus[cpu];
	long i = seg_index(c, t0);
	if (i >= 0 && c->segs[i].cause == TL_CAUSE_UNTRACED)
		return true;
	for (size_t j = (size_t)(i + 1); j < c->n && c->segs[j].start <= t1; j++)
		if (c->segs[j].cause == TL_CAUSE_UNTRACED)
			return true;
	return false;
}
