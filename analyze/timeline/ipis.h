/* TLB-flush IPIs and where they land: the core of `perfdb ipis`, as pure
 * functions over a session's events (analyze/timeline/mm_timeline.h) so the unit
 * tests can feed hand-written sequences.
 *
 * An IPI here is one flush request to one remote CPU: a csd:csd_queue_cpu
 * whose function is flush_tlb_func (the "csd" source), or, on recordings
 * without csd events, an ipi:ipi_send_cpu/ipi_send_cpumask target whose
 * callsite or callback is a TLB-flush function or that follows a flush
 * attempt on its CPU (the "ipi" source). The
 * flushed mm is the mm of the sender's current task. The receiver is the
 * target's csd:csd_function_entry of the same csd (the next one after the
 * queue, within IPIS_MAX_RX_NS; a csd is not reused before its function
 * ran), and the receiver's
 * verdict is the first tlb:tlb_flush the target traced inside that function
 * (reason 1: flushed, 5: wrong CPU, 0: lazy CPU left for init_mm, none: it
 * was already up to date, or the kernel does not trace it).
 *
 * Class, judged on arrival: what the target ran when the receiver's
 * function entry was traced (mm_timeline.h: the entry's own sample says
 * which task was current): running (a task of the flushed mm), lazy (the mm
 * held by idle or a kernel thread after a task of it), other (another mm
 * or init_mm: a wasted IPI), unknown (no history of the target yet, or the
 * flushed mm unknown), or unverified when no receiver was recorded (never
 * guessed from the sender's side; why, when it can be told, in ipi.why).
 * Without csd events the receiver is the target's reason 1 or 5 flush that
 * followed the send. Separately, switched_near_send: the target's class
 * for the mm changed in the window_ns before the send (sched_switch fires
 * before the CR3 write the sender looks at), the sender's view of why it
 * sent, which says nothing of where the IPI landed. */
#ifndef PERFDB_IPIS_H
#define PERFDB_IPIS_H
#include "analyze/timeline/mm_timeline.h"
#include "lib/hashmap.h"

/* The default window of switched_near_send, ns. */
#define IPIS_WINDOW_NS 20000
/* The "csd" source: an entry this long after the queue of its csd is the
 * receiver of a later queue perf did not record (lost events), not of
 * that one (a flush waits for its receivers). */
#define IPIS_MAX_RX_NS 100000000
/* The "ipi" source: a flush of reason 1 or 5 on the target at most this
 * long after the send is taken as its receiver's verdict. */
#define IPIS_FALLBACK_RX_NS 1000000
/* The "ipi" source: an ipi_send at most this long after a flush attempt
 * (tlb_flush reason 4, traced just before the kernel sends the flush IPIs)
 * on the same CPU, with no other event between, is a flush IPI too (since
 * v6.5 the send's callsite and callback name no flush function). */
#define IPIS_ATTEMPT_NS 50000

/* Receiver verdicts, in the order of the output columns. */
enum ipi_rx { RX_1, RX_5, RX_0, RX_NONE, RX_N };

/* rx_name(r): "reason1", "reason5", "reason0", "none". */
const char *rx_name(enum ipi_rx r);

/* Why an IPI is unverified, as far as the recording tells: no csd events
 * (a receiver is only seen by its reason 1/5 flush), the recording ended
 * before the target's next event, the target switched without a trace
 * around the send (it ran a task perf recorded nothing of), the recording
 * lost events, or none of these. */
enum ipi_why { WHY_NONE, WHY_NO_CSD, WHY_END, WHY_UNTRACED, WHY_LOST, WHY_N };

/* why_name(w): "no_csd", "recording_end", "untraced_task", "lost_events",
 * "not_seen" (for WHY_NONE). */
const char *why_name(enum ipi_why w);

/* Why an IPI's class is unknown: its target had no history yet, the
 * flushed mm is not known (the sender ran a kernel thread or a task perf
 * never named), the target's mm was not known after a switch the kernel
 * did not trace (or a task without an mm known), or it was unsure whether
 * the target ran or held the mm lazily (an untraced stretch between). */
enum ipi_unknown { UNK_NO_HISTORY, UNK_FLUSHED_MM, UNK_UNTRACED, UNK_TARGET_MM, UNK_LAZY_UNSURE, UNK_N };

/* unknown_name(u): "no_history", "flushed_mm_unknown", "untraced_switch",
 * "target_mm_unknown", "lazy_unsure". */
const char *unknown_name(enum ipi_unknown u);

struct ipi {
	int64_t send;    /* time of the queue (or send) on the sender */
	int64_t receipt; /* time of the receiver's function entry (without
			  * csd events: of its verdict), or -1: not recorded */
	int64_t mm;      /* the flushed mm (process row id) or MM_UNKNOWN */
	int32_t sender, target;
	int32_t site;    /* callsite name index, or -1 */
	int8_t reason;   /* receiver's tlb_flush reason, -1 none */
	uint8_t raised;  /* an ipi_send to the target followed the queue (an
			  * interrupt was raised, not piggybacked on one) */
	uint8_t cls;     /* enum tl_class (ipis_classify) */
	uint8_t why;     /* enum ipi_why when cls is CL_UNVERIFIED, enum
			  * ipi_unknown when CL_UNKNOWN */
	uint8_t near_send; /* switched_near_send */
};

/* What ipis_match finds in a session. */
struct ipi_set {
	struct ipi *v;		/* IPIs base, base + 1 ... (with a sink: those */
	size_t n, cap;		/* not dropped yet, see ipis_begin) */
	size_t base;
	int64_t *attempt_mm; /* one per tlb_flush reason 4: the sender's mm */
	size_t nattempts, attempt_cap;
	bool csd_source;     /* receivers from csd events */
	bool verdicts;       /* the caller's: the recording traced tlb_flush,
			      * so a received IPI's verdict can be compared */
};

/* ipis_match(ev, n, id, ncpus, csd_source, out): the flush IPIs of events
 * ev (time order), from csd events when csd_source, else from ipi_send
 * events, with their receivers and verdicts, and the flush attempts
 * (tlb_flush reason 4: one per flush that had other CPUs in its cpumask,
 * before the kernel filters the targets). out is filled from empty. Never
 * fails (allocation follows lib/alloc.h). */
void ipis_match(const struct tl_event *ev, size_t n, const struct ident *id,
		int ncpus, bool csd_source, struct ipi_set *out);

/* Where a streaming match hands over what it is done with: each flush
 * attempt's mm as it comes, and each IPI once nothing later can change its
 * match (receipt, verdict, raised), in the order they were sent. */
struct ipi_sink {
	void (*attempt)(void *ctx, int64_t mm);
	void (*ipi)(void *ctx, struct ipi *p);
	void *ctx;
};

/* The same match one event at a time (ipis_match is begin, feed every
 * event, finish), for events streamed from a database: the state is per
 * CPU and per IPI waiting for its receiver; without a sink the output
 * holds one entry per IPI and per flush attempt, with one only the IPIs
 * not handed over yet (those of the last IPIS_MAX_RX_NS, or waiting for
 * their receiver's exit). */
struct ipi_matcher {
	const struct ipi_sink *sink;	/* or NULL */
	size_t released;	/* IPIs handed to the sink: 0 .. released - 1 */
	int64_t now;		/* time of the last event fed */
	struct ipi_set *out;
	const struct ident *id;
	int ncpus;
	size_t cap;		/* CPUs the arrays hold */
	bool grow;		/* ncpus not known yet: grows with the events */
	bool csd_source;
	struct hashmap pending;	/* (target, csd) -> index + 1 of a queued IPI */
	long *running;		/* per CPU: index of the IPI in its function, or -1 */
	long *last_to;		/* per CPU: last IPI sent to it ("ipi" source), or -1 */
	int64_t *attempt_at;	/* per CPU: time of a flush attempt just before, or -1 */
	size_t **await;		/* per CPU: IPIs queued, waiting for their ipi_send */
	size_t *nawait, *capawait;
};

/* ipis_begin(m, id, ncpus, grow, csd_source, sink, out): starts a match as
 * ipis_match does. grow: the number of CPUs is only known at the end
 * (ncpus is then the least): a CPU an event names, as its own or as the
 * target of a queue or send, counts from that event on. sink (or NULL):
 * attempts and final IPIs go there (out->attempt_mm stays empty, out->v
 * holds the IPIs from out->base on not handed over yet). */
void ipis_begin(struct ipi_matcher *m, const struct ident *id, int ncpus, bool grow,
		bool csd_source, const struct ipi_sink *sink, struct ipi_set *out);

/* ipis_feed(m, e): takes the next event (time order). */
void ipis_feed(struct ipi_matcher *m, const struct tl_event *e);

/* ipis_finish(m): ends the match (the output stays; with a sink, every IPI
 * left is handed over); m is left empty. */
void ipis_finish(struct ipi_matcher *m);

/* ipi_set_free(s): frees s's arrays. */
void ipi_set_free(struct ipi_set *s);

/* ipis_classify(set, tl, window_ns, lost): sets cls, why and near_send of
 * each IPI of set from the timelines: the class at the receipt, or
 * CL_UNVERIFIED without one (why: WHY_NO_CSD without csd events, else
 * WHY_END when the target has no event after the send, WHY_LOST when a
 * span of lost (NULL: nothing lost) on the target CPU, or on an unknown
 * one, overlaps [send, send + IPIS_FALLBACK_RX_NS] (lost->whole: always),
 * WHY_UNTRACED when the target switched
 * without a trace within IPIS_FALLBACK_RX_NS of the send, else WHY_NONE);
 * near_send: the target's class for the mm changed in [send - window_ns,
 * send]. */
void ipis_classify(struct ipi_set *set, const struct timeline *tl, int64_t window_ns,
		   const struct lost_spans *lost);

/* ipi_classify_one(p, tl, window_ns, csd_source, lost): ipis_classify for
 * one IPI of a set whose receivers came from csd events when csd_source. */
void ipi_classify_one(struct ipi *p, const struct timeline *tl, int64_t window_ns, bool csd_source,
		      const struct lost_spans *lost);

/* ipi_rx_of(p): the receiver verdict of p. */
enum ipi_rx ipi_rx_of(const struct ipi *p);

/* ipi_agrees(cls, rx): whether the kernel's verdict rx confirms class cls
 * (arch/x86/mm/tlb.c flush_tlb_func): running with reason 1 or none (its
 * TLB was already up to date), lazy with reason 0 (a lazy CPU leaves for
 * init_mm), other with reason 5 (TLB_REMOTE_WRONG_CPU). */
bool ipi_agrees(enum tl_class cls, enum ipi_rx rx);

/* ipi_wasted_agrees(cls, rx): whether cls is other exactly when rx is
 * reason 5. */
bool ipi_wasted_agrees(enum tl_class cls, enum ipi_rx rx);

/* Counts of a group of IPIs (all, one process, one CPU pair, one site). */
struct ipi_counts {
	long long ipis, raised, wasted, near_send;
	long long cls[CL_N];  /* by class; they add up to ipis */
	long long rx[RX_N];
};

/* ipi_count(c, p): adds p to c. wasted counts class other only. */
void ipi_count(struct ipi_counts *c, const struct ipi *p);

/* The whole-session summary. */
struct ipi_summary {
	struct ipi_counts all;
	long long attempts;
	long long why[WHY_N];             /* unverified IPIs by why */
	long long unknown[UNK_N];         /* IPIs of class unknown by why */
	long long near_send_cls[CL_N];    /* switched_near_send IPIs by class */
	long long matrix[CL_N][RX_N];     /* class x verdict */
	long long compared;               /* running, lazy or other, with
					   * tlb_flush traced */
	long long agreeing;               /* of those, ipi_agrees */
	long long wasted_agreeing;        /* of those, ipi_wasted_agrees */
};

/* ipi_summarize_one(s, p, verdicts): adds one IPI to s (verdicts: as
 * ipi_set.verdicts). */
void ipi_summarize_one(struct ipi_summary *s, const struct ipi *p, bool verdicts);

/* ipi_summarize(s, set): adds set's IPIs and attempts to s. */
void ipi_summarize(struct ipi_summary *s, const struct ipi_set *set);

/* The guard on the instrument itself: whether the recording can show flush
 * IPIs at all. A flush attempt (tlb_flush reason 4) of an mm that a task
 * runs on another CPU must reach that CPU; a kernel that flushes other
 * CPUs' TLBs with a hypercall (paravirtualized flush_tlb_multi) or by
 * broadcast sends no IPI for it, and the recording then shows flushes and
 * no flush IPI to the CPUs that ran the mm. This many such flushes with
 * fewer than one flush IPI to such a CPU per IPIS_UNSEEN_PER flushes say
 * the IPIs cannot be seen (an IPI the "ipi" source takes for a flush's
 * because it follows an attempt may be another's: one is not enough). */
#define IPIS_UNSEEN_MIN 20
#define IPIS_UNSEEN_PER 100

/* What a session shows of it. */
struct ipi_seen {
	long long remote_flushes;  /* attempts of an mm another CPU was running */
	long long ipis_to_running; /* flush IPIs whose target ran the flushed mm
				    * when they were sent */
};

/* Whether the recording shows flush IPIs (ipis_visibility). */
enum ipi_visibility {
	IPIS_SEEN,	/* flush IPIs reached CPUs that ran the flushed mm */
	IPIS_NOT_SEEN,	/* IPIS_UNSEEN_MIN or more flushes of an mm another
			 * CPU ran, and (almost) no flush IPI to such a CPU */
	IPIS_UNTOLD,	/* too few such flushes to tell, and no IPI */
};

/* ipis_remote_runner(tl, cpu, t, mm): whether a CPU other than cpu ran a
 * task of mm (a process row id) at t, as the timelines say (class running;
 * unsure stretches do not count). */
bool ipis_remote_runner(const struct timeline *tl, int cpu, int64_t t, int64_t mm);

/* ipi_seen_event(s, tl, id, e): counts e in s when it is a flush attempt
 * (tlb_flush reason 4) whose task's mm another CPU was running; other
 * events are left alone. */
void ipi_seen_event(struct ipi_seen *s, const struct timeline *tl, const struct ident *id,
		    const struct tl_event *e);

/* ipi_seen_ipi(s, tl, p): counts IPI p in s when its target ran the
 * flushed mm when it was sent. */
void ipi_seen_ipi(struct ipi_seen *s, const struct timeline *tl, const struct ipi *p);

/* ipis_visibility(s): IPIS_NOT_SEEN when over IPIS_UNSEEN_MIN or more
 * flushes of an mm another CPU was running fewer than one flush IPI per
 * IPIS_UNSEEN_PER of them reached a CPU running the flushed mm; else
 * IPIS_SEEN when one did, IPIS_UNTOLD when none did. */
enum ipi_visibility ipis_visibility(const struct ipi_seen *s);
#endif
