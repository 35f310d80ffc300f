/* Task identity and per-CPU loaded-mm timelines, the model under `perfdb
 * ipis` and `perfdb sched`. Everything here is a pure function over arrays
 * (a session's identity rows and its events in time order), so the unit
 * tests feed hand-written sequences; analyze/timeline/tl_load.c fills the arrays from
 * a database.
 *
 * The model (x86 lazy TLB): a CPU's TLB holds one address space (mm) at a
 * time. Switching to a user task loads that task's mm; switching to idle or a
 * kernel thread keeps the previous mm loaded "lazily"; a task past exit_mm
 * (after sched_process_exit) runs without an mm, so its CPU is lazy too; an
 * exec loads the new program's mm; a tlb_flush reason 0 (CR3 reload) while
 * the CPU is lazy means it left for init_mm and holds no user mm any more.
 * Every event says which task is current on its CPU (a sample's tid; both
 * sides of a sched_switch): when that contradicts the task the CPU was last
 * known to run, the CPU switched without a trace (some recordings never show
 * a CPU leaving its idle task, or any event of some tasks): that is taken
 * as one switch, from the task last known to the one now seen, at an
 * unknown moment after the CPU's last event, and the stretch in between is
 * marked as unsure.
 * An mm is named by its process row id (one row per pid and exec
 * generation), so threads of one process share it and an exec gets a new
 * one. Limitation: a child made with CLONE_VM but not CLONE_THREAD (vfork,
 * posix_spawn) shares its parent's mm until it execs, but perf records no
 * clone flags, so it counts as an mm of its own. */
#ifndef PERFDB_MM_TIMELINE_H
#define PERFDB_MM_TIMELINE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/hashmap.h"

/* mm values besides process row ids (> 0). */
#define MM_INIT 0     /* init_mm: no user address space loaded */
#define MM_UNKNOWN -1 /* not known (no history, unknown task) */
#define MM_KERNEL -2  /* ident_mm only: idle or a kernel thread (no mm) */

/* A NULL start time sorts before every real time. */
#define TIME_NONE INT64_MIN

/* One thread row: tid, its process id (tgid), when it started. */
struct ident_thread {
	int64_t tid, pid, start;
};

/* One process row (a pid during one exec generation): its row id, when it
 * started and ended (INT64_MAX: alive at the end), whether it has a user
 * address space, its name. */
struct ident_proc {
	int64_t id, pid, start, end;
	int user_mm;
	const char *comm; /* not owned */
};

/* The identity of one session. ident_sort must run before the lookups. */
struct ident {
	struct ident_thread *threads;
	size_t nthreads;
	struct ident_proc *procs;
	size_t nprocs;
};

/* ident_sort(id): sorts the rows by (tid|pid, start) for the lookups. */
void ident_sort(struct ident *id);

/* ident_proc_of(id, tid, t): index in id->procs of the process task tid
 * belongs to at time t, or -1. The thread row of tid with the largest start
 * <= t gives the pid (a tid without thread row is taken as a main thread:
 * pid = tid); the process row of that pid with the largest start <= t is
 * the answer (when every row starts after t, the earliest one). tid 0 is
 * the idle task. */
long ident_proc_of(const struct ident *id, int64_t tid, int64_t t);

/* ident_mm(id, tid, t): the mm task tid uses at time t: a process row id,
 * MM_KERNEL for idle and kernel threads, MM_UNKNOWN for an unknown task:
 * one without a process row, or whose process the recording never named
 * nor saw with a user address space (no COMM, FORK, exec or mmap of it:
 * only its samples, as when its exec ran on a CPU perf did not record),
 * which is not evidence of a kernel thread. */
int64_t ident_mm(const struct ident *id, int64_t tid, int64_t t);

/* Events, one per tracepoint sample (ipi_send_cpumask: one per target). */
enum tl_kind {
	TL_SWITCH,    /* sched_switch: a = next tid, b = prev tid, arg = prev_state */
	TL_EXEC,      /* sched_process_exec: tid execs (a = pid, b = old pid) */
	TL_EXIT,      /* sched_process_exit: tid exits (a = pid field) */
	TL_FORK,      /* sched_process_fork: a = child tid */
	TL_MIGRATE,   /* sched_migrate_task: a = tid, b = orig cpu, arg = dest */
	TL_FLUSH,     /* tlb_flush: arg = reason */
	TL_CSD_QUEUE, /* csd_queue_cpu: arg = target cpu, a = csd, site */
	TL_CSD_ENTRY, /* csd_function_entry: a = csd */
	TL_CSD_EXIT,  /* csd_function_exit: a = csd */
	TL_IPI_SEND,  /* ipi_send_cpu/cpumask: arg = target cpu, site */
	TL_SAMPLE,    /* any other sample: says who runs on cpu; a wakeup's
		       * a = the woken tid, b = TL_WAKING, TL_WAKEUP or
		       * TL_WAKEUP_NEW (sched_waking, _wakeup, _wakeup_new) */
};

/* What perf lost where: a LOST record of cpu (-1: not known, any CPU)
 * covers (since, time], what that CPU dropped after the previous record
 * perf kept from it; LOST_SAMPLES (no time) cover the whole recording. */
struct lost_span {
	int cpu;
	int64_t since, time;	/* INT64_MIN, INT64_MAX: from the start, to the end */
};

/* A session's lost spans, by time; whole: it lost events but does not
 * say where (imported before the lost table): anything may be lost. */
struct lost_spans {
	const struct lost_span *v;
	size_t n;
	bool whole;
};

struct tl_event {
	int64_t seq;  /* loaders' sort key (the sample id); unused here */
	int64_t time;
	int64_t tid;  /* the sample's thread: the task current on cpu; -1 unknown */
	int64_t a, b; /* per kind, above */
	int32_t cpu;
	int32_t arg;  /* per kind, above */
	int32_t site; /* index of the callsite name, -1 none */
	uint8_t kind;
	uint8_t flush; /* CSD_*: the function is flush_tlb_func; IPI_SEND: a
			* TLB-flush callsite or callback */
};

/* tl_seg.lazy: a task of mm current, idle / a kernel thread / an exiting
 * task current (mm held lazily), or one of the two without knowing which
 * (the stretch before an untraced switch between a task of mm and one
 * without an mm). */
enum { SEG_RUNNING, SEG_LAZY, SEG_UNSURE };

/* tl_seg.cause besides the tl_kinds: the unsure stretch before a switch
 * the kernel did not trace (see timeline_build). */
#define TL_CAUSE_UNTRACED (TL_SAMPLE + 1)

/* Which wakeup a TL_SAMPLE is (its b; other samples: -1). */
enum { TL_WAKING = 1, TL_WAKEUP = 2, TL_WAKEUP_NEW = 3 };

/* One stretch of a CPU's timeline: from start until the next segment, the
 * CPU holds mm (a process row id, MM_INIT or MM_UNKNOWN) as lazy says. */
struct tl_seg {
	int64_t start;
	int64_t mm;
	int32_t lazy;  /* SEG_RUNNING, SEG_LAZY or SEG_UNSURE */
	int32_t cause; /* the tl_kind that started it, or TL_CAUSE_UNTRACED */
};

struct tl_cpu {
	struct tl_seg *segs;
	size_t n, cap;
	int64_t last; /* time of the CPU's last event, TIME_NONE: none */
};

struct timeline {
	int ncpus;
	struct tl_cpu *cpus;
};

/* timeline_build(ev, n, id, ncpus, tl): the per-CPU timelines of events ev
 * (in time order; events of CPUs >= ncpus are ignored). Rules, per event on
 * its CPU:
 *  - switch to a user task: its mm, not lazy; to idle, a kernel thread or a
 *    task that has exited: the mm loaded before stays, lazy (the outgoing
 *    task's mm when it is a user task: prev_pid says who ran); to an
 *    unknown task: MM_UNKNOWN, not lazy;
 *  - a switch whose outgoing task is not the one the CPU last switched to,
 *    or a sample of another task (a sample's tid is the current task), is
 *    a switch the kernel did not trace, from the task last known to the
 *    one seen, at an unknown moment after the CPU's previous event: from
 *    1 ns after that event the CPU holds the mm both would hold, SEG_UNSURE
 *    when only lazy or not differs, MM_UNKNOWN when the mms differ (cause
 *    TL_CAUSE_UNTRACED); a sample's switch is taken at the sample (a
 *    reason-0 flush is no such sample: switch_mm traces it with the
 *    previous task still current);
 *  - exec: the task's new mm, not lazy; exit: lazy (exit_mm follows);
 *  - tlb_flush reason 0 while lazy: MM_INIT (the CPU left for init_mm);
 *  - before a CPU's first switch, its first sample of a user task starts
 *    the timeline with that task's mm (a session starting mid-flight);
 *    nothing is known before.
 * tl->cpus[c].last is the time of CPU c's last event. Never fails
 * (allocation follows lib/alloc.h). */
void timeline_build(const struct tl_event *ev, size_t n, const struct ident *id,
		    int ncpus, struct timeline *tl);

/* The same build one event at a time (timeline_build is begin, feed every
 * event, finish), for events streamed from a database: the state of a
 * build is per CPU and per task; the timelines it fills hold one segment
 * per change of a CPU's loaded mm, not per event. */
struct tl_builder {
	struct timeline *tl;
	const struct ident *id;
	struct hashmap exited;	/* tasks that exited: tid -> 1 */
	bool *switched;		/* per CPU: has seen a switch */
	int64_t *current;	/* per CPU: the task it runs as far as known, -1 */
	int64_t *seen;		/* per CPU: when that was last said, TIME_NONE */
	size_t cap;		/* CPUs the arrays hold */
	bool grow;		/* ncpus not known yet: grows with the events */
};

/* timeline_begin(b, id, ncpus, grow, tl): starts building tl (filled from
 * empty) as timeline_build does. grow: the number of CPUs is only known at
 * the end (ncpus is then the least), every CPU an event names is kept. */
void timeline_begin(struct tl_builder *b, const struct ident *id, int ncpus, bool grow,
		    struct timeline *tl);

/* timeline_feed(b, e): applies the next event (time order). */
void timeline_feed(struct tl_builder *b, const struct tl_event *e);

/* timeline_finish(b, ncpus): ends the build (with grow: the timelines
 * cover at least ncpus CPUs); b is left empty, the timelines stay (free
 * them with timeline_free). */
void timeline_finish(struct tl_builder *b, int ncpus);

/* tl_sample_task(e): the task sample e says is current on its CPU (perf
 * records the current task's tid with every sample), or -1 when it says
 * nothing: tid unknown, or a reason-0 flush (switch_mm traces it during a
 * switch, with the previous task still current). A task other than the one
 * the CPU last switched to is a switch the kernel did not trace (some
 * recordings never show a CPU leaving its idle task); timeline_build and
 * sched_account take it at that sample. */
int64_t tl_sample_task(const struct tl_event *e);

/* timeline_free(tl): frees the segments; tl may be zeroed or built. */
void timeline_free(struct timeline *tl);

/* timeline_at(tl, cpu, t): the segment in force on cpu at time t (the last
 * one starting at or before t), or NULL when nothing is known yet. */
const struct tl_seg *timeline_at(const struct timeline *tl, int cpu, int64_t t);

/* Where a flush IPI for mm finds its target. The timeline gives the first
 * four; CL_UNVERIFIED is an IPI's class when no receiver was recorded
 * (analyze/timeline/ipis.h). */
enum tl_class { CL_RUNNING, CL_LAZY, CL_OTHER, CL_UNKNOWN, CL_UNVERIFIED, CL_N };

/* tl_class_name(c): "running", "lazy", "other", "unknown", "unverified". */
const char *tl_class_name(enum tl_class c);

/* timeline_class(tl, cpu, t, mm): the class of cpu at time t for a flush of
 * mm: running (mm loaded, a task of it current), lazy (mm loaded lazily),
 * other (another mm or init_mm loaded), unknown (no history, mm or the
 * loaded mm unknown, or mm loaded but SEG_UNSURE). */
enum tl_class timeline_class(const struct timeline *tl, int cpu, int64_t t, int64_t mm);

/* timeline_stable(tl, cpu, t0, t1, mm): whether the class for mm stays the
 * same from t0 to t1 inclusive (t0 <= t1). */
bool timeline_stable(const struct timeline *tl, int cpu, int64_t t0, int64_t t1, int64_t mm);

/* timeline_seg_class(s, mm): the class a segment gives a flush of mm. */
enum tl_class timeline_seg_class(const struct tl_seg *s, int64_t mm);

/* timeline_untraced_near(tl, cpu, t0, t1): whether cpu switched without a
 * trace around [t0, t1]: a TL_CAUSE_UNTRACED segment in force at t0 or
 * starting in (t0, t1]. */
bool timeline_untraced_near(const struct timeline *tl, int cpu, int64_t t0, int64_t t1);
#endif
