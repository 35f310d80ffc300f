/* ipis_fixture: writes a perf.data recording of TLB flushes on 2 CPUs, as
 * the tlb recipe records tlbflush --others spin, and a kallsyms text for
 * it, for tests/integration/ipis_unseen.sh (written with tests/lib/pdwriter;
 * the formats are the tracepoints' of a 6.18 x86 kernel):
 *
 *   ipis_fixture seen|unseen|stray N PERF_DATA KALLSYMS [nopv]
 *
 * Process tlbflush (pid 1000) runs thread 1000 on CPU 0 and thread 1001 on
 * CPU 1 (sched_switch from idle on each), and thread 1000 flushes N times:
 * tlb_flush reason 3 then reason 4 (a flush attempt of an mm CPU 1 runs).
 * MODE seen: each attempt is followed by its flush IPI, as a kernel that
 * sends them traces it (csd_queue_cpu of flush_tlb_func to CPU 1, an
 * ipi_send_cpu, and CPU 1's csd_function_entry, tlb_flush reason 1 and
 * exit); MODE unseen: nothing follows (a kernel that flushes CPU 1 with a
 * hypercall); MODE stray: as unseen, but the middle flush has its IPI. All
 * have a wakeup IPI (sched_ttwu_pending) with the first
 * flush and every 25th after. KALLSYMS (also in the tracing data) holds
 * the symbols the events point at and the kernel's flush_tlb_multi
 * variants: native, pvm and kvm (nopv: native only), beside tracepoint
 * helpers whose names end the same way.
 * Exit 0, or 1 with a message on stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/lib/pdwriter.h"

/* Tracepoint ids (the format's ID and the attr's config). */
enum { ID_SWITCH = 372, ID_FLUSH = 188, ID_QUEUE = 529, ID_ENTRY = 528, ID_EXIT = 527, ID_SEND = 354 };

/* Kernel addresses the events point at (KALLSYMS names them). */
#define K_TEXT		0xffffffff81000000ULL
#define K_FLUSH_FUNC	0xffffffff8134afc0ULL
#define K_COND_MASK	0xffffffff81400020ULL	/* on_each_cpu_cond_mask+0x20 */
#define K_TTWU_PENDING	0xffffffff81200100ULL
#define K_TTWU_QUEUE	0xffffffff8120021dULL	/* ttwu_queue_wakelist+0x11d */
#define K_SINGLE_IRQ	0xffffffff81400400ULL
#define CSD_FLUSH	0xffff888627d32520ULL
#define CSD_WAKE	0xffff888102e5dc38ULL

#define PID	1000
#define SPIN	1001
#define T0	1000000000ULL

/* A growing byte buffer. */
struct buf {
	unsigned char *p;
	size_t n, cap;
};

/* put(b, p, n): appends n bytes. */
static void put(struct buf *b, const void *p, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p) {
			fprintf(stderr, "ipis_fixture: out of memory\n");
			exit(1);
		}
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

/* put_le(b, v, size): v little-endian in size bytes. */
static void put_le(struct buf *b, uint64_t v, int size)
{
	for (int i = 0; i < size; i++) {
		unsigned char c = (unsigned char)(v >> (8 * i));
		put(b, &c, 1);
	}
}

/* put_text(b, size, s): s after its length in size bytes. */
static void put_text(struct buf *b, int size, const char *s)
{
	put_le(b, strlen(s), size);
	put(b, s, strlen(s));
}

#define COMMON \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
#define F(decl, off, size, sgn) "\tfield:" #decl ";\toffset:" #off ";\tsize:" #size ";\tsigned:" #sgn ";\n"

static const char fmt_switch[] = "name: sched_switch\nID: 372\nformat:\n" COMMON
	F(char prev_comm[16], 8, 16, 0) F(pid_t prev_pid, 24, 4, 1) F(int prev_prio, 28, 4, 1)
	F(long prev_state, 32, 8, 1) F(char next_comm[16], 40, 16, 0) F(pid_t next_pid, 56, 4, 1)
	F(int next_prio, 60, 4, 1)
	"\nprint fmt: \"prev_comm=%s prev_pid=%d ==> next_comm=%s next_pid=%d\", REC->prev_comm, "
	"REC->prev_pid, REC->next_comm, REC->next_pid\n";
static const char fmt_flush[] = "name: tlb_flush\nID: 188\nformat:\n" COMMON
	F(int reason, 8, 4, 1) F(unsigned long pages, 16, 8, 0)
	"\nprint fmt: \"pages:%ld reason:%s (%d)\", REC->pages, __print_symbolic(REC->reason, "
	"{ 0, \"flush on task switch\" }, { 1, \"remote shootdown\" }, { 2, \"local shootdown\" }, "
	"{ 3, \"local MM shootdown\" }, { 4, \"remote IPI send\" }, { 5, \"remote wrong CPU\" }), "
	"REC->reason\n";
static const char fmt_queue[] = "name: csd_queue_cpu\nID: 529\nformat:\n" COMMON
	F(unsigned int cpu, 8, 4, 0) F(void * callsite, 16, 8, 0) F(void * func, 24, 8, 0)
	F(void * csd, 32, 8, 0)
	"\nprint fmt: \"cpu=%u callsite=%pS func=%ps csd=%p\", REC->cpu, REC->callsite, REC->func, REC->csd\n";
static const char fmt_entry[] = "name: csd_function_entry\nID: 528\nformat:\n" COMMON
	F(void * func, 8, 8, 0) F(void * csd, 16, 8, 0)
	"\nprint fmt: \"func=%ps, csd=%p\", REC->func, REC->csd\n";
static const char fmt_exit[] = "name: csd_function_exit\nID: 527\nformat:\n" COMMON
	F(void * func, 8, 8, 0) F(void * csd, 16, 8, 0)
	"\nprint fmt: \"func=%ps, csd=%p\", REC->func, REC->csd\n";
static const char fmt_send[] = "name: ipi_send_cpu\nID: 354\nformat:\n" COMMON
	F(unsigned int cpu, 8, 4, 0) F(void * callsite, 16, 8, 0) F(void * callback, 24, 8, 0)
	"\nprint fmt: \"cpu=%u callsite=%pS callback=%pS\", REC->cpu, REC->callsite, REC->callback\n";

/* system(b, name, fmts, n): one system's event formats. */
static void system_formats(struct buf *b, const char *name, const char *const *fmts, int n)
{
	put(b, name, strlen(name) + 1);
	put_le(b, (uint64_t)n, 4);
	for (int i = 0; i < n; i++)
		put_text(b, 8, fmts[i]);
}

/* tracing_data(b, ksyms): the TRACING_DATA section (v0.6, little-endian,
 * 8-byte longs, 4 KiB pages) with the six formats and the kallsyms text
 * ksyms (perf script names the csd functions with it). */
static void tracing_data(struct buf *b, const char *ksyms)
{
	const char *sched[] = { fmt_switch }, *tlb[] = { fmt_flush }, *ipi[] = { fmt_send },
		*csd[] = { fmt_queue, fmt_entry, fmt_exit };
	put(b, "\x17\x08\x44tracing0.6", 14);	/* with the version's NUL */
	put_le(b, 0, 1);
	put_le(b, 8, 1);
	put_le(b, 4096, 4);
	put(b, "header_page", 12);
	put_text(b, 8, "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		 "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
		 "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
		 "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n");
	put(b, "header_event", 13);
	put_text(b, 8, "# compressed entry header\n\ttype_len    :    5 bits\n"
		 "\ttime_delta  :   27 bits\n\tarray       :   32 bits\n\n");
	put_le(b, 0, 4);	/* ftrace formats */
	put_le(b, 4, 4);	/* systems */
	system_formats(b, "sched", sched, 1);
	system_formats(b, "tlb", tlb, 1);
	system_formats(b, "csd", csd, 3);
	system_formats(b, "ipi", ipi, 1);
	put_text(b, 4, ksyms);
	put_le(b, 0, 4);	/* printk formats */
	put_le(b, 0, 8);	/* saved cmdlines */
}

/* The file being written: its evsels by tracepoint. */
struct fx {
	struct pdw *w;
	int ev[6];		/* switch, flush, queue, entry, exit, send */
	uint64_t ids[6][1];
};

enum { E_SWITCH, E_FLUSH, E_QUEUE, E_ENTRY, E_EXIT, E_SEND };

/* add_attrs(f): the six tracepoint evsels. */
static void add_attrs(struct fx *f)
{
	static const uint32_t ids[] = { ID_SWITCH, ID_FLUSH, ID_QUEUE, ID_ENTRY, ID_EXIT, ID_SEND };
	static const char *const names[] = { "sched:sched_switch", "tlb:tlb_flush", "csd:csd_queue_cpu",
		"csd:csd_function_entry", "csd:csd_function_exit", "ipi:ipi_send_cpu" };
	for (int i = 0; i < 6; i++) {
		f->ids[i][0] = 100 + (uint64_t)i;
		struct pdw_attr a = { .type = 2, .config = ids[i], .sample_period = 1,
			.sample_type = PDW_SAMPLE_IDENTIFIER | PDW_SAMPLE_IP | PDW_SAMPLE_TID |
				PDW_SAMPLE_TIME | PDW_SAMPLE_CPU | PDW_SAMPLE_PERIOD | PDW_SAMPLE_RAW,
			.flags = PDW_ATTR_DISABLED | PDW_ATTR_INHERIT | PDW_ATTR_SAMPLE_ID_ALL |
				(i ? 0 : PDW_ATTR_COMM | PDW_ATTR_TASK | PDW_ATTR_COMM_EXEC),
			.ids = f->ids[i], .nr_ids = 1, .name = names[i] };
		f->ev[i] = pdw_add_attr(f->w, &a);
	}
}

/* features(f, ksyms): the header features of a 2-CPU x86 recording. */
static void features(struct fx *f, const char *ksyms)
{
	const char *argv[] = { "perf", "record", "-a", "-e", "tlb", "--", "tlbflush", "--others", "spin" };
	struct buf b = { 0 };
	pdw_feat_string(f->w, PDW_FEAT_HOSTNAME, "ipis-fixture");
	pdw_feat_string(f->w, PDW_FEAT_OSRELEASE, "6.18.0-fixture");
	pdw_feat_string(f->w, PDW_FEAT_VERSION, "6.1.0");
	pdw_feat_string(f->w, PDW_FEAT_ARCH, "x86_64");
	pdw_feat_string(f->w, PDW_FEAT_CPUDESC, "fixture CPU");
	pdw_feat_nrcpus(f->w, 2, 2);
	pdw_feat_cmdline(f->w, 9, argv);
	pdw_feat_event_desc(f->w);
	tracing_data(&b, ksyms);
	pdw_feat_tracing_data(f->w, b.p, b.n);
	free(b.p);
}

/* tp(f, e, cpu, tid, t, raw, size): one tracepoint sample of evsel e;
 * raw's common fields are filled here. */
static void tp(struct fx *f, int e, uint32_t cpu, uint32_t tid, uint64_t t, unsigned char *raw,
	       uint32_t size)
{
	static const uint16_t ids[] = { ID_SWITCH, ID_FLUSH, ID_QUEUE, ID_ENTRY, ID_EXIT, ID_SEND };
	uint32_t pid = tid ? PID : 0;
	memcpy(raw, &ids[e], 2);
	memcpy(raw + 4, &tid, 4);
	struct pdw_sample s = { .id = f->ids[e][0], .ip = K_TEXT + 0x1000, .pid = pid, .tid = tid,
		.time = t, .cpu = cpu, .period = 1, .raw = raw, .raw_size = size };
	pdw_sample(f->w, f->ev[e], PDW_MISC_KERNEL, &s);
}

/* switch_to(f, cpu, prev, next, t): sched_switch on cpu (tid 0: idle). */
static void switch_to(struct fx *f, uint32_t cpu, uint32_t prev, uint32_t next, uint64_t t)
{
	unsigned char r[64] = { 0 };
	int32_t pp = (int32_t)prev, np = (int32_t)next, prio = 120;
	strcpy((char *)r + 8, prev ? "tlbflush" : "swapper/0");
	memcpy(r + 24, &pp, 4);
	memcpy(r + 28, &prio, 4);
	strcpy((char *)r + 40, next ? "tlbflush" : "swapper/0");
	memcpy(r + 56, &np, 4);
	memcpy(r + 60, &prio, 4);
	tp(f, E_SWITCH, cpu, prev, t, r, sizeof(r));
}

/* flush(f, cpu, tid, t, reason): tlb_flush of one page. */
static void flush(struct fx *f, uint32_t cpu, uint32_t tid, uint64_t t, int32_t reason)
{
	unsigned char r[24] = { 0 };
	uint64_t pages = 1;
	memcpy(r + 8, &reason, 4);
	memcpy(r + 16, &pages, 8);
	tp(f, E_FLUSH, cpu, tid, t, r, sizeof(r));
}

/* ipi(f, t, func, csd, site, flush): CPU 0 queues func's csd for CPU 1 and
 * sends the IPI; CPU 1 runs it (and flushes, for a flush). */
static void ipi(struct fx *f, uint64_t t, uint64_t func, uint64_t csd, uint64_t site, bool is_flush)
{
	unsigned char q[40] = { 0 }, s[32] = { 0 }, e[24] = { 0 };
	uint32_t target = 1;
	uint64_t cb = K_SINGLE_IRQ;
	memcpy(q + 8, &target, 4);
	memcpy(q + 16, &site, 8);
	memcpy(q + 24, &func, 8);
	memcpy(q + 32, &csd, 8);
	tp(f, E_QUEUE, 0, PID, t, q, sizeof(q));
	memcpy(s + 8, &target, 4);
	memcpy(s + 16, &site, 8);
	memcpy(s + 24, &cb, 8);
	tp(f, E_SEND, 0, PID, t + 500, s, sizeof(s));
	memcpy(e + 8, &func, 8);
	memcpy(e + 16, &csd, 8);
	tp(f, E_ENTRY, 1, SPIN, t + 6000, e, sizeof(e));
	if (is_flush)
		flush(f, 1, SPIN, t + 6500, 1);
	tp(f, E_EXIT, 1, SPIN, t + 7000, e, sizeof(e));
}

/* records(f, seen, n): the process, its two threads on their CPUs, n
 * flushes (with their IPIs when seen > 0, the middle one's only when
 * seen < 0) and the wakeups. */
static void records(struct fx *f, int seen, int n)
{
	struct pdw_sid s = { .pid = PID, .tid = PID, .time = T0, .id = f->ids[0][0], .cpu = 0 };
	pdw_comm(f->w, f->ev[0], PDW_MISC_COMM_EXEC, PID, PID, "tlbflush", &s);
	s.time += 1000;
	s.tid = SPIN;
	pdw_fork(f->w, f->ev[0], PID, PID, SPIN, PID, s.time, &s);
	switch_to(f, 0, 0, PID, T0 + 10000);
	switch_to(f, 1, 0, SPIN, T0 + 11000);
	for (int i = 0; i < n; i++) {
		uint64_t t = T0 + 100000 + 20000 * (uint64_t)i;
		flush(f, 0, PID, t, 3);
		flush(f, 0, PID, t + 1000, 4);
		if (seen > 0 || (seen < 0 && i == n / 2))
			ipi(f, t + 2000, K_FLUSH_FUNC, CSD_FLUSH, K_COND_MASK, true);
		if (i % 25 == 0)
			ipi(f, t + 12000, K_TTWU_PENDING, CSD_WAKE, K_TTWU_QUEUE, false);
	}
	uint64_t end = T0 + 100000 + 20000 * (uint64_t)n;
	switch_to(f, 0, PID, 0, end);
	switch_to(f, 1, SPIN, 0, end + 1000);
	pdw_finished_round(f->w);
}

/* The kallsyms text: the symbols the events point at, the flush functions
 * (the paravirtualized ones only with pv) and tracepoint helpers whose
 * names end in _flush_tlb_multi too. */
static const char ksyms_head[] = "ffffffff81000000 T _text\nffffffff81000000 T _stext\n"
	"ffffffff81200100 t sched_ttwu_pending\nffffffff81200200 t ttwu_queue_wakelist\n"
	"ffffffff81330000 t __traceiter_xen_mmu_flush_tlb_multi\n"
	"ffffffff81330100 t trace_raw_output_hyperv_mmu_flush_tlb_multi\n";
static const char ksyms_pv[] = "ffffffff8133a8e0 t __pfx_kvm_flush_tlb_multi\n"
	"ffffffff8133a8f0 t kvm_flush_tlb_multi\nffffffff8133c3d0 t __pfx_pvm_flush_tlb_multi\n"
	"ffffffff8133c3e0 t pvm_flush_tlb_multi\n";
static const char ksyms_tail[] = "ffffffff8134afc0 t flush_tlb_func\n"
	"ffffffff8134b6d0 T native_flush_tlb_multi\nffffffff8134b820 T flush_tlb_multi\n"
	"ffffffff81400000 T on_each_cpu_cond_mask\n"
	"ffffffff81400400 T generic_smp_call_function_single_interrupt\nffffffff83000000 T _etext\n";

/* write_text(path, s): s into a new file path. 0, or -1. */
static int write_text(const char *path, const char *s)
{
	FILE *k = fopen(path, "w");
	if (!k)
		return -1;
	fputs(s, k);
	return fclose(k) ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct fx f = { 0 };
	int seen = argc < 5 ? 2 : !strcmp(argv[1], "seen") ? 1 : !strcmp(argv[1], "stray") ? -1 :
		   !strcmp(argv[1], "unseen") ? 0 : 2;
	int n = argc >= 5 ? atoi(argv[2]) : 0;
	if (argc < 5 || argc > 6 || seen == 2 || n <= 0 || (argc == 6 && strcmp(argv[5], "nopv"))) {
		fprintf(stderr, "usage: ipis_fixture seen|unseen|stray N PERF_DATA KALLSYMS [nopv]\n");
		return 1;
	}
	char ksyms[sizeof(ksyms_head) + sizeof(ksyms_pv) + sizeof(ksyms_tail)];
	snprintf(ksyms, sizeof(ksyms), "%s%s%s", ksyms_head, argc == 5 ? ksyms_pv : "", ksyms_tail);
	f.w = pdw_new(NULL);
	add_attrs(&f);
	features(&f, ksyms);
	records(&f, seen, n);
	if (pdw_write(f.w, argv[3]) || write_text(argv[4], ksyms)) {
		fprintf(stderr, "ipis_fixture: %s\n", pdw_error(f.w) ? pdw_error(f.w) : argv[4]);
		pdw_free(f.w);
		return 1;
	}
	pdw_free(f.w);
	return 0;
}
