/* Context-switch accounting, the core of `perfdb sched`: pure functions
 * over a session's events (analyze/timeline/mm_timeline.h) so the unit tests can feed
 * hand-written sequences.
 *
 * Per CPU: every sched_switch, split by the address spaces on both sides:
 * between two tasks of the same mm, to a different mm, to or from idle or a
 * kernel thread, or involving a task perfdb cannot identify; migrations in
 * and out (sched_migrate_task); time in idle; switches the kernel did not
 * trace, inferred from samples and counted apart. Per process (mm): switches
 * away from its threads (what getrusage's nvcsw+nivcsw and perf's
 * context-switches count), run time, the CPUs it ran on. Only what happens
 * inside the window [t0, t1] counts; earlier events only set the state. */
#ifndef PERFDB_SCHED_H
#define PERFDB_SCHED_H
#include "analyze/timeline/mm_timeline.h"
#include "lib/hashmap.h"

/* A CPU counts as one a process ran on when it holds at least this share of
 * the process's run time (so a task that ran a moment elsewhere before
 * pinning itself counts one CPU, not two). */
#define SCHED_CPU_SHARE 0.01

/* How a switch's two sides relate. */
enum sw_kind { SW_SAME_MM, SW_OTHER_MM, SW_IDLE_KTHREAD, SW_UNKNOWN, SW_N };

struct sched_cpu {
	long long switches;   /* traced sched_switch events */
	long long untraced;   /* switches inferred from samples (sched_account) */
	long long kind[SW_N];
	long long mig_in, mig_out;
	int64_t idle_ns;
};

struct sched_proc {
	long long switches;   /* switches away from its threads */
	int64_t run_ns;
	int ncpus_ran;        /* CPUs with >= SCHED_CPU_SHARE of its run time */
};

struct sched_result {
	int ncpus;
	struct sched_cpu *cpus;
	size_t nprocs;              /* the identity's processes, plus one last
				     * slot for tasks without a process row */
	struct sched_proc *procs;
	struct hashmap ran;         /* (slot, cpu) -> run time there, ns */
	int64_t t0, t1;
};

/* sw_kind_of(id, prev, next, t): how a switch from task prev to task next
 * at time t relates their address spaces. */
enum sw_kind sw_kind_of(const struct ident *id, int64_t prev, int64_t next, int64_t t);

/* sched_account(ev, n, id, ncpus, t0, t1, r): accounts events ev (time
 * order) inside [t0, t1]. Every event is also a sample of the task current
 * on its CPU (tl_sample_task). A CPU's task before its first switch is the
 * task of its first sample (normally the first switch's prev), running
 * since t0; the last switch's next runs until t1. A sample of another task
 * than the one its CPU last ran is a switch the kernel did not trace (some
 * kernels never trace a CPU leaving idle): the previous task's run (or
 * idle) ends at that sample, and the switch counts in the CPU's untraced,
 * never in switches, kind[] or a process's switches. A stretch of run time counts for the process its task belonged to
 * at the stretch's end (a task that execs mid-stretch: the new one).
 * r is filled from empty (free it with sched_result_free). Never fails
 * (allocation follows lib/alloc.h). */
void sched_account(const struct tl_event *ev, size_t n, const struct ident *id,
		   int ncpus, int64_t t0, int64_t t1, struct sched_result *r);

/* The same accounting one event at a time (sched_account is begin, feed
 * every event, finish), for events streamed from a database
 * (tl_load.h's tl_stream): state per CPU and per process, not per event. */
struct sched_acc {
	struct sched_result r;	/* being filled */
	const struct ident *id;
	struct sched_cur *cs;	/* per CPU: the current task and since when */
	size_t ncs;		/* CPUs r.cpus and cs hold */
	bool grow;		/* ncpus not known yet: grows with the events */
};

/* sched_begin(a, id, ncpus, grow, t0, t1): starts accounting as
 * sched_account does. grow: the number of CPUs is only known at the end
 * (ncpus is then the least): every CPU an event names is kept until
 * sched_finish drops those past its ncpus. */
void sched_begin(struct sched_acc *a, const struct ident *id, int ncpus, bool grow,
		 int64_t t0, int64_t t1);

/* sched_feed(a, e): accounts the next event (time order). */
void sched_feed(struct sched_acc *a, const struct tl_event *e);

/* sched_finish(a, ncpus, r): ends the accounting of a session of ncpus CPUs
 * (with grow: the final count; else the one sched_begin had) into r, as
 * sched_account fills it; a is left empty. */
void sched_finish(struct sched_acc *a, int ncpus, struct sched_result *r);

/* sched_acc_free(a): drops an accounting not finished. */
void sched_acc_free(struct sched_acc *a);

/* sched_result_free(r): frees r's arrays. */
void sched_result_free(struct sched_result *r);

/* sched_lifetime(p, t0, t1): how long process p lived inside [t0, t1], ns
 * (its start and end clipped to the window). */
int64_t sched_lifetime(const struct ident_proc *p, int64_t t0, int64_t t1);
#endif
