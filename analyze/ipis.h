/* TLB-flush IPIs and where they land: the core of `perfdb ipis`, as pure
 * functions over a session's events (analyze/mm_timeline.h) so the unit
 * tests can feed hand-written sequences.
 *
 * An IPI here is one flush request to one remote CPU: a csd:csd_queue_cpu
 * whose function is flush_tlb_func (the "csd" source), or, on recordings
 * without csd events, an ipi:ipi_send_cpu/ipi_send_cpumask target whose
 * callsite or callback is a TLB-flush function or that follows a flush
 * attempt on its CPU (the "ipi" source). The
 * flushed mm is the mm of the sender's current task. The receiver is the
 * target's csd:csd_function_entry of the same csd (the next one after the
 * queue; a csd is not reused before its function ran), and the receiver's
 * verdict is the first tlb:tlb_flush the target traced inside that function
 * (reason 1: flushed, 5: wrong CPU, 0: lazy CPU left for init_mm, none: it
 * was already up to date, or the kernel does not trace it).
 *
 * Class: where the IPI found its target (mm_timeline.h): at the receiver's
 * entry when it is known, else at the send. Ambiguous: the target's class
 * changed between window_ns before the send (sched_switch fires before the
 * CR3 write the sender looks at) and the receiver's entry (window_ns after
 * the send when no entry is known): a target that switched while the IPI
 * was on its way. */
#ifndef PERFDB_IPIS_H
#define PERFDB_IPIS_H
#include "analyze/mm_timeline.h"

/* The default ambiguity window, ns. */
#define IPIS_WINDOW_NS 20000
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

struct ipi {
	int64_t send;    /* time of the queue (or send) on the sender */
	int64_t receipt; /* time of the receiver's function entry, or -1 */
	int64_t mm;      /* the flushed mm (process row id) or MM_UNKNOWN */
	int32_t sender, target;
	int32_t site;    /* callsite name index, or -1 */
	int8_t reason;   /* receiver's tlb_flush reason, -1 none */
	uint8_t raised;  /* an ipi_send to the target followed the queue (an
			  * interrupt was raised, not piggybacked on one) */
	uint8_t cls;     /* enum tl_class (ipis_classify) */
	uint8_t cls_send; /* the class at the send */
	uint8_t ambiguous;
};

/* What ipis_match finds in a session. */
struct ipi_set {
	struct ipi *v;
	size_t n, cap;
	int64_t *attempt_mm; /* one per tlb_flush reason 4: the sender's mm */
	size_t nattempts, attempt_cap;
};

/* ipis_match(ev, n, id, ncpus, csd_source, out): the flush IPIs of events
 * ev (time order), from csd events when csd_source, else from ipi_send
 * events, with their receivers and verdicts, and the flush attempts
 * (tlb_flush reason 4: one per flush that had other CPUs in its cpumask,
 * before the kernel filters the targets). out is filled from empty. Never
 * fails (allocation follows lib/alloc.h). */
void ipis_match(const struct tl_event *ev, size_t n, const struct ident *id,
		int ncpus, bool csd_source, struct ipi_set *out);

/* ipi_set_free(s): frees s's arrays. */
void ipi_set_free(struct ipi_set *s);

/* ipis_classify(v, n, tl, window_ns): sets cls, cls_send and ambiguous of
 * each IPI from the timelines. */
void ipis_classify(struct ipi *v, size_t n, const struct timeline *tl, int64_t window_ns);

/* ipi_rx_of(p): the receiver verdict of p. */
enum ipi_rx ipi_rx_of(const struct ipi *p);

/* ipi_bucket(p): the reported class of p: its class, or CL_N when it is
 * ambiguous. */
int ipi_bucket(const struct ipi *p);

/* ipi_agrees(cls, rx): whether the kernel's verdict rx confirms class cls:
 * running with reason 1, lazy with reason 0 (flush_tlb_func sends a lazy
 * CPU to init_mm), other with reason 5. */
bool ipi_agrees(enum tl_class cls, enum ipi_rx rx);

/* Counts of a group of IPIs (all, one process, one CPU pair, one site). */
struct ipi_counts {
	long long ipis, raised, wasted, ambiguous;
	long long cls[CL_N];  /* unambiguous IPIs by class */
	long long rx[RX_N];
};

/* ipi_count(c, p): adds p to c. wasted counts IPIs whose target held
 * another mm (or init_mm) when the IPI arrived, ambiguous or not. */
void ipi_count(struct ipi_counts *c, const struct ipi *p);

/* The whole-session summary. */
struct ipi_summary {
	struct ipi_counts all;
	long long attempts;
	long long amb_at_receipt[CL_N];   /* ambiguous IPIs by class at receipt */
	long long amb_matrix[CL_N][RX_N]; /* ambiguous: class at receipt x verdict */
	long long matrix[CL_N + 1][RX_N]; /* bucket (classes, ambiguous) x verdict */
	long long compared, agreeing;     /* unambiguous, known class, verdict 1/5/0 */
	long long agreeing_alt;           /* of those, running or lazy with 1, other with 5 */
	long long compared_rx, agreeing_rx; /* all received, class at receipt */
};

/* ipi_summarize(s, set): adds set's IPIs and attempts to s. */
void ipi_summarize(struct ipi_summary *s, const struct ipi_set *set);
#endif
