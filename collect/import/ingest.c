/* Import of one perf.data file as one session, in one transaction: the
 * reader's records become session, event, thread/process, dso/symbol,
 * stack, sample, tracepoint and memory-sample rows. Any error rolls the
 * whole session back, leaving the database as it was. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "lib/alloc.h"
#include "lib/prog.h"
#include "schema/batch.h"
#include "schema/db.h"
#include "collect/import/ingest.h"
#include "collect/import/mem_sample.h"
#include "collect/symbols/resolve.h"
#include "collect/import/session_meta.h"
#include "schema/sqlq.h"
#include "collect/import/stacks.h"
#include "collect/import/threads.h"
#include "collect/import/tracepoints.h"
#include "collect/symbols/unwind.h"
#include "lib/bytes.h"

#define S_IP		(1ULL << 0)
#define S_CALLCHAIN	(1ULL << 5)
#define S_REGS_USER	(1ULL << 12)
#define S_STACK_USER	(1ULL << 13)
#define UNWIND_MAX	127	/* user frames unwound, as perf's default */
#define PERF_TYPE_TRACEPOINT 2

/* Per-evsel state, hung on pd_evsel.user. */
struct ev_state {
	int64_t row;
	uint64_t samples;
	struct tp_sink *sink;
};

struct ingest {
	sqlite3 *db;
	const struct ingest_opts *o;
	int64_t session, next_sample, first_sample;
	struct threads *thr;
	struct resolver *res;
	struct stacks *stk;
	struct ev_state *evs;
	size_t nevs;
	struct batch *samples, *mems;
	struct sqlq *q;
	uint64_t first_time, last_time;
	uint64_t corrupt_callchains;
	struct unwinder *unw;		/* x86-64 recordings only */
	uint64_t not_unwound;		/* dwarf samples without user frames */
	struct lost_rec *lost;		/* LOST and LOST_SAMPLES records */
	size_t nlost, lost_cap;
	int64_t *cpu_last;		/* per CPU: the last record's time, or -1 */
	size_t ncpu_last;
	char *err;
	size_t errlen;
	bool tty;
};

/* fail: formats "WHAT: DETAIL" into the import's buffer; returns -1. */
static int fail(struct ingest *g, const char *what, const char *detail)
{
	snprintf(g->err, g->errlen, "%s: %s", what, detail);
	return -1;
}

/* stopped: whether a signal asked the import to stop (the message set). */
static bool stopped(struct ingest *g)
{
	if (!g->o->stop || !*g->o->stop)
		return false;
	snprintf(g->err, g->errlen, "interrupted by signal %d (%s)", (int)*g->o->stop,
		 strsignal((int)*g->o->stop));
	return true;
}

/* write_failed: the writer's (or a batch's) error for table what. */
static int write_failed(struct ingest *g, const char *what)
{
	char why[512];
	if (sqlq_drain(g->q, why, sizeof(why)))
		return fail(g, what, why);
	return fail(g, what, "write failed");
}

/* insert_session: the session row with what is known before reading. */
static int insert_session(struct ingest *g, const char *path)
{
	sqlite3_stmt *st = db_prepare(g->db, "INSERT INTO session(label, source, imported_at) "
				      "VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))");
	int rc;
	if (!st)
		return -1;
	db_bind_text_or_null(st, 1, g->o->label);
	sqlite3_bind_text(st, 2, path, -1, SQLITE_STATIC);
	rc = db_step_done(st, g->err, g->errlen);
	sqlite3_finalize(st);
	g->session = sqlite3_last_insert_rowid(g->db);
	return rc;
}

/* The sample row's columns but id: SQLite gives each row max(id) + 1,
 * the id the row's typed rows were written with (check_sample_ids), and
 * an insert without the id column spares it a uniqueness probe per row. */
static const char *const sample_cols[] = { "session_id", "event_id", "time",
	"cpu", "thread_id", "ip", "symbol_id", "cpumode", "period", "stack_id",
	"f1", "f2", "f3", "f4", "f5", "f6", "f7" };
enum { C_SESSION, C_EVENT, C_TIME, C_CPU, C_THREAD, C_IP, C_SYMBOL, C_CPUMODE, C_PERIOD,
       C_STACK, F1_COL /* f1..f7: a tracepoint's fields (TP_FIELD_COLS) */ };
#define NCOLS ((int)(sizeof(sample_cols) / sizeof(*sample_cols)))

/* insert_events: one event row (and tracepoint sink) per evsel. */
static int insert_events(struct ingest *g, struct pd_reader *r)
{
	sqlite3_stmt *st = db_prepare(g->db, "INSERT INTO event(session_id, idx, name, type, config, "
				      "config1, config2, sample_type, sample_period, freq, tp_table) "
				      "VALUES (?,?,?,?,?,?,?,?,?,?,?)");
	if (!st)
		return fail(g, "event", "cannot prepare the insert");
	g->evs = xcalloc(r->nr_evsels + 1, sizeof(*g->evs));
	g->nevs = r->nr_evsels;
	for (size_t i = 0; i < r->nr_evsels; i++) {
		struct pd_evsel *e = r->evsels[i];
		sqlite3_bind_int64(st, 1, g->session);
		sqlite3_bind_int(st, 2, (int)i);
		sqlite3_bind_text(st, 3, e->name ? e->name : "?", -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 4, e->type);
		sqlite3_bind_int64(st, 5, (int64_t)e->config);
		sqlite3_bind_int64(st, 6, (int64_t)e->config1);
		sqlite3_bind_int64(st, 7, (int64_t)e->config2);
		sqlite3_bind_int64(st, 8, (int64_t)e->sample_type);
		sqlite3_bind_int64(st, 9, (int64_t)e->sample_period);
		sqlite3_bind_int(st, 10, !!(e->flags & PD_ATTR_FREQ));
		if (e->type == PERF_TYPE_TRACEPOINT &&
		    !(g->evs[i].sink = tp_sink_new(g->db, g->q, r->tep, (int)e->config, g->samples, F1_COL))) {
			sqlite3_finalize(st);
			return fail(g, "tracepoint table", "cannot prepare the insert");
		}
		if (g->evs[i].sink)
			sqlite3_bind_text(st, 11, tp_sink_table(g->evs[i].sink), -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(st, 11);
		if (db_step_done(st, g->err, g->errlen)) {
			sqlite3_finalize(st);
			return -1;
		}
		g->evs[i].row = sqlite3_last_insert_rowid(g->db);
		e->user = &g->evs[i];
	}
	sqlite3_finalize(st);
	return 0;
}

/* wants_unwinding: whether the recording has --call-graph dwarf samples
 * perfdb can unwind (x86-64 ones; an unfinished file, which has no ARCH
 * section, is taken to come from this machine). */
static bool wants_unwinding(const struct pd_reader *r)
{
	struct utsname u;
	const char *arch = r->features.arch;
	if (!arch && r->unfinished && !uname(&u))
		arch = u.machine;
	if (!arch || strcmp(arch, "x86_64"))
		return false;
	for (size_t i = 0; i < r->nr_evsels; i++)
		if ((r->evsels[i]->sample_type & (S_REGS_USER | S_STACK_USER)) ==
		    (S_REGS_USER | S_STACK_USER))
			return true;
	return false;
}

/* on_begin: evsels are known: create the per-session state. */
static int on_begin(void *ctx, struct pd_reader *r)
{
	struct ingest *g = ctx;
	g->next_sample = db_next_id(g->db, "sample");
	g->first_sample = g->next_sample;
	/* PERFDB_SYNC_WRITES=1 writes from this thread (for tests/debugging) */
	g->q = getenv("PERFDB_SYNC_WRITES") ? NULL : sqlq_new();
	g->res = resolver_new(g->db, g->session, g->o->kallsyms, g->q);
	/* before the other inserts are prepared (some ms): the first kernel
	 * address waits for the kallsyms file this starts loading */
	if (g->res)
		resolver_prefetch_kallsyms(g->res, r);
	g->thr = threads_new(g->db, g->session, g->q);
	g->stk = stacks_new(g->db, g->q);
	g->samples = batch_new(g->db, g->q, "sample", sample_cols, NCOLS);
	g->mems = mem_sample_batch(g->db, g->q);
	if (wants_unwinding(r))
		g->unw = unwinder_new();
	if (!g->thr || !g->res || !g->stk || !g->samples || !g->mems)
		return fail(g, "import", "cannot prepare the inserts");
	return insert_events(g, r);
}

/* ksym_cb: kernel symbol names for tracepoint code pointers. */
static const char *ksym_cb(void *ctx, uint64_t addr, bool with_offset, char *buf, size_t len)
{
	struct ingest *g = ctx;
	return resolver_ksym(g->res, g->o->reader, addr, with_offset, buf, len);
}

/* context_mode: the cpumode a callchain context marker switches to, or -1
 * for a value that is no marker perf knows (a corrupt callchain). */
static int context_mode(uint64_t marker)
{
	switch (marker) {
	case PD_CONTEXT_HV: return PD_CPUMODE_HV;
	case PD_CONTEXT_KERNEL: return PD_CPUMODE_KERNEL;
	case PD_CONTEXT_USER: return PD_CPUMODE_USER;
	case PD_CONTEXT_GUEST_KERNEL: return PD_CPUMODE_GUEST_KERNEL;
	case PD_CONTEXT_GUEST_USER: return PD_CPUMODE_GUEST_USER;
	default: return -1;
	}
}

/* kernel_frames: the symbol rows of the callchain's frames into syms
 * (innermost first), context markers left out. 0, 1 when the callchain is
 * corrupt (an unknown marker: perf drops it), -1 on error. */
static int kernel_frames(struct ingest *g, struct pd_reader *r, const struct pd_event *ev,
			 int64_t proc, int64_t *syms, size_t *n)
{
	const struct pd_sample *s = &ev->sample;
	int mode = ev->misc & 7;
	for (uint64_t i = 0; i < s->nr_callchain; i++) {
		uint64_t ip = pd_callchain_at(r, s, i);
		if (ip == PD_CONTEXT_GUEST)
			continue;
		if (ip >= PD_CONTEXT_MAX && (mode = context_mode(ip)) < 0)
			return 1;
		if (ip >= PD_CONTEXT_MAX)
			continue;
		if ((syms[(*n)++] = resolver_symbol(g->res, r, proc, mode, ip)) < 0)
			return -1;
	}
	return 0;
}

/* What the unwinder asks for the maps of one process. */
struct maps_ctx {
	struct ingest *g;
	const struct pd_reader *r;
	int64_t proc;
};

static long get_maps(void *ctx, struct umap **maps)
{
	struct maps_ctx *m = ctx;
	return resolver_user_maps(m->g->res, m->r, m->proc, maps);
}

/* dwarf_mode: whether ev's sample carries 64-bit user registers and a user
 * stack copy to unwind (perf record --call-graph dwarf). */
static bool dwarf_mode(const struct ingest *g, const struct pd_event *ev)
{
	return g->unw && (ev->evsel->sample_type & (S_REGS_USER | S_STACK_USER)) ==
			 (S_REGS_USER | S_STACK_USER) &&
	       ev->sample.regs_user_abi == 2 && ev->sample.stack_user_dyn;
}

/* user_frames: the symbol rows of the user frames unwound from the
 * sample's registers and stack copy into syms (at most max); the count or
 * -1 on error. */
static long user_frames(struct ingest *g, struct pd_reader *r, const struct pd_event *ev,
			int64_t proc, int64_t *syms, int max)
{
	const struct pd_sample *s = &ev->sample;
	struct uregs u = { .stack = s->stack_user, .len = (size_t)s->stack_user_dyn, .swap = r->swap };
	struct maps_ctx mc = { g, r, proc };
	uint64_t mask = ev->evsel->sample_regs_user, ips[UNWIND_MAX];
	int n, k = 0;
	for (int b = 0; b < 64; b++) {
		if (!(mask >> b & 1))
			continue;
		if (b < 24) {
			u.reg[b] = rd64(s->regs_user + 8 * k, r->swap);
			u.have |= 1ULL << b;
		}
		k++;
	}
	n = unwind_user(g->unw, proc, resolver_maps_gen(g->res, proc), (int)s->tid, get_maps, &mc,
			&u, ips, max < UNWIND_MAX ? max : UNWIND_MAX);
	if (!n)
		g->not_unwound++;
	for (int i = 0; i < n; i++)
		if ((syms[i] = resolver_symbol(g->res, r, proc, PD_CPUMODE_USER, ips[i])) < 0)
			return -1;
	return n;
}

/* stack_of: the stack node of a sample's callchain (0: none): its kernel
 * (and, when recorded, user) frames, then with --call-graph dwarf the user
 * frames unwound, as perf report shows them; -1 on error. */
static int64_t stack_of(struct ingest *g, struct pd_reader *r, const struct pd_event *ev,
			int64_t proc)
{
	const struct pd_sample *s = &ev->sample;
	bool chain = ev->evsel->sample_type & S_CALLCHAIN, dwarf = dwarf_mode(g, ev);
	int64_t node = 0, *syms;
	size_t n = 0;
	long u = 0;
	int rc = 0;
	if ((!chain || !s->nr_callchain) && !dwarf)
		return 0;
	/* nr_callchain: the decoder checked it against the record's bytes */
	syms = xreallocarray(NULL, (size_t)(chain ? s->nr_callchain : 0) + (dwarf ? UNWIND_MAX : 0),
			     sizeof(*syms));
	if (chain && (rc = kernel_frames(g, r, ev, proc, syms, &n)) == 1)
		g->corrupt_callchains++;
	if (!rc && dwarf && (u = user_frames(g, r, ev, proc, syms + n, UNWIND_MAX)) > 0)
		n += (size_t)u;
	if (rc == 1 || u < 0 || rc < 0) {
		free(syms);
		return rc == 1 ? 0 : -1;
	}
	while (n--)		/* outermost caller first */
		if ((node = stacks_node(g->stk, node, syms[n])) < 0)
			break;
	free(syms);
	return node;
}

/* opt: sets column c to v, or NULL when absent. */
static void opt(struct batch *b, int c, bool have, int64_t v)
{
	if (have)
		batch_int(b, c, v);
	else
		batch_null(b, c);
}

/* on_sample: one sample row with its tracepoint fields, plus its memory
 * row or ipi_send_cpumask rows. */
static int on_sample(struct ingest *g, struct pd_reader *r, const struct pd_event *ev)
{
	const struct pd_sample *s = &ev->sample;
	struct ev_state *es = ev->evsel->user;
	struct tp_ctx tc = { g, ksym_cb };
	int64_t id = g->next_sample++, thread = -1, proc = 0, sym = -1, stack;
	struct batch *b = g->samples;
	if (s->has_tid) {
		thread = threads_get(g->thr, s->pid, s->tid);
		proc = threads_process_of(g->thr, thread);
	}
	if (ev->evsel->sample_type & S_IP && (sym = resolver_symbol(g->res, r, proc, ev->misc & 7, s->ip)) < 0)
		return write_failed(g, "symbol");
	if ((stack = stack_of(g, r, ev, proc)) < 0)
		return write_failed(g, "stack");
	batch_int(b, C_SESSION, g->session);
	batch_int(b, C_EVENT, es->row);
	opt(b, C_TIME, s->has_time, (int64_t)s->time);
	opt(b, C_CPU, s->has_cpu, s->cpu);
	opt(b, C_THREAD, thread >= 0, thread);
	opt(b, C_IP, ev->evsel->sample_type & S_IP, (int64_t)s->ip);
	opt(b, C_SYMBOL, sym >= 0, sym);
	batch_int(b, C_CPUMODE, ev->misc & 7);
	batch_int(b, C_PERIOD, (int64_t)s->period);
	opt(b, C_STACK, stack > 0, stack);
	if (es->sink && tp_sink_insert(es->sink, &tc, id, s->raw, s->raw_size, g->err, g->errlen))
		return write_failed(g, "tracepoint");
	if (batch_row(b))
		return write_failed(g, "sample");
	es->samples++;
	if (s->has_time) {
		if (!g->first_time || s->time < g->first_time)
			g->first_time = s->time;
		if (s->time > g->last_time)
			g->last_time = s->time;
	}
	if (mem_sample_wanted(ev->evsel, s) && mem_sample_add(g->mems, id, s))
		return write_failed(g, "mem_sample");
	return 0;
}

/* on_fork: a new task; a new process starts with its parent's maps. */
static void on_fork(struct ingest *g, const struct pd_event *ev)
{
	const struct pd_sideband *b = &ev->sb;
	int64_t parent, child;
	threads_fork(g->thr, b->pid, b->ppid, b->tid, b->ptid, b->fork_time);
	parent = threads_process_of(g->thr, threads_get(g->thr, b->ppid, b->ptid));
	child = threads_process_of(g->thr, threads_get(g->thr, b->pid, b->tid));
	if (parent != child)
		resolver_fork(g->res, child, parent);
}

/* on_comm: a thread's name; with exec, a new process (mm) that starts,
 * as in perf, with the old image's maps until new mmaps replace them (the
 * first samples after an exec still unwind through the old libc). */
static int on_comm(struct ingest *g, const struct pd_event *ev, uint64_t t)
{
	const struct pd_sideband *b = &ev->sb;
	bool exec = ev->misc & PD_MISC_COMM_EXEC;
	int64_t th = threads_get(g->thr, b->pid, b->tid), before, after;
	before = threads_process_of(g->thr, th);
	if (threads_comm(g->thr, b->pid, b->tid, b->str, exec, t))
		return write_failed(g, "comm");
	after = threads_process_of(g->thr, th);
	if (after != before)
		resolver_fork(g->res, after, before);
	return 0;
}

/* on_sideband: thread identity and memory maps. */
static int on_sideband(struct ingest *g, struct pd_reader *r, const struct pd_event *ev)
{
	const struct pd_sideband *b = &ev->sb;
	uint64_t t = ev->sample.has_time ? ev->sample.time : 0;
	int64_t proc = 0;
	switch (ev->type) {
	case PD_COMM:
		return on_comm(g, ev, t);
	case PD_FORK:
		on_fork(g, ev);
		return 0;
	case PD_EXIT:
		threads_exit(g->thr, b->pid, b->tid, b->fork_time);
		return 0;
	case PD_MMAP:
	case PD_MMAP2:
		if (b->pid != UINT32_MAX) {
			proc = threads_process_of(g->thr, threads_get(g->thr, b->pid, b->tid));
			threads_mark_user(g->thr, proc);
		}
		return resolver_mmap(g->res, r, proc, ev) ? write_failed(g, "mmap") : 0;
	default:
		return 0;
	}
}

/* on_lost: keeps a LOST or LOST_SAMPLES record for the lost table. A
 * LOST record's trailer names the CPU whose buffer overflowed; perf's
 * LOST_SAMPLES records (written at the end) carry CPU 0 in theirs, so
 * their CPU is the one ID_INDEX gives their event id. A CPU at or past
 * the recording's nr_cpus_avail (when the header gives it) is stored as
 * not known. */
static void on_lost(struct ingest *g, struct pd_reader *r, const struct pd_event *ev)
{
	const struct pd_sample *t = &ev->sample;
	const struct ev_state *es = ev->evsel ? ev->evsel->user : NULL;
	struct lost_rec *l;
	ALLOC_GROW(g->lost, g->nlost + 1, g->lost_cap);
	l = &g->lost[g->nlost++];
	*l = (struct lost_rec){ .samples = ev->type == PD_LOST_SAMPLES, .cpu = -1, .time = -1,
		.event = es ? es->row : 0, .n = ev->sb.lost, .file_offset = ev->file_offset };
	if (l->samples)
		l->cpu = pd_id_cpu(r, t->id);
	else if (t->has_cpu && t->cpu <= INT_MAX)
		l->cpu = (int)t->cpu;
	if (r->features.nr_cpus_avail && l->cpu >= 0 &&
	    (uint32_t)l->cpu >= r->features.nr_cpus_avail)
		l->cpu = -1;	/* no CPU the recording had: not known */
	if (!l->samples && t->has_time && t->time <= INT64_MAX)
		l->time = (int64_t)t->time;
	l->since = !l->samples && l->cpu >= 0 && (size_t)l->cpu < g->ncpu_last ?
		g->cpu_last[l->cpu] : -1;
}

/* CPU_LAST_MAX: CPUs past this (or past nr_cpus_avail, when the header
 * gives fewer) get no previous time: their LOST records cover from the
 * recording's start. The header's count is the file's word, not memory to
 * spend on it (a file saying 2^29 CPUs made a 4 GiB array). */
#define CPU_LAST_MAX 65536

/* note_cpu_time: remembers ev's time as the last record's on its CPU (a
 * LOST record covers what that CPU dropped since then). */
static void note_cpu_time(struct ingest *g, const struct pd_reader *r, const struct pd_event *ev)
{
	const struct pd_sample *t = &ev->sample;
	size_t cap = r->features.nr_cpus_avail && r->features.nr_cpus_avail < CPU_LAST_MAX ?
		     r->features.nr_cpus_avail : CPU_LAST_MAX;
	if (!t->has_cpu || !t->has_time || t->time > INT64_MAX || t->cpu >= cap)
		return;
	if (t->cpu >= g->ncpu_last) {
		size_t n = (size_t)t->cpu + 1;
		g->cpu_last = xreallocarray(g->cpu_last, n, sizeof(*g->cpu_last));
		for (size_t i = g->ncpu_last; i < n; i++)
			g->cpu_last[i] = -1;
		g->ncpu_last = n;
	}
	g->cpu_last[t->cpu] = (int64_t)t->time;
}

/* on_event: the reader's callback for every record, in time order. */
static int on_event(void *ctx, struct pd_reader *r, const struct pd_event *ev)
{
	struct ingest *g = ctx;
	if (stopped(g))
		return -1;
	if (ev->type == PD_LOST || ev->type == PD_LOST_SAMPLES)
		on_lost(g, r, ev);
	if (ev->type != PD_LOST_SAMPLES)	/* written at the end, CPU 0 in its trailer */
		note_cpu_time(g, r, ev);
	if (ev->type == PD_SAMPLE)
		return on_sample(g, r, ev);
	return on_sideband(g, r, ev);
}

/* on_progress: a progress line on stderr when it is a terminal. */
static void on_progress(void *ctx, const struct pd_reader *r)
{
	struct ingest *g = ctx;
	if (!g->tty)
		return;
	if (r->file_size)
		fprintf(stderr, "\r%s: importing %s: %3.0f%% (%llu samples)", prog_name(), r->path,
			100.0 * (double)r->bytes_done / (double)r->file_size,
			(unsigned long long)r->nr_samples);
	else
		fprintf(stderr, "\r%s: importing %s: %llu MiB (%llu samples)", prog_name(), r->path,
			(unsigned long long)(r->bytes_done >> 20), (unsigned long long)r->nr_samples);
}

/* update_event_counts: each event row's sample count. */
static int update_event_counts(struct ingest *g)
{
	sqlite3_stmt *st = db_prepare(g->db, "UPDATE event SET nr_samples = ? WHERE id = ?");
	int rc = st ? 0 : -1;
	for (size_t i = 0; i < g->nevs && !rc; i++) {
		sqlite3_bind_int64(st, 1, (int64_t)g->evs[i].samples);
		sqlite3_bind_int64(st, 2, g->evs[i].row);
		rc = db_step_done(st, g->err, g->errlen);
	}
	sqlite3_finalize(st);
	return rc;
}

/* check_sample_ids: the ids SQLite gave the session's samples are the
 * ones its typed rows were written with. Each of the n rows written got
 * a distinct id; if the smallest id from first_sample on is first_sample
 * and the largest first_sample + n - 1, they are exactly that range (two
 * index probes, not a scan). */
static int check_sample_ids(struct ingest *g)
{
	sqlite3_stmt *st = db_prepare(g->db, "SELECT (SELECT min(id) FROM sample WHERE id >= ?1), (SELECT max(id) FROM sample)");
	int64_t n = g->next_sample - g->first_sample;
	bool same;
	if (!st)
		return fail(g, "sample", "cannot check ids");
	sqlite3_bind_int64(st, 1, g->first_sample);
	same = sqlite3_step(st) == SQLITE_ROW &&
	       (n == 0 ? sqlite3_column_type(st, 0) == SQLITE_NULL :
			 sqlite3_column_int64(st, 0) == g->first_sample &&
			 sqlite3_column_int64(st, 1) == g->next_sample - 1);
	sqlite3_finalize(st);
	return same ? 0 : fail(g, "sample", "row ids are not the ones expected (another writer?)");
}

/* update_sample_range: the session's contiguous range of sample ids. */
static int update_sample_range(struct ingest *g)
{
	sqlite3_stmt *st = db_prepare(g->db, "UPDATE session SET first_sample_id = ?, last_sample_id = ? WHERE id = ?");
	int rc;
	if (!st)
		return -1;
	if (g->next_sample > g->first_sample) {
		sqlite3_bind_int64(st, 1, g->first_sample);
		sqlite3_bind_int64(st, 2, g->next_sample - 1);
	}
	sqlite3_bind_int64(st, 3, g->session);
	rc = db_step_done(st, g->err, g->errlen);
	sqlite3_finalize(st);
	return rc;
}

/* flush_batches: hands on every row still waiting in a batch, then waits
 * for the writer to have written them all. */
static int flush_batches(struct ingest *g)
{
	char why[512];
	int rc = batch_flush(g->samples) | batch_flush(g->mems) | threads_flush(g->thr) |
		 stacks_flush(g->stk) | resolver_flush(g->res);
	for (size_t i = 0; i < g->nevs; i++)
		if (g->evs[i].sink)
			rc |= tp_sink_flush(g->evs[i].sink, why, sizeof(why));
	if (sqlq_drain(g->q, why, sizeof(why)))
		return fail(g, "write", why);
	return rc ? fail(g, "write", "write failed") : 0;
}

/* finish_session: everything written once all records are in. */
static int finish_session(struct ingest *g, struct pd_reader *r)
{
	if (flush_batches(g) || check_sample_ids(g) || update_event_counts(g) || update_sample_range(g) ||
	    session_note_quality(g->db, g->session, "corrupt callchains dropped",
				 g->corrupt_callchains, g->err, g->errlen) ||
	    session_note_quality(g->db, g->session, "dwarf samples without user frames (no CFI or stack)",
				 g->not_unwound, g->err, g->errlen) || threads_write(g->thr, g->err, g->errlen) ||
	    resolver_finish(g->res, g->err, g->errlen) ||
	    session_write_meta(g->db, g->session, r, g->first_time, g->last_time,
			       g->err, g->errlen) ||
	    session_write_lost(g->db, g->session, g->lost, g->nlost, g->err, g->errlen))
		return -1;
	return db_exec(g->db, perfdb_index_sql, g->err, g->errlen);
}

/* run: the import proper, inside the caller's transaction. */
static int run(struct ingest *g, struct pd_reader *r, const char *path)
{
	struct pd_ops ops = { g, on_begin, on_event, on_progress };
	int rc;
	if (insert_session(g, path))
		return -1;
	rc = pd_read(r, &ops, g->err, g->errlen);
	if (g->tty)
		fprintf(stderr, "\r\033[K");
	if (stopped(g) || rc)	/* a read the signal broke: say it was the signal */
		return -1;
	return finish_session(g, r);
}

/* cleanup: frees the per-import state. */
static void cleanup(struct ingest *g)
{
	sqlq_free(g->q);	/* first: the writer may still use statements */
	for (size_t i = 0; i < g->nevs; i++)
		tp_sink_free(g->evs[i].sink);
	free(g->evs);
	free(g->lost);
	free(g->cpu_last);
	threads_free(g->thr);
	unwinder_free(g->unw);
	resolver_free(g->res);
	stacks_free(g->stk);
	batch_free(g->samples);
	batch_free(g->mems);
}

int ingest_file(sqlite3 *db, const char *path, struct ingest_opts *o,
		int64_t *session, char *err, size_t errlen)
{
	struct ingest g = { .db = db, .o = o, .err = err, .errlen = errlen };
	struct pd_reader *r = pd_open(path, err, errlen);
	int rc;
	if (!r)
		return -1;
	o->reader = r;
	g.tty = o->progress && isatty(2);
	if (db_exec(db, "BEGIN IMMEDIATE", err, errlen)) {
		pd_close(r);
		return -1;
	}
	rc = run(&g, r, path);
	cleanup(&g);
	if (!rc && o->before_commit)
		rc = o->before_commit(db, g.session, o->arg, err, errlen);
	if (!rc)
		rc = db_exec(db, "COMMIT", err, errlen);
	if (rc)
		db_exec(db, "ROLLBACK", NULL, 0);
	else if (session)
		*session = g.session;
	for (size_t i = 0; !rc && i < r->nr_warnings; i++)
		eprintf("warning: %s\n", r->warnings[i]);
	o->reader = NULL;
	pd_close(r);
	return rc;
}
