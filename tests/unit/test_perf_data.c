/* Tests for the perf.data reader (collect/perfdata/perf_data*.c) on files written by
 * tests/lib/pdwriter: every sample_type field in little- and big-endian files
 * with attr sizes from 64 to 144, sample_id_all trailers (IDENTIFIER, or ID
 * found by id), FINISHED_ROUND time ordering, COMPRESSED/COMPRESSED2 with
 * records straddling payloads, pipe mode with tracing data and trailing
 * console text, the v1 magic, lost counts, truncation at every byte,
 * declared sizes the file cannot hold and exact error offsets. A few fixtures are also read by the installed perf,
 * which checks the writer. */
#include "collect/perfdata/perf_data.h"
#include "collect/perfdata/perf_data_int.h"
#include "tests/lib/pdwriter.h"
#include "tests/lib/cpu_rounds.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define HOST_BE (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)

static char tmpdir[256];

/* tmp: a path in the test's scratch directory. */
static const char *tmp(const char *name)
{
	static char bufs[8][512];
	static int k;
	char *p = bufs[k++ % 8];
	snprintf(p, 512, "%s/%s", tmpdir, name);
	return p;
}

/* ---- collecting what the reader delivers ---- */

#define MAX_CC 64
#define MAX_RAW 256
#define MAX_BR 16

struct rec {
	uint32_t type;
	uint16_t misc;
	uint64_t off;
	int evsel;			/* evsel idx, -1 for none */
	struct pd_sample s;		/* pointers cleared; copies below */
	struct pd_sideband sb;
	uint64_t cc[MAX_CC];
	uint8_t raw[MAX_RAW];
	uint64_t br[3 * MAX_BR];
	char str[256];
	uint64_t rval[8], rid[8];	/* READ values and ids */
};

struct run {
	struct pd_reader *r;
	int rc;
	char err[512];
	struct rec *v;
	size_t n, cap;
	int begins;
};

static int on_begin(void *ctx, struct pd_reader *r)
{
	(void)r;
	((struct run *)ctx)->begins++;
	return 0;
}

static int on_event(void *ctx, struct pd_reader *r, const struct pd_event *ev)
{
	struct run *u = ctx;
	struct rec *x;
	if (u->n == u->cap) {
		u->cap = u->cap ? 2 * u->cap : 64;
		u->v = realloc(u->v, u->cap * sizeof(*u->v));
		if (!u->v)
			abort();
	}
	x = &u->v[u->n++];
	memset(x, 0, sizeof(*x));
	x->type = ev->type;
	x->misc = ev->misc;
	x->off = ev->file_offset;
	x->evsel = ev->evsel ? ev->evsel->idx : -1;
	x->s = ev->sample;
	x->sb = ev->sb;
	for (uint64_t i = 0; i < ev->sample.nr_callchain && i < MAX_CC; i++)
		x->cc[i] = pd_callchain_at(r, &ev->sample, i);
	if (ev->sample.raw)
		memcpy(x->raw, ev->sample.raw, ev->sample.raw_size < MAX_RAW ? ev->sample.raw_size : MAX_RAW);
	for (uint64_t i = 0; i < 3 * ev->sample.nr_branches && i < 3 * MAX_BR; i++)
		x->br[i] = pd_u64_at(r, ev->sample.branches + 8 * i);
	for (uint64_t i = 0; ev->sample.read && i < ev->sample.read_nr && i < 8; i++) {
		const uint8_t *p = ev->sample.read + i * ev->sample.read_stride;
		x->rval[i] = pd_u64_at(r, p);
		x->rid[i] = ev->sample.read_id_off ? pd_u64_at(r, p + ev->sample.read_id_off) : 0;
	}
	if (ev->sb.str) {
		snprintf(x->str, sizeof(x->str), "%s", ev->sb.str);
	}
	x->s.callchain = x->s.raw = x->s.branches = x->s.read = NULL;
	x->sb.str = NULL;
	return 0;
}

/* run_file: pd_open + pd_read on path; the reader stays open (run_free). */
static int run_file(struct run *u, const char *path)
{
	struct pd_ops ops = { u, on_begin, on_event, NULL };
	memset(u, 0, sizeof(*u));
	if (!path) {
		snprintf(u->err, sizeof(u->err), "no fixture");
		return u->rc = -2;
	}
	u->r = pd_open(path, u->err, sizeof(u->err));
	if (!u->r)
		return u->rc = -1;
	u->rc = pd_read(u->r, &ops, u->err, sizeof(u->err));
	return u->rc;
}

static void run_free(struct run *u)
{
	pd_close(u->r);
	free(u->v);
	memset(u, 0, sizeof(*u));
}

/* finish: writes the fixture to tmp(name) and frees the writer. */
static const char *finish(struct pdw *w, const char *name)
{
	const char *p = tmp(name);
	if (pdw_write(w, p)) {
		printf("# pdw_write %s: %s\n", name, pdw_error(w));
		p = NULL;
	}
	pdw_free(w);
	return p;
}

static uint8_t *finish_buf(struct pdw *w, size_t *len)
{
	uint8_t *b = NULL;
	if (pdw_finish(w, &b, len)) {
		printf("# pdw_finish: %s\n", pdw_error(w));
		b = NULL;
	}
	pdw_free(w);
	return b;
}

static void write_bytes(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n || fclose(f)) {
		printf("# cannot write %s\n", path);
		exit(1);
	}
}

/* names_offset: err says "...: offset OFF: ...". */
static bool names_offset(const char *err, uint64_t off)
{
	char pat[64];
	snprintf(pat, sizeof(pat), ": offset %" PRIu64 ": ", off);
	return strstr(err, pat) != NULL;
}

static size_t count_type(const struct run *u, uint32_t type)
{
	size_t n = 0;
	for (size_t i = 0; i < u->n; i++)
		n += u->v[i].type == type;
	return n;
}

/* ---- the attr bitfield against a big-endian compiler ---- */

/* Bytes of a perf_event_attr initialised as below, compiled by clang for
 * x86_64-linux-gnu and powerpc64-linux-gnu against the uapi header and
 * dumped from .data: only the nonzero bytes are listed. */
static void test_attr_layout(void)
{
	static const struct { int off; uint8_t le, be; } bytes[] = {
		{ 0, 0x04, 0x01 }, { 1, 0x03, 0x02 }, { 2, 0x02, 0x03 }, { 3, 0x01, 0x04 },
		{ 4, 0x88, 0x00 }, { 7, 0x00, 0x88 },
		{ 8, 0x88, 0x11 }, { 9, 0x77, 0x22 }, { 10, 0x66, 0x33 }, { 11, 0x55, 0x44 },
		{ 12, 0x44, 0x55 }, { 13, 0x33, 0x66 }, { 14, 0x22, 0x77 }, { 15, 0x11, 0x88 },
		{ 40, 0x03, 0xc0 }, { 41, 0x04, 0x21 }, { 42, 0x85, 0x21 }, { 44, 0x60, 0x06 },
		{ 47, 0x80, 0x01 },
		{ 48, 0xdd, 0xaa }, { 49, 0xcc, 0xbb }, { 50, 0xbb, 0xcc }, { 51, 0xaa, 0xdd },
		{ 52, 0x07, 0x00 }, { 55, 0x00, 0x07 },
		{ 92, 0xfe, 0xff }, { 93, 0xff, 0xff }, { 94, 0xff, 0xff }, { 95, 0xff, 0xfe },
		{ 108, 0x34, 0x12 }, { 109, 0x12, 0x34 },
	};
	struct pdw_attr a = {
		.type = 0x01020304, .size = 136, .config = 0x1122334455667788ULL,
		.flags = PDW_ATTR_DISABLED | PDW_ATTR_INHERIT | PDW_ATTR_FREQ |
			 PDW_ATTR_PRECISE_IP(2) | PDW_ATTR_SAMPLE_ID_ALL | PDW_ATTR_MMAP2 |
			 PDW_ATTR_SIGTRAP | 0x2000001ULL << 38,
		.wakeup_events = 0xaabbccdd, .bp_type = 7, .sample_max_stack = 0x1234,
		.clockid = -2,
	};
	for (int be = 0; be < 2; be++) {
		uint8_t got[144], want[144] = { 0 };
		pdw_attr_bytes(&a, be, got, sizeof(got));
		for (size_t i = 0; i < sizeof(bytes) / sizeof(*bytes); i++)
			want[bytes[i].off] = be ? bytes[i].be : bytes[i].le;
		ok(!memcmp(got, want, sizeof(want)), "writer: %s attr bytes match the compiler's layout",
		   be ? "big-endian" : "little-endian");
	}
}

/* ---- every sample field ---- */

static const uint64_t CC[] = { PD_CONTEXT_KERNEL, 0xffffffff81001234ULL, 0xffffffff81005678ULL,
			       PD_CONTEXT_USER, 0x401234, 0x7f0000401abcULL };
static const struct pdw_branch BR[] = {
	{ 0x401000, 0x402000, 0x1 }, { 0x402010, 0x403000, 0x2 }, { 0x403020, 0x401000, 0x30 },
};
static const uint8_t RAW[13] = "raw-payload!";
static const uint64_t REGS_U[] = { 0x1111, 0x2222, 0x3333 };
static const uint64_t REGS_I[] = { 0x4444, 0x5555 };
static const uint8_t STACK[16] = "stack-bytes-16b";

#define ALL_TYPES (PDW_SAMPLE_IDENTIFIER | PDW_SAMPLE_IP | PDW_SAMPLE_TID | PDW_SAMPLE_TIME | \
	PDW_SAMPLE_ADDR | PDW_SAMPLE_ID | PDW_SAMPLE_STREAM_ID | PDW_SAMPLE_CPU | \
	PDW_SAMPLE_PERIOD | PDW_SAMPLE_CALLCHAIN | PDW_SAMPLE_RAW | \
	PDW_SAMPLE_BRANCH_STACK | PDW_SAMPLE_REGS_USER | PDW_SAMPLE_STACK_USER | \
	PDW_SAMPLE_DATA_SRC | PDW_SAMPLE_TRANSACTION | PDW_SAMPLE_REGS_INTR | \
	PDW_SAMPLE_PHYS_ADDR | PDW_SAMPLE_CGROUP | PDW_SAMPLE_DATA_PAGE_SIZE | \
	PDW_SAMPLE_CODE_PAGE_SIZE | PDW_SAMPLE_AUX)
#define ALL_FLAGS (PDW_ATTR_DISABLED | PDW_ATTR_INHERIT | PDW_ATTR_FREQ | PDW_ATTR_MMAP | \
	PDW_ATTR_COMM | PDW_ATTR_SAMPLE_ID_ALL | PDW_ATTR_EXCLUDE_GUEST | PDW_ATTR_MMAP2 | \
	PDW_ATTR_COMM_EXEC)

/* full_sample: sample i of the all-fields fixture. Its READ value grows by
 * 1000 a sample: with READ the reader delivers the increase as the period. */
static struct pdw_sample full_sample(int i, bool wstruct)
{
	struct pdw_read_entry rd = { 1000 * (uint64_t)(i + 1), 42, 3 };
	struct pdw_sample s = {
		.id = 42, .ip = 0xffffffff81000000ULL + (uint64_t)i, .pid = 1000 + (uint32_t)i,
		.tid = 2000 + (uint32_t)i, .time = 5000000 + 1000 * (uint64_t)i,
		.addr = 0x7ffd00001000ULL + (uint64_t)i, .stream_id = 0x5151, .cpu = 3,
		.cpu_res = 0xdead, .period = 100003,
		.read_time_enabled = 11, .read_time_running = 10, .read = rd,
		.callchain = CC, .nr_callchain = 6, .raw = RAW, .raw_size = 13,
		.branches = BR, .nr_branches = 3, .branch_hw_idx = 2,
		.regs_user_abi = 2, .regs_user = REGS_U, .stack_user = STACK,
		.stack_user_size = 16, .stack_user_dyn_size = 12,
		.weight = wstruct ? 0x89abcdef : 0x123456789ULL, .ins_lat = 0x4321,
		.retire_lat = 0x0f0f, .data_src = 0x68100142ULL + (uint64_t)i,
		.transaction = 0x70000 + (uint64_t)i, .regs_intr_abi = 2, .regs_intr = REGS_I,
		.phys_addr = 0x1234000 + (uint64_t)i, .cgroup = 0xc9, .data_page_size = 4096,
		.code_page_size = 2 << 20, .aux = "aux", .aux_size = 3,
	};
	return s;
}

/* check_full: a decoded sample against what full_sample(i) wrote. */
static void check_full(const struct rec *x, int i, bool wstruct, bool read, uint32_t size,
		       const char *what)
{
	struct pdw_sample w = full_sample(i, wstruct);
	const struct pd_sample *s = &x->s;
	bool okv = true;
	okv &= s->id == w.id && s->ip == w.ip && s->pid == w.pid && s->tid == w.tid;
	okv &= s->time == w.time && s->addr == w.addr && s->stream_id == w.stream_id;
	okv &= s->cpu == w.cpu && s->has_time && s->has_cpu && s->has_tid;
	ok(okv, "%s: IDENTIFIER..CPU", what);
	if (read)
		ok(s->period == 1000 && s->read_nr == 1 && x->rval[0] == w.read.value &&
		   x->rid[0] == 42, "%s: READ value and id; period = the value's increase", what);
	else
		is_int(s->period, w.period, "%s: PERIOD", what);
	okv = s->nr_callchain == 6;
	for (int k = 0; okv && k < 6; k++)
		okv = x->cc[k] == CC[k];
	ok(okv, "%s: callchain%s", what, read ? " (after READ)" : "");
	ok(s->raw_size == 20 && !memcmp(x->raw, RAW, 13) && !x->raw[13] && !x->raw[19],
	   "%s: raw (13 bytes padded to 20)", what);
	okv = s->nr_branches == 3;
	for (int k = 0; okv && k < 3; k++)
		okv = x->br[3 * k] == BR[k].from && x->br[3 * k + 1] == BR[k].to &&
		      x->br[3 * k + 2] == BR[k].flags;
	ok(okv, "%s: branch stack%s", what, size >= 80 ? " with hw_idx" : " (no branch_sample_type)");
	if (wstruct)
		ok(s->weight == 0x89abcdef && s->ins_lat == 0x4321, "%s: weight struct (after regs, stack)", what);
	else
		is_int(s->weight, 0x123456789LL, "%s: weight (after regs, stack)", what);
	ok(s->data_src == w.data_src && s->transaction == w.transaction, "%s: data_src, transaction", what);
	ok(s->phys_addr == w.phys_addr && s->cgroup == w.cgroup && s->data_page_size == 4096 &&
	   s->code_page_size == (2 << 20), "%s: phys_addr..code_page_size (after regs_intr)", what);
}

static const struct pdw_sid SID = { .pid = 77, .tid = 78, .time = 4000000, .id = 42,
				    .stream_id = 0x5151, .cpu = 2 };

static void check_sid(const struct rec *x, uint64_t time, const char *what, const char *type)
{
	ok(x->evsel == 0 && x->s.pid == 77 && x->s.tid == 78 && x->s.time == time &&
	   x->s.id == 42 && x->s.stream_id == 0x5151 && x->s.cpu == 2 && x->s.has_time,
	   "%s: %s sample_id_all trailer", what, type);
}

/* build_all: the all-fields fixture: every side-band type, then 3 samples
 * with every sample_type field (READ only with WEIGHT_STRUCT). */
static const char *build_all(bool be, uint32_t size, bool wstruct, const char *name)
{
	uint64_t ids[] = { 42 };
	struct pdw_opts o = { .big_endian = be };
	struct pdw *w = pdw_new(&o);
	struct pdw_attr a = {
		.type = 4, .size = size, .config = 0x1cd, .sample_period = 4000,
		.sample_type = ALL_TYPES | (wstruct ? PDW_SAMPLE_WEIGHT_STRUCT | PDW_SAMPLE_READ
						    : PDW_SAMPLE_WEIGHT),
		.read_format = PDW_FORMAT_TOTAL_TIME_ENABLED | PDW_FORMAT_TOTAL_TIME_RUNNING |
			       PDW_FORMAT_ID | PDW_FORMAT_LOST,
		.flags = ALL_FLAGS, .bp_type = 3, .config1 = 0xc1, .config2 = 0xc2,
		.branch_sample_type = PDW_BRANCH_ANY | PDW_BRANCH_HW_INDEX,
		.sample_regs_user = 0x7, .sample_stack_user = 8192, .sample_regs_intr = 0x30,
		.config3 = 0xc3, .ids = ids, .nr_ids = 1, .name = "cpu/mem-loads/P",
	};
	struct pdw_mmap m = { .pid = 77, .tid = 78, .addr = 0x400000, .len = 0x2000,
			      .pgoff = 0x1000, .maj = 8, .min = 1, .ino = 123456, .ino_generation = 9,
			      .prot = 5, .flags = 2, .filename = "/usr/bin/true" };
	struct pdw_sid sid = SID;
	pdw_add_attr(w, &a);
	pdw_feat_string(w, PDW_FEAT_HOSTNAME, "host");
	pdw_feat_event_desc(w);
	pdw_comm(w, 0, PD_MISC_COMM_EXEC, 77, 78, "worker-thread", &sid);
	sid.time++;
	pdw_fork(w, 0, 77, 1, 79, 1, 3999999, &sid);
	sid.time++;
	pdw_mmap(w, 0, PDW_MISC_USER, &m, &sid);
	sid.time++;
	pdw_mmap2(w, 0, PDW_MISC_USER, &m, &sid);
	sid.time++;
	memcpy(m.build_id, "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14", 20);
	m.build_id_size = 20;
	pdw_mmap2(w, 0, PDW_MISC_USER, &m, &sid);
	for (int i = 0; i < 3; i++) {
		struct pdw_sample s = full_sample(i, wstruct);
		pdw_sample(w, 0, PDW_MISC_KERNEL, &s);
	}
	sid.time = 6000000;
	pdw_lost(w, 0, 42, 17, &sid);
	sid.time++;
	pdw_lost_samples(w, 0, 0, 5, &sid);
	sid.time++;
	pdw_exit(w, 0, 77, 1, 79, 1, 6000002, &sid);
	pdw_finished_round(w);
	return finish(w, name);
}

static void test_all_fields(bool be, uint32_t size, bool wstruct)
{
	uint64_t sample_type = ALL_TYPES | (wstruct ? PDW_SAMPLE_WEIGHT_STRUCT | PDW_SAMPLE_READ
						    : PDW_SAMPLE_WEIGHT);
	uint64_t read_format = PDW_FORMAT_TOTAL_TIME_ENABLED | PDW_FORMAT_TOTAL_TIME_RUNNING |
			       PDW_FORMAT_ID | PDW_FORMAT_LOST;
	uint64_t bst = PDW_BRANCH_ANY | PDW_BRANCH_HW_INDEX;
	char what[96];
	const char *path;
	struct run u;
	snprintf(what, sizeof(what), "%s attr.size %u %s", be ? "BE" : "LE", size,
		 wstruct ? "READ WEIGHT_STRUCT" : "WEIGHT");
	path = build_all(be, size, wstruct, "all.data");
	run_file(&u, path);
	if (!ok(u.rc == 0, "%s: read", what)) {
		printf("#   %s\n", u.err);
		run_free(&u);
		return;
	}
	{
		const struct pd_evsel *e = u.r->evsels[0];
		ok(u.r->nr_evsels == 1 && e->type == 4 && e->size == size && e->config == 0x1cd &&
		   e->sample_period == 4000 && e->sample_type == sample_type &&
		   e->read_format == read_format && e->bp_type == 3 && e->config1 == 0xc1,
		   "%s: evsel header fields", what);
		is_int(e->flags, ALL_FLAGS, "%s: evsel attr bitfield", what);
		ok(e->config2 == (size >= 72 ? 0xc2 : 0) &&
		   e->branch_sample_type == (size >= 80 ? bst : 0) &&
		   e->sample_regs_user == (size >= 88 ? 0x7u : 0) &&
		   e->sample_stack_user == (size >= 96 ? 8192u : 0) &&
		   e->sample_regs_intr == (size >= 104 ? 0x30u : 0),
		   "%s: evsel fields present only within attr.size", what);
		ok(e->nr_ids == 1 && e->ids[0] == 42, "%s: evsel ids", what);
		is_str(e->name, "cpu/mem-loads/P", "%s: evsel named from EVENT_DESC", what);
		is_str(u.r->features.hostname, "host", "%s: features after the attrs", what);
	}
	if (!ok(u.n == 11 && count_type(&u, PD_SAMPLE) == 3, "%s: 11 records, 3 samples (%zu, %zu)", what, u.n, count_type(&u, PD_SAMPLE))) {
		run_free(&u);
		return;
	}
	{
		const struct rec *v = u.v;
		check_sid(&v[0], 4000000, what, "COMM");
		ok(v[0].type == PD_COMM && v[0].sb.pid == 77 && v[0].sb.tid == 78 &&
		   !strcmp(v[0].str, "worker-thread") && v[0].misc == PD_MISC_COMM_EXEC,
		   "%s: COMM body", what);
		ok(v[1].type == PD_FORK && v[1].sb.pid == 77 && v[1].sb.ppid == 1 && v[1].sb.tid == 79 &&
		   v[1].sb.ptid == 1 && v[1].sb.fork_time == 3999999, "%s: FORK body", what);
		check_sid(&v[1], 4000001, what, "FORK");
		ok(v[2].type == PD_MMAP && v[2].sb.addr == 0x400000 && v[2].sb.len == 0x2000 &&
		   v[2].sb.pgoff == 0x1000 && !strcmp(v[2].str, "/usr/bin/true"), "%s: MMAP body", what);
		check_sid(&v[2], 4000002, what, "MMAP");
		ok(v[3].type == PD_MMAP2 && v[3].sb.addr == 0x400000 && v[3].sb.prot == 5 &&
		   v[3].sb.mflags == 2 && !v[3].sb.build_id_size && !strcmp(v[3].str, "/usr/bin/true"),
		   "%s: MMAP2 body", what);
		check_sid(&v[3], 4000003, what, "MMAP2");
		ok(v[4].type == PD_MMAP2 && v[4].sb.build_id_size == 20 && v[4].sb.build_id[0] == 1 &&
		   v[4].sb.build_id[19] == 0x14 && v[4].sb.prot == 5 && !strcmp(v[4].str, "/usr/bin/true"),
		   "%s: MMAP2 with build id", what);
		for (int i = 0; i < 3; i++) {
			char w2[128];
			snprintf(w2, sizeof(w2), "%s sample %d", what, i);
			ok(v[5 + i].type == PD_SAMPLE && v[5 + i].evsel == 0 && v[5 + i].misc == PD_CPUMODE_KERNEL,
			   "%s: type, evsel, misc", w2);
			check_full(&v[5 + i], i, wstruct, wstruct, size, w2);
		}
		ok(v[8].type == PD_LOST && v[8].sb.lost == 17 && v[8].sb.lost_id == 42, "%s: LOST body", what);
		check_sid(&v[8], 6000000, what, "LOST");
		ok(v[9].type == PD_LOST_SAMPLES && v[9].sb.lost == 5, "%s: LOST_SAMPLES body", what);
		ok(v[10].type == PD_EXIT && v[10].sb.fork_time == 6000002, "%s: EXIT body", what);
		check_sid(&v[10], 6000002, what, "EXIT");
		ok(u.r->nr_lost == 17 && u.r->nr_lost_samples == 5 && u.r->nr_samples == 3 &&
		   u.r->nr_unknown_id == 0 && u.r->nr_unordered == 0, "%s: counters", what);
	}
	run_free(&u);
}

/* The attr bitfield in a big-endian file, with the multi-bit precise_ip. */
static void test_be_bitfield(void)
{
	for (int p = 0; p < 4; p++) {
		uint64_t flags = PDW_ATTR_DISABLED | PDW_ATTR_SAMPLE_ID_ALL | PDW_ATTR_PRECISE_IP(p);
		struct pdw_opts o = { .big_endian = true };
		struct pdw *w = pdw_new(&o);
		struct pdw_attr a = { .type = 0, .sample_type = PDW_SAMPLE_IP | PDW_SAMPLE_TIME,
				      .flags = flags };
		struct pdw_sample s = { .ip = 1, .time = 1 };
		const char *path;
		struct run u;
		pdw_add_attr(w, &a);
		pdw_sample(w, 0, 0, &s);
		path = finish(w, "bf.data");
		run_file(&u, path);
		if (ok(u.rc == 0, "BE precise_ip=%d: read", p)) {
			uint64_t got = u.r->evsels[0]->flags;
			ok(got == flags, "BE attr bitfield with precise_ip=%d reads back "
			   "(got precise_ip=%d, flags %#" PRIx64 ", want %#" PRIx64 ")",
			   p, (int)(got >> 15 & 3), got, flags);
		}
		run_free(&u);
	}
}

/* READ with PERF_FORMAT_GROUP: one delivery per member whose counter grew,
 * the increase as its period, as perf delivers them. */
static void test_read_group(void)
{
	uint64_t id0[] = { 1 }, id1[] = { 2 };
	struct pdw *w = pdw_new(NULL);
	uint64_t st = PDW_SAMPLE_IDENTIFIER | PDW_SAMPLE_IP | PDW_SAMPLE_TIME |
		      PDW_SAMPLE_READ | PDW_SAMPLE_PERIOD;
	uint64_t rf = PDW_FORMAT_GROUP | PDW_FORMAT_ID | PDW_FORMAT_TOTAL_TIME_ENABLED |
		      PDW_FORMAT_LOST;
	struct pdw_attr a0 = { .type = 0, .sample_type = st, .read_format = rf, .ids = id0,
			       .nr_ids = 1, .name = "cycles" };
	struct pdw_attr a1 = { .type = 0, .config = 1, .sample_type = st, .read_format = rf,
			       .ids = id1, .nr_ids = 1, .name = "instructions" };
	static const struct pdw_read_entry g[3][2] = {
		{ { 100, 1, 0 }, { 50, 2, 0 } },
		{ { 300, 1, 0 }, { 50, 2, 0 } },
		{ { 300, 1, 0 }, { 80, 2, 9 } },
	};
	static const struct { int evsel; uint64_t period, ip; } want[] = {
		{ 0, 100, 0x10 }, { 1, 50, 0x10 }, { 0, 200, 0x20 }, { 1, 30, 0x30 },
	};
	const char *path;
	struct run u;
	int good = 0;
	pdw_add_attr(w, &a0);
	pdw_add_attr(w, &a1);
	for (int i = 0; i < 3; i++) {
		struct pdw_sample s = { .id = 1, .ip = 0x10 * (uint64_t)(i + 1), .time = 10 * (uint64_t)(i + 1),
					.period = 7, .read_time_enabled = 5, .read_group = g[i],
					.nr_read = 2 };
		pdw_sample(w, 0, 0, &s);
	}
	path = finish(w, "readgroup.data");
	run_file(&u, path);
	if (!ok(u.rc == 0, "READ group: read (%s)", u.err)) {
		run_free(&u);
		return;
	}
	for (size_t i = 0; i < u.n && i < 4; i++)
		good += u.v[i].evsel == want[i].evsel && u.v[i].s.period == want[i].period &&
			u.v[i].s.ip == want[i].ip && u.v[i].s.read_nr == 2 &&
			u.v[i].rid[1] == 2;
	ok(u.n == 4 && good == 4 && u.r->nr_samples == 4,
	   "READ group: 3 samples of 2 members give 4 deliveries by counter increase (%zu, %d good)",
	   u.n, good);
	run_free(&u);
}

/* ---- sample_id_all trailers and evsel lookup ---- */

static void test_trailer_identifier(void)
{
	uint64_t id0[] = { 10, 11 }, id1[] = { 20 };
	struct pdw *w = pdw_new(NULL);
	struct pdw_attr a0 = { .type = 1, .sample_type = PDW_SAMPLE_IDENTIFIER | PDW_SAMPLE_IP |
			       PDW_SAMPLE_TID | PDW_SAMPLE_TIME | PDW_SAMPLE_CPU,
			       .flags = PDW_ATTR_SAMPLE_ID_ALL, .ids = id0, .nr_ids = 2 };
	struct pdw_attr a1 = { .type = 1, .config = 9, .sample_type = PDW_SAMPLE_IDENTIFIER |
			       PDW_SAMPLE_TIME | PDW_SAMPLE_STREAM_ID | PDW_SAMPLE_PERIOD,
			       .flags = PDW_ATTR_SAMPLE_ID_ALL, .ids = id1, .nr_ids = 1 };
	struct pdw_sid s0 = { .pid = 5, .tid = 6, .time = 100, .id = 11, .cpu = 1 };
	struct pdw_sid s1 = { .time = 200, .id = 20, .stream_id = 0xabc };
	struct pdw_sample x0 = { .id = 10, .ip = 0x10, .pid = 5, .tid = 6, .time = 150, .cpu = 1 };
	struct pdw_sample x1 = { .id = 20, .time = 250, .stream_id = 0xabc, .period = 99 };
	const char *path;
	struct run u;
	pdw_add_attr(w, &a0);
	pdw_add_attr(w, &a1);
	pdw_comm(w, 0, 0, 5, 6, "zero", &s0);
	pdw_comm(w, 1, 0, 7, 8, "one", &s1);
	pdw_sample(w, 0, 0, &x0);
	pdw_sample(w, 1, 0, &x1);
	path = finish(w, "ident.data");
	run_file(&u, path);
	if (!ok(u.rc == 0 && u.n == 4, "IDENTIFIER: read 4 records")) {
		printf("#   %s\n", u.err);
		run_free(&u);
		return;
	}
	ok(u.v[0].evsel == 0 && u.v[0].s.time == 100 && u.v[0].s.pid == 5 && u.v[0].s.tid == 6 &&
	   u.v[0].s.cpu == 1 && u.v[0].s.id == 11 && !strcmp(u.v[0].str, "zero"),
	   "IDENTIFIER: COMM of evsel 0 with its trailer (TID TIME CPU IDENTIFIER)");
	ok(u.v[1].evsel == 0 && u.v[1].s.ip == 0x10 && u.v[1].s.time == 150, "IDENTIFIER: sample of evsel 0");
	ok(u.v[2].evsel == 1 && u.v[2].s.time == 200 && u.v[2].s.stream_id == 0xabc &&
	   u.v[2].s.id == 20 && !u.v[2].s.has_tid && !u.v[2].s.has_cpu && !strcmp(u.v[2].str, "one") &&
	   u.v[2].sb.pid == 7, "IDENTIFIER: COMM of evsel 1 decoded with evsel 1's trailer layout");
	ok(u.v[3].evsel == 1 && u.v[3].s.period == 99 && u.v[3].s.stream_id == 0xabc,
	   "IDENTIFIER: sample of evsel 1 decoded with its own sample_type");
	run_free(&u);
}

static void test_trailer_id(bool be)
{
	uint64_t id0[] = { 101, 102 }, id1[] = { 201, 202 };
	struct pdw_opts o = { .big_endian = be };
	struct pdw *w = pdw_new(&o);
	uint64_t st = PDW_SAMPLE_IP | PDW_SAMPLE_TID | PDW_SAMPLE_TIME | PDW_SAMPLE_ID |
		      PDW_SAMPLE_STREAM_ID | PDW_SAMPLE_CPU | PDW_SAMPLE_PERIOD;
	struct pdw_attr a0 = { .type = 0, .sample_type = st, .flags = PDW_ATTR_SAMPLE_ID_ALL,
			       .ids = id0, .nr_ids = 2, .name = "cycles" };
	struct pdw_attr a1 = { .type = 0, .config = 1, .sample_type = st,
			       .flags = PDW_ATTR_SAMPLE_ID_ALL, .ids = id1, .nr_ids = 2,
			       .name = "instructions" };
	struct pdw_mmap m = { .pid = 9, .tid = 9, .addr = 0x1000, .len = 0x1000, .filename = "/x" };
	const char *path;
	struct run u;
	const char *what = be ? "ID (BE)" : "ID (LE)";
	pdw_add_attr(w, &a0);
	pdw_add_attr(w, &a1);
	pdw_feat_event_desc(w);
	for (int i = 0; i < 4; i++) {
		struct pdw_sid sid = { .pid = 9, .tid = 9, .time = 10 + 10 * (uint64_t)i,
				       .id = i % 2 ? id1[i / 2] : id0[i / 2],
				       .stream_id = 0x500 + (uint64_t)i, .cpu = (uint32_t)i };
		struct pdw_sample s = { .id = sid.id, .ip = 0x100 + (uint64_t)i, .pid = 9, .tid = 9,
					.time = 15 + 10 * (uint64_t)i, .stream_id = sid.stream_id,
					.cpu = sid.cpu, .period = 1 };
		pdw_mmap2(w, i % 2, 0, &m, &sid);
		pdw_sample(w, i % 2, 0, &s);
	}
	{
		struct pdw_sample s = { .id = 999, .ip = 0xbad, .time = 100 };
		struct pdw_sid sid = { .time = 101, .id = 999 };
		pdw_sample(w, 0, 0, &s);	/* id of no evsel */
		pdw_lost(w, 0, 999, 4, &sid);
	}
	path = finish(w, "id.data");
	run_file(&u, path);
	if (!ok(u.rc == 0, "%s: read", what)) {
		printf("#   %s\n", u.err);
		run_free(&u);
		return;
	}
	ok(u.r->nr_samples == 4 && count_type(&u, PD_SAMPLE) == 4, "%s: 4 samples delivered", what);
	is_int(u.r->nr_unknown_id, 1, "%s: the sample with an unknown id counted in nr_unknown_id", what);
	is_int(u.r->nr_lost, 4, "%s: a LOST whose trailer id is unknown still counts", what);
	{
		int good_s = 0, good_m = 0;
		for (size_t i = 0; i < u.n; i++) {
			const struct rec *x = &u.v[i];
			int k = x->type == PD_SAMPLE ? (int)(x->s.ip - 0x100) : (int)(x->s.time / 10 - 1);
			if (k < 0 || k > 3)
				continue;
			if (x->type == PD_SAMPLE && x->evsel == k % 2 && x->s.cpu == (uint32_t)k &&
			    x->s.stream_id == 0x500 + (uint64_t)k)
				good_s++;
			if (x->type == PD_MMAP2 && x->evsel == k % 2 && x->s.cpu == (uint32_t)k &&
			    x->s.stream_id == 0x500 + (uint64_t)k && x->s.pid == 9 && !strcmp(x->str, "/x"))
				good_m++;
		}
		is_int(good_s, 4, "%s: samples find their evsel by ID", what);
		is_int(good_m, 4, "%s: side-band records find their evsel by the trailer's ID", what);
	}
	is_str(u.r->evsels[1]->name, "instructions", "%s: EVENT_DESC names matched by id", what);
	run_free(&u);
}

/* ---- time ordering ---- */

/* A one-evsel writer for ordering tests; samples tagged by ip. */
static struct pdw *order_writer(bool with_time)
{
	struct pdw *w = pdw_new(NULL);
	struct pdw_attr a = { .type = 1, .sample_type = PDW_SAMPLE_IP | PDW_SAMPLE_TID |
			      (with_time ? PDW_SAMPLE_TIME : 0),
			      .flags = PDW_ATTR_SAMPLE_ID_ALL };
	pdw_add_attr(w, &a);
	return w;
}

static void tsample(struct pdw *w, uint64_t tag, uint64_t time)
{
	struct pdw_sample s = { .ip = tag, .pid = 1, .tid = 1, .time = time };
	pdw_sample(w, 0, 0, &s);
}

/* order_is: the delivered tags (ip of samples, 1000 + time of others). */
static void order_is(struct pdw *w, const char *name, const uint64_t *want, size_t n,
		     uint64_t unordered, const char *what)
{
	const char *path = finish(w, name);
	struct run u;
	char got[512] = "", exp[512] = "";
	run_file(&u, path);
	if (!ok(u.rc == 0, "%s: read", what)) {
		printf("#   %s\n", u.err);
		run_free(&u);
		return;
	}
	for (size_t i = 0; i < u.n; i++) {
		uint64_t t = u.v[i].type == PD_SAMPLE ? u.v[i].s.ip : 1000 + u.v[i].s.time;
		snprintf(got + strlen(got), sizeof(got) - strlen(got), " %" PRIu64, t);
	}
	for (size_t i = 0; i < n; i++)
		snprintf(exp + strlen(exp), sizeof(exp) - strlen(exp), " %" PRIu64, want[i]);
	is_str(got, exp, "%s: delivery order", what);
	is_int(u.r->nr_unordered, unordered, "%s: nr_unordered", what);
	run_free(&u);
}

static void test_ordering(void)
{
	struct pdw *w;
	/* one round out of order */
	w = order_writer(true);
	tsample(w, 1, 30);
	tsample(w, 2, 10);
	tsample(w, 3, 20);
	pdw_finished_round(w);
	tsample(w, 4, 40);
	pdw_finished_round(w);
	order_is(w, "o1.data", (const uint64_t[]){ 2, 3, 1, 4 }, 4, 0, "within a round");

	/* round N+1 holds records older than round N's newest but newer
	 * than round N-1's */
	w = order_writer(true);
	tsample(w, 10, 10);
	tsample(w, 20, 20);
	pdw_finished_round(w);
	tsample(w, 50, 50);
	tsample(w, 30, 30);
	pdw_finished_round(w);
	tsample(w, 40, 40);
	tsample(w, 60, 60);
	pdw_finished_round(w);
	tsample(w, 55, 55);
	order_is(w, "o2.data", (const uint64_t[]){ 10, 20, 30, 40, 50, 55, 60 }, 7, 0,
		 "across rounds");

	/* no rounds at all */
	{
		uint64_t want[200], x = 12345;
		w = order_writer(true);
		for (int i = 0; i < 200; i++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			want[i] = 1 + (x >> 33) % 100000;
			tsample(w, want[i], want[i]);
		}
		/* sort want; equal times keep file order (same tag anyway) */
		for (int i = 1; i < 200; i++)
			for (int j = i; j > 0 && want[j - 1] > want[j]; j--) {
				uint64_t t = want[j];
				want[j] = want[j - 1];
				want[j - 1] = t;
			}
		order_is(w, "o3.data", want, 200, 0, "a file without rounds");
	}

	/* equal times: file order, side-band included, across rounds */
	w = order_writer(true);
	tsample(w, 1, 10);
	tsample(w, 2, 10);
	{
		struct pdw_sid sid = { .pid = 1, .tid = 1, .time = 10 };
		pdw_comm(w, 0, 0, 1, 1, "c", &sid);	/* tag 1010 */
	}
	tsample(w, 3, 5);
	tsample(w, 4, 10);
	pdw_finished_round(w);
	tsample(w, 5, 10);
	tsample(w, 6, 7);
	pdw_finished_round(w);
	tsample(w, 7, 10);
	order_is(w, "o4.data", (const uint64_t[]){ 3, 6, 1, 2, 1010, 4, 5, 7 }, 8, 0,
		 "equal times keep file order");

	/* a record older than what a round already delivered */
	w = order_writer(true);
	tsample(w, 10, 10);
	tsample(w, 20, 20);
	pdw_finished_round(w);
	tsample(w, 30, 30);
	pdw_finished_round(w);
	tsample(w, 15, 15);
	tsample(w, 40, 40);
	pdw_finished_round(w);
	order_is(w, "o5.data", (const uint64_t[]){ 10, 20, 15, 30, 40 }, 5, 1,
		 "a late record is delivered and counted");

	/* samples without TIME keep file order */
	w = order_writer(false);
	tsample(w, 3, 0);
	tsample(w, 1, 0);
	tsample(w, 2, 0);
	order_is(w, "o6.data", (const uint64_t[]){ 3, 1, 2 }, 3, 0, "records without time");

	/* rounds whose records sit in COMPRESSED records */
	w = order_writer(true);
	pdw_compress_start(w, PDW_COMPRESSED);
	tsample(w, 30, 30);
	tsample(w, 10, 10);
	pdw_compress_flush(w, pdw_compress_pending(w) - 5);
	pdw_finished_round(w);
	tsample(w, 20, 20);
	pdw_compress_stop(w);
	pdw_finished_round(w);
	order_is(w, "o7.data", (const uint64_t[]){ 10, 20, 30 }, 3, 0, "ordering through COMPRESSED");
}

/* ---- time ordering: many CPUs, runs, spill, cap ---- */

static int run_fifo(struct run *u, const uint8_t *buf, size_t len);

/* by_time: qsort order of (time, index) pairs: time, then file order. */
static int by_time(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;
	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* reference_order: the tags (file indexes) of n records of the given times
 * sorted by (time, file order), computed with qsort, not the reader's merge. */
static uint64_t *reference_order(const uint64_t *times, size_t n)
{
	uint64_t *pairs = malloc(2 * n * sizeof(*pairs)), *tags = malloc(n * sizeof(*tags));
	if (!pairs || !tags)
		abort();
	for (size_t i = 0; i < n; i++)
		pairs[2 * i] = times[i], pairs[2 * i + 1] = i;
	qsort(pairs, n, 2 * sizeof(*pairs), by_time);
	for (size_t i = 0; i < n; i++)
		tags[i] = pairs[2 * i + 1];
	free(pairs);
	return tags;
}

/* check_order: u delivered the samples tagged want[0..n) in that order
 * (nothing lost, nothing added), in time order, with unordered late ones. */
static void check_order(const struct run *u, const uint64_t *want, size_t n,
			size_t backs, uint64_t unordered, const char *what)
{
	size_t bad = 0, first = 0, back = 0;
	if (!ok(u->rc == 0, "%s: read", what))
		printf("#   %s\n", u->err);
	for (size_t i = 0; i < u->n && i < n; i++)
		if (u->v[i].type != PD_SAMPLE || u->v[i].s.ip != want[i]) {
			if (!bad++)
				first = i;
		}
	for (size_t i = 1; i < u->n; i++)
		back += u->v[i].s.time < u->v[i - 1].s.time;
	is_int(u->n, n, "%s: every record delivered once", what);
	if (!ok(!bad, "%s: same order as the reference sort (%zu differ)", what, bad))
		printf("#   first at %zu: got %" PRIu64 ", want %" PRIu64 "\n", first,
		       u->v[first].s.ip, want[first]);
	is_int(back, backs, "%s: records older than the one before", what);
	is_int(u->r ? u->r->nr_unordered : 0, unordered, "%s: nr_unordered", what);
}

/* rounds_file: a file of o's rounds (compressed with type, 0: not; pipe
 * mode with pipe) written to tmp(name); *times gets the samples' times. */
static const char *rounds_file(const struct cpu_rounds *o, uint32_t ztype, bool pipe,
			       const char *name, uint64_t **times)
{
	struct pdw_opts po = { .pipe = pipe };
	struct pdw *w = pdw_new(&po);
	struct pdw_attr a = cpu_rounds_attr();
	size_t n = (size_t)o->cpus * o->per_cpu * o->rounds;
	*times = malloc(n * sizeof(**times));
	if (!*times)
		abort();
	pdw_add_attr(w, &a);
	if (ztype)
		pdw_compress_start(w, ztype);
	if (cpu_rounds_write(w, 0, o, *times)) {
		printf("# cpu_rounds_write: %s\n", pdw_error(w));
		pdw_free(w);
		return NULL;
	}
	return finish(w, name);
}

/* many_cpus: the 64-CPU shape through the reader, plain, tied, compressed,
 * pipe-mode in a file and through a FIFO: the reference sort's order. */
static void test_many_cpus(void)
{
	struct cpu_rounds o = { .cpus = 64, .per_cpu = 300, .rounds = 6, .seed = 7 };
	size_t n = (size_t)o.cpus * o.per_cpu * o.rounds;
	static const struct { uint32_t z; bool pipe, ties, fifo; const char *what; } v[] = {
		{ 0, false, false, false, "64 CPUs" },
		{ 0, false, true, false, "64 CPUs, shared times" },
		{ PDW_COMPRESSED, false, true, false, "64 CPUs, COMPRESSED" },
		{ 0, true, true, false, "64 CPUs, pipe mode in a file" },
		{ 0, true, true, true, "64 CPUs, pipe mode through a FIFO" },
		{ PDW_COMPRESSED2, true, false, true, "64 CPUs, COMPRESSED2 through a FIFO" },
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(*v); i++) {
		uint64_t *times = NULL, *want;
		const char *path;
		struct run u;
		o.ties = v[i].ties;
		path = rounds_file(&o, v[i].z, v[i].pipe, "cpus.data", &times);
		want = reference_order(times, n);
		if (v[i].fifo) {
			uint8_t *buf = NULL;
			size_t len = 0;
			FILE *f = path ? fopen(path, "rb") : NULL;
			struct stat st;
			if (f && !fstat(fileno(f), &st) && (buf = malloc((size_t)st.st_size)) &&
			    fread(buf, 1, (size_t)st.st_size, f) == (size_t)st.st_size)
				len = (size_t)st.st_size;
			if (f)
				fclose(f);
			run_fifo(&u, buf, len);
			free(buf);
		} else {
			run_file(&u, path);
		}
		check_order(&u, want, n, 0, 0, v[i].what);
		run_free(&u);
		free(want);
		free(times);
	}
}

/* test_partial_runs: a round's run delivered in two parts, the records of
 * the next round between them, an equal time across runs in arrival order;
 * plain and compressed stretches in one file tie by arrival too. */
static void test_partial_runs(void)
{
	struct pdw *w = order_writer(true);
	tsample(w, 10, 10);
	tsample(w, 20, 20);
	tsample(w, 30, 30);
	pdw_finished_round(w);
	tsample(w, 12, 12);
	tsample(w, 22, 22);
	tsample(w, 32, 32);
	tsample(w, 42, 42);
	pdw_finished_round(w);
	tsample(w, 31, 31);
	tsample(w, 132, 32);
	tsample(w, 50, 50);
	pdw_finished_round(w);
	order_is(w, "p1.data", (const uint64_t[]){ 10, 12, 20, 22, 30, 31, 32, 132, 42, 50 }, 10, 0,
		 "a run delivered over two rounds");

	w = order_writer(true);
	tsample(w, 1, 40);
	pdw_compress_start(w, PDW_COMPRESSED);
	tsample(w, 2, 40);
	tsample(w, 3, 10);
	pdw_compress_stop(w);
	tsample(w, 4, 40);
	tsample(w, 5, 10);
	pdw_compress_start(w, PDW_COMPRESSED);
	tsample(w, 6, 40);
	pdw_compress_stop(w);
	pdw_finished_round(w);
	order_is(w, "p2.data", (const uint64_t[]){ 3, 5, 1, 2, 4, 6 }, 6, 0,
		 "equal times in the file and in COMPRESSED records: arrival order");
}

/* test_run_cap: one round of OQ_MAX_RUNS + 100 records in falling time
 * order (a run each): at the cap everything pending is delivered, sorted,
 * with a warning; the 100 after it are older, delivered sorted at the end
 * and counted. */
static void test_run_cap(void)
{
	size_t n = OQ_MAX_RUNS + 100, m = OQ_MAX_RUNS;
	uint64_t *times = malloc(n * sizeof(*times)), *want = malloc(n * sizeof(*want)), *tail;
	struct pdw *w = order_writer(true);
	const char *path;
	struct run u;
	bool warned = false;
	if (!times || !want)
		abort();
	for (size_t i = 0; i < n; i++) {
		struct pdw_sample s = { .ip = i, .pid = 1, .tid = 1, .time = 10 * (n - i) };
		times[i] = s.time;
		pdw_sample(w, 0, 0, &s);
	}
	pdw_finished_round(w);
	path = finish(w, "cap.data");
	for (size_t i = 0; i < m; i++)	/* the first m by time, then the rest */
		want[i] = m - 1 - i;
	tail = reference_order(times + m, n - m);
	for (size_t i = 0; i < n - m; i++)
		want[m + i] = m + tail[i];
	run_file(&u, path);
	for (size_t i = 0; u.r && i < u.r->nr_warnings; i++)
		warned |= strstr(u.r->warnings[i], "ascending runs") != NULL;
	check_order(&u, want, n, 1, n - m, "past the run cap");
	ok(warned, "past the run cap: a warning says records may be out of order");
	run_free(&u);
	free(tail);
	free(want);
	free(times);
}

/* truncate_on_first: a consumer that cuts the file to its first 200
 * bytes while the records of a round wait to be read again. */
static const char *cut_path;
static int truncate_on_first(void *ctx, struct pd_reader *r, const struct pd_event *ev)
{
	struct run *u = ctx;
	if (!u->n && truncate(cut_path, 200))
		return -5;
	return on_event(ctx, r, ev);
}

/* test_read_back_errors: a file cut short while its records wait is an
 * error naming an offset, not a crash; the spill in a directory that
 * cannot hold it is an error saying so. */
static void test_read_back_errors(void)
{
	struct cpu_rounds o = { .cpus = 4, .per_cpu = 50, .rounds = 2, .seed = 3 };
	struct pd_ops ops = { NULL, on_begin, truncate_on_first, NULL };
	uint64_t *times = NULL;
	const char *path = rounds_file(&o, 0, false, "cut.data", &times);
	struct run u;
	char *old = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;
	memset(&u, 0, sizeof(u));
	ops.ctx = &u;
	cut_path = path;
	u.r = path ? pd_open(path, u.err, sizeof(u.err)) : NULL;
	u.rc = u.r ? pd_read(u.r, &ops, u.err, sizeof(u.err)) : -2;
	ok(u.rc == -1 && strstr(u.err, "offset ") && strstr(u.err, "reading records again"),
	   "a file cut while its records wait: an error with an offset (%s)", u.err);
	run_free(&u);
	free(times);

	path = rounds_file(&o, PDW_COMPRESSED, false, "zcut.data", &times);
	setenv("TMPDIR", "/nonexistent/perfdb", 1);
	run_file(&u, path);
	ok(u.rc == -1 && strstr(u.err, "TMPDIR") && strstr(u.err, "offset "),
	   "COMPRESSED records with no place to spill: an error naming TMPDIR (%s)", u.err);
	run_free(&u);
	if (old)
		setenv("TMPDIR", old, 1);
	else
		unsetenv("TMPDIR");
	free(old);
	free(times);
}

/* ---- compression ---- */

/* mixed_records: samples with callchains of varying length, COMM, MMAP2,
 * LOST, LOST_SAMPLES: records of many sizes. */
static void mixed_records(struct pdw *w, int n)
{
	for (int i = 0; i < n; i++) {
		uint64_t cc[16];
		struct pdw_sid sid = { .pid = 1, .tid = 2, .time = 100 + 10 * (uint64_t)i, .cpu = 1 };
		struct pdw_sample s = { .ip = 0x1000 + (uint64_t)i, .pid = 1, .tid = 2,
					.time = 105 + 10 * (uint64_t)i, .cpu = (uint32_t)i % 4,
					.period = (uint64_t)i, .callchain = cc,
					.nr_callchain = (uint64_t)(i % 16) };
		for (int k = 0; k < 16; k++)
			cc[k] = 0x400000 + (uint64_t)(i * 16 + k);
		switch (i % 5) {
		case 0: pdw_comm(w, 0, 0, 1, 2, i % 2 ? "a" : "a-longer-command", &sid); break;
		case 1: {
			struct pdw_mmap m = { .pid = 1, .tid = 2, .addr = 0x1000 * (uint64_t)i,
					      .len = 0x1000, .filename = "/lib/libc.so.6" };
			pdw_mmap2(w, 0, 0, &m, &sid);
			break;
		}
		case 2: pdw_lost(w, 0, 0, (uint64_t)i, &sid); break;
		case 3: pdw_lost_samples(w, 0, 0, 2 * (uint64_t)i, &sid); break;
		default: break;
		}
		pdw_sample(w, 0, 0, &s);
	}
}

static struct pdw *mixed_writer(bool be, const struct pdw_opts *base)
{
	struct pdw_opts o = { .big_endian = be };
	struct pdw *w;
	struct pdw_attr a = { .type = 1, .sample_type = PDW_SAMPLE_IP | PDW_SAMPLE_TID |
			      PDW_SAMPLE_TIME | PDW_SAMPLE_CPU | PDW_SAMPLE_PERIOD |
			      PDW_SAMPLE_CALLCHAIN, .flags = PDW_ATTR_SAMPLE_ID_ALL };
	if (base)
		o = *base;
	w = pdw_new(&o);
	pdw_add_attr(w, &a);
	return w;
}

/* same_records: the records of a and b agree (offsets aside). */
static bool same_records(const struct run *a, const struct run *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++) {
		const struct rec *x = &a->v[i], *y = &b->v[i];
		if (x->type != y->type || x->s.time != y->s.time || x->s.ip != y->s.ip ||
		    x->s.cpu != y->s.cpu || x->s.period != y->s.period ||
		    x->s.nr_callchain != y->s.nr_callchain ||
		    memcmp(x->cc, y->cc, sizeof(x->cc)) || strcmp(x->str, y->str) ||
		    x->sb.lost != y->sb.lost || x->sb.addr != y->sb.addr)
			return false;
	}
	return true;
}

static void test_compressed(void)
{
	struct run base, u;
	const char *path;
	struct pdw *w;
	size_t total, bad = 0, tried = 0;
	int first_bad = -1;

	w = mixed_writer(false, NULL);
	mixed_records(w, 30);
	pdw_finished_round(w);
	path = finish(w, "plain.data");
	run_file(&base, path);
	if (!ok(base.rc == 0 && base.n == 54, "uncompressed baseline: %zu records", base.n)) {
		printf("#   %s\n", base.err);
		run_free(&base);
		return;
	}
	/* one straddle at every byte of the first records, then sparser */
	w = mixed_writer(false, NULL);
	pdw_compress_start(w, PDW_COMPRESSED);
	mixed_records(w, 30);
	total = pdw_compress_pending(w);
	pdw_free(w);
	for (size_t k = 1; k < total; k += k < 400 ? 1 : 37) {
		w = mixed_writer(false, NULL);
		pdw_compress_start(w, PDW_COMPRESSED);
		mixed_records(w, 30);
		pdw_compress_flush(w, k);
		pdw_compress_stop(w);
		pdw_finished_round(w);
		path = finish(w, "z1.data");
		tried++;
		if (!path || run_file(&u, path) || !same_records(&base, &u) ||
		    u.r->nr_lost != base.r->nr_lost || u.r->nr_lost_samples != base.r->nr_lost_samples) {
			if (first_bad < 0) {
				first_bad = (int)k;
				printf("#   split at %zu: rc %d %s, %zu records\n", k, u.rc, u.err, u.n);
			}
			bad++;
		}
		run_free(&u);
	}
	ok(!bad, "COMPRESSED split in two at %zu byte offsets: same records as uncompressed (%zu bad)",
	   tried, bad);

	/* many small COMPRESSED records, split at pseudo-random sizes, an
	 * empty flush, in both byte orders and both record types */
	for (int be = 0; be < 2; be++)
		for (int t = 0; t < 2; t++) {
			uint32_t type = t ? PDW_COMPRESSED2 : PDW_COMPRESSED;
			uint64_t x = 99;
			struct run ref;
			w = mixed_writer(be, NULL);
			mixed_records(w, 30);
			pdw_finished_round(w);
			path = finish(w, "plain2.data");
			run_file(&ref, path);
			w = mixed_writer(be, NULL);
			pdw_compress_start(w, type);
			pdw_compress_flush(w, 0);
			mixed_records(w, 30);
			while (pdw_compress_pending(w)) {
				x = x * 6364136223846793005ULL + 1442695040888963407ULL;
				pdw_compress_flush(w, 1 + (x >> 33) % 97);
			}
			pdw_compress_stop(w);
			pdw_finished_round(w);
			path = finish(w, "z2.data");
			run_file(&u, path);
			ok(u.rc == 0 && ref.rc == 0 && same_records(&ref, &u) &&
			   u.r->nr_lost == ref.r->nr_lost && u.r->nr_lost_samples == ref.r->nr_lost_samples,
			   "%s: %s records of 1..97 input bytes: same records (%s)",
			   be ? "BE" : "LE", t ? "COMPRESSED2" : "COMPRESSED", u.err);
			run_free(&u);
			run_free(&ref);
		}

	/* plain, compressed, plain, compressed again (one zstd stream) */
	w = mixed_writer(false, NULL);
	mixed_records(w, 10);
	pdw_compress_start(w, PDW_COMPRESSED);
	mixed_records(w, 10);
	pdw_compress_flush(w, 100);
	pdw_compress_stop(w);
	mixed_records(w, 5);
	pdw_compress_start(w, PDW_COMPRESSED);
	mixed_records(w, 5);
	pdw_compress_stop(w);
	path = finish(w, "z3.data");
	run_file(&u, path);
	ok(u.rc == 0 && u.n == 54 && u.r->nr_samples == 30,
	   "plain and compressed stretches continuing one zstd stream (%zu records, %s)", u.n, u.err);
	run_free(&u);

	/* the zstd stream ends inside an inner record (perf record writes such
	 * files, and perf leaves the half record out): it is left out with a
	 * warning naming the COMPRESSED record, and counted */
	{
		static const uint8_t half[12] = { 9, 0, 0, 0, 0, 0, 48, 0, 1, 2, 3, 4 };
		uint64_t at;
		w = mixed_writer(false, NULL);
		mixed_records(w, 2);
		at = pdw_pos(w);
		pdw_compress_start(w, PDW_COMPRESSED);
		mixed_records(w, 2);
		pdw_bytes(w, half, sizeof(half));
		pdw_compress_stop(w);
		path = finish(w, "zhalf.data");
		run_file(&u, path);
		ok(u.rc == 0 && u.r->zstd_tail == 12 && u.r->nr_warnings == 1 &&
		   names_offset(u.r->warnings[0], at) && strstr(u.r->warnings[0], "12 bytes are left out"),
		   "compressed data ending 12 bytes into a 48-byte record: read, the 12 bytes left out "
		   "with a warning naming the COMPRESSED record at %" PRIu64 " (rc %d, %s; %zu records "
		   "delivered)", at, u.rc, u.rc ? u.err : u.r->nr_warnings ? u.r->warnings[0] : "no warning",
		   u.n);
		run_free(&u);
	}

	/* garbage payloads name the COMPRESSED record's offset */
	for (int after = 0; after < 2; after++) {
		static const uint8_t junk[40] = "this is not a zstd frame, not at all....";
		uint64_t at;
		w = mixed_writer(false, NULL);
		if (after) {
			pdw_compress_start(w, PDW_COMPRESSED);
			mixed_records(w, 4);
			pdw_compress_stop(w);
		}
		mixed_records(w, 2);
		at = pdw_pos(w);
		pdw_record(w, PDW_COMPRESSED, 0, junk, sizeof(junk));
		mixed_records(w, 2);
		path = finish(w, "zbad.data");
		run_file(&u, path);
		ok(u.rc == -1 && names_offset(u.err, at) && strstr(u.err, "zstd"),
		   "garbage zstd payload%s: error at offset %" PRIu64 " (%s)",
		   after ? " after valid compressed records" : "", at, u.err);
		run_free(&u);
	}
	run_free(&base);
}

/* ---- pipe mode ---- */

static uint8_t *tracing_blob;
static size_t tracing_len;
static uint64_t switch_config;

/* feature_section: the bytes of feature id in a native-endian file. */
static uint8_t *feature_section(const char *path, int id, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t h[104], ent[16], *b = NULL;
	uint64_t bits[4], at, k = 0, off, size;
	if (!f || fread(h, 1, sizeof(h), f) != sizeof(h) || memcmp(h, "PERFILE2", 8))
		goto out;
	memcpy(bits, h + 72, sizeof(bits));
	if (!(bits[id / 64] >> (id % 64) & 1))
		goto out;
	for (int i = 1; i < id; i++)
		k += bits[i / 64] >> (i % 64) & 1;
	memcpy(&at, h + 40, 8);
	memcpy(&size, h + 48, 8);
	at += size + 16 * k;
	if (fseeko(f, (off_t)at, SEEK_SET) || fread(ent, 1, 16, f) != 16)
		goto out;
	memcpy(&off, ent, 8);
	memcpy(&size, ent + 8, 8);
	if (size > (64u << 20) || !(b = malloc(size)) || fseeko(f, (off_t)off, SEEK_SET) ||
	    fread(b, 1, size, f) != size) {
		free(b);
		b = NULL;
		goto out;
	}
	*len = size;
out:
	if (f)
		fclose(f);
	return b;
}

/* get_tracing_blob: a real TRACING_DATA section from perf record. */
static void get_tracing_blob(void)
{
	char cmd[1024], err[512];
	const char *p = tmp("sched.data");
	struct pd_reader *r;
	snprintf(cmd, sizeof(cmd), "perf record -q -e sched:sched_switch -a -o %s -- sleep 0.1 "
		 ">/dev/null 2>&1", p);
	if (system(cmd) != 0) {
		skip("tracing data: perf record -e sched:sched_switch failed");
		return;
	}
	tracing_blob = feature_section(p, 1, &tracing_len);
	r = pd_open(p, err, sizeof(err));
	if (r && r->nr_evsels && r->evsels[0]->type == 2)
		switch_config = r->evsels[0]->config;
	pd_close(r);
	if (!tracing_blob || !switch_config) {
		skip("tracing data: no TRACING_DATA section in %s", p);
		free(tracing_blob);
		tracing_blob = NULL;
	}
}

static const char JUNK[] = "[ perf record: Woken up 1 times to write data ]\n"
			   "[ perf record: Captured and wrote 0.002 MB (12 samples) ]\n";

static struct pdw *pipe_writer(const struct pdw_opts *o, bool tracing)
{
	uint64_t ids[] = { 7, 8 };
	struct pdw *w = pdw_new(o);
	const char *argv[] = { "perf", "record", "-o", "-" };
	struct pdw_attr a = { .type = tracing ? 2 : 1, .config = tracing ? switch_config : 0,
			      .sample_period = 1,
			      .sample_type = PDW_SAMPLE_IDENTIFIER | PDW_SAMPLE_IP | PDW_SAMPLE_TID |
					     PDW_SAMPLE_TIME | PDW_SAMPLE_CPU | PDW_SAMPLE_PERIOD |
					     (tracing ? PDW_SAMPLE_RAW : 0),
			      .flags = PDW_ATTR_SAMPLE_ID_ALL | PDW_ATTR_COMM, .ids = ids, .nr_ids = 2 };
	pdw_add_attr(w, &a);
	pdw_feat_string(w, PDW_FEAT_HOSTNAME, "pipehost");
	pdw_feat_nrcpus(w, 4, 2);
	pdw_feat_cmdline(w, 4, argv);
	pdw_feat_raw(w, 200, "", 0);	/* a feature id nobody knows */
	if (tracing && tracing_blob)
		pdw_feat_tracing_data(w, tracing_blob, tracing_len);
	for (int i = 0; i < 12; i++) {
		struct pdw_sid sid = { .pid = 3, .tid = 3, .time = 50 + 10 * (uint64_t)i, .id = 7, .cpu = 1 };
		struct pdw_sample s = { .id = 8, .ip = 0x100 + (uint64_t)i, .pid = 3, .tid = 3,
					.time = 55 + 10 * (uint64_t)i, .cpu = 1, .period = 1,
					.raw = "\x01\x00\x02\x00raw", .raw_size = 7 };
		if (i % 4 == 0)
			pdw_comm(w, 0, 0, 3, 3, "piped", &sid);
		pdw_sample(w, 0, 0, &s);
		if (i % 5 == 4)
			pdw_finished_round(w);
	}
	return w;
}

static void check_pipe(const struct run *u, bool tracing, const char *what)
{
	ok(u->rc == 0 && u->r && u->r->pipe_mode, "%s: read (%s)", what, u->err);
	if (u->rc)
		return;
	ok(u->r->nr_samples == 12 && count_type(u, PD_COMM) == 3 && u->n == 15,
	   "%s: 12 samples and 3 COMMs delivered (%zu records)", what, u->n);
	ok(u->begins == 1 && u->r->nr_evsels == 1 && u->r->evsels[0]->nr_ids == 2,
	   "%s: HEADER_ATTR with its ids", what);
	is_str(u->r->features.hostname, "pipehost", "%s: HEADER_FEATURE hostname", what);
	ok(u->r->features.nr_cpus_avail == 4 && u->r->features.argc == 4,
	   "%s: HEADER_FEATURE nrcpus, cmdline", what);
	if (tracing && tracing_blob) {
		ok(u->r->tep != NULL, "%s: HEADER_TRACING_DATA payload parsed", what);
		is_str(u->r->evsels[0]->name, "sched:sched_switch", "%s: tracepoint named from tracing data", what);
	}
	ok(u->v[u->n - 1].type == PD_SAMPLE && u->v[u->n - 1].s.ip == 0x10b,
	   "%s: the last record before the trailing text is delivered", what);
}

/* run_fifo: the buffer streamed through a real pipe (no file size). */
static int run_fifo(struct run *u, const uint8_t *buf, size_t len)
{
	const char *fifo = tmp("fifo");
	pid_t pid;
	int st;
	unlink(fifo);
	if (mkfifo(fifo, 0600))
		return -2;
	pid = fork();
	if (pid == 0) {
		int fd = open(fifo, O_WRONLY);
		size_t done = 0;
		while (fd >= 0 && done < len) {
			ssize_t k = write(fd, buf + done, len - done > 4096 ? 4096 : len - done);
			if (k <= 0)
				break;
			done += (size_t)k;
		}
		_exit(0);
	}
	run_file(u, fifo);
	waitpid(pid, &st, 0);
	unlink(fifo);
	return u->rc;
}

static void test_pipe(void)
{
	struct run u;
	for (int v = 0; v < 4; v++) {
		struct pdw_opts o = { .pipe = true, .big_endian = v == 1,
				      .pipe_features_first = v == 2,
				      .tracing_rec_size = v == 3 ? 16 : 12 };
		const char *names[] = { "LE pipe", "BE pipe", "pipe, features first", "pipe, 16-byte HEADER_TRACING_DATA" };
		struct pdw *w = pipe_writer(&o, true);
		const char *path;
		pdw_bytes(w, JUNK, sizeof(JUNK) - 1);
		path = finish(w, "pipe.data");
		run_file(&u, path);
		check_pipe(&u, true, names[v]);
		if (v == 1)
			ok(u.r && u.r->swap != HOST_BE && u.r->big_endian, "BE pipe: big-endian detected");
		run_free(&u);
	}
	{
		struct pdw_opts o = { .pipe = true };
		struct pdw *w = pipe_writer(&o, true);
		size_t len;
		uint8_t *b;
		pdw_bytes(w, JUNK, sizeof(JUNK) - 1);
		b = finish_buf(w, &len);
		run_fifo(&u, b, len);
		check_pipe(&u, true, "pipe through a FIFO");
		ok(u.r && u.r->file_size == 0, "FIFO: no file size");
		run_free(&u);
		free(b);
	}
}

/* The tracing data that follows HEADER_TRACING_DATA: errors about it name
 * the offset of its size field or of the payload. */
static void test_pipe_tracing_errors(void)
{
	for (int hs = 12; hs <= 16; hs += 4)
		for (int kind = 0; kind < 3; kind++) {
			struct pdw_opts o = { .pipe = true };
			struct pdw *w = pipe_writer(&o, false);
			uint8_t body[8] = { 0 };
			uint32_t size = kind == 0 ? 0x20000000u : kind == 1 ? 4096 : 64;
			const char *what[] = { "an implausible size", "a truncated payload", "a payload that is not tracing data" };
			uint64_t at = pdw_pos(w), want = kind == 0 ? at + 8 : at + (uint64_t)hs;
			const char *path;
			struct run u;
			memcpy(body, &size, 4);	/* LE file, LE host assumed below */
			pdw_record(w, PDW_HEADER_TRACING_DATA, 0, body, (size_t)hs - 8);
			if (kind == 2) {
				uint8_t junk[64];
				memset(junk, 'x', sizeof(junk));
				pdw_bytes(w, junk, sizeof(junk));
			} else if (kind == 1) {
				pdw_bytes(w, "\x17\x08\x44tracing0.6", 13);
			}
			path = finish(w, "ptd.data");
			if (HOST_BE) {
				skip("tracing error offsets on a big-endian host");
				return;
			}
			run_file(&u, path);
			ok(u.rc == -1 && names_offset(u.err, want),
			   "HEADER_TRACING_DATA (%d-byte record at %" PRIu64 ") with %s: error names offset %" PRIu64
			   " (%s)", hs, at, what[kind], want, u.err);
			run_free(&u);
		}
}

/* AUXTRACE data follows its record outside its size, like tracing data:
 * a truncated one names the offset where the data starts. */
static void test_auxtrace_truncated(void)
{
	struct pdw_opts o = { .pipe = true };
	struct pdw *w = pipe_writer(&o, false);
	uint8_t body[40] = { 0 };
	uint64_t at = pdw_pos(w), size = 1000;
	const char *path;
	struct run u;
	memcpy(body, &size, 8);	/* LE file, LE host */
	pdw_record(w, 71, 0, body, sizeof(body));
	pdw_bytes(w, "only ten b", 10);
	path = finish(w, "aux.data");
	if (HOST_BE) {
		skip("AUXTRACE offsets on a big-endian host");
		return;
	}
	run_file(&u, path);
	ok(u.rc == -1 && names_offset(u.err, at + 48),
	   "AUXTRACE (48-byte record at %" PRIu64 ") with 10 of 1000 data bytes: error names "
	   "offset %" PRIu64 " where the data starts (%s)", at, at + 48, u.err);
	run_free(&u);
}

/* ---- sizes the file declares, against the bytes it has ---- */

/* le64 / put_le64: a little-endian u64 of a fixture. */
static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void put_le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Attrs whose ids sections are all the first one's: refused as
 * overlapping at the second attr's ids entry (each would otherwise get
 * its own copy of the ids). */
static void test_shared_ids_section(void)
{
	enum { NATTR = 8, NIDS = 2000 };
	static uint64_t ids[NIDS];
	struct pdw_opts o = { 0 };
	struct pdw *w = pdw_new(&o);
	uint64_t secoff, asz, ids_off, ids_size, want;
	uint8_t *b;
	size_t len;
	struct run u;
	for (int i = 0; i < NIDS; i++)
		ids[i] = 1000 + (uint64_t)i;
	for (int i = 0; i < NATTR; i++) {
		uint64_t one = 5000 + (uint64_t)i;
		struct pdw_attr a = { .type = 1, .config = (uint64_t)i, .sample_type = PDW_SAMPLE_IP |
				      PDW_SAMPLE_ID, .ids = i ? &one : ids, .nr_ids = i ? 1 : NIDS };
		pdw_add_attr(w, &a);
	}
	b = finish_buf(w, &len);
	if (HOST_BE || !b) {
		skip("shared ids section: %s", b ? "big-endian host" : "no fixture");
		free(b);
		return;
	}
	write_bytes(tmp("ids-own.data"), b, len);
	run_file(&u, tmp("ids-own.data"));
	ok(u.rc == 0 && u.r->nr_evsels == NATTR, "%d attrs with their own ids sections read (%s)",
	   NATTR, u.err);
	run_free(&u);
	asz = le64(b + 16);
	secoff = le64(b + 24);
	ids_off = le64(b + secoff + asz - 16);
	ids_size = le64(b + secoff + asz - 8);
	for (int i = 1; i < NATTR; i++) {
		uint8_t *e = b + secoff + (uint64_t)i * asz + asz - 16;
		put_le64(e, ids_off);
		put_le64(e + 8, ids_size);
	}
	want = secoff + asz + asz - 16;
	write_bytes(tmp("ids-shared.data"), b, len);
	run_file(&u, tmp("ids-shared.data"));
	ok(u.rc == -1 && names_offset(u.err, want) && strstr(u.err, "overlaps another attr's"),
	   "%d attrs pointing at one %" PRIu64 "-byte ids section of a %zu-byte file: refused at "
	   "attr 1's entry, offset %" PRIu64 " (%s)", NATTR, ids_size, len, want, u.err);
	run_free(&u);
	free(b);
}

/* nth_record: the offset of the n-th (from 0) record of type in the
 * pipe-mode LE buffer b, or 0. */
static uint64_t nth_record(const uint8_t *b, size_t len, uint32_t type, size_t n)
{
	for (size_t pos = 16; pos + 8 <= len;) {
		uint32_t t = (uint32_t)b[pos] | (uint32_t)b[pos + 1] << 8 |
			     (uint32_t)b[pos + 2] << 16 | (uint32_t)b[pos + 3] << 24;
		uint16_t sz = (uint16_t)(b[pos + 6] | b[pos + 7] << 8);
		if (t == type && !n--)
			return pos;
		if (sz < 8)
			return 0;
		pos += sz;
	}
	return 0;
}

/* pipe_attrs: a pipe-mode buffer of nattr HEADER_ATTRs of nids distinct
 * ids each, then a sample; NULL on a big-endian host. */
static uint8_t *pipe_attrs(size_t nattr, size_t nids, size_t *len)
{
	struct pdw_opts o = { .pipe = true, .attr_size = 64 };
	struct pdw *w = pdw_new(&o);
	uint64_t *ids = calloc(nids ? nids : 1, sizeof(*ids));
	struct pdw_sample smp = { .ip = 1, .id = 1 };
	for (size_t i = 0; i < nattr; i++) {
		struct pdw_attr a = { .type = 1, .sample_type = PDW_SAMPLE_IP | PDW_SAMPLE_ID,
				      .ids = ids, .nr_ids = nids };
		for (size_t k = 0; k < nids; k++)
			ids[k] = 1 + i * nids + k;
		pdw_add_attr(w, &a);
	}
	pdw_sample(w, 0, 2, &smp);
	free(ids);
	return HOST_BE ? (pdw_free(w), NULL) : finish_buf(w, len);
}

/* Pipe mode: HEADER_ATTR records past 65,536, or declaring more than
 * 2^21 ids together, are refused at the record that passes the limit
 * (as the attrs section of a file is). */
static void test_pipe_attr_limits(void)
{
	size_t len;
	uint8_t *b = pipe_attrs(65537, 0, &len);
	uint64_t want;
	struct run u;
	if (!b) {
		skip("pipe attr limits: big-endian host or no fixture");
		return;
	}
	want = nth_record(b, len, PDW_HEADER_ATTR, 65536);
	write_bytes(tmp("attrs-65537.data"), b, len);
	run_file(&u, tmp("attrs-65537.data"));
	ok(want && u.rc == -1 && names_offset(u.err, want) &&
	   strstr(u.err, "more than 65536 HEADER_ATTR records"),
	   "pipe: the 65,537th HEADER_ATTR is refused at its offset %" PRIu64 " (%s)", want, u.err);
	run_free(&u);
	free(b);
	b = pipe_attrs(300, 8000, &len);
	want = b ? nth_record(b, len, PDW_HEADER_ATTR, 262) : 0;	/* 263 x 8000 > 2^21 */
	write_bytes(tmp("ids-2m.data"), b, len);
	run_file(&u, tmp("ids-2m.data"));
	ok(want && u.rc == -1 && names_offset(u.err, want) &&
	   strstr(u.err, "declare more than 2097152 sample ids together"),
	   "pipe: 300 HEADER_ATTRs of 8,000 ids: refused at the 263rd, offset %" PRIu64 " (%s)",
	   want, u.err);
	run_free(&u);
	free(b);
}

/* Pipe-mode tracing data declared far larger than what follows, read from
 * a FIFO (no file size to check against): refused as truncated, at the
 * offset where the payload starts. */
static void test_pipe_tracing_oversize(void)
{
	struct pdw_opts o = { .pipe = true };
	struct pdw *w = pipe_writer(&o, false);
	uint8_t body[8] = { 0 }, *b;
	uint32_t size = 200u << 20;
	uint64_t at = pdw_pos(w);
	size_t len;
	struct run u;
	memcpy(body, &size, 4);	/* LE file, LE host assumed */
	pdw_record(w, PDW_HEADER_TRACING_DATA, 0, body, 4);
	pdw_bytes(w, "\x17\x08\x44tracing0.6", 13);
	b = finish_buf(w, &len);
	if (HOST_BE || !b) {
		skip("oversized pipe tracing data: %s", b ? "big-endian host" : "no fixture");
		free(b);
		return;
	}
	run_fifo(&u, b, len);
	ok(u.rc == -1 && names_offset(u.err, at + 12) && strstr(u.err, "tracing data truncated"),
	   "pipe through a FIFO: tracing data of %u bytes with 13 there: truncated at offset %" PRIu64
	   " (%s)", size, at + 12, u.err);
	run_free(&u);
	free(b);
}

/* ---- v1 magic, byte order ---- */

static void test_v1_and_be(void)
{
	for (int v = 0; v < 4; v++) {
		bool be = v & 1, v1 = v & 2;
		struct pdw_opts o = { .big_endian = be, .v1_magic = v1, .attr_size = v1 ? 72 : 128 };
		struct pdw *w = mixed_writer(be, &o);
		const char *path;
		struct run u, ref;
		char what[64];
		snprintf(what, sizeof(what), "%s %s", v1 ? "PERFFILE (v1)" : "PERFILE2", be ? "BE" : "LE");
		pdw_feat_string(w, PDW_FEAT_HOSTNAME, "h1");
		pdw_feat_string(w, PDW_FEAT_OSRELEASE, "3.2.6");
		mixed_records(w, 10);
		path = finish(w, "v.data");
		run_file(&u, path);
		ok(u.rc == 0, "%s: read (%s)", what, u.err);
		if (u.r) {
			ok(u.r->v1_magic == v1 && u.r->big_endian == be && u.r->swap == (be != HOST_BE) &&
			   !u.r->pipe_mode, "%s: magic and byte order detected", what);
			ok(u.r->evsels[0]->size == (v1 ? 72u : 128u) &&
			   u.r->evsels[0]->flags == PDW_ATTR_SAMPLE_ID_ALL, "%s: attr", what);
			is_str(u.r->features.osrelease, "3.2.6", "%s: features", what);
		}
		w = mixed_writer(false, NULL);
		mixed_records(w, 10);
		path = finish(w, "vref.data");
		run_file(&ref, path);
		ok(u.rc == 0 && same_records(&ref, &u) && u.r->nr_lost == ref.r->nr_lost,
		   "%s: same records as the native PERFILE2 file", what);
		run_free(&u);
		run_free(&ref);
	}
}

/* ---- lost counts ---- */

static void test_lost(void)
{
	struct pdw *w = mixed_writer(false, NULL);
	struct pdw_sid sid = { .time = 5 };
	const char *path;
	struct run u;
	uint64_t off[6];
	/* ID_INDEX {nr; {id, idx, cpu, tid}...}: id 901 on CPU 3, 902 a
	 * per-thread buffer (cpu (u64)-1) */
	uint64_t idx[1 + 2 * 4] = { 2, 901, 0, 3, (uint64_t)-1, 902, 1, (uint64_t)-1, 77 };
	pdw_record(w, 69, 0, idx, sizeof(idx));
	off[0] = pdw_pos(w);
	pdw_lost(w, 0, 1, 5, &sid);
	off[1] = pdw_pos(w);
	pdw_lost(w, 0, 1, 7, &sid);
	off[2] = pdw_pos(w);
	pdw_lost_samples(w, 0, 0, 3, &sid);
	off[3] = off[4] = pdw_pos(w);	/* both inside one COMPRESSED record */
	pdw_compress_start(w, PDW_COMPRESSED);
	pdw_lost(w, 0, 1, 100, &sid);
	pdw_lost_samples(w, 0, 0, 4, &sid);
	pdw_compress_stop(w);
	off[5] = pdw_pos(w);
	pdw_lost_samples(w, 0, 0, 1000000000000ULL, &sid);
	path = finish(w, "lost.data");
	run_file(&u, path);
	ok(u.rc == 0, "LOST: read");
	if (u.r) {
		bool offs = u.n == 6;
		is_int(u.r->nr_lost, 112, "LOST: total (plain and compressed)");
		is_int(u.r->nr_lost_samples, 1000000000007LL, "LOST_SAMPLES: total");
		is_int(count_type(&u, PD_LOST), 3, "LOST: records delivered");
		is_int(u.r->nr_lost_records, 3, "LOST: records counted (perf report --stats' LOST events)");
		ok(pd_id_cpu(u.r, 901) == 3 && pd_id_cpu(u.r, 902) == -1 && pd_id_cpu(u.r, 903) == -1,
		   "ID_INDEX: an id's CPU; -1 for a per-thread buffer or an id it does not list");
		for (size_t i = 0; offs && i < 6; i++)
			offs = u.v[i].off == off[i];
		ok(offs, "file_offset: each record's, or its COMPRESSED record's");
	}
	run_free(&u);
}

/* test_lost_bound: a LOST count above PD_LOST_MAX (one above INT64_MAX
 * would overflow every sum of counts) is refused with its offset. */
static void test_lost_bound(void)
{
	static const uint64_t bad[] = { PD_LOST_MAX + 1, (uint64_t)INT64_MAX + 2 };
	for (int i = 0; i < 4; i++) {
		struct pdw *w = mixed_writer(false, NULL);
		struct pdw_sid sid = { .time = 5 };
		const char *path;
		struct run u;
		uint64_t off;
		pdw_lost(w, 0, 1, PD_LOST_MAX, &sid);	/* the bound itself is read */
		off = pdw_pos(w);
		if (i < 2)
			pdw_lost(w, 0, 1, bad[i], &sid);
		else
			pdw_lost_samples(w, 0, 0, bad[i - 2], &sid);
		path = finish(w, "lost_bound.data");
		run_file(&u, path);
		ok(u.rc == -1 && names_offset(u.err, off) && strstr(u.err, "more than"),
		   "%s count %" PRIu64 ": refused at its offset (%s)", i < 2 ? "LOST" : "LOST_SAMPLES",
		   bad[i % 2], u.err);
		run_free(&u);
	}
}

/* ---- truncation and corruption ---- */

/* scratch_path: a file to rewrite thousands of times: a memfd when there is
 * one (rewriting a file on a disk with discard is slow), else path. */
static const char *scratch_path(const uint8_t *buf, size_t len, const char *path)
{
	static int fd = -2;
	static char proc[64];
	if (fd == -2) {
		fd = memfd_create("perfdb-cut", 0);
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
		if (fd >= 0 && access(proc, R_OK)) {
			close(fd);
			fd = -1;
		}
	}
	if (fd < 0) {
		write_bytes(path, buf, len);
		return path;
	}
	if (ftruncate(fd, 0) || pwrite(fd, buf, len, 0) != (ssize_t)len) {
		printf("# memfd write failed: %s\n", strerror(errno));
		exit(1);
	}
	return proc;
}

/* check_cut: reading buf[0..len) succeeds, or fails naming an offset;
 * with want 0 or -1, it must end so. */
static bool check_cut(const uint8_t *buf, size_t len, const char *path, char *why, size_t wlen,
		      int want)
{
	struct run u;
	bool good;
	run_file(&u, scratch_path(buf, len, path));
	good = u.rc == 0 || (u.rc == -1 && strstr(u.err, ": offset ") != NULL);
	if (want != 1 && u.rc != want)
		good = false;
	if (!good)
		snprintf(why, wlen, "rc %d: %s", u.rc, u.err);
	run_free(&u);
	return good;
}

static struct pdw *trunc_fixture(const struct pdw_opts *o)
{
	struct pdw *w = mixed_writer(o->big_endian, o);
	const char *cores[] = { "0-1" }, *threads[] = { "0", "1" };
	struct pdw_cpu_ids cpus[] = { { 0, 0 }, { 1, 0 } };
	struct pdw_numa_node nn[] = { { 0, 1000, 500, "0-1" } };
	pdw_feat_string(w, PDW_FEAT_HOSTNAME, "t");
	pdw_feat_nrcpus(w, 2, 2);
	pdw_feat_cpu_topology(w, cores, 1, threads, 2, cpus, 2, NULL, 0, NULL);
	pdw_feat_numa(w, nn, 1);
	pdw_feat_event_desc(w);
	if (o->pipe && tracing_blob)
		pdw_feat_tracing_data(w, tracing_blob, tracing_len);
	mixed_records(w, 4);
	pdw_finished_round(w);
	pdw_compress_start(w, PDW_COMPRESSED);
	mixed_records(w, 4);
	pdw_compress_flush(w, 77);
	pdw_compress_stop(w);
	pdw_finished_round(w);
	mixed_records(w, 2);
	return w;
}

static void test_truncation(void)
{
	for (int v = 0; v < 3; v++) {
		struct pdw_opts o = { .big_endian = v == 1, .pipe = v == 2 };
		const char *name = v == 0 ? "LE file" : v == 1 ? "BE file" : "pipe";
		struct pdw *w = trunc_fixture(&o);
		uint64_t data_off = pdw_data_offset(w);
		size_t len, bad = 0, cuts = 0;
		uint8_t *buf = finish_buf(w, &len);
		char why[600] = "";
		struct run u;
		write_bytes(tmp("whole.data"), buf, len);
		run_file(&u, tmp("whole.data"));
		ok(u.rc == 0, "truncation fixture (%s, %zu bytes) reads whole", name, len);
		run_free(&u);
		for (size_t cut = 0; cut < len; cut++) {
			/* every byte outside the tracing data, every 53rd inside */
			if (v == 2 && tracing_blob && cut > 200 && cut < data_off - 64 && cut % 53)
				continue;
			cuts++;
			/* a file-mode prefix lacks at least its last feature bytes */
			if (!check_cut(buf, cut, tmp("cut.data"), why, sizeof(why), v < 2 ? -1 : 1) && !bad++)
				printf("#   %s cut at %zu: %s\n", name, cut, why);
		}
		ok(!bad, "%s cut at %zu offsets: each %s naming an offset (%zu bad)", name, cuts,
		   v < 2 ? "fails" : "reads or fails", bad);
		if (v < 2) {
			/* the data section itself cut (header adjusted, no features) */
			uint8_t *c = malloc(len);
			uint64_t dend = data_off;
			for (int i = 0; i < 8; i++)
				dend += (uint64_t)buf[48 + i] << (8 * (v == 1 ? 7 - i : i));
			/* top-level record boundaries: only there may a cut read clean */
			uint64_t next = data_off;
			bool after_compressed = false;
			bad = cuts = 0;
			for (uint64_t end = data_off; end < dend; end++) {
				uint64_t dsize = end - data_off;
				/* after a COMPRESSED record the zstd stream may end inside
				 * an inner record: then the cut must fail instead */
				int want = end == next ? (after_compressed ? 1 : 0) : -1;
				if (end == next) {
					uint32_t type = v == 1 ? buf[end + 3] : buf[end];
					after_compressed = type == 81 || type == 83;
					next += v == 1 ? (uint64_t)buf[end + 6] << 8 | buf[end + 7]
						       : (uint64_t)buf[end + 7] << 8 | buf[end + 6];
				}
				memcpy(c, buf, (size_t)end);
				memset(c + 72, 0, 32);
				for (int i = 0; i < 8; i++)
					c[48 + i] = (uint8_t)(dsize >> (8 * (v == 1 ? 7 - i : i)));
				cuts++;
				if (!check_cut(c, (size_t)end, tmp("cut.data"), why, sizeof(why), want) && !bad++)
					printf("#   %s data cut at %" PRIu64 " (want %d): %s\n", name, end, want, why);
			}
			ok(!bad, "%s data section cut at %zu offsets: reads clean at record boundaries only, "
			   "else fails naming an offset", name, cuts);
			/* every byte of the data section flipped */
			bad = cuts = 0;
			for (size_t i = (size_t)data_off; i < dend; i++) {
				memcpy(c, buf, len);
				c[i] ^= (uint8_t)(0x5a + i);
				cuts++;
				if (!check_cut(c, len, tmp("cut.data"), why, sizeof(why), 1) && !bad++)
					printf("#   %s byte %zu flipped: %s\n", name, i, why);
			}
			ok(!bad, "%s with one of %zu bytes flipped: each reads or fails naming an offset", name, cuts);
			free(c);
		}
		free(buf);
	}
}

/* ---- exact error offsets ---- */

static void test_error_offsets(void)
{
	/* a record header claiming 4 bytes */
	for (int pipe = 0; pipe < 2; pipe++) {
		struct pdw_opts o = { .pipe = pipe };
		struct pdw *w = mixed_writer(false, &o);
		static const uint8_t bad[16] = { 9, 0, 0, 0, 0, 0, 4, 0 };
		uint64_t at;
		const char *path;
		struct run u;
		mixed_records(w, 3);
		at = pdw_pos(w);
		pdw_bytes(w, bad, sizeof(bad));
		mixed_records(w, 3);	/* records follow: this is no trailing junk */
		path = finish(w, "size4.data");
		run_file(&u, path);
		ok(u.rc == -1 && names_offset(u.err, at),
		   "%s: a record of size 4 at offset %" PRIu64 ", 6 records before and 6 after: error "
		   "names that offset (rc %d, %zu records delivered, %s)",
		   pipe ? "pipe" : "file", at, u.rc, u.n, u.err);
		run_free(&u);
	}
	/* the same inside a COMPRESSED record */
	{
		struct pdw *w = mixed_writer(false, NULL);
		static const uint8_t bad[16] = { 9, 0, 0, 0, 0, 0, 4, 0 };
		uint64_t at;
		const char *path;
		struct run u;
		mixed_records(w, 2);
		at = pdw_pos(w);
		pdw_compress_start(w, PDW_COMPRESSED);
		pdw_bytes(w, bad, sizeof(bad));
		pdw_compress_stop(w);
		path = finish(w, "zsize4.data");
		run_file(&u, path);
		ok(u.rc == -1 && names_offset(u.err, at),
		   "compressed record of size 4: error names the COMPRESSED record's offset %" PRIu64 " (%s)",
		   at, u.err);
		run_free(&u);
	}
	/* a record running past the data section */
	{
		struct pdw *w = mixed_writer(false, NULL);
		uint8_t bad[16] = { 9, 0, 0, 0, 0, 0, 0x40, 0 };
		uint64_t at;
		const char *path;
		struct run u;
		mixed_records(w, 3);
		at = pdw_pos(w);
		pdw_bytes(w, bad, sizeof(bad));
		path = finish(w, "past.data");
		run_file(&u, path);
		ok(u.rc == -1 && names_offset(u.err, at),
		   "a record running past the data section at %" PRIu64 ": error names it (%s)", at, u.err);
		run_free(&u);
	}
	/* a SAMPLE shorter than its sample_type, a COMM shorter than its trailer */
	for (int k = 0; k < 2; k++) {
		struct pdw *w = mixed_writer(false, NULL);
		uint8_t bad[16] = { k ? 3 : 9, 0, 0, 0, 0, 0, 16, 0, 1, 2, 3, 4, 5, 6, 7, 8 };
		uint64_t at;
		const char *path;
		struct run u;
		mixed_records(w, 3);
		at = pdw_pos(w);
		pdw_bytes(w, bad, sizeof(bad));
		mixed_records(w, 1);
		path = finish(w, "short.data");
		run_file(&u, path);
		ok(u.rc == -1 && names_offset(u.err, at),
		   "a %s too short for its fields at %" PRIu64 ": error names it (%s)",
		   k ? "COMM" : "SAMPLE", at, u.err);
		run_free(&u);
	}
}

/* ---- the writer against the installed perf ---- */

/* perf_lines: runs cmd, returns its stdout lines joined (NULL: failed). */
static char *run_cmd(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	char *out = NULL;
	size_t n = 0, cap = 0, k;
	char buf[4096];
	if (!p)
		return NULL;
	while ((k = fread(buf, 1, sizeof(buf), p)) > 0) {
		if (n + k + 1 > cap) {
			cap = (n + k + 1) * 2;
			out = realloc(out, cap);
		}
		memcpy(out + n, buf, k);
		n += k;
	}
	if (pclose(p) != 0) {
		free(out);
		return NULL;
	}
	if (!out)
		out = calloc(1, 1);
	else
		out[n] = 0;
	return out;
}

static size_t count_lines(const char *s)
{
	size_t n = 0;
	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

/* squeeze: each line's blanks runs made one space, ends trimmed. */
static void squeeze(char *s)
{
	char *o = s;
	bool blank = false;
	if (!s)
		return;
	for (const char *p = s; *p; p++) {
		if (*p == ' ' || *p == '\t') {
			blank = true;
			continue;
		}
		if (blank && o > s && o[-1] != '\n' && *p != '\n')
			*o++ = ' ';
		blank = false;
		*o++ = *p;
	}
	*o = 0;
}

/* dump_has: `perf report -D` of path prints every needle. */
static void dump_has(const char *path, const char *const *needles, size_t n, size_t nsamples,
		     const char *what)
{
	char cmd[1024], *out;
	size_t missing = 0, got = 0;
	const char *p;
	snprintf(cmd, sizeof(cmd), "perf report -D -i %s 2>/dev/null", path);
	out = run_cmd(cmd);
	for (size_t i = 0; out && i < n; i++)
		if (!strstr(out, needles[i]) && !missing++)
			printf("#   perf report -D lacks '%s'\n", needles[i]);
	for (p = out; p && (p = strstr(p, "PERF_RECORD_SAMPLE(")); p++)
		got++;
	ok(out && !missing && got == nsamples, "perf report -D decodes the %s fixture as written "
	   "(%zu samples, %zu of %zu fields missing)", what, got, missing, n);
	free(out);
}

static void test_with_perf(void)
{
	char cmd[1024], *out;
	if (system("perf version >/dev/null 2>&1") != 0) {
		skip("perf is not installed: fixtures not checked against perf");
		return;
	}
	/* READ groups: perf delivers the same periods as the reader */
	snprintf(cmd, sizeof(cmd), "perf script -F period,ip -i %s 2>/dev/null", tmp("readgroup.data"));
	out = run_cmd(cmd);
	squeeze(out);
	is_str(out, "100 10\n50 10\n200 20\n30 30\n", "perf script delivers the READ group fixture's "
	       "counter increases as the reader does");
	free(out);
	for (int be = 0; be < 2; be++)
		for (int ws = 0; ws < 2; ws++) {
			static const char *const common[] = {
				"PERF_RECORD_COMM exec: worker-thread:77/78",
				"PERF_RECORD_FORK(77:79):(1:1)",
				"PERF_RECORD_MMAP 77/78: [0x400000(0x2000) @ 0x1000]: x /usr/bin/true",
				/* perf 6.1 leaves MMAP2 prot/flags unswapped in BE files */
				"PERF_RECORD_MMAP2 77/78: [0x400000(0x2000) @ 0x1000 08:01 123456 9]: ",
				"PERF_RECORD_MMAP2 77/78: [0x400000(0x2000) @ 0x1000 <0102030405060708090a0b0c0d0e0f1011121314>]: ",
				"PERF_RECORD_LOST: id:42: lost:17", "PERF_RECORD_LOST_SAMPLES: id:42: lost samples :5",
				"PERF_RECORD_EXIT(77:79):(1:1)",
				"1002/2002: 0xffffffff81000002 period: 100003 addr: 0x7ffd00001002",
				".....  5: 00007f0000401abc",
				".....  2: 0000000000403020 -> 0000000000401000",
				"0x0000000000003333", "0x0000000000005555", "... ustack: size 12",
				" . data_src: 0x68100144", " .. phys_addr: 0x1234002",
				" .. data page size: 4K", " .. code page size: 2M",
				"... transaction: 70002",
			};
			static const char *const wst[] = {
				"... weight: 2309737967,0x4321,",
				"..... id 000000000000002a, value 0000000000000bb8, lost 3",
				"...... time enabled 000000000000000b",
			};
			static const char *const w64[] = { "... weight: 4886718345" };
			const char *needles[32];
			size_t n = 0;
			char what[64];
			for (size_t i = 0; i < sizeof(common) / sizeof(*common); i++)
				needles[n++] = common[i];
			for (size_t i = 0; ws && i < sizeof(wst) / sizeof(*wst); i++)
				needles[n++] = wst[i];
			if (!ws)
				needles[n++] = w64[0];
			snprintf(what, sizeof(what), "all-fields %s %s", be ? "BE" : "LE", ws ? "READ WEIGHT_STRUCT" : "WEIGHT");
			dump_has(build_all(be, 128, ws, "perf-all.data"), needles, n, 3, what);
		}
	for (int v = 0; v < 4; v++) {
		/* mem-loads/mem-stores pair, as perf c2c record writes it */
		struct pdw_opts o = { .big_endian = v == 1, .pipe = v == 2 };
		uint64_t ids0[] = { 11, 12 }, ids1[] = { 21, 22 };
		const char *names[] = { "LE file", "BE file", "LE pipe", "LE file, zstd" };
		struct pdw *w = pdw_new(&o);
		struct pdw_attr a = { .type = 4, .config = 0x1cd, .sample_period = 4000,
			.sample_type = PDW_SAMPLE_IDENTIFIER | PDW_SAMPLE_IP | PDW_SAMPLE_TID |
				       PDW_SAMPLE_TIME | PDW_SAMPLE_ADDR | PDW_SAMPLE_CPU |
				       PDW_SAMPLE_PERIOD | PDW_SAMPLE_WEIGHT | PDW_SAMPLE_DATA_SRC |
				       PDW_SAMPLE_PHYS_ADDR,
			.flags = PDW_ATTR_DISABLED | PDW_ATTR_INHERIT | PDW_ATTR_SAMPLE_ID_ALL |
				 PDW_ATTR_MMAP2 | PDW_ATTR_COMM | PDW_ATTR_EXCLUDE_GUEST,
			.ids = ids0, .nr_ids = 2, .name = "cpu/mem-loads,ldlat=30/P" };
		struct pdw_mmap m = { .pid = 100, .tid = 100, .addr = 0x400000, .len = 0x10000,
				      .prot = 5, .flags = 2, .filename = "/bin/true" };
		struct pdw_sid sid = { .pid = 100, .tid = 100, .time = 1000000, .id = 11 };
		struct pdw_numa_node nn[] = { { 0, 16000000, 8000000, "0-3" } };
		const char *path, *pf = " --header-only";
		pdw_add_attr(w, &a);
		a.config = 0x82d0;
		a.ids = ids1;
		a.name = "cpu/mem-stores/P";
		a.flags &= ~(PDW_ATTR_MMAP2 | PDW_ATTR_COMM);
		pdw_add_attr(w, &a);
		pdw_feat_string(w, PDW_FEAT_HOSTNAME, "fixture");
		pdw_feat_string(w, PDW_FEAT_OSRELEASE, "6.1.0-test");
		pdw_feat_string(w, PDW_FEAT_ARCH, "x86_64");
		pdw_feat_nrcpus(w, 4, 4);
		pdw_feat_event_desc(w);
		pdw_feat_numa(w, nn, 1);
		if (v == 3)
			pdw_feat_compressed(w, 0, 1, 1, 1, 1 << 20);
		pdw_comm(w, 0, 0, 100, 100, "a.out", &sid);
		sid.time++;
		pdw_mmap2(w, 0, PDW_MISC_USER, &m, &sid);
		if (v == 3)
			pdw_compress_start(w, PDW_COMPRESSED);
		for (int i = 0; i < 10; i++) {
			struct pdw_sample s = { .id = i % 2 ? 21 : 11, .ip = 0x401000 + (uint64_t)i,
				.pid = 100, .tid = 100, .time = 2000000 + 1000 * (uint64_t)(i ^ 1),
				.addr = 0x7f0000001000ULL + 64 * (uint64_t)i, .cpu = (uint32_t)i % 4,
				.period = 4000, .weight = 30 + (uint64_t)i,
				.data_src = i % 2 ? 0x5080021ULL : 0x68100142ULL, .phys_addr = 0x1000 };
			pdw_sample(w, i % 2, PDW_MISC_USER, &s);
			if (i == 4) {
				if (v == 3)
					pdw_compress_flush(w, pdw_compress_pending(w) - 13);
				pdw_finished_round(w);
			}
		}
		if (v == 3)
			pdw_compress_stop(w);
		pdw_finished_round(w);
		path = finish(w, "perf.data");
		snprintf(cmd, sizeof(cmd), "perf report%s -i %s 2>/dev/null", pf, path);
		out = run_cmd(cmd);
		ok(out && strstr(out, "# hostname : fixture") && strstr(out, "# nrcpus avail : 4") &&
		   (o.pipe || (strstr(out, "name = cpu/mem-stores/P") && strstr(out, "id = { 21, 22 }"))),
		   "perf report%s reads the %s fixture's header", pf, names[v]);
		free(out);
		snprintf(cmd, sizeof(cmd), "perf script -F tid,cpu,time,ip,addr,weight,data_src -i %s 2>/dev/null", path);
		out = run_cmd(cmd);
		ok(out && count_lines(out) == 10 && strstr(out, "7f0000001240") &&
		   strstr(out, "0.002009") && strstr(out, "5080021") && strstr(out, "401009"),
		   "perf script reads the %s fixture's 10 samples", names[v]);
		if (out) {
			/* sorted by time: the line of ip 401001 (time 2000000) first */
			ok(strstr(out, "401001") && strstr(out, "401001") < strstr(out, "401000"),
			   "perf script orders the %s fixture's samples by time", names[v]);
		}
		if (!out || count_lines(out) != 10)
			printf("#   %s\n", out ? out : "(perf script failed)");
		free(out);
	}
}

/* Child bodies for test_child_survives: one that returns, and the ways
 * a child can end without its verdict. */
static void child_returns(const uint8_t *buf, size_t len)
{
	(void)buf;
	(void)len;
}

static void child_segfaults(const uint8_t *buf, size_t len)
{
	(void)buf;
	(void)len;
	signal(SIGSEGV, SIG_DFL);
	raise(SIGSEGV);
}

static void child_exits_1(const uint8_t *buf, size_t len)
{
	(void)buf;
	(void)len;
	fprintf(stderr, "==1==ERROR: AddressSanitizer: SEGV (what a sanitizer prints)\n");
	_exit(1);	/* what ASan does once it caught the fault */
}

static void child_exits_0(const uint8_t *buf, size_t len)
{
	(void)buf;
	(void)len;
	_exit(0);	/* a clean exit, but no verdict */
}

/* test_child_survives: the tracing-data vetting accepts only a child that
 * came back from the parse; a sanitizer's exit 1 (the child caught its
 * own SEGV) or an exit before the verdict are refusals too. */
static void test_child_survives(void)
{
	static const struct { void (*fn)(const uint8_t *, size_t); int rc; const char *why, *what; } c[] = {
		{ child_returns, 0, "", "a child that came back passes" },
		{ child_segfaults, -1, "it dies of signal 11", "a child killed by SIGSEGV refuses" },
		{ child_exits_1, -1, "it exits with status 1", "a child that exits 1 (a sanitizer) refuses" },
		{ child_exits_0, -1, "it exits with status 0", "a child that exits 0 without its verdict refuses" },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char why[256] = "";
		int rc = pd_child_survives(c[i].fn, (const uint8_t *)"x", 1, why, sizeof(why));
		ok(rc == c[i].rc && !strcmp(why, c[i].why), "%s (%d, '%s')", c[i].what, rc, why);
	}
}

int main(void)
{
	/* fixtures are rewritten often: tmpfs when there is one */
	snprintf(tmpdir, sizeof(tmpdir), "%s/perfdb-pd-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") :
		 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	test_attr_layout();
	test_child_survives();
	{
		static const uint32_t sizes[] = { 64, 72, 80, 96, 104, 112, 120, 128, 136, 144 };
		for (int be = 0; be < 2; be++)
			for (size_t i = 0; i < sizeof(sizes) / sizeof(*sizes); i++)
				test_all_fields(be, sizes[i], i % 2);
		test_all_fields(false, 128, false);
		test_all_fields(true, 136, true);
	}
	test_be_bitfield();
	test_read_group();
	test_trailer_identifier();
	test_trailer_id(false);
	test_trailer_id(true);
	test_ordering();
	test_compressed();
	get_tracing_blob();
	test_pipe();
	test_many_cpus();
	test_partial_runs();
	test_run_cap();
	test_read_back_errors();
	test_pipe_tracing_errors();
	test_auxtrace_truncated();
	test_shared_ids_section();
	test_pipe_attr_limits();
	test_pipe_tracing_oversize();
	test_v1_and_be();
	test_lost();
	test_lost_bound();
	test_error_offsets();
	test_truncation();
	test_with_perf();
	free(tracing_blob);
	{
		char cmd[600];
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
		if (system(cmd) != 0)
			printf("# could not remove %s\n", tmpdir);
	}
	return tap_done();
}
