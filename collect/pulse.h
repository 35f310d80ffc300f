/* The machine's pulse: how fast this machine runs code no kernel change
 * touches, measured between a bench's runs (and before a recording), and
 * how much of its CPU time other processes and the hypervisor took while
 * a run went on. A report compares the two sides' pulse and load to tell
 * a kernel's change from the machine's own (docs/statistics.md).
 *
 * The probe runs one thread pinned to each CPU perfdb may run on (at most
 * PULSE_MAX_CPUS of them, spread over the set), all at once: an integer
 * loop (a dependent chain of multiplies, shifts and xors: no memory, no
 * system call) for PULSE_PHASE_NS, then a read of a buffer of its own of
 * PULSE_MEM_BYTES (allocated and touched once, in small pages, so that no
 * page fault or huge-page policy of the kernel under test is in it) for
 * PULSE_PHASE_NS, after one untimed pass over it (the caches then hold
 * what the machine keeps of it, not what the last run left). Each phase is timed on CLOCK_MONOTONIC over whole
 * chunks; a thread that loses its CPU to another task is slower, which is
 * what the pulse is to show. The rates are the mean over the threads. */
#ifndef PERFDB_PULSE_H
#define PERFDB_PULSE_H
#include <stdbool.h>
#include <stdint.h>

#define PULSE_MAX_CPUS 16
#define PULSE_PHASE_NS 8000000		/* 8 ms a phase */
#define PULSE_MEM_BYTES (16u << 20)	/* a thread's buffer: past the private caches */

/* One probe's result; NaN where it could not be measured. */
struct pulse {
	double int_rate;	/* million loop iterations a second, mean per CPU */
	double mem_rate;	/* GB (1e9 bytes) read a second, mean per CPU */
};

struct pulse_probe;

/* pulse_probe_new(): the probe's threads' CPUs and buffers (touched now,
 * so that a measurement faults nothing in). NULL when no CPU or no memory
 * could be had (errno set). */
struct pulse_probe *pulse_probe_new(void);

/* pulse_measure(p, out): one probe; 0, or -1 when a thread could not be
 * started or pinned (out is NaN then). Takes about 2 * PULSE_PHASE_NS. */
int pulse_measure(struct pulse_probe *p, struct pulse *out);

/* pulse_probe_cpus(p): how many CPUs the probe runs on. */
int pulse_probe_cpus(const struct pulse_probe *p);

/* pulse_probe_free(p): frees p (NULL is fine). */
void pulse_probe_free(struct pulse_probe *p);

/* CPU time counters at one instant. */
struct cpu_clock {
	int64_t busy_ns;	/* every CPU's user, nice, system, irq and softirq time (/proc/stat) */
	int64_t steal_ns;	/* every CPU's steal time */
	int64_t ours_ns;	/* perfdb's own CPU time and its waited-for children's (getrusage) */
	bool ok;		/* /proc/stat was read */
};

/* cpu_clock_read(c): the counters now. */
void cpu_clock_read(struct cpu_clock *c);

/* What other processes and the hypervisor took between two readings.
 * /proc/stat counts CPU time in whole ticks (USER_HZ, 10 ms a CPU) where
 * getrusage is exact, so others_ns is off by up to a tick a CPU either
 * way, negative included: it is an estimate whose sum over many runs is
 * right, not a measurement of one short run. */
struct run_load {
	int64_t others_ns;	/* busy time not perfdb's nor its children's; INT64_MIN unknown */
	int64_t steal_ns;	/* -1: unknown (the hypervisor reports no steal time at all) */
};

/* run_load_between(a, b, out): the load from reading a to reading b
 * (others_ns INT64_MIN and steal_ns -1 when a reading failed). A steal
 * counter still 0 at b means the machine reports none: unknown. */
void run_load_between(const struct cpu_clock *a, const struct cpu_clock *b, struct run_load *out);

/* proc_stat_parse(text, tick_ns, c): the busy and steal times of
 * /proc/stat's aggregate "cpu" line into c (ours_ns untouched). 0, or -1
 * when text has no such line. Pure: for tests. */
int proc_stat_parse(const char *text, int64_t tick_ns, struct cpu_clock *c);
#endif
