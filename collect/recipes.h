/* Recipes: what `perfdb record` asks perf for (DESIGN.md, "Recipes"), the
 * perf command line built from them (an argv, never a shell string), and
 * the probes of the running machine they depend on: tracefs and its
 * tracepoints, a PMU that counts cycles, memory-sampling events, programs
 * in PATH. `perfdb doctor` reports the same probes.
 *
 *   sched    sched:sched_switch, sched_waking, sched_wakeup, sched_wakeup_new,
 *            sched_migrate_task, sched_process_fork/exec/exit
 *   tlb      tlb:tlb_flush, ipi:ipi_send_cpu/cpumask, csd:csd_queue_cpu,
 *            csd:csd_function_entry/exit, irq_vectors:call_function[_single]
 *            _entry/exit, sched:sched_switch and the sched process events
 *   profile  cycles (cpu-clock without a PMU), -F 999 -g
 *   c2c      perf c2c record (mem-loads/stores, ibs_op, arm_spe) plus
 *            mmap_lock:mmap_lock_start_locking/acquire_returned/released
 *            and mmap:exit_mmap
 *   watch    hardware write-watchpoints (mem:ADDR/LEN:w) on the fields
 *            --watch names; no events of its own here: perfdb record
 *            adds them once the addresses are known (collect/record/watch_spec.h)
 * Tracepoint recipes (and c2c) record system-wide (-a); every recording
 * gets -m 1024 unless told otherwise; perf's side-band (COMM, FORK, EXIT,
 * MMAP2) is on by default and left on. */
#ifndef PERFDB_RECIPES_H
#define PERFDB_RECIPES_H
#include <stdbool.h>
#include <stddef.h>

/* Recipe bits of recipe_plan.recipes. */
enum { RECIPE_SCHED = 1, RECIPE_TLB = 2, RECIPE_PROFILE = 4, RECIPE_C2C = 8, RECIPE_WATCH = 16 };

/* The recipes' names, comma separated, for messages: "sched, tlb, ...". */
extern const char recipe_names_text[];

/* What the planner needs to know about the machine (probed by the caller,
 * so tests can pretend). */
struct recipe_env {
	bool have_cycles;	/* the PMU counts cycles (pmu_has_cycles) */
};

/* The events of a set of recipes, merged. */
struct recipe_plan {
	unsigned recipes;	/* RECIPE_* bits */
	char **events;		/* in recipe order, no duplicates */
	size_t nevents;
	char **missing;		/* left out by recipe_plan_drop_missing */
	size_t nmissing;
	const char *profile_event;	/* "cycles"/"cpu-clock" when profile, else NULL */
	bool system_wide;	/* -a: a tracepoint recipe or c2c is in */
};

/* recipe_plan_make(p, spec, extra, env, err, errlen): the plan for the
 * comma-separated recipe names in spec (NULL or "": "profile") plus the
 * comma-separated events in extra (NULL for none; the PERFDB_EXTRA_EVENTS
 * test hook), deduplicated in order. Returns 0, or -1 with
 * "unknown recipe 'x' (recipes: ...)" in err and *p empty. Free with
 * recipe_plan_free. */
int recipe_plan_make(struct recipe_plan *p, const char *spec, const char *extra,
		     const struct recipe_env *env, char *err, size_t errlen);

/* recipe_plan_free(p): frees what *p holds and empties it. */
void recipe_plan_free(struct recipe_plan *p);

/* recipe_plan_drop_missing(p, tracefs): moves every tracepoint (SYS:NAME)
 * of p that tracefs (a tracefs mount point) does not have into
 * p->missing. A tracefs that cannot be read (permissions) drops nothing.
 * Returns the number of events moved. */
int recipe_plan_drop_missing(struct recipe_plan *p, const char *tracefs);

/* recipe_events(bit): the NULL-terminated event list of one recipe
 * (profile's is empty: its event depends on the PMU). */
const char *const *recipe_events(unsigned bit);

/* recipe_name(bit): "sched", "tlb", "profile", "c2c" or "watch". */
const char *recipe_name(unsigned bit);

/* What perf record gets besides the events. */
enum callgraph { CG_NONE, CG_FP, CG_DWARF };
struct perf_opts {
	const char *perf;	/* the perf program */
	const char *output;	/* -o FILE */
	const char *cpus;	/* -C CPUS, or NULL */
	unsigned freq;		/* profile's sampling frequency; 0: 999 */
	unsigned mmap_pages;	/* -m; 0: 1024 */
	enum callgraph callgraph;	/* -g / --call-graph dwarf asked for */
	bool quiet;		/* -q: perf prints no summary */
};

/* recipe_perf_argv(p, o, workload): the perf command line, NULL
 * terminated, every string malloc'ed (free with argv_free):
 *   perf record -o FILE [-q] [-a] [-C CPUS] -m PAGES [-F FREQ] -e EV... [-g] -- WORKLOAD...
 * With c2c: perf c2c record -- RECORD-OPTIONS -- WORKLOAD (perf c2c picks
 * the memory events and passes everything after its "--" to perf record).
 * profile alone gets -F FREQ and -g (or --call-graph dwarf); profile next
 * to tracepoints gets EV/freq=FREQ,call-graph=fp/ instead, as a global -F
 * would make the tracepoints frequency-sampled; -g / --call-graph dwarf
 * asked for then apply to every event. Never NULL. */
char **recipe_perf_argv(const struct recipe_plan *p, const struct perf_opts *o,
			char *const workload[]);

/* argv_free(argv): frees an argv of malloc'ed strings; NULL allowed. */
void argv_free(char **argv);

/* argv_join(argv): the words of argv joined by blanks, each quoted for a
 * POSIX shell when it needs it ('it'\''s'), malloc'ed (never NULL; "" for
 * no words). */
char *argv_join(char *const argv[]);

/* ---- probes of the running machine ---- */

/* perf_program(): $PERFDB_PERF when set (tests), else "perf". */
const char *perf_program(void);

/* find_program(name, buf, len): the path execvp would run for name
 * (searched in $PATH unless it holds a '/') into buf. Returns 0, or an
 * errno (ENOENT not found, EACCES not executable). */
int find_program(const char *name, char *buf, size_t len);

/* tracefs_mount(buf, len): the tracefs mount point (from /proc/mounts,
 * else /sys/kernel/tracing or /sys/kernel/debug/tracing when they hold
 * events/) into buf; NULL when there is none. */
const char *tracefs_mount(char *buf, size_t len);

/* tracefs_mount_if_needed(buf, len, err, errlen): tracefs_mount(buf,
 * len), and when there is none, mounts tracefs on /sys/kernel/tracing (as
 * perf does; it takes root or CAP_SYS_ADMIN) and looks again. NULL when
 * there is still none, with the reason (the mount's errno) in err. */
const char *tracefs_mount_if_needed(char *buf, size_t len, char *err, size_t errlen);

/* tracepoint_exists(tracefs, event): 1 when tracefs/events/SYS/NAME
 * exists for event "SYS:NAME", 0 when it does not, -1 when tracefs
 * cannot be read (permissions) or event is not SYS:NAME. */
int tracepoint_exists(const char *tracefs, const char *event);

/* pmu_has_cycles(why, len): whether perf_event_open of the hardware
 * cycles event works for this process (user space only, so any
 * perf_event_paranoid below 3 allows it); when not, why gets the error. */
bool pmu_has_cycles(char *why, size_t len);

/* mem_events_probe(perf, why, len): whether perf c2c / perf mem can
 * record here, by perf's own answer to `perf mem record -e list` (it
 * lists the events without recording, or says why it cannot). Returns 1
 * supported, 0 not (why gets perf's message), -1 perf could not be run
 * (why says so). */
int mem_events_probe(const char *perf, char *why, size_t len);

/* mem_events_sysfs(buf, len): the memory-sampling PMUs sysfs shows
 * (cpu/events/mem-loads, mem-stores, ibs_op, arm_spe*), comma
 * separated, into buf; "" when none. Returns buf. */
const char *mem_events_sysfs(char *buf, size_t len);

/* run_capture(argv, out, len, wstatus): runs argv (execvp, no shell) with
 * stdin from /dev/null and stdout+stderr into out (NUL-terminated, cut
 * to len-1 bytes), waits for it. Returns 0 with *wstatus set, or -1 when
 * it could not be started (out says why). */
int run_capture(char *const argv[], char *out, size_t len, int *wstatus);
#endif
