/* The `watch` recipe: hardware write-watchpoints on chosen fields of the
 * workload's own mm_struct, of a global of the workload's binary, or of a
 * struct at an explicit address, for machines without PEBS/IBS/SPE (see
 * DESIGN.md, Recipes, and README.md, "perfdb record -r watch").
 *
 *   perfdb record -r watch --watch SPEC[,SPEC...] [--watch-mm exec|fork]
 *                 [--watch-baseline] -- CMD [ARG...]
 *
 * SPEC (at most WATCH_MAX of them: x86 has 4 debug registers):
 *   mm_struct.FIELD[+OFF][:LEN]     a field of the workload's mm_struct
 *                                   (dotted names: context.tlb_gen), its
 *                                   offset and size from the kernel's BTF
 *   TYPE[.FIELD][+OFF][:LEN]@ADDR   a field of struct TYPE at ADDR (the
 *                                   kernel's BTF, else the binary's DWARF)
 *   SYMBOL[.FIELD][+OFF][:LEN]      a global of the workload's binary (ELF
 *                                   symbol; FIELD through its DWARF, so
 *                                   the binary needs -g; PIE load address
 *                                   from /proc/PID/maps after the exec)
 * The watched bytes are the smallest aligned 1, 2, 4 or 8 bytes that
 * cover the field; a field wider than 8 bytes (or one that straddles an
 * 8-byte boundary) is watched over its first aligned 8 bytes, and that is
 * said. :LEN (1, 2, 4 or 8) forces the length.
 *
 * How a watched run goes (watch_run, collect/record/watch_run.c): the workload is
 * forked held (PTRACE_TRACEME, SIGSTOP), a perf_event_open tracepoint
 * mmap_lock:mmap_lock_acquire_returned for that task records the mm
 * pointers it locks; the workload execs and stops at the exec (ptrace exec
 * event), and the last mm it locked is its new mm_struct. With --watch-mm
 * fork perfdb follows it to its first fork instead (ptrace fork event) and
 * takes the mm the fork created (the last one locked that is not the
 * workload's own), for workloads whose measured threads live in a forked
 * process (workloads/yield). perfdb then checks every watchpoint with
 * perf_event_open(PERF_TYPE_BREAKPOINT) on every CPU (the kernel's refusal
 * is reported before anything is recorded), starts
 *   perf record -a -D -1 --control fd:CTL,ACK -k monotonic -g
 *               -e mem:0xADDR/LEN:w ... [the other recipes' events]
 * sends "enable" and waits for perf's "ack" (the watchpoints are armed),
 * releases the workload, waits for it, and stops perf with SIGINT. The
 * workload's stdout passes through perfdb, which keeps its
 * "metric=NAME value=V" lines (the workload's own rate, perturbed by one
 * trap per write); --watch-baseline runs CMD once unwatched first (not
 * recorded) to keep the unperturbed rate beside it.
 *
 * The canary (collect/record/watch_canary.c): a machine can accept hardware
 * watchpoints and never fire them (the kernel takes the event, the
 * counts stay 0), and then every field would look quiet. So perfdb also
 * watches a variable of its own process, mem:0xADDR/8:w beside the
 * user's events (perf records system-wide: the samples of perfdb's pid
 * are its writes), and writes it WATCH_CANARY_WRITES times once perf has
 * acknowledged "enable", before it releases the workload. When the
 * user's specs take every debug register, the canary is a counting
 * watchpoint on perfdb's own task instead, fired just before perf starts
 * ("probe"). A canary caught fewer times than written (less what perf
 * says it lost of its samples) means the watchpoints do not fire: the
 * probe stops the run before anything is recorded, a recorded canary
 * stops the import (nothing is stored either way).
 *
 * Stored per session (watch_store): table `watch`, one row per watched
 * field, table `workload_metric` (schema/tables.sql), and the canary's
 * row of `watch_canary` (schema/pulse.sql). */
#ifndef PERFDB_WATCH_H
#define PERFDB_WATCH_H
#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define WATCH_MAX 4		/* x86 debug registers */
#define WATCH_MAX_METRICS 16	/* metric lines kept per run */
#define WATCH_CANARY_WRITES 1000	/* writes of the canary while armed */

/* What a spec names. */
enum watch_kind {
	WATCH_MM,		/* mm_struct.FIELD of the workload's mm */
	WATCH_ADDR,		/* TYPE.FIELD@ADDR */
	WATCH_SYMBOL,		/* SYMBOL[.FIELD] of the workload's binary */
};

/* Window flags (watch_window). */
enum {
	WATCH_PARTIAL = 1,	/* the field has bytes the window does not cover */
	WATCH_WIDER = 2,	/* the window covers bytes outside the field */
};

/* One watched field: the parsed spec, then what resolving it found. */
struct watch_spec {
	char *text;		/* the spec as given */
	enum watch_kind kind;
	char *object;		/* mm_struct / TYPE / SYMBOL */
	char *field;		/* dotted field, "" for the whole object */
	int64_t plus;		/* +OFF (bytes into the field) */
	bool has_plus;		/* +OFF was given */
	int want_len;		/* :LEN, 0 when not given */
	uint64_t at;		/* WATCH_ADDR: ADDR */
	/* resolved before the run (BTF, ELF, DWARF) */
	char *name;		/* display name: mm_struct.mm_count, fs_shared.packed.bitmap_a */
	char *type_name;	/* struct of the object ("mm_struct", "struct fs_shared"), or NULL */
	char *field_type;	/* C type of the field, or NULL */
	int64_t offset;		/* of the watched field's first byte in the object */
	int64_t size;		/* the field's bytes from there */
	uint64_t sym_vaddr;	/* WATCH_SYMBOL: the symbol's ELF address */
	/* resolved at the exec (or fork) stop */
	uint64_t object_addr;	/* the object's run-time address */
	uint64_t addr;		/* watched address (aligned to len) */
	int len;		/* watched bytes: 1, 2, 4 or 8 */
	unsigned flags;		/* WATCH_PARTIAL, WATCH_WIDER */
};

/* A metric line of the workload ("metric=NAME value=V ..."). */
struct watch_metric {
	char name[64];
	double value;
	bool watched;		/* from the watched run (else --watch-baseline's) */
	char line[512];
};

/* How the canary is watched. */
enum watch_canary_how {
	WATCH_CANARY_NONE,	/* not at all (a watch set made by hand) */
	WATCH_CANARY_RECORDED,	/* its event in the recording, beside the user's */
	WATCH_CANARY_PROBE,	/* a counting watchpoint of perfdb's own task, apart */
};

/* The canary: a variable of perfdb's own process, watched and written
 * while the user's watchpoints are armed (see the top). */
struct watch_canary {
	enum watch_canary_how how;
	uint64_t addr;		/* the variable's address in perfdb */
	int len;		/* 8 */
	int cpu;		/* the CPU it is written on (one perf records), -1 any */
	pid_t pid;		/* perfdb's */
	long long writes;	/* made while armed (0 until written) */
	long long seen;		/* caught: the probe's count, or the recording's samples */
	long long lost;		/* samples of its event perf says it lost */
	int64_t write_ns;	/* how long the writes took, traps included */
};

/* Which mm --watch-mm targets. */
enum watch_mm { WATCH_MM_EXEC, WATCH_MM_FORK };

/* Everything about one watched recording. */
struct watch_set {
	struct watch_spec w[WATCH_MAX];
	size_t n;
	enum watch_mm mm_mode;
	bool baseline;		/* --watch-baseline */
	/* learnt during the run */
	pid_t pid;		/* the process whose mm / address space is watched */
	uint64_t mm;		/* its mm_struct, 0 when no mm spec */
	int64_t armed_ns, ended_ns;	/* CLOCK_MONOTONIC: watchpoints armed, workload ended */
	struct watch_metric metrics[WATCH_MAX_METRICS];
	size_t nmetrics;
	struct watch_canary canary;
};

/* watch_add_specs(ws, arg, err, errlen): parses the comma-separated specs
 * of one --watch argument into ws (nothing resolved yet). Returns 0, or
 * -1 with a message in err: a malformed spec, or more than WATCH_MAX in
 * all ("at most 4 watches: x86 has 4 debug registers (5 given)"). */
int watch_add_specs(struct watch_set *ws, const char *arg, char *err, size_t errlen);

/* watch_parse_one(text, len, out, err, errlen): one spec of len bytes
 * into *out (owning copies; free with watch_spec_free). 0 or -1. */
int watch_parse_one(const char *text, size_t len, struct watch_spec *out,
		    char *err, size_t errlen);

/* watch_spec_free(s): frees what *s holds and empties it. */
void watch_spec_free(struct watch_spec *s);

/* watch_set_free(ws): frees every spec of ws and empties it. */
void watch_set_free(struct watch_set *ws);

/* watch_window(field_addr, size, want_len, addr, len): the bytes to watch
 * for a field of size bytes at field_addr: with want_len (1, 2, 4, 8)
 * that length aligned down; else the smallest aligned 1, 2, 4 or 8 bytes
 * covering the whole field, or the 8 aligned bytes holding its first byte
 * when none does. Returns WATCH_PARTIAL / WATCH_WIDER flags. */
unsigned watch_window(uint64_t field_addr, int64_t size, int want_len, uint64_t *addr, int *len);

/* watch_event_name(s, buf, len): the perf event of a resolved spec,
 * "mem:0xADDR/LEN:w", into buf. Returns buf. */
const char *watch_event_name(const struct watch_spec *s, char *buf, size_t len);

/* watch_resolve_static(ws, binary, err, errlen): resolves what can be
 * before the run: mm_struct and TYPE fields from the running kernel's
 * BTF, SYMBOL[.FIELD] from binary's ELF symbols and DWARF (binary: the
 * workload's path as execvp finds it). Returns 0; 1 with a message when a
 * spec names nothing (an unknown struct, field or symbol, a field name
 * without DWARF, +OFF past the field); -1 with a message when the BTF or
 * the binary cannot be read. */
int watch_resolve_static(struct watch_set *ws, const char *binary, char *err, size_t errlen);

/* watch_place(ws, bias): the run-time addresses once the mm (ws->mm) and
 * the binary's load bias are known: object_addr, addr, len and flags of
 * every spec. */
void watch_place(struct watch_set *ws, uint64_t bias);

/* watch_describe(s, buf, len): one line for people: "mm_struct.mm_count
 * (atomic_t, 4 bytes at 0xffff...+0): watching mem:0x.../4:w", with
 * "only the first 8 of its 16 bytes" or "also N neighbouring bytes" when
 * flags say so. Returns buf. */
const char *watch_describe(const struct watch_spec *s, char *buf, size_t len);

/* watch_parse_metric(line, m): a workload stdout line "metric=NAME
 * value=V ..." into *m (watched left alone). true when it is one. */
bool watch_parse_metric(const char *line, struct watch_metric *m);

/* watch_store(db, session, ws, err, errlen): the watch rows, metric
 * lines and canary of ws into the session, inside the caller's
 * transaction. A recorded canary's seen and lost are counted here, from
 * the session's samples of its event by perfdb's pid. A database without
 * the watch tables (made before they existed) gets a warning and nothing
 * stored. Returns 0; 1 when the canary fell short (seen + lost < writes:
 * the watchpoints do not fire), with what was seen in err and nothing
 * stored; -1 with sqlite's message. */
int watch_store(sqlite3 *db, int64_t session, struct watch_set *ws, char *err, size_t errlen);

/* ---- the run (collect/record/watch_run.c) ---- */

/* What watch_run needs from perfdb record. */
struct watch_run_args {
	char **perf_argv;	/* perf record ... -- (no workload); NULL-terminated */
	char *const *workload;	/* CMD [ARG...] */
	const char *status;	/* status file, written as the __exec wrapper does */
	const char *cpus;	/* -C list, or NULL for all online CPUs */
	bool quiet;
};

/* What came of it. */
struct watch_outcome {
	char **perf_argv;	/* perf's full command line (malloc'ed, argv_free) */
	int perf_ws;		/* perf's wait status; -1 when perf never ran */
	bool interrupted;	/* SIGINT/SIGTERM/SIGHUP arrived */
};

/* watch_run(ws, a, out): the whole watched run (see the top). Returns 0
 * when perf ran and the workload's end is in the status file (even when
 * interrupted), or 2 (EXIT_FAIL) with one line on stderr saying why; the
 * workload is never left running. */
int watch_run(struct watch_set *ws, const struct watch_run_args *a, struct watch_outcome *out);

/* watch_perf_ok(ws): whether perf's wait status is how a watched
 * recording ends: perf stopped by perfdb's SIGINT (or exit 0). */
bool watch_perf_ok(int ws);

/* ---- probes of the running kernel (collect/record/watch_probe.c), shared by
 * watch_run.c and the unit tests ---- */

#define WATCH_MAX_CPUS 4096

/* watch_format_field(format, field, off, size): the offset and size of
 * field in a tracefs event format text ("field:struct mm_struct * mm;
 * offset:8; size:8; ..."). 0, or -1 when it has no such field. */
int watch_format_field(const char *format, const char *field, int *off, int *size);

/* watch_ring_last_mm(data, size, tail, head, mm_off, lost): the pointer at
 * mm_off in the raw data of the last PERF_RECORD_SAMPLE (sample_type RAW
 * only) between tail and head of a perf ring buffer's data area (size
 * bytes, a power of 2, records wrapping around); *lost adds the events
 * PERF_RECORD_LOST records count. 0 when there is none. */
uint64_t watch_ring_last_mm(const unsigned char *data, uint64_t size, uint64_t tail,
			    uint64_t head, int mm_off, long long *lost);

/* The mmap_lock_acquire_returned tracepoint, opened for one task. */
struct watch_tp {
	int fd;
	void *ring;		/* 1 + WATCH_TP_PAGES pages */
	size_t ring_len;
	int mm_off;		/* of the mm pointer in the raw data */
	long long lost;
};

/* watch_tp_open(tp, pid, not_mm, err, errlen): the tracepoint for task
 * pid (not inherited), sampling every event's raw data into a ring;
 * not_mm != 0 filters out that mm in the kernel ("mm != 0x..."). 0, or
 * -1 with the reason (no tracefs or tracepoint, perf_event_open's errno). */
int watch_tp_open(struct watch_tp *tp, pid_t pid, uint64_t not_mm, char *err, size_t errlen);

/* watch_tp_last_mm(tp): the mm of the last event recorded so far (0 when
 * none); the ring is emptied. */
uint64_t watch_tp_last_mm(struct watch_tp *tp);

/* watch_tp_close(tp): closes and unmaps tp (fd -1 allowed). */
void watch_tp_close(struct watch_tp *tp);

/* watch_load_bias(pid, bias, err, errlen): the load bias of the program
 * pid runs (/proc/PID/exe) from its first mapping in /proc/PID/maps and
 * its ELF segments: 0 for a non-PIE executable. 0 or -1 with a message. */
int watch_load_bias(pid_t pid, uint64_t *bias, char *err, size_t errlen);

/* watch_check_breakpoints(ws, cpus, err, errlen): opens every watch of ws
 * (and its canary when it is WATCH_CANARY_RECORDED) with
 * perf_event_open(PERF_TYPE_BREAKPOINT, HW_BREAKPOINT_W), all at once, on
 * each CPU of the list cpus (NULL: the online CPUs), disabled, then
 * closes them. 0, or -1 with the kernel's reason in err. */
int watch_check_breakpoints(const struct watch_set *ws, const char *cpus, char *err, size_t errlen);

/* ---- the canary (collect/record/watch_canary.c) ---- */

/* watch_canary_init(c, ws, cpus): a canary for the watches of ws (NULL:
 * none): a variable of perfdb's whose 8 bytes no watch covers, written on
 * a CPU of the list cpus that perfdb may run on (NULL: any); recorded
 * when ws leaves a debug register free and such a CPU exists, else a
 * probe. writes and seen 0. */
void watch_canary_init(struct watch_canary *c, const struct watch_set *ws, const char *cpus);

/* watch_canary_write(c): writes the canary WATCH_CANARY_WRITES times on
 * its CPU (perfdb's affinity put back after); sets writes and write_ns.
 * 0, or -1 when perfdb cannot run on that CPU (nothing written). */
int watch_canary_write(struct watch_canary *c);

/* watch_canary_probe(c, err, errlen): the canary as a counting write
 * watchpoint of perfdb's own task (user stores only), written as
 * watch_canary_write does, its count into seen. 0, or -1 with the
 * reason in err when the watchpoint cannot be opened or read. */
int watch_canary_probe(struct watch_canary *c, char *err, size_t errlen);

/* watch_canary_short(c): whether c was caught fewer times than written,
 * less what perf lost of its samples (the watchpoints do not fire). */
bool watch_canary_short(const struct watch_canary *c);

/* watch_canary_said(c, buf, len): what was seen, for people: "0 of 1000
 * writes to a watched variable were caught" (", N of its samples lost"
 * when perf lost some). Returns buf. */
const char *watch_canary_said(const struct watch_canary *c, char *buf, size_t len);

/* watch_canary_event(c, buf, len): its perf event, "mem:0xADDR/8:w".
 * Returns buf. */
const char *watch_canary_event(const struct watch_canary *c, char *buf, size_t len);
#endif
