/* A short live check of whether this machine's TLB-flush IPIs can be seen,
 * for perfdb doctor: a thread of this process spins on one CPU while
 * another, on a second CPU, writes and drops pages (madvise
 * MADV_DONTNEED), so that each drop must flush the spinning CPU's TLB;
 * perf_event_open counts the tracepoints of the two threads: flush attempts
 * (tlb:tlb_flush reason 4) and IPIs sent (ipi:ipi_send_cpu/cpumask) by the
 * dropping thread, flushes received by IPI (tlb:tlb_flush reason 1, traced
 * in the IPI's function) on the spinning one. A kernel that flushes other
 * CPUs' TLBs with a hypercall or a broadcast sends no IPI: perfdb ipis then
 * counts none, and that is no measurement. */
#ifndef PERFDB_FLUSH_PROBE_H
#define PERFDB_FLUSH_PROBE_H
#include <stddef.h>

/* What the probe saw. */
struct flush_probe {
	int cpus;		/* CPUs online */
	int sender, target;	/* the dropping and the spinning thread's CPUs */
	double seconds;		/* how long pages were dropped */
	double ran;		/* how long the spinner ran meanwhile */
	long long drops;	/* pages dropped while the spinner ran */
	long long attempts;	/* tlb_flush reason 4 of the dropping thread */
	long long sends;	/* ipi_send_cpu + ipi_send_cpumask of the dropping thread */
	long long received;	/* tlb_flush reason 1 on the spinning thread */
};

/* Its verdict. */
enum flush_seen {
	FLUSH_IPIS_SEEN,	/* flushes reached the spinning CPU by IPI */
	FLUSH_IPIS_NOT_SEEN,	/* drops, and neither an IPI sent nor a flush received */
	FLUSH_IPIS_UNTOLD,	/* cannot be checked here (why says so) */
};

/* flush_probe_run(tracefs, seconds, p, why, len): runs the probe for about
 * seconds (tracefs: where tracefs is mounted, for the tracepoints' ids) and
 * fills p; the verdict is flush_probe_verdict's, or FLUSH_IPIS_UNTOLD
 * with one line in why: fewer than 2 CPUs online or allowed, no
 * tlb:tlb_flush tracepoint, perf_event_open refused. Restores the calling
 * thread's CPU affinity. */
enum flush_seen flush_probe_run(const char *tracefs, double seconds, struct flush_probe *p,
				char *why, size_t len);

/* flush_probe_verdict(p, why, len): what p's counts say: seen when a flush
 * was received by IPI; untold when the spinner ran less than half the
 * time, or IPIs were sent and no flush received, or fewer than 100 drops;
 * else (no IPI sent, none received) not seen. why: one line when untold. */
enum flush_seen flush_probe_verdict(const struct flush_probe *p, char *why, size_t len);
#endif
