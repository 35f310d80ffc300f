/* DWARF unwinding of user stacks with libdwfl: see unwind.h. One Dwfl per
 * (process, maps generation) is kept, in a small LRU cache, with each
 * distinct mapped file reported once at its load bias; a sample's
 * registers and stack copy reach libdwfl's callbacks through the state the
 * Dwfl was attached with, which is refilled before each unwind. */
#include <elfutils/libdwfl.h>
#include <stdlib.h>
#include <string.h>
#include "lib/alloc.h"
#include "lib/bytes.h"
#include "collect/symbols/unwind.h"

#define CACHED 16
#define PERF_REG_SP 7
#define PERF_REG_IP 8

/* The sample being unwound, as libdwfl's callbacks see it. */
struct ustate {
	const struct uregs *regs;
	int tid;
};

struct cached {
	Dwfl *dwfl;
	int64_t proc;
	uint64_t gen, used;
	struct ustate st;
	bool attached;
};

struct unwinder {
	struct cached c[CACHED];
	uint64_t tick;
	Dwfl_Callbacks cb;		/* offline: files reported by path */
	char *debuginfo_path;		/* NULL: libdwfl's default search */
};

/* next_thread: the one thread of a sample's process. */
static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct ustate *st = arg;
	(void)dwfl;
	if (*thread_argp)
		return 0;
	*thread_argp = st;
	return st->tid;
}

/* memory_read: a word of the sample's stack copy; nothing else of the
 * process's memory is known. */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	const struct uregs *r = ((struct ustate *)arg)->regs;
	uint64_t sp = r->reg[PERF_REG_SP];
	(void)dwfl;
	if (addr < sp || addr - sp > r->len || r->len - (addr - sp) < 8)
		return false;
	*result = rd64(r->stack + (addr - sp), r->swap);
	return true;
}

/* set_initial_registers: the sample's registers in DWARF numbering (x86-64:
 * rax rdx rcx rbx rsi rdi rbp rsp r8..r15 rip). */
static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	static const int from_perf[17] = { 0, 3, 2, 1, 4, 5, 6, 7,
		16, 17, 18, 19, 20, 21, 22, 23, 8 };
	const struct uregs *r = ((struct ustate *)arg)->regs;
	Dwarf_Word v[17];
	for (int i = 0; i < 17; i++)
		v[i] = r->have >> from_perf[i] & 1 ? r->reg[from_perf[i]] : 0;
	return dwfl_thread_state_registers(thread, 0, 17, v);
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

struct unwinder *unwinder_new(void)
{
	struct unwinder *u = xcalloc(1, sizeof(*u));
	u->cb = (Dwfl_Callbacks){ .find_elf = dwfl_build_id_find_elf,
		.find_debuginfo = dwfl_standard_find_debuginfo,
		.section_address = dwfl_offline_section_address,
		.debuginfo_path = &u->debuginfo_path };
	return u;
}

void unwinder_free(struct unwinder *u)
{
	if (!u)
		return;
	for (int i = 0; i < CACHED; i++)
		if (u->c[i].dwfl)
			dwfl_end(u->c[i].dwfl);
	free(u);
}

/* A map's place in report_files' sort: its file, offset and index. */
struct fmap {
	const char *file;
	uint64_t pgoff;
	long i;
};

/* fmap_cmp: by file, then file offset, then index. */
static int fmap_cmp(const void *a, const void *b)
{
	const struct fmap *x = a, *y = b;
	int c = strcmp(x->file, y->file);
	if (c)
		return c;
	if (x->pgoff != y->pgoff)
		return x->pgoff < y->pgoff ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* first_cmp: the {first index, best index} pairs by first index. */
static int first_cmp(const void *a, const void *b)
{
	const long *x = a, *y = b;
	return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* report_files: each distinct file of maps once, in the order of its
 * first map, at the load bias of its map with the lowest file offset
 * (start - pgoff: where its offset 0 is). Sorted, not compared pairwise:
 * a process may have tens of thousands of maps. */
static void report_files(Dwfl *dwfl, const struct umap *m, long n)
{
	struct fmap *f = n ? xreallocarray(NULL, (size_t)n, sizeof(*f)) : NULL;
	long (*pick)[2] = n ? xreallocarray(NULL, (size_t)n, sizeof(*pick)) : NULL;
	long np = 0;
	for (long i = 0; i < n; i++)
		f[i] = (struct fmap){ m[i].file, m[i].pgoff, i };
	if (n)
		qsort(f, (size_t)n, sizeof(*f), fmap_cmp);
	for (long i = 0; i < n; i++) {
		if (i && !strcmp(f[i].file, f[i - 1].file)) {
			if (f[i].i < pick[np - 1][0])
				pick[np - 1][0] = f[i].i;
			continue;
		}
		pick[np][0] = f[i].i;	/* first so far */
		pick[np++][1] = f[i].i;	/* lowest offset: sorted first */
	}
	if (np)
		qsort(pick, (size_t)np, sizeof(*pick), first_cmp);
	for (long k = 0; k < np; k++) {
		const struct umap *b = &m[pick[k][1]];
		dwfl_report_elf(dwfl, b->file, b->file, -1, b->start - b->pgoff, false);
	}
	free(f);
	free(pick);
}

/* session: the cached Dwfl of (proc, gen), made (evicting the least
 * recently used, once the process's maps are known) when missing; NULL
 * when none can be made. */
static struct cached *session(struct unwinder *u, int64_t proc, uint64_t gen,
			      long (*get_maps)(void *, struct umap **), void *ctx)
{
	struct cached *c = &u->c[0];
	struct umap *maps = NULL;
	long n;
	for (int i = 0; i < CACHED; i++) {
		if (u->c[i].dwfl && u->c[i].proc == proc && u->c[i].gen == gen)
			return &u->c[i];
		if (u->c[i].used < c->used)
			c = &u->c[i];
	}
	if ((n = get_maps(ctx, &maps)) <= 0) {
		free(maps);
		return NULL;
	}
	if (c->dwfl)
		dwfl_end(c->dwfl);
	memset(c, 0, sizeof(*c));
	if (!(c->dwfl = dwfl_begin(&u->cb))) {
		free(maps);
		return NULL;
	}
	dwfl_report_begin(c->dwfl);
	report_files(c->dwfl, maps, n);
	free(maps);
	dwfl_report_end(c->dwfl, NULL, NULL);
	c->proc = proc;
	c->gen = gen;
	c->attached = dwfl_attach_state(c->dwfl, NULL, 1, &thread_callbacks, &c->st);
	return c;
}

/* One unwind's output. */
struct frames {
	uint64_t *ips;
	int n, max;
};

/* frame: one frame's pc; a caller's return address - 1 is its call site. */
static int frame(Dwfl_Frame *state, void *arg)
{
	struct frames *f = arg;
	Dwarf_Addr pc;
	bool activation;
	if (!dwfl_frame_pc(state, &pc, &activation) || !pc)
		return DWARF_CB_ABORT;
	f->ips[f->n++] = activation ? pc : pc - 1;
	return f->n < f->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

int unwind_user(struct unwinder *u, int64_t proc, uint64_t gen, int tid,
		long (*get_maps)(void *ctx, struct umap **maps), void *ctx,
		const struct uregs *regs, uint64_t *ips, int max)
{
	struct frames f = { ips, 0, max };
	struct cached *c;
	if (max <= 0 || (~regs->have & (1ULL << PERF_REG_SP | 1ULL << PERF_REG_IP)) ||
	    !(c = session(u, proc, gen, get_maps, ctx)) || !c->attached)
		return 0;
	c->used = ++u->tick;
	c->st.regs = regs;
	c->st.tid = tid > 0 ? tid : 1;
	dwfl_getthread_frames(c->dwfl, c->st.tid, frame, &f);
	return f.n;
}
