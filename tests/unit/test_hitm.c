/* Unit test for `perfdb hitm`'s analysis (analyze/hitm/c2c_load.c, layout.c,
 * objects.c, hitm.c, and the findings document hitm_findings.h makes of
 * memory samples and of watchpoint traps), for what perfdb layout stores
 * (collect/layout/dwarf_layout.c, objects_store.c, describe.c), and the writer
 * of its perf.data fixtures.
 *
 *   test_hitm                        the unit checks (TAP)
 *   test_hitm --write-fixtures DIR   writes DIR/{intel,amd,arm,falseshare}.data,
 *                                    each with DIR/NAME.data.lines (per
 *                                    expected cacheline: "ADDRESS PID MODE
 *                                    RECORDS", PID -1 for lines not keyed by
 *                                    a process, MODE kernel or user), for
 *                                    tests/integration/hitm.sh, which also
 *                                    runs perf c2c report on them.
 *
 * The fixtures are memory samples the way `perf c2c record` writes them:
 * Intel (cpu/mem-loads,ldlat=30/P and cpu/mem-stores/P, with the
 * mmap_lock:mmap_lock_acquire_returned and mmap:exit_mmap tracepoints
 * carrying the mm pointers, as `perfdb record -r c2c` adds them), AMD IBS
 * (one ibs_op// event with its N/A samples) and Arm SPE (arm_spe_0//,
 * peer snoops, arch aarch64), plus samples of workloads/falseshare's
 * `fs_shared` at the addresses its binary would be loaded at. data_src
 * words follow the kernel's encodings for each (arch/x86/events/intel/ds.c,
 * amd/ibs.c, util/arm-spe.c). NUMA_TOPOLOGY and CPU_TOPOLOGY are written
 * for perf c2c report; mapped files are files that exist (this binary,
 * falseshare). */
#include <elf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "analyze/hitm/c2c_load.h"
#include "analyze/hitm/hitm.h"
#include "analyze/hitm/hitm_findings.h"
#include "analyze/hitm/hitm_select.h"
#include "analyze/hitm/layout_load.h"
#include "analyze/hitm/objects.h"
#include "analyze/hitm/watch_load.h"
#include "collect/layout/describe.h"
#include "collect/layout/dwarf_layout.h"
#include "collect/symbols/elfsyms.h"
#include "collect/import/ingest.h"
#include "collect/layout/layout_store.h"
#include "collect/layout/objects_store.h"
#include "lib/alloc.h"
#include "lib/layout.h"
#include "reports/render.h"
#include "schema/db.h"
#include "tests/lib/pdwriter.h"
#include "tests/unit/tap.h"

/* data_src words: perf_mem_data_src fields at their bit offsets. */
#define OP(x)	((uint64_t)(x))
#define LVL(x)	((uint64_t)(x) << 5)
#define SNP(x)	((uint64_t)(x) << 19)
#define LCK(x)	((uint64_t)(x) << 24)
#define TLB(x)	((uint64_t)(x) << 26)
#define LNUM(x)	((uint64_t)(x) << 33)
#define REM	(1ULL << 37)
#define SNPX(x)	((uint64_t)(x) << 38)
#define HOPS(x)	((uint64_t)(x) << 43)

enum { LOAD = 2, STORE = 4 };
enum { L_NA = 1, L_HIT = 2, L_MISS = 4, L_L1 = 8, L_LFB = 0x10, L_L2 = 0x20, L_L3 = 0x40,
       L_LRAM = 0x80, L_RRAM1 = 0x100, L_RCCE1 = 0x400 };
enum { S_NA = 1, S_NONE = 2, S_HIT = 4, S_MISS = 8, S_HITM = 16 };
enum { N_L1 = 1, N_L2 = 2, N_L3 = 3, N_ANY = 0xb, N_LFB = 0xc, N_RAM = 0xd, N_NA = 0xf };
#define TLB_L1HIT TLB(0x0a)

/* Intel (ds.c) encodings. */
#define I_L1	(OP(LOAD) | LVL(L_L1 | L_HIT) | SNP(S_NONE) | LNUM(N_L1) | TLB_L1HIT)
#define I_LFB	(OP(LOAD) | LVL(L_LFB | L_HIT) | SNP(S_NONE) | LNUM(N_LFB) | TLB_L1HIT)
#define I_L2	(OP(LOAD) | LVL(L_L2 | L_HIT) | SNP(S_NONE) | LNUM(N_L2) | TLB_L1HIT)
#define I_LLC	(OP(LOAD) | LVL(L_L3 | L_HIT) | SNP(S_MISS) | LNUM(N_L3) | TLB_L1HIT)
#define I_LHITM	(OP(LOAD) | LVL(L_L3 | L_HIT) | SNP(S_HITM) | LNUM(N_L3) | TLB_L1HIT)
#define I_LDRAM	(OP(LOAD) | LVL(L_LRAM | L_HIT) | SNP(S_MISS) | LNUM(N_RAM) | TLB_L1HIT)
#define I_RDRAM	(OP(LOAD) | LVL(L_RRAM1 | L_HIT) | SNP(S_HIT) | LNUM(N_RAM) | REM | TLB_L1HIT)
#define I_RHITM	(OP(LOAD) | LVL(L_RCCE1 | L_HIT) | SNP(S_HITM) | LNUM(N_ANY) | REM | TLB_L1HIT)
#define I_RHIT	(OP(LOAD) | LVL(L_RCCE1 | L_HIT) | SNP(S_HIT) | LNUM(N_ANY) | REM | TLB_L1HIT)
#define I_LDNA	(OP(LOAD) | LVL(L_NA) | SNP(S_NA) | TLB(1))
#define I_ST1	(OP(STORE) | LVL(L_L1 | L_HIT) | SNP(S_NA) | TLB_L1HIT)
#define I_STM	(OP(STORE) | LVL(L_L1 | L_MISS) | SNP(S_NA) | TLB_L1HIT)
#define I_STNA	(OP(STORE) | LVL(L_NA) | SNP(S_NA) | TLB(1))
#define LOCKED	LCK(2)
/* AMD IBS (amd/ibs.c) encodings, as in ../shared/perfdata's IBS file. */
#define A_L1	(OP(LOAD) | LVL(L_L1 | L_HIT) | SNP(S_NA) | LNUM(N_L1))
#define A_L2	(OP(LOAD) | LVL(L_L2 | L_HIT) | SNP(S_NA) | LNUM(N_L2))
#define A_LHITM	(OP(LOAD) | LVL(L_L3 | L_HIT) | SNP(S_HITM) | LNUM(N_L3))
#define A_DRAM	(OP(LOAD) | LVL(L_LRAM | L_HIT) | SNP(S_NA) | LNUM(N_RAM))
#define A_RHITM	(OP(LOAD) | LVL(L_RCCE1 | L_HIT) | SNP(S_HITM) | LNUM(N_ANY) | REM | HOPS(1))
#define A_ST1	(OP(STORE) | LVL(L_L1 | L_HIT) | SNP(S_NA) | LNUM(N_L1))
#define A_STNA	(OP(STORE) | LVL(L_NA) | SNP(S_NA) | LNUM(N_NA))
#define A_NA	0x1e05080021ULL
/* Arm SPE (arm-spe.c, Neoverse) encodings: peer core, peer cluster,
 * remote; stores have no level. */
#define R_L1	(OP(LOAD) | LVL(L_L1 | L_HIT) | SNP(S_NONE) | LNUM(N_L1))
#define R_PCORE	(OP(LOAD) | LVL(L_L2 | L_HIT) | SNP(S_NONE) | SNPX(2) | LNUM(N_L2))
#define R_PCLUS	(OP(LOAD) | LVL(L_L3 | L_HIT) | SNP(S_NONE) | SNPX(2) | LNUM(N_L3))
#define R_REM	(OP(LOAD) | LVL(L_RCCE1) | SNP(S_NONE) | SNPX(2) | LNUM(N_ANY) | REM)
#define R_DRAM	(OP(LOAD) | LVL(L_LRAM | L_HIT) | SNP(S_NONE) | LNUM(N_RAM))
#define R_ST	(OP(STORE) | LVL(L_NA) | SNP(S_NA) | LNUM(N_NA))

/* Addresses of the Intel scenario. */
#define MM_A	0xffff888100a40000ULL
#define MM_B	0xffff888100a48000ULL
#define K_ANON	0xffff888200000040ULL
#define K_IP	0xffffffff81100000ULL
#define EXE	0x555555554000ULL
#define HEAP	0x555555a00000ULL
#define DATA_A	0x7f0000000000ULL
#define DATA_B	0x7f1000000000ULL
#define DATA_PGOFF 0x1000ULL

enum kind { FX_INTEL, FX_AMD, FX_ARM, FX_FALSESHARE };
/* What keys a sample's perf c2c line: kernel or unmapped address (no
 * pid), anonymous user memory (pid), a file mapping (file offset). */
enum region { R_KERN, R_ANON, R_FILE, R_NOMAP };

/* One expected line of a fixture. */
struct mline {
	int region, cpumode, pid;
	uint64_t key, address;
	long records;
};

struct fx {
	struct pdw *w;
	enum kind kind;
	uint64_t t;
	int ev_load, ev_store, ev_lock, ev_exit;
	uint64_t id_load, id_store, id_lock, id_exit;
	struct mline lines[128];
	int nlines;
};

static char tmpdir[PATH_MAX];
static char self_exe[PATH_MAX];

/* A growing byte buffer for the TRACING_DATA blob. */
struct blob {
	uint8_t b[16384];
	size_t n;
};

/* put(b, p, n): appends n bytes. */
static void put(struct blob *b, const void *p, size_t n)
{
	if (b->n + n <= sizeof(b->b)) {
		memcpy(b->b + b->n, p, n);
		b->n += n;
	}
}

/* putint(b, v, size): appends v little-endian in size bytes. */
static void putint(struct blob *b, uint64_t v, int size)
{
	for (int i = 0; i < size; i++) {
		uint8_t c = (uint8_t)(v >> (8 * i));
		put(b, &c, 1);
	}
}

/* putsized(b, size, s): a size-prefixed text (size: 4 or 8 bytes). */
static void putsized(struct blob *b, int size, const char *s)
{
	putint(b, strlen(s), size);
	put(b, s, strlen(s));
}

#define COMMON_FIELDS \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
#define LOCK_ID 675
#define EXIT_ID 696

/* tracing_blob(b): TRACING_DATA (v0.6, little-endian) describing the
 * mmap_lock_acquire_returned and exit_mmap events. */
static void tracing_blob(struct blob *b)
{
	static const char lock_fmt[] =
		"name: mmap_lock_acquire_returned\nID: 675\nformat:\n" COMMON_FIELDS
		"\tfield:struct mm_struct * mm;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:u64 memcg_id;\toffset:16;\tsize:8;\tsigned:0;\n"
		"\tfield:bool write;\toffset:24;\tsize:1;\tsigned:0;\n"
		"\tfield:bool success;\toffset:25;\tsize:1;\tsigned:0;\n\n"
		"print fmt: \"mm=%p memcg_id=%llu write=%s success=%s\", REC->mm, REC->memcg_id, "
		"REC->write ? \"true\" : \"false\", REC->success ? \"true\" : \"false\"\n";
	static const char exit_fmt[] =
		"name: exit_mmap\nID: 696\nformat:\n" COMMON_FIELDS
		"\tfield:struct mm_struct * mm;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:struct maple_tree * mt;\toffset:16;\tsize:8;\tsigned:0;\n\n"
		"print fmt: \"mt_mod %p, DESTROY\", REC->mt\n";
	b->n = 0;
	put(b, "\x17\x08\x44tracing", 10);
	put(b, "0.6", 4);
	putint(b, 0, 1);
	putint(b, 8, 1);
	putint(b, 4096, 4);
	put(b, "header_page", 12);
	putsized(b, 8, "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		 "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
		 "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
		 "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n");
	put(b, "header_event", 13);
	putsized(b, 8, "# compressed entry header\n\ttype_len    :    5 bits\n"
		 "\ttime_delta  :   27 bits\n\tarray       :   32 bits\n\n"
		 "\tpadding     : type == 29\n\ttime_extend : type == 30\n"
		 "\ttime_stamp : type == 31\n\tdata max type_len  == 28\n");
	putint(b, 0, 4);		/* no ftrace formats */
	putint(b, 2, 4);		/* two systems */
	put(b, "mmap_lock", 10);
	putint(b, 1, 4);
	putsized(b, 8, lock_fmt);
	put(b, "mmap", 5);
	putint(b, 1, 4);
	putsized(b, 8, exit_fmt);
	putint(b, 0, 4);		/* kallsyms */
	putint(b, 0, 4);		/* printk formats */
	putint(b, 0, 8);		/* saved cmdlines */
}

#define MEM_TYPE (PDW_SAMPLE_IP | PDW_SAMPLE_TID | PDW_SAMPLE_TIME | PDW_SAMPLE_ADDR | \
		  PDW_SAMPLE_CPU | PDW_SAMPLE_PERIOD | PDW_SAMPLE_WEIGHT | PDW_SAMPLE_DATA_SRC | \
		  PDW_SAMPLE_PHYS_ADDR)
#define ATTR_FLAGS (PDW_ATTR_DISABLED | PDW_ATTR_INHERIT | PDW_ATTR_SAMPLE_ID_ALL | \
		    PDW_ATTR_EXCLUDE_GUEST | PDW_ATTR_PRECISE_IP(3))

/* add_attrs_intel(f, tps): mem-loads, mem-stores and, when tps, the two
 * tracepoints. */
static void add_attrs_intel(struct fx *f, bool tps)
{
	static uint64_t ids[4][1] = { { 11 }, { 21 }, { 31 }, { 41 } };
	uint64_t st = MEM_TYPE | PDW_SAMPLE_IDENTIFIER;
	struct pdw_attr a = { .type = 4, .config = 0x1cd, .config1 = 30, .sample_period = 4000,
		.sample_type = st, .flags = ATTR_FLAGS | PDW_ATTR_MMAP2 | PDW_ATTR_COMM |
		PDW_ATTR_MMAP_DATA, .ids = ids[0], .nr_ids = 1, .name = "cpu/mem-loads,ldlat=30/P" };
	f->ev_load = pdw_add_attr(f->w, &a);
	a = (struct pdw_attr){ .type = 4, .config = 0x82d0, .sample_period = 4000, .sample_type = st,
		.flags = ATTR_FLAGS, .ids = ids[1], .nr_ids = 1, .name = "cpu/mem-stores/P" };
	f->ev_store = pdw_add_attr(f->w, &a);
	f->id_load = 11;
	f->id_store = 21;
	f->ev_lock = f->ev_exit = -1;
	if (!tps)
		return;
	a = (struct pdw_attr){ .type = 2, .config = LOCK_ID, .sample_period = 1,
		.sample_type = (st & ~(PDW_SAMPLE_WEIGHT | PDW_SAMPLE_DATA_SRC)) | PDW_SAMPLE_RAW,
		.flags = PDW_ATTR_DISABLED | PDW_ATTR_INHERIT | PDW_ATTR_SAMPLE_ID_ALL |
		PDW_ATTR_EXCLUDE_GUEST, .ids = ids[2], .nr_ids = 1,
		.name = "mmap_lock:mmap_lock_acquire_returned" };
	f->ev_lock = pdw_add_attr(f->w, &a);
	a.config = EXIT_ID;
	a.ids = ids[3];
	a.name = "mmap:exit_mmap";
	f->ev_exit = pdw_add_attr(f->w, &a);
	f->id_lock = 31;
	f->id_exit = 41;
}

/* add_attr_one(f, type, name): the single event of IBS and SPE files. */
static void add_attr_one(struct fx *f, uint32_t type, const char *name)
{
	static uint64_t id[1] = { 51 };
	struct pdw_attr a = { .type = type, .sample_period = 100000, .sample_type = MEM_TYPE,
		.flags = ATTR_FLAGS | PDW_ATTR_MMAP2 | PDW_ATTR_COMM | PDW_ATTR_MMAP_DATA,
		.ids = id, .nr_ids = 1, .name = name };
	f->ev_load = f->ev_store = pdw_add_attr(f->w, &a);
	f->id_load = f->id_store = 51;
	f->ev_lock = f->ev_exit = -1;
}

/* add_features(f, arch, nodes): the header features perf c2c needs. */
static void add_features(struct fx *f, const char *arch, int nodes)
{
	const char *cores[] = { "0-7" }, *threads[] = { "0", "1", "2", "3", "4", "5", "6", "7" };
	struct pdw_cpu_ids cpus[8];
	struct pdw_numa_node nn[2] = { { 0, 16000000, 8000000, nodes > 1 ? "0-3" : "0-7" },
				       { 1, 16000000, 8000000, "4-7" } };
	const char *argv[] = { "perf", "c2c", "record", "--", "./workload" };
	struct utsname u;
	struct blob *b = malloc(sizeof(*b));
	for (uint32_t i = 0; i < 8; i++)
		cpus[i] = (struct pdw_cpu_ids){ i, nodes > 1 ? i / 4 : 0 };
	pdw_feat_string(f->w, PDW_FEAT_HOSTNAME, "hitm-fixture");
	pdw_feat_string(f->w, PDW_FEAT_OSRELEASE, uname(&u) == 0 ? u.release : "6.1.0");
	pdw_feat_string(f->w, PDW_FEAT_VERSION, "6.1.0");
	pdw_feat_string(f->w, PDW_FEAT_ARCH, arch);
	pdw_feat_string(f->w, PDW_FEAT_CPUDESC, "fixture CPU");
	pdw_feat_nrcpus(f->w, 8, 8);
	pdw_feat_cmdline(f->w, 5, argv);
	pdw_feat_event_desc(f->w);
	pdw_feat_cpu_topology(f->w, cores, 1, threads, 8, cpus, 8, NULL, 0, NULL);
	pdw_feat_numa(f->w, nn, (uint32_t)nodes);
	if (b && f->kind == FX_INTEL) {
		tracing_blob(b);
		pdw_feat_tracing_data(f->w, b->b, b->n);
	}
	free(b);
}

/* sid(f, pid, tid, cpu): a side-band trailer at the next time. */
static struct pdw_sid sid(struct fx *f, uint32_t pid, uint32_t tid, uint32_t cpu)
{
	return (struct pdw_sid){ .pid = pid, .tid = tid, .time = f->t += 1000, .id = f->id_load,
				 .cpu = cpu };
}

/* fx_process(f, pid, comm, nthreads): COMM and FORK records of a process
 * and its threads pid+1 .. pid+nthreads-1. */
static void fx_process(struct fx *f, uint32_t pid, const char *comm, int nthreads)
{
	struct pdw_sid s = sid(f, pid, pid, 0);
	pdw_fork(f->w, f->ev_load, pid, 1, pid, 1, s.time, &s);
	s = sid(f, pid, pid, 0);
	pdw_comm(f->w, f->ev_load, PDW_MISC_COMM_EXEC, pid, pid, comm, &s);
	for (int i = 1; i < nthreads; i++) {
		s = sid(f, pid, pid + (uint32_t)i, 0);
		pdw_fork(f->w, f->ev_load, pid, pid, pid + (uint32_t)i, pid, s.time, &s);
	}
}

/* fx_map(f, pid, addr, len, pgoff, prot, file): an MMAP2 of file (with
 * its real device and inode when it exists). */
static void fx_map(struct fx *f, uint32_t pid, uint64_t addr, uint64_t len, uint64_t pgoff,
		   uint32_t prot, const char *file)
{
	struct stat st;
	struct pdw_mmap m = { .pid = pid, .tid = pid, .addr = addr, .len = len, .pgoff = pgoff,
			      .prot = prot, .flags = 2, .filename = file };
	if (file[0] == '/' && file[1] != '/' && stat(file, &st) == 0) {
		m.maj = major(st.st_dev);
		m.min = minor(st.st_dev);
		m.ino = st.st_ino;
	}
	struct pdw_sid s = sid(f, pid, pid, 0);
	pdw_mmap2(f->w, f->ev_load, PDW_MISC_USER, &m, &s);
}

/* count_line(f, region, cpumode, pid, key, addr): one load or store
 * sample of the expected line (region, cpumode, pid, key). */
static void count_line(struct fx *f, int region, int cpumode, int pid, uint64_t key, uint64_t addr)
{
	key &= ~63ULL;
	if (region != R_ANON)
		pid = -1;
	for (int i = 0; i < f->nlines; i++) {
		struct mline *l = &f->lines[i];
		if (l->region == region && l->cpumode == cpumode && l->pid == pid && l->key == key) {
			l->records++;
			return;
		}
	}
	if (f->nlines < 128)
		f->lines[f->nlines++] = (struct mline){ region, cpumode, pid, key, addr & ~63ULL, 1 };
}

/* The thread of a memory sample. */
struct who {
	uint32_t pid, tid, cpu;
	uint16_t mode;		/* PDW_MISC_KERNEL or PDW_MISC_USER */
};

/* mem(f, w, ip, addr, src, weight, region, key): one memory sample. */
static void mem(struct fx *f, struct who w, uint64_t ip, uint64_t addr, uint64_t src,
		uint64_t weight, int region, uint64_t key)
{
	bool store = (src & 0x1f) == STORE;
	struct pdw_sample s = { .id = store ? f->id_store : f->id_load, .ip = ip, .pid = w.pid,
		.tid = w.tid, .time = f->t += 1000, .addr = addr, .cpu = w.cpu, .period = 4000,
		.weight = weight, .data_src = src, .phys_addr = addr ? 0x100000000ULL + (addr & 0xfffff) : 0 };
	pdw_sample(f->w, store ? f->ev_store : f->ev_load, w.mode, &s);
	if ((src & 0x1f) == LOAD || (src & 0x1f) == STORE || (src & 0x1f) == (LOAD | STORE))
		count_line(f, region, w.mode, (int)w.pid, key, addr);
}

/* tp(f, ev, id, w, mm): one mmap_lock or exit_mmap tracepoint sample. */
static void tp(struct fx *f, int ev, uint64_t id, struct who w, uint64_t mm)
{
	uint8_t raw[26] = { 0 };
	uint16_t type = ev == f->ev_lock ? LOCK_ID : EXIT_ID;
	memcpy(raw, &type, 2);
	memcpy(raw + 4, &w.tid, 4);
	memcpy(raw + 8, &mm, 8);
	if (ev == f->ev_lock)
		raw[25] = 1;
	struct pdw_sample s = { .id = id, .ip = K_IP + 0x500, .pid = w.pid, .tid = w.tid,
		.time = f->t += 1000, .cpu = w.cpu, .period = 1, .raw = raw,
		.raw_size = ev == f->ev_lock ? 26 : 24 };
	pdw_sample(f->w, ev, PDW_MISC_KERNEL, &s);
}

/* K(pid, tid, cpu): a kernel-mode sample's thread. */
static struct who K(uint32_t pid, uint32_t tid, uint32_t cpu)
{
	return (struct who){ pid, tid, cpu, PDW_MISC_KERNEL };
}

/* U(pid, tid, cpu): a user-mode sample's thread. */
static struct who U(uint32_t pid, uint32_t tid, uint32_t cpu)
{
	return (struct who){ pid, tid, cpu, PDW_MISC_USER };
}

/* kmem(f, w, addr, src, weight): a kernel-address sample (line by address). */
static void kmem(struct fx *f, struct who w, uint64_t addr, uint64_t src, uint64_t weight)
{
	mem(f, w, K_IP + (addr & 0xff0), addr, src, weight, R_KERN, addr);
}

/* intel_mm_lines(f): the mm_struct lines of process A (pid 1000, threads
 * on CPUs 0-3 and 5-7) and B (pid 2000): seed 000's pattern at offset 184
 * (lru_gen.bitmap in the unit test's layout), stores to offset 132
 * (mm_users) beside it, a line read and written by one CPU. */
static void intel_mm_lines(struct fx *f)
{
	for (uint32_t c = 0; c < 4; c++)	/* the seed: every CPU stores the bitmap */
		for (int i = 0; i < 3; i++)
			kmem(f, K(1000, 1000 + c, c), MM_A + 184, i == 2 ? I_STM : I_ST1, 0);
	kmem(f, K(1000, 1001, 1), MM_A + 132, I_ST1, 0);
	kmem(f, K(1000, 1002, 2), MM_A + 184, I_LHITM, 180);
	kmem(f, K(1000, 1002, 2), MM_A + 184, I_LHITM, 220);
	kmem(f, K(1000, 1001, 5), MM_A + 184, I_RHITM, 410);
	kmem(f, K(1000, 1003, 7), MM_A + 160, I_RHIT, 300);
	kmem(f, K(1000, 1003, 3), MM_A + 176, I_L2, 12);
	kmem(f, K(1000, 1003, 3), MM_A + 176, I_LFB, 8);
	kmem(f, K(1000, 1000, 0), MM_A + 176, I_LLC, 40);
	kmem(f, K(1000, 1000, 0), MM_A + 0, I_ST1, 0);		/* mm_count: CPU 0 only */
	kmem(f, K(1000, 1000, 0), MM_A + 0, I_L1, 4);
	kmem(f, K(1000, 1000, 0), MM_A + 4, I_L1, 4);
	kmem(f, K(1000, 1001, 1), MM_A + 0, I_LHITM, 150);	/* ... and CPU 1 reads it */
	kmem(f, K(1000, 1001, 1), MM_A + 544, I_L1, 5);		/* saved_auxv[3] */
	kmem(f, K(1000, 1001, 1), MM_A + 520, I_STM, 0);
	kmem(f, K(1000, 1001, 1), MM_A + 512, I_LDRAM | LOCKED, 250);
	kmem(f, K(1000, 1002, 6), MM_A + 544, I_RDRAM, 500);
	kmem(f, K(1000, 1002, 6), MM_A + 552, I_LDNA, 0);
	kmem(f, K(2000, 2000, 0), MM_B + 8, I_ST1, 0);		/* B: true sharing */
	kmem(f, K(2000, 2001, 4), MM_B + 8, I_ST1, 0);
	kmem(f, K(2000, 2001, 4), MM_B + 8, I_RHITM, 380);
	kmem(f, K(2000, 2001, 4), MM_B + 8, I_STNA, 0);
}

/* intel_busy_lines(f): a line with 1100 HITMs (and 550 stores) and one with a single
 * HITM (under perf's 0.1% display limit), an unknown kernel line, and
 * kernel samples without an address. */
static void intel_busy_lines(struct fx *f)
{
	for (int i = 0; i < 1650; i++)
		kmem(f, K(1000, 1000 + (uint32_t)(i % 4), (uint32_t)(i % 4)), MM_A + 0x400 + (uint64_t)(i % 8) * 8,
		     i % 3 ? I_LHITM : I_ST1, 100 + (uint64_t)(i % 50));
	kmem(f, K(1000, 1000, 0), MM_A + 0x4c0, I_LHITM, 90);
	kmem(f, K(1000, 1000, 0), MM_A + 0x4c0, I_ST1, 0);
	kmem(f, K(1000, 1003, 3), K_ANON, I_ST1, 0);
	kmem(f, K(1000, 1003, 3), K_ANON + 8, I_ST1, 0);
	kmem(f, K(1000, 1000, 0), K_ANON + 16, I_LHITM, 170);
	kmem(f, K(1000, 1000, 0), K_ANON + 24, I_RHITM, 350);
	mem(f, K(1000, 1000, 0), K_IP + 0x80, 0, I_LHITM, 0, R_KERN, 0);
	mem(f, K(1000, 1000, 0), K_IP + 0x84, 0, I_ST1, 0, R_KERN, 0);
}

/* intel_user_lines(f): user lines: the same heap address in A and B
 * (perf keys anonymous memory by pid), a data mapping of this binary in
 * both at different addresses (keyed by file offset: one line), a
 * load-only line and user samples without an address. */
static void intel_user_lines(struct fx *f)
{
	uint64_t ip = EXE + 0x1120;
	mem(f, U(1000, 1000, 0), ip, HEAP + 0x100, I_ST1, 0, R_ANON, HEAP + 0x100);
	mem(f, U(1000, 1001, 1), ip + 4, HEAP + 0x108, I_ST1, 0, R_ANON, HEAP + 0x108);
	mem(f, U(1000, 1002, 2), ip + 8, HEAP + 0x108, I_LHITM, 160, R_ANON, HEAP + 0x108);
	mem(f, U(2000, 2000, 4), ip, HEAP + 0x100, I_ST1, 0, R_ANON, HEAP + 0x100);
	mem(f, U(2000, 2001, 5), ip + 8, HEAP + 0x110, I_LHITM, 140, R_ANON, HEAP + 0x110);
	mem(f, U(1000, 1000, 0), ip + 12, DATA_A + 0x40, I_ST1, 0, R_FILE, DATA_PGOFF + 0x40);
	mem(f, U(2000, 2001, 5), ip + 16, DATA_B + 0x48, I_RHITM, 390, R_FILE, DATA_PGOFF + 0x48);
	mem(f, U(1000, 1000, 0), ip + 20, HEAP + 0x800, I_L1, 3, R_ANON, HEAP + 0x800);
	mem(f, U(1000, 1000, 0), ip + 20, HEAP + 0x808, I_L1, 3, R_ANON, HEAP + 0x808);
	mem(f, U(1000, 1000, 0), ip + 24, 0, I_L1, 0, R_NOMAP, 0);
	mem(f, U(1000, 1000, 0), ip + 24, 0, I_ST1, 0, R_NOMAP, 0);
}

/* scen_intel(f): processes, maps, mm sightings and the samples. */
static void scen_intel(struct fx *f)
{
	fx_process(f, 1000, "yield", 4);
	fx_process(f, 2000, "other", 2);
	for (uint32_t pid = 1000; pid <= 2000; pid += 1000) {
		fx_map(f, pid, EXE, 0x100000, 0, 5, self_exe);
		fx_map(f, pid, HEAP, 0x21000, 0, 3, "[heap]");
		fx_map(f, pid, pid == 1000 ? DATA_A : DATA_B, 0x2000, DATA_PGOFF, 3, self_exe);
	}
	for (uint32_t i = 0; i < 4; i++)
		tp(f, f->ev_lock, f->id_lock, K(1000, 1000 + i, i), MM_A);
	tp(f, f->ev_lock, f->id_lock, K(2000, 2000, 4), MM_B);
	tp(f, f->ev_lock, f->id_lock, K(2000, 2001, 4), MM_B);
	intel_mm_lines(f);
	intel_busy_lines(f);
	intel_user_lines(f);
	tp(f, f->ev_exit, f->id_exit, K(2000, 2000, 4), MM_B);	/* B exits ... */
	fx_process(f, 3000, "later", 1);
	tp(f, f->ev_lock, f->id_lock, K(3000, 3000, 6), MM_B);	/* ... its mm is reused */
	kmem(f, K(3000, 3000, 6), MM_B + 8, I_ST1, 0);
}

/* scen_amd(f): IBS ops: most have no data source (N/A, address 0). */
static void scen_amd(struct fx *f)
{
	uint64_t ip = EXE + 0x1200;
	fx_process(f, 1000, "bench", 4);
	fx_map(f, 1000, EXE, 0x100000, 0, 5, self_exe);
	fx_map(f, 1000, HEAP, 0x21000, 0, 3, "[heap]");
	for (int i = 0; i < 60; i++)
		mem(f, i % 3 ? U(1000, 1000 + (uint32_t)(i % 4), (uint32_t)(i % 8)) :
			K(1000, 1000, (uint32_t)(i % 8)), i % 3 ? ip : K_IP, 0, A_NA, 0, R_NOMAP, 0);
	for (uint32_t c = 0; c < 4; c++) {
		mem(f, U(1000, 1000 + c, c), ip + c, HEAP + 0x2c0 + 8 * c, A_ST1, 0, R_ANON, HEAP + 0x2c0);
		mem(f, U(1000, 1000 + c, c), ip + 4, HEAP + 0x2c0 + 8 * c, A_L1, 10, R_ANON, HEAP + 0x2c0);
	}
	mem(f, U(1000, 1001, 1), ip + 8, HEAP + 0x2c0, A_LHITM, 200, R_ANON, HEAP + 0x2c0);
	mem(f, U(1000, 1002, 6), ip + 8, HEAP + 0x2c8, A_RHITM, 600, R_ANON, HEAP + 0x2c0);
	mem(f, U(1000, 1002, 6), ip + 8, HEAP + 0x2d0, A_RHITM, 640, R_ANON, HEAP + 0x2c0);
	mem(f, U(1000, 1003, 3), ip + 12, HEAP + 0x2f8, A_STNA, 0, R_ANON, HEAP + 0x2c0);
	mem(f, U(1000, 1003, 3), ip + 12, HEAP + 0x400, A_L2, 20, R_ANON, HEAP + 0x400);
	mem(f, U(1000, 1003, 3), ip + 12, HEAP + 0x440, A_DRAM, 300, R_ANON, HEAP + 0x440);
	kmem(f, K(1000, 1000, 2), MM_A + 0x40, A_LHITM, 190);
	kmem(f, K(1000, 1001, 5), MM_A + 0x48, A_ST1, 0);
	kmem(f, K(1000, 1002, 3), MM_A + 0x50, A_L1, 8);	/* --object mm_struct@MM_A */
	kmem(f, K(1000, 1001, 5), 0, A_ST1, 0);
	kmem(f, K(1000, 1001, 5), 0, A_STNA, 0);
}

/* scen_arm(f): SPE samples: peer snoops, no HITMs, stores without level. */
static void scen_arm(struct fx *f)
{
	uint64_t ip = EXE + 0x1300;
	fx_process(f, 1000, "spe", 4);
	fx_map(f, 1000, EXE, 0x100000, 0, 5, self_exe);
	fx_map(f, 1000, HEAP, 0x21000, 0, 3, "[heap]");
	for (uint32_t c = 0; c < 4; c++)
		mem(f, U(1000, 1000 + c, c), ip, HEAP + 0x80 + 8 * c, R_ST, 0, R_ANON, HEAP + 0x80);
	mem(f, U(1000, 1000, 0), ip + 4, HEAP + 0x88, R_PCORE, 70, R_ANON, HEAP + 0x80);
	mem(f, U(1000, 1001, 1), ip + 4, HEAP + 0x80, R_PCLUS, 90, R_ANON, HEAP + 0x80);
	mem(f, U(1000, 1002, 6), ip + 4, HEAP + 0x90, R_REM, 400, R_ANON, HEAP + 0x80);
	mem(f, U(1000, 1003, 3), ip + 8, HEAP + 0x100, R_L1, 4, R_ANON, HEAP + 0x100);
	mem(f, U(1000, 1003, 3), ip + 8, HEAP + 0x140, R_DRAM, 200, R_ANON, HEAP + 0x140);
	mem(f, U(1000, 1003, 7), ip + 8, HEAP + 0x140, R_PCORE, 60, R_ANON, HEAP + 0x140);
	kmem(f, K(1000, 1000, 2), MM_A + 0x40, R_PCLUS, 110);
	kmem(f, K(1000, 1000, 2), MM_A + 0x40, R_ST, 0);
}

/* falseshare_path(buf, len): build/workloads/falseshare (PERFDB_BUILD). */
static const char *falseshare_path(char *buf, size_t len)
{
	const char *b = getenv("PERFDB_BUILD");
	char rel[PATH_MAX];
	snprintf(rel, sizeof(rel), "%s/workloads/falseshare", b && *b ? b : "build");
	if (!realpath(rel, buf))
		snprintf(buf, len, "%s", rel);
	return buf;
}

/* fs_map(f, e, base, path): MMAP2s of path's PT_LOAD segments as the
 * loader maps them at base. */
static void fs_map(struct fx *f, const struct elfsyms *e, uint64_t base, const char *path)
{
	for (size_t i = 0; i < elfsyms_nsegments(e); i++) {
		const struct elf_seg *g = elfsyms_segment(e, i);
		uint64_t lo = g->vaddr & ~0xfffULL, hi = (g->vaddr + g->filesz + 0xfff) & ~0xfffULL;
		uint64_t mhi = (g->vaddr + g->memsz + 0xfff) & ~0xfffULL;
		uint32_t prot = (g->flags & 4 ? 1 : 0) | (g->flags & 2 ? 2 : 0) | (g->flags & 1 ? 4 : 0);
		fx_map(f, 3000, base + lo, hi - lo, g->offset & ~0xfffULL, prot, path);
		if (mhi > hi)
			fx_map(f, 3000, base + hi, mhi - hi, 0, prot, "//anon");
	}
}

/* fs_mem(f, e, w, ip, base, vaddr, src, weight): a sample of ELF address
 * vaddr: its line is keyed by file offset in the file-backed pages of a
 * segment, by address (and pid) in the anonymous rest (.bss). */
static void fs_mem(struct fx *f, const struct elfsyms *e, struct who w, uint64_t ip, uint64_t base,
		   uint64_t vaddr, uint64_t src, uint64_t weight)
{
	for (size_t i = 0; i < elfsyms_nsegments(e); i++) {
		const struct elf_seg *g = elfsyms_segment(e, i);
		uint64_t hi = (g->vaddr + g->filesz + 0xfff) & ~0xfffULL;
		if (vaddr >= (g->vaddr & ~0xfffULL) && vaddr < hi) {
			mem(f, w, ip, base + vaddr, src, weight, R_FILE, vaddr - g->vaddr + g->offset);
			return;
		}
	}
	mem(f, w, ip, base + vaddr, src, weight, R_ANON, base + vaddr);
}

/* scen_falseshare(f): workloads/falseshare's fs_shared: packed words
 * each stored by its own CPU (false sharing), `bitmap` stored by every CPU
 * (true sharing), padded.bitmap_a used by CPU 0 alone. */
static void scen_falseshare(struct fx *f)
{
	char path[PATH_MAX], err[256];
	const uint64_t base = 0x555555554000ULL;
	struct elfsyms *e = elfsyms_open(falseshare_path(path, sizeof(path)), err, sizeof(err));
	const struct sym *s = e ? symtab_find_name(elfsyms_symtab(e), "fs_shared", NULL) : NULL;
	const struct sym *main_sym = e ? symtab_find_name(elfsyms_symtab(e), "main", NULL) : NULL;
	if (!s || !main_sym) {
		fprintf(stderr, "falseshare: %s\n", e ? "no fs_shared symbol" : err);
		elfsyms_close(e);
		return;
	}
	uint64_t fs = s->start, ip = base + main_sym->start;
	fx_process(f, 3000, "falseshare", 4);
	fs_map(f, e, base, path);
	for (int round = 0; round < 3; round++)
		for (uint32_t c = 0; c < 4; c++) {
			struct who w = U(3000, 3000 + c, c);
			fs_mem(f, e, w, ip + 16, base, fs + 8 * c, I_ST1, 0);
			fs_mem(f, e, w, ip + 20, base, fs + 8 * c, I_LHITM, 120 + c);
			fs_mem(f, e, w, ip + 24, base, fs + 576, round ? I_ST1 : I_STM, 0);
		}
	fs_mem(f, e, U(3000, 3001, 1), ip + 28, base, fs + 576, I_LHITM, 130);
	fs_mem(f, e, U(3000, 3002, 2), ip + 28, base, fs + 576, I_LHITM, 140);
	fs_mem(f, e, U(3000, 3000, 0), ip + 32, base, fs + 64, I_ST1, 0);
	fs_mem(f, e, U(3000, 3000, 0), ip + 36, base, fs + 64, I_L1, 4);
	elfsyms_close(e);
}

/* fx_write(kind, path): writes one fixture and its .lines manifest.
 * 0 or -1. */
static int fx_write(enum kind kind, const char *path)
{
	struct fx *f = calloc(1, sizeof(*f));
	char lines[PATH_MAX + 8];
	FILE *m;
	int rc;
	if (!f)
		return -1;
	f->kind = kind;
	f->w = pdw_new(NULL);
	f->t = 1000000000ULL;
	if (kind == FX_INTEL || kind == FX_FALSESHARE)
		add_attrs_intel(f, kind == FX_INTEL);
	else
		add_attr_one(f, kind == FX_ARM ? 8 : 11, kind == FX_ARM ? "arm_spe_0//" : "ibs_op//");
	add_features(f, kind == FX_ARM ? "aarch64" : "x86_64", kind == FX_AMD ? 1 : 2);
	if (kind == FX_INTEL)
		scen_intel(f);
	else if (kind == FX_AMD)
		scen_amd(f);
	else if (kind == FX_ARM)
		scen_arm(f);
	else
		scen_falseshare(f);
	pdw_finished_round(f->w);
	rc = pdw_write(f->w, path);
	if (rc)
		fprintf(stderr, "%s: %s\n", path, pdw_error(f->w));
	snprintf(lines, sizeof(lines), "%s.lines", path);
	if (!rc && (m = fopen(lines, "w"))) {
		for (int i = 0; i < f->nlines; i++)
			fprintf(m, "0x%llx %d %s %ld\n", (unsigned long long)f->lines[i].address,
				f->lines[i].pid, f->lines[i].cpumode == PDW_MISC_KERNEL ? "kernel" : "user",
				f->lines[i].records);
		rc = fclose(m) ? -1 : 0;
	}
	pdw_free(f->w);
	free(f);
	return rc;
}

/* write_fixtures(dir): every fixture into dir. Exit status. */
static int write_fixtures(const char *dir)
{
	static const char *const names[] = { "intel", "amd", "arm", "falseshare" };
	char path[PATH_MAX];
	for (int k = 0; k < 4; k++) {
		snprintf(path, sizeof(path), "%s/%s.data", dir, names[k]);
		if (fx_write((enum kind)k, path))
			return 1;
	}
	return 0;
}

/* ---- unit checks ---- */

/* add(l, member, off, size, boff, bsize, type): one layout row. */
static void add(struct layout *l, const char *member, int64_t off, int64_t size, int boff,
		int bsize, const char *type)
{
	l->m = realloc(l->m, (l->n + 1) * sizeof(*l->m));
	l->m[l->n++] = (struct layout_member){ strdup(member), off, size, boff, bsize, strdup(type) };
}

/* seed_layout(l): a small mm_struct with seed 000's field and the
 * shapes naming must handle. */
static void seed_layout(struct layout *l)
{
	*l = (struct layout){ .struct_name = strdup("mm_struct") };
	add(l, "", 0, 1536, -1, -1, "struct mm_struct");
	add(l, "mm_count", 0, 4, -1, -1, "atomic_t");
	add(l, "mm_users", 132, 4, -1, -1, "atomic_t");
	add(l, "flags", 136, 4, 0, 3, "unsigned int");
	add(l, "dumpable", 136, 4, 3, 2, "unsigned int");
	add(l, "pinned", 136, 4, 8, 1, "unsigned int");
	add(l, "lru_gen", 168, 24, -1, -1, "struct {...}");
	add(l, "lru_gen.list", 168, 16, -1, -1, "struct list_head");
	add(l, "lru_gen.bitmap", 184, 8, -1, -1, "long unsigned int");
	add(l, "saved_auxv", 520, 448, -1, -1, "long unsigned int[56]");
	add(l, "context", 1024, 64, -1, -1, "mm_context_t");
	add(l, "context.ctx_id", 1024, 8, -1, -1, "u64");
	add(l, "context.tlb_gen", 1040, 8, -1, -1, "atomic64_t");
	add(l, "last", 1100, 4, -1, -1, "int");
}

/* name_is(l, off, want, foff, fsize, what): checks layout_name_at. */
static void name_is(const struct layout *l, int64_t off, const char *want, int64_t foff,
		    int64_t fsize)
{
	char name[256] = "";
	int64_t fo = -1, fs = -1;
	int rc = layout_name_at(l, off, name, sizeof(name), &fo, &fs);
	ok(rc == 0 && !strcmp(name, want) && fo == foff && fs == fsize,
	   "offset %lld is %s (%lld, %lld)", (long long)off, want, (long long)foff, (long long)fsize);
	if (rc || strcmp(name, want) || fo != foff || fs != fsize)
		printf("#   got rc %d '%s' (%lld, %lld)\n", rc, name, (long long)fo, (long long)fs);
}

/* test_naming: field names at offsets: nested, arrays, bitfields, holes. */
static void test_naming(void)
{
	struct layout l;
	char name[64];
	int64_t a, b;
	seed_layout(&l);
	name_is(&l, 0, "mm_count", 0, 4);
	name_is(&l, 3, "mm_count", 0, 4);
	name_is(&l, 4, "<hole after mm_count>", 4, 128);
	name_is(&l, 100, "<hole after mm_count>", 4, 128);
	name_is(&l, 132, "mm_users", 132, 4);
	name_is(&l, 136, "flags,dumpable", 136, 4);
	name_is(&l, 137, "pinned", 136, 4);
	name_is(&l, 184, "lru_gen.bitmap", 184, 8);
	name_is(&l, 191, "lru_gen.bitmap", 184, 8);
	name_is(&l, 170, "lru_gen.list", 168, 16);
	name_is(&l, 544, "saved_auxv[3]", 544, 8);
	name_is(&l, 967, "saved_auxv[55]", 960, 8);
	name_is(&l, 1032, "context.<hole after ctx_id>", 1032, 8);
	name_is(&l, 1050, "context.<padding>", 1048, 40);
	name_is(&l, 1200, "<padding>", 1104, 432);
	ok(layout_name_at(&l, 1536, name, sizeof(name), &a, &b) == -1, "past the struct: no field");
	ok(layout_name_at(&l, -1, name, sizeof(name), &a, &b) == -1, "before the struct: no field");
	is_int(layout_size(&l), 1536, "layout size");
	layout_free(&l);
	is_str(layout_type_key("struct mm_struct"), "mm_struct", "type key drops 'struct '");
	is_str(layout_type_key("union u"), "u", "type key drops 'union '");
}

/* test_spec: --object TYPE@ADDR[:SIZE][/PID]. */
static void test_spec(void)
{
	struct obj_spec o;
	ok(objects_parse_spec("mm_struct@0xffff888100a40000", &o) == 0 && !strcmp(o.type, "mm_struct") &&
	   o.addr == 0xffff888100a40000ULL && o.size == 0 && o.pid == -1, "TYPE@ADDR");
	ok(objects_parse_spec("struct foo@4096:64/123", &o) == 0 && !strcmp(o.type, "struct foo") &&
	   o.addr == 4096 && o.size == 64 && o.pid == 123, "TYPE@ADDR:SIZE/PID");
	ok(objects_parse_spec("foo", &o) == -1, "no @: refused");
	ok(objects_parse_spec("@0x10", &o) == -1, "no type: refused");
	ok(objects_parse_spec("foo@", &o) == -1, "no address: refused");
	ok(objects_parse_spec("foo@0x10:x", &o) == -1, "bad size: refused");
	ok(objects_parse_spec("foo@-5", &o) == -1, "negative address: refused");
}

/* member(l, name): the row of member name, or NULL. */
static const struct layout_member *member(const struct layout *l, const char *name)
{
	return layout_find_member(l, name);
}

/* test_dwarf: falseshare's struct fs_shared and its variable from DWARF,
 * against the offsets pahole prints for it (packed 0, padded 64, bitmap
 * 576, size 640; the padded words 64 apart). */
static void test_dwarf(void)
{
	char path[PATH_MAX], err[256];
	struct layout l;
	struct dwarf_var *v;
	size_t n;
	falseshare_path(path, sizeof(path));
	if (!ok(dwarf_layout_of(path, "fs_shared", &l, err, sizeof(err)) == 0, "DWARF layout of fs_shared")) {
		printf("#   %s\n", err);
		return;
	}
	const struct layout_member *m;
	ok((m = member(&l, "")) && m->size == 640 && !strcmp(m->type_name, "struct fs_shared"),
	   "fs_shared: 640 bytes");
	ok((m = member(&l, "packed")) && m->offset == 0 && m->size == 64 &&
	   !strcmp(m->type_name, "struct fs_packed"), "packed at 0, 64 bytes");
	ok((m = member(&l, "packed.bitmap_c")) && m->offset == 16 && m->size == 8 &&
	   (!strcmp(m->type_name, "long unsigned int") || !strcmp(m->type_name, "unsigned long")),
	   "packed.bitmap_c at 16, unsigned long (gcc and clang spell it differently)");
	ok((m = member(&l, "padded")) && m->offset == 64 && m->size == 512, "padded at 64, 512 bytes");
	ok((m = member(&l, "padded.bitmap_b")) && m->offset == 128, "padded.bitmap_b at 128");
	ok((m = member(&l, "bitmap")) && m->offset == 576 && m->size == 8, "bitmap at 576");
	name_is(&l, 72, "padded.<hole after bitmap_a>", 72, 56);
	name_is(&l, 600, "<padding>", 584, 56);
	layout_free(&l);
	ok(dwarf_layout_of(path, "no_such_struct", &l, err, sizeof(err)) == -1 &&
	   strstr(err, "no struct no_such_struct"), "unknown struct: %s", err);
	ok(dwarf_layout_of("/nonexistent", "x", &l, err, sizeof(err)) == -1, "missing file: refused");
	if (ok(dwarf_vars(path, &v, &n, err, sizeof(err)) == 0, "DWARF variables of falseshare")) {
		bool found = false;
		for (size_t i = 0; i < n; i++)
			if (!strcmp(v[i].name, "fs_shared"))
				found = !strcmp(v[i].type, "fs_shared") && v[i].size == 640 && v[i].addr;
		ok(found, "fs_shared: a 640-byte struct fs_shared at a static address");
		dwarf_vars_free(v, n);
	}
}

/* open_fixture_db(dbpath, data, session): the Intel fixture imported
 * into a new database. */
static sqlite3 *open_fixture_db(const char *dbpath, const char *data, int64_t *session)
{
	char err[512];
	struct ingest_opts io = { 0 };
	sqlite3 *db;
	unlink(dbpath);
	if (fx_write(FX_INTEL, data) || !(db = db_open(dbpath, true, err, sizeof(err))))
		return NULL;
	if (ingest_file(db, data, &io, session, err, sizeof(err))) {
		printf("# import: %s\n", err);
		sqlite3_close(db);
		return NULL;
	}
	return db;
}

/* find_field(r, d, addr, name): the line field named name on the line of
 * address addr (kernel mode), or NULL. */
static const struct hitm_field *find_field(const struct hitm_result *r, const struct c2c_data *d,
					   uint64_t addr, const char *name)
{
	for (size_t i = 0; i < d->nlines; i++) {
		if (d->lines[i].address != (addr & ~63ULL) || d->lines[i].cpumode != 1)
			continue;
		for (size_t k = 0; k < r->lines[i].n; k++) {
			const struct hitm_field *f = &r->fields[r->lines[i].first + k];
			if (!strcmp(r->strs[f->name], name))
				return f;
		}
	}
	return NULL;
}

/* line_of(d, addr, mode, pid): the index of a line, or -1. */
static long line_of(const struct c2c_data *d, uint64_t addr, int mode, int pid)
{
	for (size_t i = 0; i < d->nlines; i++)
		if (d->lines[i].address == addr && d->lines[i].cpumode == mode && d->lines[i].pid == pid)
			return (long)i;
	return -1;
}

/* check_lines(d): perf's grouping and counters on the Intel fixture. */
static void check_lines(const struct c2c_data *d)
{
	long l = line_of(d, MM_A + 128, 1, -1);
	if (ok(l >= 0, "the seed's line is a kernel line")) {
		const struct c2c_stats *s = &d->lines[l].st;
		ok(s->lcl_hitm == 2 && s->rmt_hitm == 1 && s->tot_hitm == 3, "its HITMs: 2 local, 1 remote");
		ok(s->store == 13 && s->st_l1hit == 9 && s->st_l1miss == 4, "its stores: 9 L1 hits, 4 misses");
		ok(s->rmt_hit == 1 && s->rmt_dram == 2 && s->ld_l2hit == 1 && s->ld_fbhit == 1 &&
		   s->ld_llchit == 1, "its other loads");
		is_int(c2c_records_perf(s), 20 + 2, "perf's Total records counts the 2 remote-bit loads twice");
	}
	ok(line_of(d, HEAP + 0x100, 2, 1000) >= 0 && line_of(d, HEAP + 0x100, 2, 2000) >= 0,
	   "one heap address, two processes: two lines");
	l = line_of(d, DATA_A + 0x40, 2, -1);
	ok(l >= 0 && d->lines[l].n == 2 && line_of(d, DATA_B + 0x40, 2, -1) < 0,
	   "one file offset mapped at two addresses: one line");
	ok(line_of(d, 0, 1, -1) >= 0 && line_of(d, 0, 2, -1) >= 0,
	   "address 0: one line per cpumode");
	is_int(d->total.nr_entries, (long long)d->n, "every memory sample counted once");
	ok(d->nevents == 2, "two memory events");
}

/* check_fields(r, d, om): the seed's verdicts and field names. */
static void check_fields(const struct hitm_result *r, const struct c2c_data *d, const struct objmap *om)
{
	const struct hitm_field *f = find_field(r, d, MM_A + 184, "lru_gen.bitmap");
	if (ok(f != NULL, "lru_gen.bitmap attributed")) {
		ok(f->c.stores == 12 && f->c.lcl_hitm == 2 && f->c.rmt_hitm == 1, "lru_gen.bitmap counts");
		is_int(cpuset_count(f->writers, r->cpu_words), 4, "lru_gen.bitmap: 4 writer CPUs");
		is_int(f->foff, 184, "lru_gen.bitmap at offset 184");
		ok(f->obj >= 0 && strstr(om->v[f->obj].name, "pid 1000 yield"), "its mm is process 1000's");
	}
	long l = line_of(d, MM_A + 128, 1, -1);
	if (l >= 0) {
		is_str(share_verdict_name(r->lines[l].verdict), "true and false sharing", "seed line verdict");
		ok(strstr(r->lines[l].detail, "lru_gen.bitmap written by CPUs 0-3") != NULL,
		   "verdict names lru_gen.bitmap: %s", r->lines[l].detail);
	}
	ok(find_field(r, d, MM_A + 544, "saved_auxv[3]") != NULL, "saved_auxv[3] attributed");
	ok(find_field(r, d, MM_A + 4, "<hole after mm_count>") != NULL, "a hole is named as such");
	l = line_of(d, MM_A, 1, -1);
	ok(l >= 0 && r->lines[l].verdict == SHARE_TRUE, "mm_count: written by CPU 0, read by CPU 1: true sharing");
	f = find_field(r, d, K_ANON, HITM_UNKNOWN);
	ok(f && f->obj < 0 && !strcmp(r->strs[f->type], HITM_UNKNOWN), "unknown address: unknown object");
	l = line_of(d, K_ANON, 1, -1);
	ok(l >= 0 && r->lines[l].verdict == SHARE_FALSE, "unknown line: 0 and 8 written by CPU 3, 16 and 24 read by CPU 0: false sharing");
}

/* check_reuse(r, d, om): mm B's address after its exit_mmap is a new mm:
 * the samples at MM_B + 8 go to two fields of its line, one per mm
 * (counted by records: each of these samples is a load or a store). */
static void check_reuse(const struct hitm_result *r, const struct c2c_data *d, const struct objmap *om)
{
	long l = line_of(d, MM_B, 1, -1);
	int before = 0, after = 0;
	for (size_t k = 0; l >= 0 && k < r->lines[l].n; k++) {
		const struct hitm_field *f = &r->fields[r->lines[l].first + k];
		if (f->obj < 0 || om->v[f->obj].addr != MM_B)
			continue;
		before += strstr(om->v[f->obj].name, "pid 2000") ? (int)f->c.records : 0;
		after += strstr(om->v[f->obj].name, "pid 3000") ? (int)f->c.records : 0;
	}
	ok(before == 4 && after == 1, "mm B: 4 samples before exit_mmap, 1 of the reused mm (%d, %d)",
	   before, after);
}

/* test_seed: the Intel fixture imported, analyzed with a hand-made
 * mm_struct layout that has seed 000's lru_gen.bitmap. */
static void test_seed(void)
{
	char dbpath[PATH_MAX + 16], data[PATH_MAX + 16], err[512];
	int64_t session;
	struct c2c_data d = { 0 };
	struct layout_set ls = { 0 };
	struct objmap om = { 0 };
	struct hitm_result r;
	struct layout l;
	snprintf(dbpath, sizeof(dbpath), "%s/seed.db", tmpdir);
	snprintf(data, sizeof(data), "%s/intel.data", tmpdir);
	sqlite3 *db = open_fixture_db(dbpath, data, &session);
	if (!ok(db != NULL, "Intel fixture imports"))
		return;
	seed_layout(&l);
	ok(layout_replace(db, session, &l, err, sizeof(err)) == 0, "seed layout stored");
	layout_free(&l);
	ok(objects_has_mm(db, session), "the tracepoints name mms");
	layouts_load(db, session, &ls);
	ok(layouts_find(&ls, "struct mm_struct") != NULL, "layout read back");
	ok(objects_load(db, session, 0, &ls, &om) >= 3, "mm objects: A, B, B reused");
	objects_finish(&om);
	hitm_begin(&r, &om, &ls);
	struct c2c_sink sink = hitm_sink(&r);
	if (ok(c2c_load(db, session, &d, &sink, err, sizeof(err)) == 0, "samples load")) {
		hitm_finish(&r, &d);
		check_lines(&d);
		check_fields(&r, &d, &om);
		check_reuse(&r, &d, &om);
	}
	hitm_result_free(&r);
	objects_free(&om);
	layouts_free(&ls);
	c2c_data_free(&d);
	sqlite3_close(db);
}

/* two_objects(om, addr): two untyped objects over addr: "a" (a user
 * object of pid 10, which wins for that pid) and "b" (a kernel symbol,
 * for every other pid). */
static void two_objects(struct objmap *om, uint64_t addr)
{
	om->v = xcalloc(2, sizeof(*om->v));
	om->v[0] = (struct hobj){ .addr = addr, .size = 64, .t0 = INT64_MIN, .t1 = INT64_MAX,
		.pid = 10, .source = OBJ_USER, .type = xstrdup(""), .name = xstrdup("a") };
	om->v[1] = (struct hobj){ .addr = addr, .size = 64, .t0 = INT64_MIN, .t1 = INT64_MAX,
		.pid = -1, .source = OBJ_KALLSYMS, .type = xstrdup(""), .name = xstrdup("b") };
	om->n = om->cap = 2;
	objects_finish(om);
}

/* field_name(r, o): the name of row o's field, or "-". */
static const char *field_name(const struct hitm_result *r, const struct hitm_offset *o)
{
	return o->field >= 0 ? r->strs[r->fields[o->field].name] : "-";
}

/* test_rows: the offsets rows of samples added one at a time: at offset 8
 * and one site, 6 pids interleaved across two objects (the row names the
 * first 4 distinct pids in sample order, then "+", and the field of its
 * first sample, an object's field that is not the first created for pid
 * 10's samples); at offset 16, 300 threads of one pid (counted up to
 * 256). */
static void test_rows(void)
{
	static const int32_t pids[] = { 11, 10, 12, 10, 13, 11, 14, 10, 15 };
	static const int32_t tids[] = { 110, 100, 120, 101, 130, 110, 140, 100, 150 };
	const uint64_t base = 0xffff888000004000ULL;
	struct c2c_data d = { .nlines = 1 };
	struct objmap om = { 0 };
	struct layout_set ls = { 0 };
	struct hitm_result r;
	const struct hitm_offset *rows;
	two_objects(&om, base);
	hitm_begin(&r, &om, &ls);
	for (int i = 0; i < 9; i++)
		hitm_add(&r, &(struct c2c_sample){ .addr = base + 8, .cpu = i % 3, .node = i % 2,
			.pid = pids[i], .tid = tids[i], .site = 0, .line = 0, .cpumode = 1,
			.cls = C2C_LOAD });
	for (int i = 0; i < 300; i++)
		hitm_add(&r, &(struct c2c_sample){ .addr = base + 16, .cpu = 5, .node = -1, .pid = 20,
			.tid = 1000 + i, .site = 1, .line = 0, .cpumode = 1, .cls = C2C_STORE });
	hitm_finish(&r, &d);
	struct hitm_view v = { .d = &d, .om = &om, .r = &r };
	size_t n = hitm_offsets(&v, 0, &rows);
	if (ok(n == 2, "two rows: offsets 8 and 16 (%zu)", n)) {
		ok(rows[0].offset == 8 && rows[0].c.loads == 9, "offset 8: its 9 loads");
		is_str(rows[0].pids, "11,10,12,13+", "offset 8: the first 4 pids in sample order, then +");
		is_int(rows[0].ntids, 7, "offset 8: 7 distinct threads");
		ok(rows[0].ncpus == 3 && rows[0].nodes == 3, "offset 8: CPUs 0-2, nodes 0 and 1");
		is_str(field_name(&r, &rows[0]), "b+0x8", "offset 8: the field of its first sample");
		ok(rows[1].offset == 16 && rows[1].c.stores == 300 && rows[1].ntids == 256,
		   "offset 16: 300 stores, threads counted up to 256 (%d)", rows[1].ntids);
		ok(!strcmp(rows[1].pids, "20") && rows[1].ncpus == 1 && !rows[1].nodes,
		   "offset 16: pid 20, one CPU, no node");
	}
	is_int(r.lines[0].n, 3, "the line's fields: a+0x8, b+0x8, b+0x10");
	is_str(r.strs[r.fields[r.lines[0].first].name], "b+0x8",
	       "same offset: the field created first comes first");
	hitm_result_free(&r);
	objects_free(&om);
}

/* test_verdicts: a line's verdict and the field its detail names. Line 0:
 * one field stored to by CPUs 0 and 1, read by none: true sharing (two
 * writers are enough). Line 1: field +0x0 written by CPU 0 and read by
 * CPU 1 with 10 HITMs, field +0x8 stored to by CPUs 2 and 3 50 times:
 * both truly shared, and the detail names the one with the HITMs (HITMs
 * weigh more than stores); the per-type aggregate keeps its writers. */
static void test_verdicts(void)
{
	const uint64_t base = 0xffff888000008000ULL;
	struct c2c_data d = { .nlines = 2 };
	struct objmap om = { 0 };
	struct layout_set ls = { 0 };
	struct hitm_result r;
	om.v = xcalloc(1, sizeof(*om.v));
	om.v[0] = (struct hobj){ .addr = base, .size = 128, .t0 = INT64_MIN, .t1 = INT64_MAX, .pid = -1,
		.source = OBJ_KALLSYMS, .type = xstrdup(""), .name = xstrdup("v") };
	om.n = om.cap = 1;
	objects_finish(&om);
	hitm_begin(&r, &om, &ls);
	for (int i = 0; i < 4; i++)
		hitm_add(&r, &(struct c2c_sample){ .addr = base + 8, .cpu = i % 2, .node = -1, .pid = 1, .tid = 1,
			.site = 0, .line = 0, .cpumode = 1, .cls = C2C_STORE });
	for (int i = 0; i < 10; i++) {
		hitm_add(&r, &(struct c2c_sample){ .addr = base + 64, .cpu = 0, .node = -1, .pid = 1, .tid = 1,
			.site = 0, .line = 1, .cpumode = 1, .cls = C2C_STORE });
		hitm_add(&r, &(struct c2c_sample){ .addr = base + 64, .cpu = 1, .node = -1, .pid = 1, .tid = 2,
			.site = 0, .line = 1, .cpumode = 1, .cls = C2C_LCL_HITM });
	}
	for (int i = 0; i < 50; i++)
		hitm_add(&r, &(struct c2c_sample){ .addr = base + 72, .cpu = 2 + i % 2, .node = -1, .pid = 1,
			.tid = 3, .site = 0, .line = 1, .cpumode = 1, .cls = C2C_STORE });
	hitm_finish(&r, &d);
	is_int(r.lines[0].verdict, SHARE_TRUE, "stored to by CPUs 0 and 1, read by none: true sharing");
	is_int(r.lines[1].verdict, SHARE_BOTH, "line 1: true sharing in each field, false between them");
	ok(r.lines[1].detail && !strncmp(r.lines[1].detail, "v+0x40 written by CPU 0, read by CPU 1", 38),
	   "line 1: the detail names the field with the HITMs first (%s)", r.lines[1].detail);
	bool writers = false;
	for (size_t i = 0; i < r.ntfields; i++)
		if (!strcmp(r.strs[r.tfields[i].name], "v+0x48"))
			writers = cpuset_count(r.tfields[i].writers, r.cpu_words) == 2;
	ok(writers, "the per-type field v+0x48 keeps its 2 writers");
	hitm_result_free(&r);
	objects_free(&om);
}

/* ---- the findings document of both evidence kinds ---- */

/* watch_fixture(db): session 2: two fields of one mm_struct watched (its
 * first 4 bytes, mm_count, and 8 of mm_mt's 16), four writes by CPUs 0
 * and 1 at two kernel store sites, as perfdb record -r watch stores them. */
static bool watch_fixture(sqlite3 *db)
{
	char err[256];
	int rc = db_exec(db,
		"INSERT INTO session (id, label, workload, first_time, last_time, first_sample_id, "
		"last_sample_id, nr_cpus_avail) VALUES (2, 'w', 'yield', 0, 900, 100001, 100004, 2);"
		"INSERT INTO event (id, session_id, idx, name, type, config1, config2) VALUES "
		"(1001, 2, 0, 'mem:0xffff888100000000', 5, -131387344551936, 4),"
		"(1002, 2, 1, 'mem:0xffff888100000008', 5, -131387344551928, 8);"
		"INSERT INTO dso (id, session_id, path, kernel) VALUES (1001, 2, '[kernel.kallsyms]', 1);"
		"INSERT INTO symbol (id, dso_id, name, start, size) VALUES "
		"(10001, 1001, '__schedule', -2118524928, 4096),"
		"(10002, 1001, 'finish_task_switch', -2118590464, 512);"
		"INSERT INTO sample (id, session_id, event_id, time, cpu, ip, symbol_id, cpumode) VALUES "
		"(100001, 2, 1001, 100, 0, -2118524928 + 2903, 10001, 1),"
		"(100002, 2, 1002, 200, 1, -2118590464 + 182, 10002, 1),"
		"(100003, 2, 1001, 300, 0, -2118524928 + 2903, 10001, 1),"
		"(100004, 2, 1002, 800, 1, -2118524928 + 2903, 10001, 1);"
		"INSERT INTO watch (session_id, idx, spec, kind, field, type_name, field_type, "
		"object_addr, offset, size, addr, len, partial, wider, event, pid, mm_mode, armed_ns, "
		"ended_ns) VALUES (2, 0, 'mm_struct.mm_count', 'mm', 'mm_struct.mm_count', 'mm_struct', "
		"'atomic_t', -131387344551936, 0, 4, -131387344551936, 4, 0, 0, "
		"'mem:0xffff888100000000/4:w', 77, 'fork', 50, 950), (2, 1, 'mm_struct.mm_mt', 'mm', "
		"'mm_struct.mm_mt', 'mm_struct', 'struct maple_tree', -131387344551936, 8, 16, "
		"-131387344551928, 8, 1, 0, 'mem:0xffff888100000008/8:w', 77, 'fork', 50, 950);",
		err, sizeof(err));
	if (rc)
		printf("# watch fixture: %s\n", err);
	return !rc;
}

/* cell(t, row, name): the cell of column name, or NULL. */
static const struct cell *cell(const struct table *t, size_t row, const char *name)
{
	int c = table_find_col(t, name);
	return c >= 0 && row < table_nrows(t) ? table_cell(t, row, c) : NULL;
}

/* str_at(t, row, name): the string in column name ("" for NULL). */
static const char *str_at(const struct table *t, size_t row, const char *name)
{
	const struct cell *c = cell(t, row, name);
	return c && c->kind == CELL_STR ? c->v.s : "";
}

/* int_at(t, row, name): the integer in column name (-999 for NULL). */
static long long int_at(const struct table *t, size_t row, const char *name)
{
	const struct cell *c = cell(t, row, name);
	return c && c->kind == CELL_INT ? c->v.i : -999;
}

/* row_of(t, name, value): the first row whose column name is value, or -1. */
static long row_of(const struct table *t, const char *name, const char *value)
{
	for (size_t r = 0; r < table_nrows(t); r++)
		if (!strcmp(str_at(t, r, name), value))
			return (long)r;
	return -1;
}

/* same_columns(a, b): whether tables a and b have the same column names. */
static bool same_columns(const struct table *a, const struct table *b)
{
	if (!a || !b || table_ncols(a) != table_ncols(b))
		return false;
	for (int c = 0; c < table_ncols(a); c++)
		if (strcmp(table_col_name(a, c), table_col_name(b, c)))
			return false;
	return true;
}

/* table_names_of(d, buf, len): "a b c" of d's tables. */
static const char *table_names_of(const struct doc *d, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = 0;
	for (size_t i = 0; i < doc_ntables(d) && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? " " : "", table_name(doc_table_at(d, i)));
	return buf;
}

/* json_of(t): t rendered as JSON (malloc'ed). */
static char *json_of(const struct table *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	render_table(t, FMT_JSON, f);
	fclose(f);
	return buf;
}

/* same_doc(a, b): whether every table of a renders as b's of its name. */
static bool same_doc(const struct doc *a, const struct doc *b)
{
	bool same = doc_ntables(a) == doc_ntables(b) && doc_nnotes(a) == doc_nnotes(b) &&
		    doc_nwarnings(a) == doc_nwarnings(b);
	for (size_t i = 0; same && i < doc_ntables(a); i++) {
		const struct table *t = doc_table_at(a, i), *u = doc_table(b, table_name(t));
		char *x = json_of(t), *y = u ? json_of(u) : NULL;
		same = y && !strcmp(x, y);
		free(x);
		free(y);
	}
	return same;
}

/* check_c2c_doc(d): the Intel fixture's document. */
static void check_c2c_doc(const struct doc *d)
{
	char names[256];
	const struct table *l = doc_table(d, "cachelines"), *f = doc_table(d, "fields");
	is_str(table_names_of(d, names, sizeof(names)), "summary cachelines fields types offsets",
	       "memory samples: tables summary, cachelines, fields, types, offsets");
	ok(doc_main(d) == l && l && f, "the main table is cachelines");
	long r = l ? row_of(l, "address", "0xffff888100a40080") : -1;
	if (!ok(r >= 0, "the seed's line is a row of cachelines"))
		return;
	is_str(str_at(l, (size_t)r, "evidence"), "c2c", "its evidence: c2c");
	is_str(str_at(l, (size_t)r, "verdict"), "true and false sharing", "its verdict");
	ok(int_at(l, (size_t)r, "hitm_total") == 3 && int_at(l, (size_t)r, "stores") == 13 &&
	   int_at(l, (size_t)r, "records_perf") == 22, "its perf counts: 3 HITMs, 13 stores, 22 perf records");
	ok(!cell(l, (size_t)r, "writes")->kind && !cell(l, (size_t)r, "transfers")->kind,
	   "the watch columns are NULL in a c2c row");
	long k = row_of(f, "field", "lru_gen.bitmap");
	ok(k >= 0 && int_at(f, (size_t)k, "idx") == int_at(l, (size_t)r, "idx") &&
	   int_at(f, (size_t)k, "offset") == 184 && int_at(f, (size_t)k, "writers") == 4 &&
	   !strcmp(str_at(f, (size_t)k, "writer_cpus"), "0-3") &&
	   !strcmp(str_at(f, (size_t)k, "type"), "mm_struct") &&
	   strstr(str_at(f, (size_t)k, "object"), "pid 1000 yield"),
	   "fields: lru_gen.bitmap of that line's idx, offset 184, written by CPUs 0-3");
}

/* check_watch_doc(d, c2c): the watch session's document, with the same
 * columns as the c2c document's cachelines and fields. */
static void check_watch_doc(const struct doc *d, const struct doc *c2c)
{
	char names[256];
	const struct table *l = doc_table(d, "cachelines"), *f = doc_table(d, "fields");
	is_str(table_names_of(d, names, sizeof(names)), "windows cachelines fields cpus sites rates",
	       "watchpoints: tables windows, cachelines, fields, cpus, sites, rates");
	ok(same_columns(l, doc_table(c2c, "cachelines")) && same_columns(f, doc_table(c2c, "fields")),
	   "cachelines and fields have the same columns for both evidence kinds");
	if (!ok(l && table_nrows(l) == 1 && f && table_nrows(f) == 2, "one line, two fields"))
		return;
	ok(!strcmp(str_at(l, 0, "evidence"), "watch") && !strcmp(str_at(l, 0, "address"),
	   "0xffff888100000000") && int_at(l, 0, "writes") == 4 && int_at(l, 0, "cross_field") == 3 &&
	   !cell(l, 0, "hitm_total")->kind, "the line: watch evidence, 4 writes, 3 cross-field transfers, "
	   "no HITM count");
	is_str(str_at(l, 0, "verdict"), "no sharing seen", "fewer transfers than 10: no sharing seen");
	ok(!strcmp(str_at(f, 0, "type"), "mm_struct") && !strcmp(str_at(f, 0, "field"), "mm_count") &&
	   !strcmp(str_at(f, 0, "object"), "mm 0xffff888100000000 (pid 77)") &&
	   int_at(f, 0, "offset") == 0 && int_at(f, 0, "size") == 4 && int_at(f, 0, "writes") == 2 &&
	   int_at(f, 0, "writers") == 1 && !strcmp(str_at(f, 0, "watch"), "mm_struct.mm_count"),
	   "fields: mm_struct's mm_count of the watched mm, 2 writes by one CPU");
	is_str(str_at(f, 1, "code_sites"), "__schedule+0xb56 (1), finish_task_switch+0xb5 (1)",
	       "its store sites at ip - 1");
	ok(doc_nwarnings(d) == 1 && strstr(doc_warning_at(d, 0), "mm_struct.mm_mt: only its first 8 of 16"),
	   "a warning: mm_mt partly watched");
}

/* findings_db(path, session): the Intel fixture with the seed layout as
 * session 1 and the watch fixture as session 2. */
static sqlite3 *findings_db(const char *path, int64_t *session)
{
	char data[PATH_MAX + 16], err[512];
	struct layout l;
	snprintf(data, sizeof(data), "%s/intel2.data", tmpdir);
	sqlite3 *db = open_fixture_db(path, data, session);
	if (!db)
		return NULL;
	seed_layout(&l);
	if (layout_replace(db, *session, &l, err, sizeof(err)) || !watch_fixture(db)) {
		sqlite3_close(db);
		db = NULL;
	}
	layout_free(&l);
	return db;
}

/* test_findings: hitm's and watch's documents of both evidence kinds. */
static void test_findings(void)
{
	char path[PATH_MAX + 16], err[512];
	int64_t session, two = 2;
	struct hitm_opts o = { .c2c = { .display = -1, .dbpath = "x.db" },
		.watch = { .min_transfers = WATCH_MIN_TRANSFERS, .site_rows = 5 } };
	snprintf(path, sizeof(path), "%s/findings.db", tmpdir);
	sqlite3 *db = findings_db(path, &session);
	if (!ok(db != NULL, "the Intel fixture and a watch session in one database"))
		return;
	ok(hitm_evidence(db, session) == HITM_C2C && hitm_evidence(db, 2) == HITM_WATCH &&
	   !hitm_evidence(db, 9), "evidence: session 1 memory samples, 2 watchpoints, 9 none");
	struct doc *c = doc_new("hitm"), *w = doc_new("watch"), *h = doc_new("hitm");
	ok(!hitm_findings(db, &session, 1, &o, c, err, sizeof(err)), "hitm findings of session 1");
	check_c2c_doc(c);
	ok(!watch_findings(db, &two, 1, &o.watch, w, err, sizeof(err)), "watch findings of session 2");
	check_watch_doc(w, c);
	ok(!hitm_findings(db, &two, 1, &o, h, err, sizeof(err)) && same_doc(h, w),
	   "hitm on the watch session: the document perfdb watch makes");
	doc_free(c);
	doc_free(w);
	doc_free(h);
	sqlite3_close(db);
}

/* count(db, sql): the integer sql returns. */
static long long count(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	long long n = st && sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
	sqlite3_finalize(st);
	return n;
}

/* describe_once(db, session, o, line, len): describe_sessions on one
 * session, its line into line. 0 or -1 (err in line). */
static int describe_once(sqlite3 *db, int64_t session, const struct describe_opts *o, char *line,
			 size_t len)
{
	struct describe_result *r;
	if (describe_sessions(db, &session, 1, o, &r, line, len))
		return -1;
	char *s = describe_result_line(&r[0]);
	snprintf(line, len, "%s", s);
	free(s);
	describe_results_free(r, 1);
	return 0;
}

/* test_describe: what perfdb layout stores, on the falseshare fixture. */
static void test_describe(void)
{
	char db_path[PATH_MAX + 16], data[PATH_MAX + 16], fs[PATH_MAX], line[4096], want[PATH_MAX + 128];
	const char *dwarf[1] = { falseshare_path(fs, sizeof(fs)) }, *bad[1] = { "/bin/true" };
	struct ingest_opts io = { 0 };
	struct obj_spec obj;
	int64_t session;
	sqlite3 *db = NULL;
	snprintf(db_path, sizeof(db_path), "%s/describe.db", tmpdir);
	snprintf(data, sizeof(data), "%s/fs.data", tmpdir);
	if (!ok(!fx_write(FX_FALSESHARE, data) && (db = db_open(db_path, true, line, sizeof(line))) &&
		!ingest_file(db, data, &io, &session, line, sizeof(line)), "falseshare fixture imported")) {
		sqlite3_close(db);
		return;
	}
	struct describe_opts o = { .dwarf = dwarf, .ndwarf = 1 };
	ok(!describe_once(db, session, &o, line, sizeof(line)), "--dwarf falseshare: stored");
	snprintf(want, sizeof(want), "objects stored; layouts stored: fs_shared (DWARF of %s)", fs);
	ok(strstr(line, want) != NULL, "what it says: %s", line);
	ok(count(db, "SELECT count(*) FROM c2c_object WHERE source LIKE 'dwarf:%'") > 0 &&
	   count(db, "SELECT count(*) FROM struct_layout WHERE struct_name = 'fs_shared'") > 5,
	   "the variables and fs_shared's layout are in the session");
	o = (struct describe_opts){ 0 };
	ok(!describe_once(db, session, &o, line, sizeof(line)) &&
	   !strcmp(line, "session 1: layouts already there: fs_shared"),
	   "again without options: samples fall in fs_shared, whose layout is there (%s)", line);
	struct layout seed;
	const char *mm[1] = { "mm_struct" };
	seed_layout(&seed);
	layout_replace(db, session, &seed, line, sizeof(line));
	layout_free(&seed);
	o = (struct describe_opts){ .dwarf = dwarf, .ndwarf = 1, .types = mm, .ntypes = 1 };
	snprintf(want, sizeof(want), "layouts stored: fs_shared (DWARF of %s); layouts already there: "
		 "mm_struct", fs);
	ok(!describe_once(db, session, &o, line, sizeof(line)) && strstr(line, want) &&
	   count(db, "SELECT count(*) FROM struct_layout WHERE struct_name = 'mm_struct'") == 14,
	   "--dwarf again: fs_shared stored again from it, the stored mm_struct not replaced by the "
	   "running kernel's (%s)", line);
	long long rows = count(db, "SELECT count(*) FROM c2c_object");
	objects_parse_spec("fs_shared@0x1000", &obj);
	o = (struct describe_opts){ .objects = &obj, .nobjects = 1, .dwarf = bad, .ndwarf = 1 };
	ok(describe_once(db, session, &o, line, sizeof(line)) && strstr(line, "not mapped in session 1") &&
	   count(db, "SELECT count(*) FROM c2c_object") == rows,
	   "a binary the session never mapped: an error, and the --object before it not kept");
	o = (struct describe_opts){ .btf = "/nonexistent/btf" };
	ok(describe_once(db, session, &o, line, sizeof(line)) && strstr(line, "/nonexistent/btf"),
	   "a missing --btf file: an error naming it");
	sqlite3_close(db);
}

/* main: the unit checks, or --write-fixtures DIR (see the top). */
int main(int argc, char **argv)
{
	ssize_t n = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);
	self_exe[n > 0 ? n : 0] = 0;
	if (argc == 3 && !strcmp(argv[1], "--write-fixtures"))
		return write_fixtures(argv[2]);
	snprintf(tmpdir, sizeof(tmpdir), "%s/perfdb-hitm-XXXXXX",
		 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	test_naming();
	test_spec();
	test_dwarf();
	test_seed();
	test_rows();
	test_verdicts();
	test_findings();
	test_describe();
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", tmpdir);
	return tap_done();
}
